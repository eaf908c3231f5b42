#include "shape.h"
#include "checked_mul.h"

namespace onnxwasm {

std::string Dim::to_string() const {
  switch (kind) {
    case Kind::Known: return std::to_string(value);
    case Kind::Symbol: return symbol;
    case Kind::Unknown: break;
  }
  return "?";
}

bool ValueInfo::fully_known() const {
  if (!rank_known) return false;
  for (const Dim& d : dims)
    if (!d.is_known()) return false;
  return true;
}

std::string ValueInfo::shape_string() const {
  if (!rank_known) return "[unknown rank]";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i].to_string();
  return s + "]";
}

Dim dim_product(const std::vector<Dim>& dims, size_t begin, size_t end, bool* overflow) {
  for (size_t i = begin; i < end; ++i)
    if (dims[i].is_known() && dims[i].value == 0) return Dim::known(0);  // 0 times anything
  int64_t product = 1;
  const Dim* only_symbol = nullptr;
  int not_known = 0;
  *overflow = false;
  for (size_t i = begin; i < end; ++i) {
    const Dim& d = dims[i];
    if (d.is_known()) {
      if (mul_overflows(product, d.value, &product)) *overflow = true;
    } else {
      ++not_known;
      if (d.kind == Dim::Kind::Symbol) only_symbol = &d;
    }
  }
  if (*overflow) return Dim::unknown();
  if (not_known == 0) return Dim::known(product);
  if (not_known == 1 && only_symbol && product == 1) return *only_symbol;
  return Dim::unknown();
}

bool checked_product(const std::vector<int64_t>& dims, int64_t* out) {
  bool zero = false;
  for (int64_t d : dims) {
    if (d < 0) return false;
    zero |= d == 0;
  }
  int64_t p = 1;
  // A zero dim makes the product 0 whatever the others are, even if their product overflows.
  if (!zero)
    for (int64_t d : dims)
      if (mul_overflows(p, d, &p)) return false;
  *out = zero ? 0 : p;
  return true;
}

}  // namespace onnxwasm
