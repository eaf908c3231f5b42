// Concat: https://onnx.ai/onnx/operators/onnx__Concat.html (versions 1, 4, 11, 13).
// One or more inputs (a variadic input) of one type and rank, equal dims except along axis, which
// the output's sums. Version 1's axis is optional (default 1); 4 and later require it; 1 and 4 take
// axis in [0, r - 1], 11 and later in [-r, r - 1]. When every input's values are known to shape
// inference (small int64 tensors, such as the pieces of a Reshape's shape), so are the output's.
#include <cstring>
#include <memory>

#include "ops.h"

namespace onnxwasm {
namespace {

struct ConcatParams : OpParams {
  int64_t axis = 1;
};

Status concat_axis(const OpVersion& v, const OpParams& p, size_t rank, size_t* axis) {
  if (rank == 0)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": inputs must have rank >= 1, got scalars");
  return normalize_axis(v, "axis", static_cast<const ConcatParams&>(p).axis, static_cast<int64_t>(rank), v.since >= 11,
                        "inputs", axis);
}

ONNXWASM_COLD Status mismatch(const OpVersion& v, size_t i, const ValueInfo& first, const ValueInfo& other,
                              const std::string& why) {
  return Status(StatusCode::Shape, v.label() + ": input " + std::to_string(i) + " has shape " + other.shape_string() +
                                       " and input 0 " + first.shape_string() + "; " + why);
}

}  // namespace

Status parse_concat(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<ConcatParams>();
  p->axis = attrs.get_int("axis", 1);
  *out = std::move(p);
  return Status::ok();
}

Status infer_concat(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = in[0].type;
  const ValueInfo* ranked = nullptr;
  for (const ValueInfo& x : in)
    if (x.rank_known) {
      ranked = &x;
      break;
    }
  if (!ranked) {
    result.rank_known = false;
    out->push_back(result);
    return Status::ok();
  }
  const size_t rank = ranked->dims.size();
  size_t axis = 0;
  ONNXWASM_RETURN_IF_ERROR(concat_axis(v, p, rank, &axis));
  result.dims.assign(rank, Dim::unknown());
  bool sum_known = true;
  int64_t sum = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const ValueInfo& x = in[i];
    if (!x.rank_known) {
      sum_known = false;
      continue;
    }
    if (x.dims.size() != rank) return mismatch(v, i, *ranked, x, "every input must have the same rank");
    for (size_t d = 0; d < rank; ++d) {
      const Dim& dim = x.dims[d];
      if (d == axis) {
        if (dim.is_known() && sum_known && sum <= INT64_MAX - dim.value) sum += dim.value;
        else sum_known = false;
        continue;
      }
      Dim& merged = result.dims[d];
      if (dim.is_known() && merged.is_known() && dim.value != merged.value)
        return mismatch(v, i, *ranked, x, "dimension " + std::to_string(d) + " must be equal (only axis " +
                                              std::to_string(axis) + " may differ)");
      if (dim.is_known() || merged.kind == Dim::Kind::Unknown) merged = dim;
    }
  }
  if (sum_known) result.dims[axis] = Dim::known(sum);
  else if (in.size() == 1) result.dims[axis] = in[0].dims[axis];
  // Values: when every input's are known (1-D int64 along axis 0; entries numbers or symbols),
  // the output's are their concatenation.
  bool values = rank == 1;
  for (const ValueInfo& x : in) values = values && (x.int_values || x.dim_values);
  if (values) {
    std::vector<Dim> all;
    for (const ValueInfo& x : in) {
      const std::vector<Dim> part = *x.values_as_dims();
      all.insert(all.end(), part.begin(), part.end());
    }
    result.set_values(std::move(all));
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status run_concat(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                  const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const Tensor& first = *in[0];
  size_t axis = 0;
  ONNXWASM_RETURN_IF_ERROR(concat_axis(v, p, first.dims.size(), &axis));
  const int bits = element_bits(first.type);
  if (!first.is_string() && bits % 8 != 0)
    return ONNXWASM_ERROR(StatusCode::Type, v.label() + ": this kernel copies whole-byte elements; tensor(" +
                                        onnx_name(first.type) + ") has " + std::to_string(bits) + " bits an element");
  std::vector<int64_t> out_dims;
  for (const Dim& d : inferred[0].dims) out_dims.push_back(d.value);
  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(first.type, out_dims, &result, /*zeroed=*/false));
  if (result.element_count() > 0) {
    // Each input is [outer, its axis dim * inner]: the output takes, for every outer index, a
    // block of each input in turn. Nothing is empty here, so the products cannot overflow.
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= out_dims[d];
    for (size_t d = axis + 1; d < out_dims.size(); ++d) inner *= out_dims[d];
    const int64_t width = first.is_string() ? 1 : bits / 8;
    int64_t at = 0;   // elements written
    for (int64_t o = 0; o < outer; ++o) {
      for (const Tensor* t : in) {
        const int64_t block = t->dims[axis] * inner;
        if (first.is_string()) {
          const std::string* s = t->buffer->strings() + o * block;
          std::string* d = result.buffer->strings() + at;
          for (int64_t k = 0; k < block; ++k) d[k] = s[k];
        } else if (block > 0) {
          std::memcpy(result.buffer->data() + at * width, t->buffer->data() + o * block * width,
                      static_cast<size_t>(block * width));
        }
        at += block;
      }
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
