// Shape: https://onnx.ai/onnx/operators/onnx__Shape.html (versions 1, 13, 15, 19, 21, 23, 24, 25).
// Size: https://onnx.ai/onnx/operators/onnx__Size.html (versions 1, 13, 19, 21, 23, 24, 25).
// Both read only the input's dims, never its data: every element type works alike (strings and
// the packed sub-byte types included). Shape gives a 1-D int64 tensor of the dims; from 15 the
// attributes start (default 0) and end (default r) select dims [start, end), each negative one
// counted from the back, then clamped to [0, r] (start > end gives an empty output). Size gives
// an int64 scalar, the element count. Inference also gives the output's values (int_values) when
// the dims they come from are known numbers, so that a later Reshape or Unsqueeze can read them.
#include "ops.h"

namespace onnxwasm {
namespace {

// start and end of Shape-15 and later; Shape-1 and -13 (and Size) have no attributes.
struct ShapeParams : OpParams {
  int64_t start = 0;
  bool has_end = false;
  int64_t end = 0;
};

// [*begin, *end) of the dims of a rank-r input, as ONNX clamps them.
void shape_range(const ShapeParams& p, int64_t r, int64_t* begin, int64_t* end) {
  int64_t s = p.start < 0 ? p.start + r : p.start;
  int64_t e = p.has_end ? (p.end < 0 ? p.end + r : p.end) : r;
  s = s < 0 ? 0 : s > r ? r : s;
  e = e < 0 ? 0 : e > r ? r : e;
  *begin = s;
  *end = e < s ? s : e;
}

Status shape_of(const ShapeParams& p, const ValueInfo& input, std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = ElementType::Int64;
  if (!input.rank_known) {
    result.dims = {Dim::unknown()};
    out->push_back(std::move(result));
    return Status::ok();
  }
  int64_t begin = 0, end = 0;
  shape_range(p, static_cast<int64_t>(input.dims.size()), &begin, &end);
  result.dims = {Dim::known(end - begin)};
  result.set_values(std::vector<Dim>(input.dims.begin() + begin, input.dims.begin() + end));
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace

Status parse_shape(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<ShapeParams>();
  p->start = attrs.get_int("start", 0);
  if (const Attribute* end = attrs.find("end")) {
    p->has_end = true;
    p->end = end->ints.empty() ? 0 : end->ints[0];
  }
  *out = std::move(p);
  return Status::ok();
}

Status parse_size(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>* out) {
  *out = std::make_unique<OpParams>();
  return Status::ok();
}

// Shape-1 and -13: all the dims (the params are the defaults: no attributes).
Status infer_shape_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  return shape_of(ShapeParams(), in[0], out);
}

// Shape-15 and later: dims [start, end), clamped.
Status infer_shape_15(const OpVersion&, const OpParams& p, const std::vector<ValueInfo>& in,
                      std::vector<ValueInfo>* out) {
  return shape_of(static_cast<const ShapeParams&>(p), in[0], out);
}

Status infer_size(const OpVersion& v, const OpParams&, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = ElementType::Int64;  // a scalar: dims []
  const ValueInfo& input = in[0];
  if (input.rank_known) {
    bool overflow = false;
    const Dim count = dim_product(input.dims, 0, input.dims.size(), &overflow);
    if (overflow)
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": the element count of " + input.shape_string() +
                                           " overflows int64");
    if (count.is_known()) result.int_values = std::vector<int64_t>{count.value};
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status run_shape(const OpVersion&, const OpParams& p, const std::vector<const Tensor*>& in,
                 const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  // Every Shape version parses with parse_shape; before 15 the registry allows no start or end,
  // so the params are the defaults there.
  const std::vector<int64_t>& dims = in[0]->dims;
  int64_t begin = 0, end = 0;
  shape_range(static_cast<const ShapeParams&>(p), static_cast<int64_t>(dims.size()), &begin, &end);
  Tensor t;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(ElementType::Int64, {inferred[0].dims[0].value}, &t, false));
  int64_t* dst = reinterpret_cast<int64_t*>(t.buffer->data());
  for (int64_t i = begin; i < end; ++i) dst[i - begin] = dims[static_cast<size_t>(i)];
  out->push_back(std::move(t));
  return Status::ok();
}

Status run_size(const OpVersion&, const OpParams&, const std::vector<const Tensor*>& in, const std::vector<ValueInfo>&,
                std::vector<Tensor>* out) {
  Tensor t;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(ElementType::Int64, {}, &t, false));
  *reinterpret_cast<int64_t*>(t.buffer->data()) = in[0]->element_count();
  out->push_back(std::move(t));
  return Status::ok();
}

}  // namespace onnxwasm
