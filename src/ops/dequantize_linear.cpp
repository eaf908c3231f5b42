// DequantizeLinear: https://onnx.ai/onnx/operators/onnx__DequantizeLinear.html (versions 10, 13,
// 19, 21, 23, 24, 25), computed as onnxruntime's CPU kernel computes it
// (core/providers/cpu/quantization/quantize_linear.cc): y = float(x - x_zero_point) * x_scale,
// the difference exact in int32, the product in float, then narrowed to the output type (float16,
// bfloat16: round to nearest even).
// - x_scale: one element (per tensor: a scalar, or a 1-D tensor of one element as onnxruntime
//   takes it); 1-D of x's dim on `axis` (per axis, from 13); or x's rank with ceil(dim /
//   block_size) on `axis` (blocked, from 21, block_size > 0). x_zero_point: x_scale's shape (any
//   one element per tensor), x's type, 0 when omitted. For int32 x the spec says the zero point
//   "is supposed to be 0"; onnxruntime 1.30 and ONNX's reference implementation subtract it all
//   the same (the difference wrapping as int32), and so does this.
// - y: x's shape; float (10, 13), x_scale's type (19, 21), output_dtype when given (23 and later).
// - float8 (19) and float4e2m1 (23) x: y = float(x) * x_scale, as onnxruntime computes it; their
//   zero point, when given, must be 0 (onnxruntime's rule). A float8e8m0 x_scale (24) is 2^(code -
//   127); the output type is then output_dtype's, which must be given.
// The types x may have are rows of kXTypes below, one decode kernel each.
#include <algorithm>
#include <cstdlib>
#include <memory>

#include "../kernels/dequantize.h"
#include "../kernels/float16.h"
#include "../kernels/minifloat.h"
#include "../parallel.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct DqlParams : OpParams {
  int64_t axis = 1;
  int64_t block_size = 0;                           // 0: per tensor or per axis
  ElementType output_type = ElementType::Undefined;  // output_dtype; Undefined: x_scale's type
};

// How x's elements are decoded: one row per type x may have. Integer types have a kernel that
// decodes and multiplies; float8 and float4e2m1 (kernel null) decode through a table of their
// codes' values (kernels/minifloat.h).
struct XType {
  ElementType type;
  int bits;
  bool is_signed;
  DequantizeFn DequantizeKernels::*kernel;
  MiniFloat mini = MiniFloat::E4M3FN;  // when kernel is null
};

constexpr XType kXTypes[] = {
    {ElementType::Int8, 8, true, &DequantizeKernels::s8},     {ElementType::Uint8, 8, false, &DequantizeKernels::u8},
    {ElementType::Int16, 16, true, &DequantizeKernels::s16},  {ElementType::Uint16, 16, false, &DequantizeKernels::u16},
    {ElementType::Int32, 32, true, &DequantizeKernels::s32},  {ElementType::Int4, 4, true, &DequantizeKernels::s4},
    {ElementType::Uint4, 4, false, &DequantizeKernels::u4},   {ElementType::Int2, 2, true, &DequantizeKernels::s2},
    {ElementType::Uint2, 2, false, &DequantizeKernels::u2},
    {ElementType::Float8e4m3fn, 8, false, nullptr, MiniFloat::E4M3FN},
    {ElementType::Float8e4m3fnuz, 8, false, nullptr, MiniFloat::E4M3FNUZ},
    {ElementType::Float8e5m2, 8, false, nullptr, MiniFloat::E5M2},
    {ElementType::Float8e5m2fnuz, 8, false, nullptr, MiniFloat::E5M2FNUZ},
    {ElementType::Float4e2m1, 4, false, nullptr, MiniFloat::E2M1},
};

// The value of every code of a minifloat type (256 for float8, 16 for float4), made once.
const float* minifloat_values(MiniFloat k) {
  struct Tables {
    float values[5][256];
    Tables() {
      for (int t = 0; t < 5; ++t)
        for (int c = 0; c < 256; ++c)
          values[t][c] = minifloat_to_float(static_cast<uint8_t>(c), static_cast<MiniFloat>(t));
    }
  };
  static const Tables tables;
  return tables.values[static_cast<int>(k)];
}

const XType* x_type_of(ElementType t) {
  for (const XType& x : kXTypes)
    if (x.type == t) return &x;
  return nullptr;
}

enum class Granularity { PerTensor, PerAxis, Blocked };

// One element: a scalar, or a 1-D tensor of one element (onnxruntime's IsScalarOr1ElementVector).
bool one_element(const ValueInfo& s) {
  return s.dims.empty() || (s.dims.size() == 1 && s.dims[0].is_known() && s.dims[0].value == 1);
}

// The granularity x_scale gives, with the rules that need shapes; `axis` normalized (per axis and
// blocked). `per_axis_ok`: version 13 and later.
Status granularity_of(const OpVersion& v, const DqlParams& p, const ValueInfo& x, const ValueInfo& scale,
                      const ValueInfo* zero, bool per_axis_ok, Granularity* g, size_t* axis) {
  const int64_t rank = static_cast<int64_t>(x.dims.size());
  if (p.block_size > 0) {
    *g = Granularity::Blocked;
    ONNXWASM_RETURN_IF_ERROR(normalize_axis(v, "axis", p.axis, rank, true, "x", axis));
    if (scale.dims.size() != x.dims.size())
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": x_scale " + scale.shape_string() + " must have x's rank (x " +
                                               x.shape_string() + ") for blocked quantization (block_size " +
                                               std::to_string(p.block_size) + ")");
    for (size_t i = 0; i < x.dims.size(); ++i) {
      const Dim& d = x.dims[i];
      const Dim& s = scale.dims[i];
      if (!d.is_known() || !s.is_known()) continue;
      const int64_t want = i == *axis ? d.value / p.block_size + (d.value % p.block_size != 0) : d.value;
      if (s.value != want)
        return ONNXWASM_ERROR(StatusCode::Shape,
                              v.label() + ": x_scale " + scale.shape_string() + " does not match x " + x.shape_string() +
                                  ": dimension " + std::to_string(i) + " must be " + std::to_string(want) +
                                  (i == *axis ? " (ceil(" + std::to_string(d.value) + " / block_size " +
                                                    std::to_string(p.block_size) + ") along axis)"
                                              : ""));
    }
  } else if (one_element(scale)) {
    *g = Granularity::PerTensor;
    *axis = 0;
  } else if (!per_axis_ok) {
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": x_scale " + scale.shape_string() +
                                             " must be a scalar (per-tensor dequantization only)");
  } else if (scale.dims.size() != 1) {
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": x_scale " + scale.shape_string() +
                                             " must be a scalar or 1-D (per axis)" +
                                             (v.since >= 21 ? std::string(", or have x's rank with block_size > 0") : ""));
  } else {
    *g = Granularity::PerAxis;
    ONNXWASM_RETURN_IF_ERROR(normalize_axis(v, "axis", p.axis, rank, true, "x", axis));
    const Dim& d = x.dims[*axis];
    if (d.is_known() && scale.dims[0].is_known() && scale.dims[0].value != d.value)
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": x_scale " + scale.shape_string() + " does not match x " +
                                               x.shape_string() + ": per-axis scales must number x's dimension " +
                                               std::to_string(*axis) + " (axis " + std::to_string(p.axis) + "), " +
                                               std::to_string(d.value));
  }
  if (!zero || !zero->rank_known) return Status::ok();
  if (*g == Granularity::PerTensor && one_element(*zero)) return Status::ok();
  bool same = zero->dims.size() == scale.dims.size();
  for (size_t i = 0; same && i < scale.dims.size(); ++i)
    same = !zero->dims[i].is_known() || !scale.dims[i].is_known() || zero->dims[i].value == scale.dims[i].value;
  if (!same)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": x_zero_point " + zero->shape_string() +
                                             " must have x_scale's shape " + scale.shape_string());
  return Status::ok();
}

// The rules every version shares: output x's shape, of type out_type.
Status infer_common(const OpVersion& v, const OpParams& params, const std::vector<ValueInfo>& in, bool per_axis_ok,
                    ElementType out_type, std::vector<ValueInfo>* out) {
  const DqlParams& p = static_cast<const DqlParams&>(params);
  const ValueInfo& x = in[0];
  const ValueInfo& scale = in[1];
  const ValueInfo* zero = in.size() > 2 && in[2].type != ElementType::Undefined ? &in[2] : nullptr;
  ValueInfo result;
  result.type = out_type;
  result.rank_known = x.rank_known;
  result.dims = x.dims;
  if (x.rank_known && scale.rank_known) {
    Granularity g;
    size_t axis = 0;
    ONNXWASM_RETURN_IF_ERROR(granularity_of(v, p, x, scale, zero, per_axis_ok, &g, &axis));
  }
  out->push_back(std::move(result));
  return Status::ok();
}

struct FreeDeleter {
  void operator()(void* q) const { std::free(q); }
};

// What a run reads: output element e is x's element e, its scale and zero point at scale_index(e).
struct Run {
  const uint8_t* x;
  const void* scale;
  const uint8_t* zero;  // null: 0
  ElementType scale_type, out_type;
  const XType* xt;
  DequantizeFn dequantize;    // null for a minifloat x: mini_values then
  const float* mini_values;
  NarrowFn narrow;  // float16/bfloat16 outputs
  // 4-bit x into float16/bfloat16 outputs: to16 writes a run of codes sharing a scale through a
  // table of the 16 codes' outputs (the same bits as decode then narrow); row16, without zero
  // points and with scales of the output's type, a row of blocks along the last axis in one call.
  DequantizeTo16Fn to16;
  DequantizeRowTo16Fn row16;
  Granularity g;
  int64_t axis_dim, inner, block_size, blocks;  // blocks: ceil(axis_dim / block_size)
  bool scale_rows;  // runs of consecutive scales: see emit_scale_rows
  void* dst;
};

float scale_at(const Run& r, int64_t i) {
  switch (r.scale_type) {
    case ElementType::Float16: return half_to_float(static_cast<const uint16_t*>(r.scale)[i]);
    case ElementType::Bfloat16: return bfloat16_to_float(static_cast<const uint16_t*>(r.scale)[i]);
    case ElementType::Float8e8m0: return e8m0_to_float(static_cast<const uint8_t*>(r.scale)[i]);
    default: return static_cast<const float*>(r.scale)[i];
  }
}

int32_t zero_at(const Run& r, int64_t i) {
  // (a minifloat x's zero point is 0: checked before the run)
  return r.zero && r.xt->kernel ? packed_code(r.zero, static_cast<size_t>(i), r.xt->bits, r.xt->is_signed) : 0;
}

// `count` elements of x from `first`, (x - zero) * scale, into `out`: the type's kernel, or for a
// minifloat x its codes' values times the scale.
void decode(const Run& r, size_t count, size_t first, int32_t zero, float scale, float* out) {
  if (r.dequantize) {
    r.dequantize(count, r.x, first, zero, scale, out);
    return;
  }
  for (size_t k = 0; k < count; ++k)
    out[k] = r.mini_values[packed_code(r.x, first + k, r.xt->bits, false)] * scale;
}

// Floats of scratch a part narrows at a time (float16/bfloat16 outputs).
constexpr size_t kChunk = 2048;

// `count` elements from `first` that share scale and zero point s, into the output.
void emit(const Run& r, size_t first, size_t count, int64_t s, float* scratch) {
  const int32_t zero = zero_at(r, s);
  const float scale = scale_at(r, s);
  // (the table costs 16 conversions a call: shorter runs go through the scratch)
  if (r.to16 && count >= 16) {
    r.to16(count, r.x, first, r.xt->is_signed, zero, scale, nullptr, static_cast<uint16_t*>(r.dst) + first);
    return;
  }
  if (r.out_type == ElementType::Float) {
    decode(r, count, first, zero, scale, static_cast<float*>(r.dst) + first);
    return;
  }
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kChunk, count - done);
    decode(r, n, first + done, zero, scale, scratch);
    r.narrow(n, scratch, static_cast<uint16_t*>(r.dst) + first + done);
    done += n;
  }
}

// `count` elements from `first` whose scales and zero points are s, s + 1, ...: per axis along
// the last axis, blocked along any other. The codes are read as floats (the kernel with zero 0 and
// scale 1: exact below 2^24, so not for int32), then (code - zero) * scale: the same bits as
// float(code - zero) * scale, each difference exact in float.
void emit_scale_rows(const Run& r, size_t first, size_t count, int64_t s, float* scratch) {
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(kChunk, count - done);
    float* buf = r.out_type == ElementType::Float ? static_cast<float*>(r.dst) + first + done : scratch;
    decode(r, n, first + done, 0, 1.0f, buf);
    const int64_t at = s + static_cast<int64_t>(done);
    for (size_t k = 0; k < n; ++k) {
      const int64_t j = at + static_cast<int64_t>(k);
      buf[k] = (buf[k] - static_cast<float>(zero_at(r, j))) * scale_at(r, j);
    }
    if (buf == scratch) r.narrow(n, scratch, static_cast<uint16_t*>(r.dst) + first + done);
    done += n;
  }
}

// Output elements [begin, end), in runs that share a scale (or, with scale_rows, whose scales
// follow one another).
void dequantize_range(const Run& r, size_t begin, size_t end, float* scratch) {
  const size_t inner = static_cast<size_t>(r.inner), axis_dim = static_cast<size_t>(r.axis_dim);
  size_t i = begin;
  while (i < end) {
    size_t stop = end;
    int64_t s = 0;
    if (r.scale_rows) {
      if (r.g == Granularity::PerAxis) {   // inner 1: the row along the last axis
        stop = std::min(end, (i / axis_dim + 1) * axis_dim);
        s = static_cast<int64_t>(i % axis_dim);
      } else {   // blocked, inner > 1: a row of the dims after the axis
        const size_t row = i / inner, k = i % inner, o = row / axis_dim, a = row % axis_dim;
        s = static_cast<int64_t>((o * static_cast<size_t>(r.blocks) + a / static_cast<size_t>(r.block_size)) * inner + k);
        stop = std::min(end, (row + 1) * inner);
      }
      emit_scale_rows(r, i, stop - i, s, scratch);
      i = stop;
      continue;
    }
    if (r.g == Granularity::PerAxis) {
      const size_t row = i / inner;  // outer * axis_dim + a
      stop = std::min(end, (row + 1) * inner);
      s = static_cast<int64_t>(row % axis_dim);
    } else if (r.g == Granularity::Blocked) {
      const size_t row = i / inner, k = i % inner, o = row / axis_dim, a = row % axis_dim;
      const size_t b = a / static_cast<size_t>(r.block_size);
      s = static_cast<int64_t>((o * static_cast<size_t>(r.blocks) + b) * inner + k);
      if (inner == 1 && r.row16 && a % static_cast<size_t>(r.block_size) == 0) {
        // From a block's start to the row's end (or the part's): one call of the row kernel.
        stop = std::min(end, (o + 1) * axis_dim);
        r.row16(stop - i, static_cast<size_t>(r.block_size), r.x, i, r.xt->is_signed, 0,
                static_cast<const uint16_t*>(r.scale) + s, nullptr, static_cast<uint16_t*>(r.dst) + i);
        i = stop;
        continue;
      }
      // Along the last axis (inner 1) a run is the rest of the block; else one element (int32).
      stop = inner == 1 ? std::min(end, o * axis_dim + std::min(axis_dim, (b + 1) * static_cast<size_t>(r.block_size)))
                        : i + 1;
    }
    emit(r, i, stop - i, s, scratch);
    i = stop;
  }
}

// Outputs this large (bytes) are split over the threads build's pool, in equal element ranges.
constexpr size_t kParallelBytes = size_t{256} * 1024;

struct Plan {
  const Run* run;
  size_t count, parts;
  std::unique_ptr<float, FreeDeleter> scratch;  // kChunk floats a part (float16/bfloat16 outputs)
};

void run_part(void* ctx, size_t part) {
  const Plan& p = *static_cast<const Plan*>(ctx);
  // Parts start on a multiple of 8 elements: sub-byte codes start on a byte, halves on 16 bytes.
  const size_t units = (p.count + 7) / 8;
  const size_t begin = std::min(p.count, units * part / p.parts * 8), end = std::min(p.count, units * (part + 1) / p.parts * 8);
  dequantize_range(*p.run, begin, end, p.scratch ? p.scratch.get() + part * kChunk : nullptr);
}

}  // namespace

Status parse_dequantize_linear(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<DqlParams>();
  p->axis = attrs.get_int("axis", 1);
  p->block_size = attrs.get_int("block_size", 0);
  if (p->block_size < 0)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": block_size " + std::to_string(p->block_size) +
                                             " must be 0 (per tensor or per axis) or positive (blocked)");
  const int64_t dtype = attrs.get_int("output_dtype", 0);
  if (dtype != 0) {
    const ElementType t = static_cast<ElementType>(dtype);
    if (t != ElementType::Float && t != ElementType::Float16 && t != ElementType::Bfloat16)
      return ONNXWASM_ERROR(StatusCode::Attribute,
                            v.label() + ": output_dtype " + std::to_string(dtype) +
                                (dtype > 0 && dtype <= kMaxElementTypeId ? std::string(" (") + onnx_name(t) + ")" : std::string()) +
                                " is not allowed; it must be 0 (x_scale's type), 1 (float), 10 (float16) or 16 (bfloat16)");
    p->output_type = t;
  }
  *out = std::move(p);
  return Status::ok();
}

Status infer_dequantize_linear_10(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                                  std::vector<ValueInfo>* out) {
  return infer_common(v, p, in, false, ElementType::Float, out);
}

Status infer_dequantize_linear_13(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                                  std::vector<ValueInfo>* out) {
  return infer_common(v, p, in, true, ElementType::Float, out);
}

// 19 and 21 (21 adds blocks: parse reads block_size only where the row allows it).
Status infer_dequantize_linear_19(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                                  std::vector<ValueInfo>* out) {
  return infer_common(v, p, in, true, in[1].type, out);
}

Status infer_dequantize_linear_23(const OpVersion& v, const OpParams& params, const std::vector<ValueInfo>& in,
                                  std::vector<ValueInfo>* out) {
  const DqlParams& p = static_cast<const DqlParams&>(params);
  if (p.output_type == ElementType::Undefined && in[1].type == ElementType::Float8e8m0)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": x_scale is tensor(float8e8m0), which is no output type: " +
                                                 "output_dtype (float, float16 or bfloat16) is required");
  return infer_common(v, p, in, true, p.output_type != ElementType::Undefined ? p.output_type : in[1].type, out);
}

Status run_dequantize_linear(const OpVersion& v, const OpParams& params, const std::vector<const Tensor*>& in,
                             const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const DqlParams& p = static_cast<const DqlParams&>(params);
  const Tensor& x = *in[0];
  const Tensor& scale = *in[1];
  const Tensor* zero = in.size() > 2 ? in[2] : nullptr;
  const XType* xt = x_type_of(x.type);
  if (!xt)   // the registry's rows list only the types of kXTypes
    return ONNXWASM_ERROR(StatusCode::Type, v.label() + ": x of type " + onnx_name(x.type) + " has no decoder");

  Run r;
  r.x = x.buffer->data();
  r.scale = scale.buffer->data();
  r.zero = zero ? zero->buffer->data() : nullptr;
  r.scale_type = scale.type;
  r.out_type = inferred[0].type;
  r.xt = xt;
  const DequantizeKernels& k = dequantize_kernels_best();
  r.dequantize = xt->kernel ? k.*(xt->kernel) : nullptr;
  r.mini_values = nullptr;
  if (!xt->kernel) {
    const float* values = minifloat_values(xt->mini);
    r.mini_values = values;
    // onnxruntime's rule for float8 (and float4) x: no zero point, or zero points all 0.
    const size_t n = zero ? static_cast<size_t>(zero->element_count()) : 0;
    for (size_t i = 0; i < n; ++i)
      if (values[packed_code(zero->buffer->data(), i, xt->bits, false)] != 0.0f)
        return ONNXWASM_ERROR(StatusCode::InvalidArgument, v.label() + ": x_zero_point element " + std::to_string(i) +
                                                           " is not 0; for x of type " + onnx_name(x.type) +
                                                           " the zero point must be 0");
  }
  r.narrow = r.out_type == ElementType::Float16 ? k.to_half : k.to_bfloat16;
  const bool half = r.out_type == ElementType::Float16;
  r.to16 = r.out_type != ElementType::Float && xt->kernel && xt->bits == 4 ? (half ? k.lut4_to_half : k.lut4_to_bfloat16) : nullptr;
  r.row16 = r.to16 && !r.zero && r.scale_type == r.out_type ? (half ? k.lut4_row_half : k.lut4_row_bfloat16) : nullptr;

  // The shapes were checked by inference (run follows it); this reads the granularity.
  r.g = Granularity::PerTensor;
  size_t axis = 0;
  if (p.block_size > 0) r.g = Granularity::Blocked;
  else if (!(scale.dims.empty() || (scale.dims.size() == 1 && scale.dims[0] == 1))) r.g = Granularity::PerAxis;
  if (r.g != Granularity::PerTensor) {
    const int64_t rank = static_cast<int64_t>(x.dims.size());
    axis = static_cast<size_t>(p.axis < 0 ? p.axis + rank : p.axis);
  }
  // (An empty x computes nothing: its other dims may be huge, and their product would overflow.
  // A block longer than the axis is the whole axis: the spec allows a block_size up to 2^63 - 1,
  // which neither axis_dim + block_size - 1 nor wasm32's size_t holds.)
  const bool empty = x.element_count() == 0;
  r.axis_dim = r.g == Granularity::PerTensor ? 1 : x.dims[axis];
  r.inner = 1;
  for (size_t i = axis + 1; !empty && r.g != Granularity::PerTensor && i < x.dims.size(); ++i) r.inner *= x.dims[i];
  r.block_size = std::min(p.block_size, std::max<int64_t>(r.axis_dim, 1));
  r.blocks = p.block_size > 0 ? (r.axis_dim + r.block_size - 1) / r.block_size : 1;
  if (r.g == Granularity::PerTensor) r.inner = x.element_count();
  r.scale_rows = xt->bits < 32 && ((r.g == Granularity::PerAxis && r.inner == 1) || (r.g == Granularity::Blocked && r.inner > 1));

  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(r.out_type, x.dims, &result, /*zeroed=*/false));
  r.dst = result.buffer->data();
  const size_t count = static_cast<size_t>(x.element_count());
  if (count > 0) {
    const size_t out_bytes = count * (r.out_type == ElementType::Float ? 4 : 2);
    const size_t threads = out_bytes >= kParallelBytes ? parallel_threads() : 1;
    Plan plan;
    plan.run = &r;
    plan.count = count;
    plan.parts = threads == 1 ? 1 : std::min(threads * 4, (count + 7) / 8);
    if (r.out_type != ElementType::Float) {
      const size_t scratch_bytes = plan.parts * kChunk * sizeof(float);
      plan.scratch.reset(static_cast<float*>(std::malloc(scratch_bytes)));
      if (!plan.scratch)
        return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(scratch_bytes) +
                                                   " bytes of scratch");
    }
    parallel_for(plan.parts, run_part, &plan);
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
