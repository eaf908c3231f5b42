// Slice: https://onnx.ai/onnx/operators/onnx__Slice.html (versions 1, 10, 11, 13).
// - 1: starts, ends (required) and axes (optional) are INTS attributes; no steps. Its spec allows
//   only axes in [0, r - 1].
// - 10: starts, ends and the optional axes and steps are 1-D inputs (Tind: int32 or int64);
//   axes in [0, r - 1] (the spec names no negative axis before 11).
// - 11: axes in [-r, r - 1]. 13: the same rules, with bfloat16 among the types.
// Axes default to [0, len(starts) - 1], steps to 1s; an axis named twice and a step of 0 are
// refused (ONNX's shape inference refuses both). Each listed axis of size d takes, as ONNX's
// processSliceInputs: a negative start or end plus d; then, stepping forward, start and end
// clamped to [0, d]; stepping backward, start to [0, d - 1] and end to [-1, d - 1] (so that
// ends = INT64_MIN, as torch exports x[::-1], reaches index 0); d = 0 gives 0 elements. The axis
// keeps max(ceil((end - start) / step), 0) elements, computed in integers (ONNX computes it in
// double, which is exact for every dim a tensor can have). Version 1 is the step-1 case of these
// rules, as onnxruntime runs it.
// Inference: when starts, ends and the given axes and steps are known (their values: small
// constants, or what Shape -> Gather -> Concat give), the sliced dims of known size are known and
// those of symbolic or unknown size unknown, as ONNX gives them; otherwise the rank only. The
// values of a 1-D input known to inference (Shape's output, which torch's flatten() slices) give
// the output's values. Refusals of the attributes are Attribute errors, of the inputs' values
// Shape errors (as Unsqueeze's axes input).
#include <cstring>
#include <memory>

#include "ops.h"

namespace onnxwasm {
namespace {

// Slice-1's attributes; 10 and later read inputs instead.
struct SliceParams : OpParams {
  std::vector<int64_t> starts, ends, axes;
  bool has_axes = false;
};

// The lists of a slice, as given (before the axes are normalized).
struct SliceLists {
  const std::vector<int64_t>* starts = nullptr;
  const std::vector<int64_t>* ends = nullptr;
  const std::vector<int64_t>* axes = nullptr;   // null: not given
  const std::vector<int64_t>* steps = nullptr;  // null: not given
};

// One input axis after clamping: the first index read, the step and the element count.
struct AxisSlice {
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
};

AxisSlice clamp_axis(int64_t dim, int64_t start, int64_t end, int64_t step) {
  AxisSlice a;
  a.step = step;
  if (dim == 0) return a;
  if (start < 0) start += dim;  // (dim > 0: no overflow, even for INT64_MIN)
  if (end < 0) end += dim;
  if (step > 0) {
    start = start < 0 ? 0 : start > dim ? dim : start;
    end = end < 0 ? 0 : end > dim ? dim : end;
    a.count = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    start = start < 0 ? 0 : start > dim - 1 ? dim - 1 : start;
    end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
    // |step| as unsigned: step may be INT64_MIN.
    const uint64_t back = uint64_t{0} - static_cast<uint64_t>(step);
    a.count = start > end ? static_cast<int64_t>(static_cast<uint64_t>(start - end - 1) / back) + 1 : 0;
  }
  a.start = start;
  return a;
}

std::string list_string(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

ONNXWASM_COLD Status length_error(const OpVersion& v, StatusCode code, const char* name, const std::vector<int64_t>& list,
                                  size_t want) {
  return Status(code, v.label() + ": " + name + " " + list_string(list) + " has " + std::to_string(list.size()) +
                          " values but starts has " + std::to_string(want) + "; they must have one per sliced axis");
}

// Checks the lists against each other and against the rank (-1: unknown), and normalizes the
// axes into *axes (each in [0, rank - 1]; the rank-free checks only when the rank is unknown).
Status check_lists(const OpVersion& v, StatusCode code, const SliceLists& l, int64_t rank, bool negative_ok,
                   std::vector<size_t>* axes) {
  const size_t n = l.starts->size();
  if (l.ends->size() != n) return length_error(v, code, "ends", *l.ends, n);
  if (l.axes && l.axes->size() != n) return length_error(v, code, "axes", *l.axes, n);
  if (l.steps && l.steps->size() != n) return length_error(v, code, "steps", *l.steps, n);
  if (l.steps)
    for (size_t i = 0; i < n; ++i)
      if ((*l.steps)[i] == 0)
        return ONNXWASM_ERROR(code, v.label() + ": steps " + list_string(*l.steps) + " has a 0 at position " +
                                        std::to_string(i) + "; a step cannot be 0");
  axes->clear();
  if (rank < 0) {
    if (l.axes)
      for (const int64_t a : *l.axes)
        if (!negative_ok && a < 0)
          return ONNXWASM_ERROR(code, v.label() + ": axis " + std::to_string(a) + " is negative; " + v.label() +
                                          " allows only axes >= 0 (negative axes need opset 11 or later)");
    return Status::ok();
  }
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (size_t i = 0; i < n; ++i) {
    const int64_t a = l.axes ? (*l.axes)[i] : static_cast<int64_t>(i);
    if (a < (negative_ok ? -rank : 0) || a > rank - 1)
      return axis_range_error(v, code, l.axes ? "axis" : "axis (the default of starts' position)", a, rank, negative_ok,
                              "data");
    const size_t k = static_cast<size_t>(a < 0 ? a + rank : a);
    if (seen[k] && l.axes)  // (the default axes 0, 1, ... never repeat)
      return ONNXWASM_ERROR(code, v.label() + ": axes " + list_string(*l.axes) + " name axis " + std::to_string(k) +
                                      " more than once; each axis may appear once");
    seen[k] = true;
    axes->push_back(k);
  }
  return Status::ok();
}

// Output dims and values from known lists.
Status slice_info(const OpVersion& v, StatusCode code, const ValueInfo& data, const SliceLists& l, bool negative_ok,
                  std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = data.type;
  std::vector<size_t> axes;
  const int64_t rank = data.rank_known ? static_cast<int64_t>(data.dims.size()) : -1;
  ONNXWASM_RETURN_IF_ERROR(check_lists(v, code, l, rank, negative_ok, &axes));
  if (rank < 0) {
    result.rank_known = false;
    out->push_back(std::move(result));
    return Status::ok();
  }
  result.dims = data.dims;
  std::vector<AxisSlice> plan(data.dims.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    const Dim& d = data.dims[axes[i]];
    if (!d.is_known()) {
      result.dims[axes[i]] = Dim::unknown();
      continue;
    }
    plan[axes[i]] = clamp_axis(d.value, (*l.starts)[i], (*l.ends)[i], l.steps ? (*l.steps)[i] : 1);
    result.dims[axes[i]] = Dim::known(plan[axes[i]].count);
  }
  // Values of a 1-D input (Shape's output): the sliced ones.
  if (data.int_values && rank == 1 && data.dims[0].is_known() &&
      static_cast<int64_t>(data.int_values->size()) == data.dims[0].value) {
    AxisSlice a = plan[0];
    if (axes.empty()) a = AxisSlice{0, 1, data.dims[0].value};
    std::vector<int64_t> values;
    for (int64_t k = 0; k < a.count; ++k) values.push_back((*data.int_values)[static_cast<size_t>(a.start + k * a.step)]);
    result.int_values = std::move(values);
  }
  out->push_back(std::move(result));
  return Status::ok();
}

// Input k (starts, ends, axes or steps) of Slice-10 and later: a 1-D tensor. *values: its values
// when inference knows them (null otherwise).
Status list_input(const OpVersion& v, const std::vector<ValueInfo>& in, size_t k, const std::vector<int64_t>** values) {
  *values = nullptr;
  const ValueInfo& x = in[k];
  if (!x.rank_known) return Status::ok();
  if (x.dims.size() != 1)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input '" + v.input(k).name + "' must be a 1-D tensor, got shape " +
                                         x.shape_string());
  if (x.int_values && x.dims[0].is_known() && x.dims[0].value != static_cast<int64_t>(x.int_values->size()))
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input '" + v.input(k).name + "' has dims " + x.shape_string() +
                                         " but " + std::to_string(x.int_values->size()) + " values");
  if (x.int_values) *values = &*x.int_values;
  return Status::ok();
}

Status infer_slice_inputs(const OpVersion& v, const std::vector<ValueInfo>& in, bool negative_ok,
                          std::vector<ValueInfo>* out) {
  SliceLists l;
  bool known = true;
  const std::vector<int64_t>** lists[] = {&l.starts, &l.ends, &l.axes, &l.steps};
  for (size_t k = 1; k < 5; ++k) {
    const bool given = k < in.size() && in[k].type != ElementType::Undefined;
    if (!given) continue;
    ONNXWASM_RETURN_IF_ERROR(list_input(v, in, k, lists[k - 1]));
    known = known && *lists[k - 1] != nullptr;
  }
  if (known) return slice_info(v, StatusCode::Shape, in[0], l, negative_ok, out);
  // Some value is not known: the rank only (each listed dim may change), as ONNX infers.
  ValueInfo result;
  result.type = in[0].type;
  result.rank_known = in[0].rank_known;
  result.dims.assign(in[0].dims.size(), Dim::unknown());
  out->push_back(std::move(result));
  return Status::ok();
}

// The values of a run's list input (int32 or int64), widened.
std::vector<int64_t> values_of(const Tensor& t) {
  const int64_t n = t.element_count();
  std::vector<int64_t> values(static_cast<size_t>(n));
  if (t.type == ElementType::Int64) {
    if (n > 0) std::memcpy(values.data(), t.buffer->data(), static_cast<size_t>(n) * 8);
  } else {
    const int32_t* p = reinterpret_cast<const int32_t*>(t.buffer->data());
    for (int64_t i = 0; i < n; ++i) values[static_cast<size_t>(i)] = p[i];
  }
  return values;
}

template <typename T>
void copy_one(uint8_t* dst, const uint8_t* src) {
  T x;
  std::memcpy(&x, src, sizeof x);
  std::memcpy(dst, &x, sizeof x);
}

// Copies the slice `plan` (one entry per input axis) of `in` into `out` (already the output's
// size). The trailing axes taken whole, and before them an axis of step 1, make one contiguous
// block (x[:, 0] and x[:, 1:] of [batch, seq, hidden] copy whole rows); the axes before it are
// walked with an odometer, each step a jump of step * stride. An empty input (whose other dims may
// be huge: their strides would overflow) has an empty output: nothing to copy.
void copy_slice(const Tensor& in, const std::vector<AxisSlice>& plan, Tensor* out) {
  if (in.element_count() == 0) return;
  const size_t r = in.dims.size();
  std::vector<int64_t> stride(r);
  int64_t s = 1;
  for (size_t a = r; a-- > 0;) {
    stride[a] = s;
    s *= in.dims[a];
  }
  size_t last = r;  // axes [last, r) are taken whole
  int64_t block = 1;
  while (last > 0 && plan[last - 1].start == 0 && plan[last - 1].step == 1 && plan[last - 1].count == in.dims[last - 1])
    block *= in.dims[--last];
  size_t walked = last;  // axes [0, walked) are walked
  if (last > 0 && plan[last - 1].step == 1) {
    block *= plan[last - 1].count;
    walked = last - 1;
  }
  int64_t src = 0, blocks = 1;
  for (size_t a = 0; a < last; ++a) src += plan[a].start * stride[a];
  for (size_t a = 0; a < walked; ++a) blocks *= plan[a].count;
  if (blocks == 0 || block == 0) return;
  std::vector<int64_t> index(walked, 0);
  const bool strings = in.is_string();
  const size_t width = strings ? 0 : static_cast<size_t>(element_bits(in.type) / 8);
  const uint8_t* from = in.buffer->data();
  uint8_t* to = out->buffer->data();
  int64_t dst = 0;
  for (int64_t b = 0; b < blocks; ++b, dst += block) {
    if (strings) {
      for (int64_t k = 0; k < block; ++k) out->buffer->strings()[dst + k] = in.buffer->strings()[src + k];
    } else if (block == 1) {
      uint8_t* d = to + dst * static_cast<int64_t>(width);
      const uint8_t* p = from + src * static_cast<int64_t>(width);
      switch (width) {
        case 1: *d = *p; break;
        case 2: copy_one<uint16_t>(d, p); break;
        case 4: copy_one<uint32_t>(d, p); break;
        case 8: copy_one<uint64_t>(d, p); break;
        default: std::memcpy(d, p, width);
      }
    } else {
      std::memcpy(to + dst * static_cast<int64_t>(width), from + src * static_cast<int64_t>(width),
                  static_cast<size_t>(block) * width);
    }
    // (Each jump stays within the input: a step beyond the dim, even INT64_MAX, is never added
    // for an axis of count 1.)
    for (size_t a = walked; a-- > 0;) {
      if (++index[a] < plan[a].count) {
        src += plan[a].step * stride[a];
        break;
      }
      src -= (plan[a].count - 1) * plan[a].step * stride[a];
      index[a] = 0;
    }
  }
}

Status run_with_lists(const OpVersion& v, StatusCode code, const Tensor& data, const SliceLists& l, bool negative_ok,
                      const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  std::vector<size_t> axes;
  ONNXWASM_RETURN_IF_ERROR(check_lists(v, code, l, static_cast<int64_t>(data.dims.size()), negative_ok, &axes));
  if (!data.is_string() && element_bits(data.type) % 8 != 0)
    return ONNXWASM_ERROR(StatusCode::Type, v.label() + ": this kernel copies whole-byte elements; tensor(" +
                                        onnx_name(data.type) + ") has " + std::to_string(element_bits(data.type)) +
                                        " bits an element");
  std::vector<AxisSlice> plan(data.dims.size());
  for (size_t a = 0; a < plan.size(); ++a) plan[a] = AxisSlice{0, 1, data.dims[a]};
  for (size_t i = 0; i < axes.size(); ++i)
    plan[axes[i]] = clamp_axis(data.dims[axes[i]], (*l.starts)[i], (*l.ends)[i], l.steps ? (*l.steps)[i] : 1);
  std::vector<int64_t> dims;
  for (const Dim& d : inferred[0].dims) dims.push_back(d.value);
  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(data.type, std::move(dims), &result, /*zeroed=*/false));
  copy_slice(data, plan, &result);
  out->push_back(std::move(result));
  return Status::ok();
}

const SliceParams& slice_params(const OpParams& p) { return static_cast<const SliceParams&>(p); }

SliceLists attribute_lists(const SliceParams& p) {
  SliceLists l;
  l.starts = &p.starts;
  l.ends = &p.ends;
  l.axes = p.has_axes ? &p.axes : nullptr;
  return l;
}

}  // namespace

Status parse_slice(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<SliceParams>();
  if (const Attribute* a = attrs.find("starts")) p->starts = a->ints;
  if (const Attribute* a = attrs.find("ends")) p->ends = a->ints;
  if (const Attribute* a = attrs.find("axes")) {
    p->has_axes = true;
    p->axes = a->ints;
  }
  *out = std::move(p);
  return Status::ok();
}

// Slice-1: the lists are attributes; axes in [0, r - 1].
Status infer_slice_1(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                     std::vector<ValueInfo>* out) {
  return slice_info(v, StatusCode::Attribute, in[0], attribute_lists(slice_params(p)), false, out);
}

// Slice-10: the lists are inputs; axes in [0, r - 1].
Status infer_slice_10(const OpVersion& v, const OpParams&, const std::vector<ValueInfo>& in,
                      std::vector<ValueInfo>* out) {
  return infer_slice_inputs(v, in, false, out);
}

// Slice-11 and -13: axes in [-r, r - 1].
Status infer_slice_11(const OpVersion& v, const OpParams&, const std::vector<ValueInfo>& in,
                      std::vector<ValueInfo>* out) {
  return infer_slice_inputs(v, in, true, out);
}

Status run_slice(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                 const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  if (v.since == 1)
    return run_with_lists(v, StatusCode::Attribute, *in[0], attribute_lists(slice_params(p)), false, inferred, out);
  std::vector<int64_t> values[4];
  SliceLists l;
  const std::vector<int64_t>** lists[] = {&l.starts, &l.ends, &l.axes, &l.steps};
  for (size_t k = 1; k < 5; ++k) {
    if (k >= in.size() || !in[k]) continue;
    values[k - 1] = values_of(*in[k]);
    *lists[k - 1] = &values[k - 1];
  }
  return run_with_lists(v, StatusCode::Shape, *in[0], l, v.since >= 11, inferred, out);
}

}  // namespace onnxwasm
