// Gather: https://onnx.ai/onnx/operators/onnx__Gather.html (versions 1, 11, 13), and onnx-wasm's
// own Gather-1: the same op for every element type (ONNX's takes no float8, float4, 4-bit or 2-bit
// data), which the session's DequantizeLinear(table) -> Gather rewrite uses (js/model/fuse.mjs).
// Output rank q + r - 1: data dims before axis, then the indices' dims, then data dims after axis.
#include <algorithm>
#include <cstdlib>
#include <memory>

#include "../kernels/dequantize.h"
#include "../kernels/gather.h"
#include "../parallel.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct GatherParams : OpParams {
  int64_t axis = 0;
};

Status gather_axis(const OpVersion& v, const OpParams& p, size_t rank, size_t* axis) {
  return normalize_axis(v, "axis", static_cast<const GatherParams&>(p).axis, static_cast<int64_t>(rank), true, "data", axis);
}

// Gathers at least this large (output bytes) are split across threads.
constexpr size_t kParallelBytes = size_t{256} * 1024;

// One Gather's copy, split into `parts` equal ranges of rows (by_rows) or of indices.
struct GatherPlan {
  const GatherKernels* kernels;
  ElementGatherFn element;  // one-element slices, else null: slice copies
  const uint8_t* src;
  uint8_t* dst;
  const uint32_t* idx;
  size_t n, outer, slice, row_bytes, parts;
  bool touch, by_rows;
};

void run_gather_part(void* ctx, size_t part) {
  const GatherPlan& p = *static_cast<const GatherPlan*>(ctx);
  const size_t units = p.by_rows ? p.outer : p.n;
  const size_t begin = units * part / p.parts, end = units * (part + 1) / p.parts;
  const size_t o_begin = p.by_rows ? begin : 0, o_end = p.by_rows ? end : p.outer;
  const size_t i_begin = p.by_rows ? 0 : begin, count = p.by_rows ? p.n : end - begin;
  for (size_t o = o_begin; o < o_end; ++o) {
    const uint8_t* row = p.src + o * p.row_bytes;
    uint8_t* dst = p.dst + (o * p.n + i_begin) * p.slice;
    if (p.touch && o + 2 < o_end) touch_cache_lines(row + 2 * p.row_bytes, p.row_bytes);
    if (p.element)
      p.element(count, p.idx + i_begin, row, dst);
    else
      p.kernels->slices(count, p.idx + i_begin, row, p.slice, dst);
  }
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// Sub-byte elements whose slices do not fill whole bytes, code by code (packed lowest bits first,
// as ONNX packs them; read by packed_code); `dst` is zeroed. Such slices are few bits: zero
// points, small tables.
void gather_codes(int bits, const uint8_t* src, uint8_t* dst, const uint32_t* idx, size_t n, size_t outer,
                  size_t axis_dim, size_t inner) {
  const size_t per_byte = static_cast<size_t>(8 / bits);
  size_t to = 0;
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < n; ++i) {
      size_t from = (o * axis_dim + idx[i]) * inner;
      for (size_t j = 0; j < inner; ++j, ++from, ++to) {
        const auto code = static_cast<unsigned>(packed_code(src, from, bits, /*is_signed=*/false));
        dst[to / per_byte] = static_cast<uint8_t>(dst[to / per_byte] | (code << (to % per_byte * static_cast<size_t>(bits))));
      }
    }
}

}  // namespace

// Checks every index against [-axis_dim, axis_dim - 1], and writes them normalized to
// [0, axis_dim) into `norm` unless it is null. The error names the first index out of range.
Status check_gather_indices(const OpVersion& v, const Tensor& indices, size_t axis, int64_t axis_dim, uint32_t* norm) {
  const size_t n = static_cast<size_t>(indices.element_count());
  // Normalized indices are uint32: enough for wasm32, whose memory cannot hold a longer axis.
  if (norm && axis_dim > (int64_t{1} << 32))
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": axis " + std::to_string(axis) + " has size " +
                                         std::to_string(axis_dim) + "; gathers support axes of at most 2^32 entries");
  const GatherKernels& k = gather_kernels_best();
  const size_t bad = indices.type == ElementType::Int32
                         ? k.s32_normalize(n, reinterpret_cast<const int32_t*>(indices.buffer->data()), axis_dim, norm)
                         : k.s64_normalize(n, reinterpret_cast<const int64_t*>(indices.buffer->data()), axis_dim, norm);
  if (bad == n) return Status::ok();
  const int64_t value = indices.type == ElementType::Int32
                            ? reinterpret_cast<const int32_t*>(indices.buffer->data())[bad]
                            : reinterpret_cast<const int64_t*>(indices.buffer->data())[bad];
  return index_range_error(v, value, bad, axis, axis_dim);
}

Status index_range_error(const OpVersion& v, int64_t value, size_t position, size_t axis, int64_t axis_dim) {
  return Status(StatusCode::Index, v.label() + ": index " + std::to_string(value) + " at position " +
                                       std::to_string(position) + " is outside [" + std::to_string(-axis_dim) + ", " +
                                       std::to_string(axis_dim - 1) + "] for axis " + std::to_string(axis) +
                                       " of size " + std::to_string(axis_dim));
}

Status parse_gather(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<GatherParams>();
  p->axis = attrs.get_int("axis", 0);
  *out = std::move(p);
  return Status::ok();
}

Status infer_gather(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                    std::vector<ValueInfo>* out) {
  const ValueInfo& data = in[0];
  const ValueInfo& indices = in[1];
  ValueInfo result;
  result.type = data.type;
  if (!data.rank_known) {
    result.rank_known = false;
    out->push_back(result);
    return Status::ok();
  }
  if (data.dims.empty())
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": data must have rank >= 1, got a scalar");
  size_t axis = 0;
  ONNXWASM_RETURN_IF_ERROR(gather_axis(v, p, data.dims.size(), &axis));
  if (!indices.rank_known) {
    result.rank_known = false;
    out->push_back(result);
    return Status::ok();
  }
  result.dims.reserve(data.dims.size() - 1 + indices.dims.size());
  result.dims.assign(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis));
  result.dims.insert(result.dims.end(), indices.dims.begin(), indices.dims.end());
  result.dims.insert(result.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis) + 1, data.dims.end());
  // Values: a 1-D int64 of known values (such as Shape's output, its entries numbers or
  // symbols) gathered at known indices.
  const std::optional<std::vector<Dim>> data_values = data.values_as_dims();
  if (data_values && indices.int_values && data.dims.size() == 1) {
    const int64_t n = static_cast<int64_t>(data_values->size());
    std::vector<Dim> values;
    for (const int64_t i : *indices.int_values) {
      if (i < -n || i >= n) {
        values.clear();
        break;
      }
      values.push_back((*data_values)[static_cast<size_t>(i < 0 ? i + n : i)]);
    }
    if (values.size() == indices.int_values->size()) result.set_values(std::move(values));
  }
  out->push_back(std::move(result));
  return Status::ok();
}

namespace {

// (apart from run_gather: V8 compiles a wasm function whole at its first call, and a run of
// another type need not compile this)
[[gnu::noinline]] void gather_strings(const std::string* s, std::string* d, const uint32_t* idx, size_t n, int64_t outer,
                                      int64_t axis_dim, int64_t inner) {
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < inner; ++j) *d++ = s[(o * axis_dim + idx[i]) * inner + j];
}

}  // namespace

Status run_gather(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                  const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const Tensor& data = *in[0];
  const Tensor& indices = *in[1];
  size_t axis = 0;
  ONNXWASM_RETURN_IF_ERROR(gather_axis(v, p, data.dims.size(), &axis));
  const int64_t axis_dim = data.dims[axis];
  const size_t n = static_cast<size_t>(indices.element_count());

  std::vector<int64_t> out_dims;
  out_dims.reserve(inferred[0].dims.size());
  for (const Dim& d : inferred[0].dims) out_dims.push_back(d.value);
  int64_t out_count = 0, out_bytes = 0;
  ONNXWASM_RETURN_IF_ERROR(check_dims(data.type, out_dims, &out_count, &out_bytes));

  // Check (and, when there is anything to copy, normalize) every index before any write.
  const GatherKernels& k = gather_kernels_best();
  const bool copies = out_count > 0;
  std::unique_ptr<uint32_t, FreeDeleter> heap_norm;
  uint32_t small[64];  // few indices: no allocation
  uint32_t* norm = nullptr;
  if (copies && n > 0) {
    norm = n <= 64 ? small : static_cast<uint32_t*>(std::malloc(n * sizeof(uint32_t)));
    if (n > 64) heap_norm.reset(norm);
    if (!norm)
      return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(n * 4) +
                                                 " bytes to normalize the indices");
  }
  ONNXWASM_RETURN_IF_ERROR(check_gather_indices(v, indices, axis, axis_dim, copies ? norm : nullptr));

  // Sub-byte types: slices of whole bytes are gathered as bytes (their rows are then whole bytes
  // too), others code by code into a zeroed output (its padding bits stay 0).
  const int bits = data.is_string() ? 0 : element_bits(data.type);
  int64_t outer = 1, inner = 1;
  if (copies) {
    // Nothing is empty here, so these products divide the data's element count: no overflow.
    // (With an empty output they may overflow: data [2^62, 4, 0] gathered on axis 2.)
    for (size_t i = 0; i < axis; ++i) outer *= data.dims[i];
    for (size_t i = axis + 1; i < data.dims.size(); ++i) inner *= data.dims[i];
  }
  const bool by_code = copies && bits % 8 != 0 && (inner * bits) % 8 != 0;
  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(data.type, std::move(out_dims), &result, /*zeroed=*/by_code));
  if (by_code) {
    gather_codes(bits, data.buffer->data(), result.buffer->data(), norm, n, static_cast<size_t>(outer),
                 static_cast<size_t>(axis_dim), static_cast<size_t>(inner));
  } else if (copies) {
    const uint32_t* idx = norm;
    if (data.is_string()) {
      gather_strings(data.buffer->strings(), result.buffer->strings(), idx, n, outer, axis_dim, inner);
    } else {
      const size_t width = static_cast<size_t>(bits / 8);   // 0 for a sub-byte type
      GatherPlan plan;
      plan.kernels = &k;
      plan.slice = static_cast<size_t>(inner * bits / 8);
      plan.element = inner == 1 && width > 0 ? k.for_width(width) : nullptr;
      plan.src = data.buffer->data();
      plan.dst = result.buffer->data();
      plan.row_bytes = static_cast<size_t>(axis_dim) * plan.slice;
      plan.idx = idx;
      plan.n = n;
      plan.outer = static_cast<size_t>(outer);
      // Element gathers read each row in random order: stream the row after next into cache
      // first when the gather reads at least one element per cache line on average.
      plan.touch = plan.element && n >= plan.row_bytes / 64;
      // Large element gathers are split over threads (in builds that have them): by rows of the
      // outer dimensions when there are enough, else by ranges of indices. Slice gathers are block
      // copies bound by memory bandwidth, which more threads do not add: split over threads they
      // ran slower (bench/threads.mjs; docs/performance.md, "Figures behind design choices"), so
      // they stay on the calling thread.
      const size_t threads =
          plan.element && static_cast<size_t>(out_bytes) >= kParallelBytes ? parallel_threads() : 1;
      plan.by_rows = plan.outer >= threads;
      plan.parts = threads == 1 ? 1 : std::min(threads * 4, plan.by_rows ? plan.outer : n);
      parallel_for(plan.parts, run_gather_part, &plan);
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm

namespace onnxwasm {

Status plan_gather_rows(const OpVersion& v, const OpParams& p, const std::vector<int64_t>& data_dims,
                        const Tensor& indices, Tensor* remapped, Tensor* rows) {
  size_t axis = 0;
  ONNXWASM_RETURN_IF_ERROR(gather_axis(v, p, data_dims.size(), &axis));
  if (axis != 0)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": a table kept outside memory is read by rows (axis 0), not along axis " +
                                         std::to_string(axis));
  return plan_rows_of(v, data_dims[0], indices, remapped, rows);
}

Status plan_rows_of(const OpVersion& v, int64_t axis_dim, const Tensor& indices, Tensor* remapped, Tensor* rows) {
  const size_t axis = 0;
  const size_t n = static_cast<size_t>(indices.element_count());
  std::unique_ptr<uint32_t, FreeDeleter> norm(static_cast<uint32_t*>(std::malloc((n > 0 ? n : 1) * sizeof(uint32_t))));
  if (!norm)
    return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(n * 4) +
                                               " bytes to normalize the indices");
  ONNXWASM_RETURN_IF_ERROR(check_gather_indices(v, indices, axis, axis_dim, norm.get()));
  // The distinct rows in increasing order, then each index as a position among them.
  std::vector<uint32_t> distinct(norm.get(), norm.get() + n);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  Tensor r, m;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(ElementType::Int64, {static_cast<int64_t>(distinct.size())}, &r, false));
  ONNXWASM_RETURN_IF_ERROR(make_tensor(ElementType::Int64, indices.dims, &m, false));
  int64_t* rp = reinterpret_cast<int64_t*>(r.buffer->data());
  for (size_t i = 0; i < distinct.size(); ++i) rp[i] = distinct[i];
  int64_t* mp = reinterpret_cast<int64_t*>(m.buffer->data());
  for (size_t i = 0; i < n; ++i)
    mp[i] = std::lower_bound(distinct.begin(), distinct.end(), norm.get()[i]) - distinct.begin();
  *rows = std::move(r);
  *remapped = std::move(m);
  return Status::ok();
}

}  // namespace onnxwasm
