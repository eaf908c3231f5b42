// GatherElements: https://onnx.ai/onnx/operators/onnx__GatherElements.html (versions 11 and 13,
// which differ only in their types). data and indices have one rank r >= 1; the output has the
// indices' shape, and out[i_0, ..., i_{r-1}] = data[i_0, ..., indices[i_0, ..., i_{r-1}], ..., i_{r-1}]
// with the index at `axis`. torch.gather exports as this op. Along every other axis the indices'
// dim must not exceed the data's (onnxruntime's and torch's rule; the ONNX page leaves it implied).
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../kernels/gather.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct GatherElementsParams : OpParams {
  int64_t axis = 0;
};

Status elements_axis(const OpVersion& v, const OpParams& p, size_t rank, size_t* axis) {
  if (rank == 0) return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": data must have rank >= 1, got a scalar");
  return normalize_axis(v, "axis", static_cast<const GatherElementsParams&>(p).axis, static_cast<int64_t>(rank), true,
                        "data", axis);
}

ONNXWASM_COLD Status shape_error(const OpVersion& v, const ValueInfo& data, const ValueInfo& indices,
                                 const std::string& why) {
  return Status(StatusCode::Shape, v.label() + ": indices has shape " + indices.shape_string() + " and data " +
                                       data.shape_string() + "; " + why);
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

struct Bytes16 {
  uint64_t lo, hi;
};

// Rows of the indices' last dim: element j of a row comes from data[base + idx[j] * axis_stride + j]
// (j: the row's own position along the last axis), or data[base + idx[j]] when the axis is the last.
template <typename T>
void gather_rows_across(size_t rows, size_t row_len, const int64_t* idims, const int64_t* dstrides, int64_t* coord,
                        size_t rank, size_t axis, const uint32_t* idx, const T* src, T* dst) {
  const size_t axis_stride = static_cast<size_t>(dstrides[axis]), step = axis + 1 == rank ? 0 : 1;
  for (size_t r = 0; r < rows; ++r) {
    size_t base = 0;
    for (size_t d = 0; d + 1 < rank; ++d)
      if (d != axis) base += static_cast<size_t>(coord[d] * dstrides[d]);
    const uint32_t* ri = idx + r * row_len;
    T* out = dst + r * row_len;
    for (size_t j = 0; j < row_len; ++j) out[j] = src[base + static_cast<size_t>(ri[j]) * axis_stride + j * step];
    for (size_t d = rank - 1; d-- > 0;) {
      if (++coord[d] < idims[d]) break;
      coord[d] = 0;
    }
  }
}

}  // namespace

Status parse_gather_elements(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<GatherElementsParams>();
  p->axis = attrs.get_int("axis", 0);
  *out = std::move(p);
  return Status::ok();
}

Status infer_gather_elements(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                             std::vector<ValueInfo>* out) {
  const ValueInfo& data = in[0];
  const ValueInfo& indices = in[1];
  ValueInfo result;
  result.type = data.type;
  result.rank_known = indices.rank_known;
  result.dims = indices.dims;
  // The axis is checked against whichever rank is known (they must be equal).
  if (data.rank_known || indices.rank_known) {
    size_t axis = 0;
    ONNXWASM_RETURN_IF_ERROR(elements_axis(v, p, (data.rank_known ? data : indices).dims.size(), &axis));
    if (data.rank_known && indices.rank_known) {
      if (data.dims.size() != indices.dims.size())
        return shape_error(v, data, indices, "they must have the same rank");
      for (size_t d = 0; d < data.dims.size(); ++d) {
        const Dim &id = indices.dims[d], &dd = data.dims[d];
        if (d != axis && id.is_known() && dd.is_known() && id.value > dd.value)
          return shape_error(v, data, indices,
                             "dimension " + std::to_string(d) + " of indices (" + std::to_string(id.value) +
                                 ") must not exceed data's (" + std::to_string(dd.value) + ") off the axis " +
                                 std::to_string(axis));
      }
    }
  }
  // Values: a 1-D int64 of known values gathered at known indices.
  if (data.int_values && indices.int_values && data.rank_known && data.dims.size() == 1) {
    const int64_t n = static_cast<int64_t>(data.int_values->size());
    std::vector<int64_t> values;
    for (const int64_t i : *indices.int_values) {
      if (i < -n || i >= n) break;  // no values: the run reports the index
      values.push_back((*data.int_values)[static_cast<size_t>(i < 0 ? i + n : i)]);
    }
    if (values.size() == indices.int_values->size()) result.int_values = std::move(values);
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status run_gather_elements(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                           const std::vector<ValueInfo>&, std::vector<Tensor>* out) {
  const Tensor& data = *in[0];
  const Tensor& indices = *in[1];
  size_t axis = 0;
  ONNXWASM_RETURN_IF_ERROR(elements_axis(v, p, data.dims.size(), &axis));
  const size_t rank = data.dims.size();
  // Whole-byte elements only (no version allows a narrower type; refused should one reach here).
  if (!data.is_string() && element_bits(data.type) % 8 != 0)
    return ONNXWASM_ERROR(StatusCode::Type, v.label() + ": this kernel gathers whole-byte elements; tensor(" +
                                                onnx_name(data.type) + ") has " +
                                                std::to_string(element_bits(data.type)) + " bits an element");
  const size_t n = static_cast<size_t>(indices.element_count());
  const bool copies = n > 0;
  std::unique_ptr<uint32_t, FreeDeleter> heap_norm;
  uint32_t small[64];
  uint32_t* norm = nullptr;
  if (copies) {
    norm = n <= 64 ? small : static_cast<uint32_t*>(std::malloc(n * sizeof(uint32_t)));
    if (n > 64) heap_norm.reset(norm);
    if (!norm)
      return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(n * 4) +
                                                         " bytes to normalize the indices");
  }
  ONNXWASM_RETURN_IF_ERROR(check_gather_indices(v, indices, axis, data.dims[axis], norm));

  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(data.type, indices.dims, &result, /*zeroed=*/false));
  if (copies) {
    // data's strides, then the coordinates of the current row of indices (from zeros). Every
    // index dim is >= 1 and within the data's off the axis, and the axis holds an index: data is
    // not empty, so its strides fit.
    std::vector<int64_t> scratch(2 * rank, 0);
    int64_t* dstrides = scratch.data();
    int64_t* coord = dstrides + rank;
    int64_t s = 1;
    for (size_t d = rank; d-- > 0;) {
      dstrides[d] = s;
      s *= data.dims[d];
    }
    const size_t row_len = static_cast<size_t>(indices.dims[rank - 1]);
    const size_t rows = n / row_len;
    const int64_t* idims = indices.dims.data();
    const size_t width = data.is_string() ? 0 : static_cast<size_t>(element_bits(data.type) / 8);
    if (axis == rank - 1 && !data.is_string()) {
      // The inner axis: each row is an element gather from one data row, the Gather kernel's.
      const ElementGatherFn gather = gather_kernels_best().for_width(width);
      const uint8_t* src = data.buffer->data();
      uint8_t* dst = result.buffer->data();
      for (size_t r = 0; r < rows; ++r) {
        size_t base = 0;
        for (size_t d = 0; d + 1 < rank; ++d) base += static_cast<size_t>(coord[d] * dstrides[d]);
        gather(row_len, norm + r * row_len, src + base * width, dst + r * row_len * width);
        for (size_t d = rank - 1; d-- > 0;) {
          if (++coord[d] < idims[d]) break;
          coord[d] = 0;
        }
      }
    } else {
      const void* src = data.is_string() ? static_cast<const void*>(data.buffer->strings()) : data.buffer->data();
      void* dst = result.is_string() ? static_cast<void*>(result.buffer->strings()) : result.buffer->data();
      auto rows_of = [&](auto element) {
        using T = decltype(element);
        gather_rows_across(rows, row_len, idims, dstrides, coord, rank, axis, norm, static_cast<const T*>(src), static_cast<T*>(dst));
      };
      switch (data.is_string() ? 0 : width) {
        case 0: rows_of(std::string()); break;
        case 1: rows_of(uint8_t{}); break;
        case 2: rows_of(uint16_t{}); break;
        case 4: rows_of(uint32_t{}); break;
        case 8: rows_of(uint64_t{}); break;
        default: rows_of(Bytes16{}); break;
      }
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
