// Flatten: https://onnx.ai/onnx/operators/onnx__Flatten.html (versions 1, 9, 11, 13, 21, 23, 24, 25).
// Output [d_0 * ... * d_(axis-1), d_axis * ... * d_n]; versions 1 and 9 take axis in [0, r],
// 11 and later in [-r, r].
#include "ops.h"

namespace onnxwasm {
namespace {

struct FlattenParams : OpParams {
  int64_t axis = 1;
};

Status flatten(const OpVersion& v, const OpParams& p, const ValueInfo& input, bool negative_ok,
               std::vector<ValueInfo>* out) {
  const int64_t axis = static_cast<const FlattenParams&>(p).axis;
  ValueInfo result;
  result.type = input.type;
  if (!input.rank_known) {
    if (!negative_ok && axis < 0)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": axis " + std::to_string(axis) +
                                               " is negative; " + v.label() +
                                               " allows axis in [0, r] (negative axes need opset 11 or later)");
    result.dims = {Dim::unknown(), Dim::unknown()};
    out->push_back(result);
    return Status::ok();
  }
  const int64_t r = static_cast<int64_t>(input.dims.size());
  const int64_t lo = negative_ok ? -r : 0;
  if (axis < lo || axis > r)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": axis " + std::to_string(axis) + " is outside [" +
                                             std::to_string(lo) + ", " + std::to_string(r) + "] for input of rank " +
                                             std::to_string(r) +
                                             (!negative_ok && axis < 0 ? " (negative axes need opset 11 or later)" : ""));
  const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
  bool overflow_outer = false, overflow_inner = false;
  const Dim outer = dim_product(input.dims, 0, a, &overflow_outer);
  const Dim inner = dim_product(input.dims, a, input.dims.size(), &overflow_inner);
  if (overflow_outer || overflow_inner)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": the product of the dimensions of " + input.shape_string() +
                                         " overflows int64");
  result.dims = {outer, inner};
  out->push_back(result);
  return Status::ok();
}

}  // namespace

Status parse_flatten(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<FlattenParams>();
  p->axis = attrs.get_int("axis", 1);
  *out = std::move(p);
  return Status::ok();
}

Status infer_flatten_1(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                       std::vector<ValueInfo>* out) {
  return flatten(v, p, in[0], false, out);
}

Status infer_flatten_11(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                        std::vector<ValueInfo>* out) {
  return flatten(v, p, in[0], true, out);
}

}  // namespace onnxwasm
