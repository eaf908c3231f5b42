// Unsqueeze: https://onnx.ai/onnx/operators/onnx__Unsqueeze.html (versions 1, 11, 13, 21, 23, 24, 25).
// Squeeze: https://onnx.ai/onnx/operators/onnx__Squeeze.html (versions 1, 11, 13, 21, 23, 24, 25).
// Both run as views (run_view): the output is the input's buffer with other dims.
// - Unsqueeze inserts a dim of size 1 at each of `axes`, positions in the output (of rank
//   r + len(axes)). Versions 1 and 11 take axes as a required attribute, 13 and later as a
//   required int64 input. Version 1 takes axes in [0, r_out - 1], 11 and later [-r_out, r_out - 1].
//   An axis named twice is refused (ONNX: "It is an error if it contains duplicates").
// - Squeeze removes the dims named by `axes` (positions in the input), each of which must be 1;
//   without axes, every dim of size 1. Versions 1 and 11 take axes as an optional attribute, 13
//   and later as an optional int64 input. Version 1 takes axes in [0, r - 1], 11 and later
//   [-r, r - 1]. An empty axes list is given axes and removes nothing (ONNX's shape inference and
//   reference implementation; onnxruntime squeezes every 1 instead). An axis named twice is
//   refused, as the reference implementation (numpy.squeeze) refuses it.
// Inference, as ONNX's: a named dim that is a symbol or unknown is removed (a run checks that it
// is 1); without axes, a dim that is not a known number might be 1, so the output rank is
// unknown. Axes given as an input whose values inference does not know give the output rank only
// (r + n or r - n), every dim unknown. Values the input carries (int_values, dim_values) pass through.
// Refusals of axes from an attribute are Attribute errors; of axes from an input, and of a
// squeezed dim that is not 1, Shape errors (as Reshape's shape values).
#include <algorithm>

#include "ops.h"

namespace onnxwasm {
namespace {

// The axes attribute of versions 1 and 11; 13 and later read the input instead.
struct AxesParams : OpParams {
  bool has_axes = false;
  std::vector<int64_t> axes;
};

std::string list_string(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

ONNXWASM_COLD Status duplicate_axis_error(const OpVersion& v, StatusCode code, const std::vector<int64_t>& axes,
                                          int64_t axis) {
  return Status(code, v.label() + ": axes " + list_string(axes) + " name axis " + std::to_string(axis) +
                          " more than once; each axis may appear once");
}

// Checks axes against [lo, rank - 1] (lo = -rank, or 0 before opset 11) and for repeats, and marks
// each normalized axis in *marked (size rank). `of` names what the axes index ("an output").
Status mark_axes(const OpVersion& v, StatusCode code, const std::vector<int64_t>& axes, int64_t rank,
                 bool negative_ok, const char* of, std::vector<bool>* marked) {
  const int64_t lo = negative_ok ? -rank : 0;
  marked->assign(static_cast<size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < lo || a > rank - 1) return axis_range_error(v, code, "axis", a, rank, negative_ok, of);
    const int64_t n = a < 0 ? a + rank : a;
    if ((*marked)[static_cast<size_t>(n)]) return duplicate_axis_error(v, code, axes, n);
    (*marked)[static_cast<size_t>(n)] = true;
  }
  return Status::ok();
}

// For an input of unknown rank: the checks that need no rank (a negative axis before 11, the
// same value twice).
Status check_axes_without_rank(const OpVersion& v, StatusCode code, const std::vector<int64_t>& axes,
                               bool negative_ok) {
  for (int64_t a : axes)
    if (!negative_ok && a < 0)
      return Status(code, v.label() + ": axis " + std::to_string(a) + " is negative; " + v.label() +
                              " allows only axes >= 0 (negative axes need opset 11 or later)");
  std::vector<int64_t> sorted = axes;  // O(n log n): an attribute may hold many axes
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] == sorted[i - 1]) return duplicate_axis_error(v, code, axes, sorted[i]);
  return Status::ok();
}

Status too_many_axes(const OpVersion& v, size_t n) {
  return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": " + std::to_string(n) +
                                       " axes; an output rank that large is not supported");
}

Status unsqueeze(const OpVersion& v, StatusCode code, const ValueInfo& input, const std::vector<int64_t>& axes,
                 bool negative_ok, std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = input.type;
  if (axes.size() > static_cast<size_t>(kMaxRank)) return too_many_axes(v, axes.size());
  if (!input.rank_known) {
    ONNXWASM_RETURN_IF_ERROR(check_axes_without_rank(v, code, axes, negative_ok));
    result.rank_known = false;
    out->push_back(std::move(result));
    return Status::ok();
  }
  const int64_t rank = static_cast<int64_t>(input.dims.size() + axes.size());
  std::vector<bool> marked;
  ONNXWASM_RETURN_IF_ERROR(mark_axes(v, code, axes, rank, negative_ok, "an output", &marked));
  size_t k = 0;
  for (int64_t i = 0; i < rank; ++i) result.dims.push_back(marked[static_cast<size_t>(i)] ? Dim::known(1) : input.dims[k++]);
  result.int_values = input.int_values;
  result.dim_values = input.dim_values;
  out->push_back(std::move(result));
  return Status::ok();
}

ONNXWASM_COLD Status not_one_error(const OpVersion& v, const ValueInfo& input, size_t axis) {
  return Status(StatusCode::Shape, v.label() + ": axis " + std::to_string(axis) + " of input " + input.shape_string() +
                                       " has size " + std::to_string(input.dims[axis].value) +
                                       "; only a dimension of size 1 can be squeezed");
}

// `axes` null: not given (every dim of size 1 goes).
Status squeeze(const OpVersion& v, StatusCode code, const ValueInfo& input, const std::vector<int64_t>* axes,
               bool negative_ok, std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = input.type;
  if (!input.rank_known) {
    if (axes) ONNXWASM_RETURN_IF_ERROR(check_axes_without_rank(v, code, *axes, negative_ok));
    result.rank_known = false;
    out->push_back(std::move(result));
    return Status::ok();
  }
  const size_t rank = input.dims.size();
  std::vector<bool> marked(rank, false);
  if (axes) {
    ONNXWASM_RETURN_IF_ERROR(mark_axes(v, code, *axes, static_cast<int64_t>(rank), negative_ok, "an input", &marked));
    for (size_t i = 0; i < rank; ++i)
      if (marked[i] && input.dims[i].is_known() && input.dims[i].value != 1) return not_one_error(v, input, i);
  } else {
    for (size_t i = 0; i < rank; ++i) {
      if (!input.dims[i].is_known()) {  // it might be 1: the rank is not known
        result.rank_known = false;
        out->push_back(std::move(result));
        return Status::ok();
      }
      marked[i] = input.dims[i].value == 1;
    }
  }
  for (size_t i = 0; i < rank; ++i)
    if (!marked[i]) result.dims.push_back(input.dims[i]);
  result.int_values = input.int_values;
  result.dim_values = input.dim_values;
  out->push_back(std::move(result));
  return Status::ok();
}

// Input 1 (axes) of Unsqueeze-13 and Squeeze-13: a 1-D int64 tensor (a scalar is taken as one
// axis, as onnxruntime takes it). Sets *count to its number of values when known, else -1.
Status axes_input(const OpVersion& v, const ValueInfo& axes, int64_t* count) {
  *count = -1;
  if (!axes.rank_known) return Status::ok();
  if (axes.dims.size() > 1)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'axes' must be a 1-D tensor (or a scalar), got shape " +
                                         axes.shape_string());
  const int64_t n = axes.dims.empty() ? 1 : axes.dims[0].is_known() ? axes.dims[0].value : -1;
  if (axes.int_values && n >= 0 && n != static_cast<int64_t>(axes.int_values->size()))
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'axes' has dims " + axes.shape_string() + " but " +
                                         std::to_string(axes.int_values->size()) + " values");
  *count = n;
  return Status::ok();
}

const AxesParams& axes_params(const OpParams& p) { return static_cast<const AxesParams&>(p); }

}  // namespace

Status parse_unsqueeze(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<AxesParams>();
  if (const Attribute* axes = attrs.find("axes")) {
    p->has_axes = true;
    p->axes = axes->ints;
  }
  *out = std::move(p);
  return Status::ok();
}

Status parse_squeeze(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  return parse_unsqueeze(v, attrs, out);
}

// Unsqueeze-1: axes (required attribute) in [0, r_out - 1].
Status infer_unsqueeze_1(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                         std::vector<ValueInfo>* out) {
  return unsqueeze(v, StatusCode::Attribute, in[0], axes_params(p).axes, false, out);
}

// Unsqueeze-11: axes (required attribute) in [-r_out, r_out - 1].
Status infer_unsqueeze_11(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                          std::vector<ValueInfo>* out) {
  return unsqueeze(v, StatusCode::Attribute, in[0], axes_params(p).axes, true, out);
}

// Unsqueeze-13 and later: axes from input 1, in [-r_out, r_out - 1].
Status infer_unsqueeze_13(const OpVersion& v, const OpParams&, const std::vector<ValueInfo>& in,
                          std::vector<ValueInfo>* out) {
  int64_t n = -1;
  ONNXWASM_RETURN_IF_ERROR(axes_input(v, in[1], &n));
  if (in[1].int_values) return unsqueeze(v, StatusCode::Shape, in[0], *in[1].int_values, true, out);
  ValueInfo result;
  result.type = in[0].type;
  if (n > kMaxRank) return too_many_axes(v, static_cast<size_t>(n));
  if (in[0].rank_known && n >= 0)
    result.dims.assign(in[0].dims.size() + static_cast<size_t>(n), Dim::unknown());
  else
    result.rank_known = false;
  out->push_back(std::move(result));
  return Status::ok();
}

// Squeeze-1: axes (optional attribute) in [0, r - 1].
Status infer_squeeze_1(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                       std::vector<ValueInfo>* out) {
  const AxesParams& a = axes_params(p);
  return squeeze(v, StatusCode::Attribute, in[0], a.has_axes ? &a.axes : nullptr, false, out);
}

// Squeeze-11: axes (optional attribute) in [-r, r - 1].
Status infer_squeeze_11(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                        std::vector<ValueInfo>* out) {
  const AxesParams& a = axes_params(p);
  return squeeze(v, StatusCode::Attribute, in[0], a.has_axes ? &a.axes : nullptr, true, out);
}

// Squeeze-13 and later: axes from the optional input 1, in [-r, r - 1].
Status infer_squeeze_13(const OpVersion& v, const OpParams&, const std::vector<ValueInfo>& in,
                        std::vector<ValueInfo>* out) {
  const bool given = in.size() > 1 && in[1].type != ElementType::Undefined;
  if (!given) return squeeze(v, StatusCode::Shape, in[0], nullptr, true, out);
  int64_t n = -1;
  ONNXWASM_RETURN_IF_ERROR(axes_input(v, in[1], &n));
  if (in[1].int_values) return squeeze(v, StatusCode::Shape, in[0], &*in[1].int_values, true, out);
  ValueInfo result;
  result.type = in[0].type;
  if (in[0].rank_known && n > static_cast<int64_t>(in[0].dims.size()))
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'axes' has " + std::to_string(n) +
                                         " values but the input " + in[0].shape_string() + " has rank " +
                                         std::to_string(in[0].dims.size()) + "; each axis may appear once");
  if (in[0].rank_known && n >= 0)
    result.dims.assign(in[0].dims.size() - static_cast<size_t>(n), Dim::unknown());
  else
    result.rank_known = false;
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
