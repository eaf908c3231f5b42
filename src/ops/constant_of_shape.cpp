// ConstantOfShape: https://onnx.ai/onnx/operators/onnx__ConstantOfShape.html (versions 9, 20, 21,
// 23, 24, 25). The input, a 1-D int64 tensor, is the output's shape (empty: a scalar), every value
// >= 0; the output holds the one element of the attribute `value` (a TENSOR) everywhere, in its
// type, or float 0 without it. The versions differ only in the types `value` may have (T2: 9
// numbers and bool; 20 adds bfloat16 and the float8 types; 21 int4 and uint4; 23 float4e2m1;
// 24 float8e8m0; 25 int2 and uint2): those are checked here, as the registry checks an input's
// type. Packed sub-byte values repeat their code in every position. Inference knows the dims
// when the shape's values are known (else the rank, from the shape's length), and the values of
// an int64 output of at most kMaxValues elements.
#include <cstring>
#include <memory>

#include "../checked_mul.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct ConstantParams : OpParams {
  Tensor value;  // one element; float 0 when the attribute is absent
};

constexpr size_t kMaxValues = 64;

using E = ElementType;

// T2, version by version.
constexpr TypeSet kT2_9 = {E::Float16, E::Float,  E::Double, E::Int8,   E::Int16,  E::Int32,
                           E::Int64,   E::Uint8,  E::Uint16, E::Uint32, E::Uint64, E::Bool};
constexpr TypeSet kT2_20 = kT2_9 | TypeSet{E::Bfloat16, E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz};
constexpr TypeSet kT2_21 = kT2_20 | TypeSet{E::Uint4, E::Int4};
constexpr TypeSet kT2_23 = kT2_21 | TypeSet{E::Float4e2m1};
constexpr TypeSet kT2_24 = kT2_23 | TypeSet{E::Float8e8m0};
constexpr TypeSet kT2_25 = kT2_24 | TypeSet{E::Uint2, E::Int2};

TypeSet t2_of(const OpVersion& v) {
  return v.since >= 25 ? kT2_25 : v.since >= 24 ? kT2_24 : v.since >= 23 ? kT2_23 : v.since >= 21 ? kT2_21 : v.since >= 20 ? kT2_20 : kT2_9;
}

ONNXWASM_COLD Status value_type_error(const OpVersion& v, E type) {
  std::string msg = v.label() + ": attribute 'value' has type tensor(" + onnx_name(type) + "), which " + v.label() +
                    " does not allow; T2 must be one of " + t2_of(v).describe();
  for (const OpVersion& later : op_versions())
    if (!std::strcmp(later.op, v.op) && later.since > v.since && t2_of(later).contains(type)) {
      msg.append(" (tensor(").append(onnx_name(type)).append(") needs opset ").append(std::to_string(later.since)).append(" or later)");
      break;
    }
  return Status(StatusCode::Type, msg);
}

const ConstantParams& constant_params(const OpParams& p) { return static_cast<const ConstantParams&>(p); }

// The value's code in the low bits of a byte, for a packed type (its first element).
uint8_t packed_code(const Tensor& t) {
  const int bits = element_bits(t.type);
  return static_cast<uint8_t>(t.buffer->data()[0] & ((1u << bits) - 1u));
}

}  // namespace

Status parse_constant_of_shape(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<ConstantParams>();
  if (const Attribute* a = attrs.find("value")) {
    if (!t2_of(v).contains(a->tensor.type)) return value_type_error(v, a->tensor.type);
    if (a->tensor.element_count() != 1)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute 'value' has " +
                                                   std::to_string(a->tensor.element_count()) +
                                                   " elements; it must be a one-element tensor");
    p->value = a->tensor;
  } else {
    ONNXWASM_RETURN_IF_ERROR(make_tensor(E::Float, {1}, &p->value));
  }
  *out = std::move(p);
  return Status::ok();
}

Status infer_constant_of_shape(const OpVersion& v, const OpParams& params, const std::vector<ValueInfo>& in,
                               std::vector<ValueInfo>* out) {
  const Tensor& value = constant_params(params).value;
  const ValueInfo& shape = in[0];
  ValueInfo result;
  result.type = value.type;
  if (shape.rank_known && shape.dims.size() != 1)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'input' (the shape) must be a 1-D tensor, got shape " +
                                             shape.shape_string());
  if (shape.int_values) {
    if (shape.rank_known && shape.dims[0].is_known() && shape.dims[0].value != static_cast<int64_t>(shape.int_values->size()))
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'input' has dims " + shape.shape_string() + " but " +
                                               std::to_string(shape.int_values->size()) + " values");
    for (size_t i = 0; i < shape.int_values->size(); ++i) {
      const int64_t d = (*shape.int_values)[i];
      if (d < 0)
        return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": the shape's value " + std::to_string(d) + " at position " +
                                                 std::to_string(i) + " is negative; every dimension must be >= 0");
      result.dims.push_back(Dim::known(d));
    }
    if (value.type == E::Int64) {
      int64_t n = 0;
      if (checked_product(*shape.int_values, &n) && static_cast<uint64_t>(n) <= kMaxValues)
        result.int_values = std::vector<int64_t>(static_cast<size_t>(n), *reinterpret_cast<const int64_t*>(value.buffer->data()));
    }
  } else if (shape.rank_known && shape.dims[0].is_known()) {
    if (shape.dims[0].value > kMaxRank)
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'input' (the shape) has " + std::to_string(shape.dims[0].value) +
                                               " values; an output rank that large is not supported");
    result.dims.assign(static_cast<size_t>(shape.dims[0].value), Dim::unknown());
  } else {
    result.rank_known = false;
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status run_constant_of_shape(const OpVersion&, const OpParams& params, const std::vector<const Tensor*>&,
                             const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const Tensor& value = constant_params(params).value;
  std::vector<int64_t> dims;
  for (const Dim& d : inferred[0].dims) dims.push_back(d.value);
  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(value.type, std::move(dims), &result, /*zeroed=*/false));
  const int bits = element_bits(value.type);
  uint8_t* o = result.buffer->data();
  const int64_t n = result.element_count();
  if (bits < 8) {
    // Every code of each byte is the value's: the byte repeats its code 8 / bits times.
    uint8_t byte = 0;
    for (int k = 0; k < 8; k += bits) byte = static_cast<uint8_t>(byte | packed_code(value) << k);
    int64_t bytes = 0;
    storage_bytes(value.type, n, &bytes);
    std::memset(o, byte, static_cast<size_t>(bytes));
    // The bits past the last element of a partly used last byte stay 0, as a packed tensor's
    // padding.
    const int64_t used = n * bits % 8;
    if (used) o[bytes - 1] = static_cast<uint8_t>(o[bytes - 1] & ((1u << used) - 1u));
  } else {
    const size_t w = static_cast<size_t>(bits / 8);
    const uint8_t* x = value.buffer->data();
    bool zero = true;
    for (size_t k = 0; k < w; ++k) zero = zero && x[k] == 0;
    if (zero || w == 1) {
      std::memset(o, x[0], static_cast<size_t>(n) * w);
    } else {
      // Doubling copies: log2(n) memcpy calls.
      if (n > 0) std::memcpy(o, x, w);
      for (int64_t have = 1; have < n;) {
        const int64_t take = have < n - have ? have : n - have;
        std::memcpy(o + have * static_cast<int64_t>(w), o, static_cast<size_t>(take) * w);
        have += take;
      }
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
