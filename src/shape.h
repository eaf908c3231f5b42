// Symbolic shapes for shape inference: a dimension is a number, a name ("batch") or unknown;
// a whole shape may be of unknown rank. Plain values, no tensor data.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "element_type.h"

namespace onnxwasm {

// The largest output rank inference makes from a declared length rather than from values (the
// length of Reshape's or ConstantOfShape's shape input, Unsqueeze's axes count): its dims must be
// allocated, and a declared length of 2^31 would need gigabytes, which wasm32 cannot give (the
// module aborted). Ops refuse a larger one with a Shape error.
constexpr int64_t kMaxRank = int64_t{1024} * 1024;

struct Dim {
  enum class Kind { Known, Symbol, Unknown };
  Kind kind = Kind::Unknown;
  int64_t value = 0;   // when Known
  std::string symbol;  // when Symbol

  static Dim known(int64_t v) { return Dim{Kind::Known, v, {}}; }
  static Dim named(std::string s) { return Dim{Kind::Symbol, 0, std::move(s)}; }
  static Dim unknown() { return Dim{}; }
  bool is_known() const { return kind == Kind::Known; }
  bool operator==(const Dim& o) const {
    return kind == o.kind && (kind != Kind::Known || value == o.value) &&
           (kind != Kind::Symbol || symbol == o.symbol);
  }
  std::string to_string() const;
};

// What shape inference knows of a value: its element type, its shape (or that its rank is
// unknown) and, for small constant integer inputs such as Reshape's shape, the values (int32
// and int16 ones widened to int64). A run gives the values of every input whose InputSpec says
// value_needed: integers in int_values, floating-point ones (Range's float start, limit and
// delta) in float_values, exactly (every float, double, float16 and bfloat16 is a double). A
// shape value computed from symbolic dims (Shape of ['batch', 8]) has its entries as dims instead:
// dim_values, set only when int_values is not (some entry is a symbol or unknown).
struct ValueInfo {
  ElementType type = ElementType::Undefined;
  bool rank_known = true;
  std::vector<Dim> dims;
  std::optional<std::vector<int64_t>> int_values;
  std::optional<std::vector<Dim>> dim_values;
  std::optional<std::vector<double>> float_values;

  static ValueInfo of_dims(ElementType t, const std::vector<int64_t>& d) {
    ValueInfo v;
    v.type = t;
    v.dims.reserve(d.size());
    for (int64_t x : d) v.dims.push_back(Dim::known(x));
    return v;
  }
  bool fully_known() const;
  std::string shape_string() const;  // "[2, batch, ?]" or "[unknown rank]"
  // The values as dims (int_values as known dims, or dim_values), or nothing when neither is set.
  std::optional<std::vector<Dim>> values_as_dims() const;
  // Sets the values from dims: int_values when every entry is known, else dim_values when some
  // entry is known or a symbol (nothing when all are unknown).
  void set_values(std::vector<Dim> values);
};

// Product of dims[begin, end): 0 when a known dim is 0 (whatever the others are), else a number
// when all are known, the symbol when exactly one symbol takes part and every known dim is 1,
// otherwise unknown. *overflow: whether the known dims' product overflows int64 with no dim 0
// (the result is then unknown). The zero rule is DimProduct's (checked_mul.h).
Dim dim_product(const std::vector<Dim>& dims, size_t begin, size_t end, bool* overflow);

}  // namespace onnxwasm
