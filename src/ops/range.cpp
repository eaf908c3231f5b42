// Range: https://onnx.ai/onnx/operators/onnx__Range.html (versions 11 and 27).
// Three scalars of one type T (start, limit, delta) give the 1-D output of
// n = max(ceil((limit - start) / delta), 0) elements, output[i] = start + i * delta (the spec's
// pseudocode), computed in T. 11 takes float, double, int16, int32 and int64; 27 adds float16 and
// bfloat16 and the attribute stash_type (1 = float, the default, or 11 = double): for float16
// and bfloat16 the three are widened to it, the count and the elements computed there, each
// element rounded back to T (to nearest even); for the other types stash_type has no effect.
// The count: for integer types exactly (in 128 bits: limit - start may overflow int64); for
// floating types as ONNX's shape inference computes it (the difference in T, divided in double).
// A delta of 0 is refused (the count would be infinite or undefined), and so is a count beyond
// what a tensor may hold. Inference knows the length, and for int64 outputs of at most
// kMaxValues elements the values, when the three values are known.
#include <cmath>
#include <cstring>
#include <memory>

#include "../kernels/float16.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct RangeParams : OpParams {
  int64_t stash_type = 1;  // ONNX's id of float
};

constexpr size_t kMaxValues = 64;      // int64 outputs whose values inference gives
constexpr int64_t kStashFloat = 1, kStashDouble = 11;

bool is_integer(ElementType t) { return t == ElementType::Int16 || t == ElementType::Int32 || t == ElementType::Int64; }
bool is_half(ElementType t) { return t == ElementType::Float16 || t == ElementType::Bfloat16; }

// The three inputs as scalars.
Status check_scalars(const OpVersion& v, const std::vector<ValueInfo>& in) {
  for (size_t k = 0; k < 3; ++k)
    if (in[k].rank_known && !in[k].dims.empty())
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input '" + v.input(k).name +
                                               "' must be a scalar (shape []), got shape " + in[k].shape_string());
  return Status::ok();
}

ONNXWASM_COLD Status delta_zero_error(const OpVersion& v) {
  return Status(StatusCode::Shape, v.label() + ": delta is 0; the range would never reach its limit (delta must be nonzero)");
}

ONNXWASM_COLD Status count_error(const OpVersion& v, const std::string& what) {
  return Status(StatusCode::Shape, v.label() + ": " + what + " elements; that many do not fit in a tensor");
}

// The count of an integer range.
Status integer_count(const OpVersion& v, int64_t start, int64_t limit, int64_t delta, int64_t* n) {
  if (delta == 0) return delta_zero_error(v);
  const __int128 diff = static_cast<__int128>(limit) - start;
  __int128 q = 0;
  if ((diff > 0 && delta > 0) || (diff < 0 && delta < 0)) {
    const __int128 a = diff < 0 ? -diff : diff, d = delta < 0 ? -static_cast<__int128>(delta) : delta;
    q = (a + d - 1) / d;
  }
  if (q > INT64_MAX) return count_error(v, "more than 2^63");
  *n = static_cast<int64_t>(q);
  return Status::ok();
}

// The count of a floating range: the difference computed in the compute type (float or double),
// then divided in double, as ONNX's compute_output_dim_for_range.
template <typename C>
Status floating_count(const OpVersion& v, C start, C limit, C delta, int64_t* n) {
  if (delta == 0) return delta_zero_error(v);
  const double q = std::ceil(static_cast<double>(limit - start) / static_cast<double>(delta));
  if (std::isnan(q)) return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": the count ceil((limit - start) / delta) is NaN");
  if (q >= 9.2233720368547758e18) return count_error(v, std::to_string(q));
  *n = q > 0 ? static_cast<int64_t>(q) : 0;
  return Status::ok();
}

// Whether stash_type is one Range-27 takes for float16 and bfloat16.
Status check_stash(const OpVersion& v, const RangeParams& p, ElementType t) {
  if (!is_half(t) || p.stash_type == kStashFloat || p.stash_type == kStashDouble) return Status::ok();
  return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": stash_type " + std::to_string(p.stash_type) +
                                               " is not one of 1 (float) and 11 (double), the types Range computes " +
                                               onnx_name(t) + " in");
}

// The count from the three values (as ValueInfo keeps them: integers in int64, the others in
// double, which hold every float, double, float16 and bfloat16 exactly).
Status count_of(const OpVersion& v, const RangeParams& p, ElementType t, const double* f, const int64_t* i, int64_t* n) {
  if (is_integer(t)) return integer_count(v, i[0], i[1], i[2], n);
  if (t == ElementType::Double || (is_half(t) && p.stash_type == kStashDouble)) return floating_count<double>(v, f[0], f[1], f[2], n);
  return floating_count<float>(v, static_cast<float>(f[0]), static_cast<float>(f[1]), static_cast<float>(f[2]), n);
}

const RangeParams& range_params(const OpParams& p) { return static_cast<const RangeParams&>(p); }

double scalar_double(const Tensor& t) {
  const uint8_t* p = t.buffer->data();
  switch (t.type) {
    case ElementType::Double: { double d; std::memcpy(&d, p, 8); return d; }
    case ElementType::Float: { float f; std::memcpy(&f, p, 4); return f; }
    case ElementType::Float16: { uint16_t h; std::memcpy(&h, p, 2); return half_to_float(h); }
    default: { uint16_t h; std::memcpy(&h, p, 2); return bfloat16_to_float(h); }
  }
}

int64_t scalar_int(const Tensor& t) {
  const uint8_t* p = t.buffer->data();
  switch (t.type) {
    case ElementType::Int64: { int64_t x; std::memcpy(&x, p, 8); return x; }
    case ElementType::Int32: { int32_t x; std::memcpy(&x, p, 4); return x; }
    default: { int16_t x; std::memcpy(&x, p, 2); return x; }
  }
}

// start + i * delta, for i < n: between start and limit, so it fits T; computed modulo 2^64, as
// i * delta alone may overflow int64 (start -2^63, delta 2^62, i 3).
int64_t nth(int64_t start, int64_t delta, int64_t i) {
  return static_cast<int64_t>(static_cast<uint64_t>(start) + static_cast<uint64_t>(i) * static_cast<uint64_t>(delta));
}

template <typename T>
void fill_integer(uint8_t* out, int64_t n, int64_t start, int64_t delta) {
  for (int64_t i = 0; i < n; ++i) {
    const T x = static_cast<T>(nth(start, delta, i));
    std::memcpy(out + i * static_cast<int64_t>(sizeof(T)), &x, sizeof(T));
  }
}

template <typename C>
void fill_floating(uint8_t* out, ElementType t, int64_t n, C start, C delta) {
  for (int64_t i = 0; i < n; ++i) {
    const C x = start + static_cast<C>(i) * delta;
    if (t == ElementType::Float16 || t == ElementType::Bfloat16) {
      // (a double stash narrows through float: see the report on double rounding)
      const uint16_t h = t == ElementType::Float16 ? float_to_half(static_cast<float>(x)) : float_to_bfloat16(static_cast<float>(x));
      std::memcpy(out + i * 2, &h, 2);
    } else {
      std::memcpy(out + i * static_cast<int64_t>(sizeof(C)), &x, sizeof(C));
    }
  }
}

}  // namespace

Status parse_range(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<RangeParams>();
  p->stash_type = attrs.get_int("stash_type", kStashFloat);
  *out = std::move(p);
  return Status::ok();
}

// Range-11 and -27 (27's stash_type is the default where the row allows none).
Status infer_range(const OpVersion& v, const OpParams& params, const std::vector<ValueInfo>& in,
                   std::vector<ValueInfo>* out) {
  const RangeParams& p = range_params(params);
  const ElementType t = in[0].type;
  ONNXWASM_RETURN_IF_ERROR(check_stash(v, p, t));
  ONNXWASM_RETURN_IF_ERROR(check_scalars(v, in));
  ValueInfo result;
  result.type = t;
  result.dims = {Dim::unknown()};
  double f[3] = {0, 0, 0};
  int64_t i[3] = {0, 0, 0};
  bool known = true;
  for (size_t k = 0; k < 3; ++k) {
    if (is_integer(t) && in[k].int_values && in[k].int_values->size() == 1) i[k] = (*in[k].int_values)[0];
    else if (!is_integer(t) && in[k].float_values && in[k].float_values->size() == 1) f[k] = (*in[k].float_values)[0];
    else known = false;
  }
  if (known) {
    int64_t n = 0;
    ONNXWASM_RETURN_IF_ERROR(count_of(v, p, t, f, i, &n));
    result.dims[0] = Dim::known(n);
    if (t == ElementType::Int64 && static_cast<uint64_t>(n) <= kMaxValues) {
      std::vector<int64_t> values;
      for (int64_t k = 0; k < n; ++k) values.push_back(nth(i[0], i[2], k));
      result.int_values = std::move(values);
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status run_range(const OpVersion&, const OpParams& params, const std::vector<const Tensor*>& in,
                 const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const RangeParams& p = range_params(params);
  const ElementType t = in[0]->type;
  const int64_t n = inferred[0].dims[0].value;
  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(t, {n}, &result, /*zeroed=*/false));
  uint8_t* o = result.buffer->data();
  if (is_integer(t)) {
    const int64_t start = scalar_int(*in[0]), delta = scalar_int(*in[2]);
    if (t == ElementType::Int64) fill_integer<int64_t>(o, n, start, delta);
    else if (t == ElementType::Int32) fill_integer<int32_t>(o, n, start, delta);
    else fill_integer<int16_t>(o, n, start, delta);
  } else if (t == ElementType::Double || (is_half(t) && p.stash_type == kStashDouble)) {
    fill_floating<double>(o, t, n, scalar_double(*in[0]), scalar_double(*in[2]));
  } else {
    fill_floating<float>(o, t, n, static_cast<float>(scalar_double(*in[0])), static_cast<float>(scalar_double(*in[2])));
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
