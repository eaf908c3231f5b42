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
  DimProduct product;
  const Dim* only_symbol = nullptr;
  int not_known = 0;
  for (size_t i = begin; i < end; ++i) {
    const Dim& d = dims[i];
    if (d.is_known()) {
      product.mul(d.value);
    } else {
      ++not_known;
      if (d.kind == Dim::Kind::Symbol) only_symbol = &d;
    }
  }
  *overflow = product.overflows();
  if (*overflow) return Dim::unknown();
  // A known 0 makes the product 0 whatever the other dims are, known or not.
  if (not_known == 0 || product.value() == 0) return Dim::known(product.value());
  if (not_known == 1 && only_symbol && product.value() == 1) return *only_symbol;
  return Dim::unknown();
}

bool checked_product(const std::vector<int64_t>& dims, int64_t* out) {
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
