// GatherND: https://onnx.ai/onnx/operators/onnx__GatherND.html (versions 11, 12 and 13; 12 adds
// batch_dims, 13 bfloat16). data has rank r >= 1, indices (int64 in every version) rank q >= 1 and
// last dim m; the first b = batch_dims dims of both are batch dims and must be equal, b < min(q, r),
// 1 <= m <= r - b. Each m-tuple of indices names a slice data[batch, i_0, ..., i_{m-1}, :, ..., :];
// the output, of shape indices.shape[:-1] + data.shape[b + m:], holds those slices in order.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "../kernels/gather.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct GatherNDParams : OpParams {
  int64_t batch_dims = 0;
};

ONNXWASM_COLD Status shape_error(const OpVersion& v, const ValueInfo& data, const ValueInfo& indices,
                                 const std::string& why) {
  return Status(StatusCode::Shape, v.label() + ": indices has shape " + indices.shape_string() + " and data " +
                                       data.shape_string() + "; " + why);
}

// The rules on ranks and dims that need no index values; *m: the indices' last dim, or -1 when
// unknown. data and indices have known ranks.
Status check_shapes(const OpVersion& v, int64_t b, const ValueInfo& data, const ValueInfo& indices, int64_t* m) {
  const int64_t r = static_cast<int64_t>(data.dims.size()), q = static_cast<int64_t>(indices.dims.size());
  if (r == 0) return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": data must have rank >= 1, got a scalar");
  if (q == 0) return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": indices must have rank >= 1, got a scalar");
  const int64_t most = (r < q ? r : q) - 1;
  if (b < 0 || b > most)
    return ONNXWASM_ERROR(StatusCode::Attribute,
                          v.label() + ": batch_dims " + std::to_string(b) + " is outside [0, " + std::to_string(most) +
                              "] for data of rank " + std::to_string(r) + " and indices of rank " + std::to_string(q) +
                              " (batch_dims < min(r, q))");
  for (int64_t d = 0; d < b; ++d) {
    const Dim &id = indices.dims[static_cast<size_t>(d)], &dd = data.dims[static_cast<size_t>(d)];
    if (id.is_known() && dd.is_known() && id.value != dd.value)
      return shape_error(v, data, indices,
                         "dimension " + std::to_string(d) + " of indices (" + std::to_string(id.value) +
                             ") and of data (" + std::to_string(dd.value) + ") must be equal: the first " +
                             std::to_string(b) + " are batch dims (batch_dims " + std::to_string(b) + ")");
  }
  const Dim& last = indices.dims.back();
  *m = last.is_known() ? last.value : -1;
  if (last.is_known() && (last.value < 1 || last.value > r - b))
    return shape_error(v, data, indices,
                       "the indices' last dim " + std::to_string(last.value) + " must be in [1, " +
                           std::to_string(r - b) + "] (data's rank " + std::to_string(r) + " minus batch_dims " +
                           std::to_string(b) + ")");
  return Status::ok();
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

}  // namespace

Status parse_gather_nd(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<GatherNDParams>();
  p->batch_dims = attrs.get_int("batch_dims", 0);
  *out = std::move(p);
  return Status::ok();
}

Status infer_gather_nd(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                       std::vector<ValueInfo>* out) {
  const ValueInfo& data = in[0];
  const ValueInfo& indices = in[1];
  const int64_t b = static_cast<const GatherNDParams&>(p).batch_dims;
  ValueInfo result;
  result.type = data.type;
  result.rank_known = false;
  int64_t m = -1;
  if (data.rank_known && indices.rank_known) {
    ONNXWASM_RETURN_IF_ERROR(check_shapes(v, b, data, indices, &m));
    if (m >= 0) {
      result.rank_known = true;
      // The batch dims: equal in both, so whichever is known.
      for (size_t d = 0; d < static_cast<size_t>(b); ++d)
        result.dims.push_back(indices.dims[d].is_known() || !data.dims[d].is_known() ? indices.dims[d] : data.dims[d]);
      result.dims.insert(result.dims.end(), indices.dims.begin() + b, indices.dims.end() - 1);
      result.dims.insert(result.dims.end(), data.dims.begin() + b + m, data.dims.end());
    }
  }
  // Values: a 1-D int64 of known values gathered at known 1-tuples.
  if (result.rank_known && m == 1 && b == 0 && data.dims.size() == 1 && data.int_values && indices.int_values) {
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

Status run_gather_nd(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                     const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const Tensor& data = *in[0];
  const Tensor& indices = *in[1];
  const size_t b = static_cast<size_t>(static_cast<const GatherNDParams&>(p).batch_dims);
  const size_t r = data.dims.size();
  const size_t m = static_cast<size_t>(indices.dims.back());  // in [1, r - b]: inference checked it
  if (!data.is_string() && element_bits(data.type) % 8 != 0)
    return ONNXWASM_ERROR(StatusCode::Type, v.label() + ": this kernel gathers whole-byte elements; tensor(" +
                                                onnx_name(data.type) + ") has " +
                                                std::to_string(element_bits(data.type)) + " bits an element");

  std::vector<int64_t> out_dims;
  out_dims.reserve(inferred[0].dims.size());
  for (const Dim& d : inferred[0].dims) out_dims.push_back(d.value);
  int64_t out_count = 0, out_bytes = 0;
  ONNXWASM_RETURN_IF_ERROR(check_dims(data.type, out_dims, &out_count, &out_bytes));
  const bool copies = out_count > 0;

  // Each tuple becomes the number of its slice among the data's slices of one batch (rows of
  // data.shape[b + m:]), checked before any write. Slices are numbered in uint32 (enough for
  // wasm32's memory), so a batch may hold at most 2^32 of them when anything is copied. A batch
  // with an indexed dim of 0 holds none, whatever the others: every tuple is then out of range.
  const size_t tuples = static_cast<size_t>(indices.element_count()) / m;
  int64_t rows_per_batch = 1;  // 0 when an indexed dim is 0; stops growing past 2^32 (`many`)
  bool many = false;
  for (size_t j = 0; j < m; ++j) {
    const int64_t d = data.dims[b + j];
    if (d == 0) rows_per_batch = 0;
    if (d == 0 || many || rows_per_batch == 0) continue;
    if (d > (int64_t{1} << 32) / rows_per_batch) many = true;
    else rows_per_batch *= d;
  }
  if (copies && many && rows_per_batch != 0)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": data " + ValueInfo::of_dims(data.type, data.dims).shape_string() +
                                                 " has more than 2^32 slices a batch along its indexed dims; "
                                                 "gathers support at most 2^32");
  std::unique_ptr<uint32_t, FreeDeleter> heap_rows;
  uint32_t small[64];
  uint32_t* rows = nullptr;
  if (copies) {
    rows = tuples <= 64 ? small : static_cast<uint32_t*>(std::malloc(tuples * sizeof(uint32_t)));
    if (tuples > 64) heap_rows.reset(rows);
    if (!rows)
      return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(tuples * 4) +
                                                         " bytes for the slices' numbers");
  }
  if (m == 1) {
    // One index a tuple, all along data's axis b: Gather's check, which normalizes in one pass.
    ONNXWASM_RETURN_IF_ERROR(check_gather_indices(v, indices, b, data.dims[b], rows));
  } else {
    const int64_t* idx = reinterpret_cast<const int64_t*>(indices.buffer->data());
    for (size_t t = 0; t < tuples; ++t) {
      uint64_t row = 0;
      for (size_t j = 0; j < m; ++j) {
        const int64_t dim = data.dims[b + j], x = idx[t * m + j];
        if (x < -dim || x >= dim) return index_range_error(v, x, t * m + j, b + j, dim);
        row = row * static_cast<uint64_t>(dim) + static_cast<uint64_t>(x < 0 ? x + dim : x);
      }
      if (rows) rows[t] = static_cast<uint32_t>(row);
    }
  }

  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(data.type, std::move(out_dims), &result, /*zeroed=*/false));
  if (copies) {
    // Nothing is empty here (every tuple named a slice), so these products divide data's count.
    size_t batches = 1, slice = 1;
    for (size_t d = 0; d < b; ++d) batches *= static_cast<size_t>(data.dims[d]);
    for (size_t d = b + m; d < r; ++d) slice *= static_cast<size_t>(data.dims[d]);
    const size_t per_batch = tuples / batches;
    const size_t batch_elems = static_cast<size_t>(rows_per_batch) * slice;
    if (data.is_string()) {
      const std::string* s = data.buffer->strings();
      std::string* d = result.buffer->strings();
      for (size_t t = 0; t < tuples; ++t) {
        const std::string* from = s + (t / per_batch) * batch_elems + size_t{rows[t]} * slice;
        for (size_t e = 0; e < slice; ++e) *d++ = from[e];
      }
    } else {
      // Slices are contiguous blocks: Gather's kernels copy them whole (one-element slices by
      // element width).
      const size_t width = static_cast<size_t>(element_bits(data.type) / 8);
      const GatherKernels& k = gather_kernels_best();
      const ElementGatherFn element = slice == 1 ? k.for_width(width) : nullptr;
      for (size_t bi = 0; bi < batches; ++bi) {
        const uint8_t* src = data.buffer->data() + bi * batch_elems * width;
        uint8_t* dst = result.buffer->data() + bi * per_batch * slice * width;
        if (element)
          element(per_batch, rows + bi * per_batch, src, dst);
        else
          k.slices(per_batch, rows + bi * per_batch, src, slice * width, dst);
      }
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
