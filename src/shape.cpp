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

std::optional<std::vector<Dim>> ValueInfo::values_as_dims() const {
  if (dim_values) return dim_values;
  if (!int_values) return std::nullopt;
  std::vector<Dim> out;
  out.reserve(int_values->size());
  for (int64_t x : *int_values) out.push_back(Dim::known(x));
  return out;
}

void ValueInfo::set_values(std::vector<Dim> values) {
  int_values.reset();
  dim_values.reset();
  bool all_known = true, some_known = false;
  for (const Dim& d : values) {
    all_known = all_known && d.is_known();
    some_known = some_known || d.kind != Dim::Kind::Unknown;
  }
  if (all_known) {
    std::vector<int64_t> ints;
    ints.reserve(values.size());
    for (const Dim& d : values) ints.push_back(d.value);
    int_values = std::move(ints);
  } else if (some_known) {
    dim_values = std::move(values);
  }
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

}  // namespace onnxwasm
