// int64 multiplication that reports overflow, for element counts and byte sizes.
#pragma once
#include <cstdint>
#include <vector>

namespace onnxwasm {

// *out = a * b; returns true when that overflows int64 (as __builtin_mul_overflow). When both
// are in [0, 2^31) (nearly always) the product fits and is one multiply: the checked form is a
// 128-bit library call (__multi3) in wasm32, a measurable part of a tiny Gather's run
// (docs/performance.md, "Figures behind design choices").
inline bool mul_overflows(int64_t a, int64_t b, int64_t* out) {
  if (((static_cast<uint64_t>(a) | static_cast<uint64_t>(b)) >> 31) == 0) {
    *out = a * b;
    return false;
  }
  return __builtin_mul_overflow(a, b, out);
}

// A product of dims as make_tensor counts elements: a zero dim makes it 0 even when the other
// dims' product overflows int64 (a tensor with a 0 dim is empty, whatever its other dims). The one
// place that rule is written: tensors' element counts (checked_product), symbolic products
// (dim_product), inferred outputs' sizes and Reshape's two sides use it. Multiply each dim in
// with mul(); overflows() is true only when the product overflowed and no dim was 0; value() is
// the product, 0 when a dim was 0, and meaningless when overflows().
class DimProduct {
 public:
  void mul(int64_t d) {
    overflow_ |= mul_overflows(product_, d, &product_);
    zero_ |= d == 0;
  }
  bool overflows() const { return overflow_ && !zero_; }
  int64_t value() const { return zero_ ? 0 : product_; }

 private:
  int64_t product_ = 1;
  bool overflow_ = false;
  bool zero_ = false;
};

// Product of concrete dims, 0 when one is 0 (DimProduct); false on overflow or a negative dim.
// Inline: every run counts its tensors' elements with it, and a call into a file built for size,
// where DimProduct's steps were calls too, was a measurable part of a tiny Gather's run.
inline bool checked_product(const std::vector<int64_t>& dims, int64_t* out) {
  DimProduct product;
  for (int64_t d : dims) {
    if (d < 0) return false;
    product.mul(d);
  }
  if (product.overflows()) return false;
  *out = product.value();
  return true;
}

}  // namespace onnxwasm
