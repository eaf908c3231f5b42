// com.microsoft GatherBlockQuantized: https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized
// (version 1), as onnxruntime's CPU kernel defines it (contrib_ops/cpu/quantization/
// gather_block_quantized.cc): Gather of a block-quantized table, dequantized on the way out.
// - data: uint8 words of 2, 4 or 8-bit codes packed along the last dim, lowest bits first
//   (MatMulNBits' layout; gather_axis 0, quantize_axis the last; default zero point 2^(bits-1)),
//   or int4/uint4 of the logical shape in ONNX's packing (any axes; default zero point 0);
// - scales: the data's rank, one per block_size codes along quantize_axis; their type is the
//   output's; zero_points (optional): the data's type, packed as the data along quantize_axis;
// - output: data's dims with gather_axis replaced by the indices' dims (the last one in codes).
// Unlike onnxruntime, which writes zeros for an index out of range, such an index is an
// IndexOutOfRangeError, as Gather's.
// onnx-wasm GatherBlockQuantized (version 1, docs/tensors-and-nodes.md#onnx-wasm-gatherblockquantized):
// the same with a fifth, optional input, `multiplier`, one element of the scales' type: the output
// then Mul(output, multiplier), each element as Mul computes it (in float, rounded to the output's
// type), without the intermediate tensor. A session runs onnxruntime-genai's GatherBlockQuantized
// -> Mul by a constant scale as this (js/model/fuse.mjs); 4-bit codes into 16-bit outputs multiply
// the table of a block's 16 outputs (kernels/dequantize.h), the other forms each output.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "../kernels/dequantize.h"
#include "../kernels/float16.h"
#include "../parallel.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct GbqParams : OpParams {
  int64_t gather_axis = 0;
  int64_t quantize_axis = 1;
  int64_t block_size = 128;
  int64_t bits = 4;
};

// The axes and sizes of one call, from the data's dims (packed for uint8): what both inference
// and the run need.
struct Layout {
  size_t gather_axis = 0, quantize_axis = 0;
  int64_t components = 1;  // codes per element of data: 8 / bits for uint8, else 1
};

Status layout_of(const OpVersion& v, const GbqParams& p, ElementType data_type, size_t rank, Layout* out) {
  if (rank == 0) return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": data must have rank >= 1, got a scalar");
  const int64_t r = static_cast<int64_t>(rank);
  ONNXWASM_RETURN_IF_ERROR(normalize_axis(v, "gather_axis", p.gather_axis, r, true, "data", &out->gather_axis));
  ONNXWASM_RETURN_IF_ERROR(normalize_axis(v, "quantize_axis", p.quantize_axis, r, true, "data", &out->quantize_axis));
  if (data_type == ElementType::Uint8) {
    if (p.bits != 2 && p.bits != 4 && p.bits != 8)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": bits " + std::to_string(p.bits) +
                                               " is not allowed for uint8 data; bits must be 2, 4 or 8");
    if (out->gather_axis != 0)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": gather_axis " + std::to_string(p.gather_axis) +
                                               " is not allowed for uint8 data; it must be 0");
    if (out->quantize_axis != rank - 1 || rank < 2)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": quantize_axis " + std::to_string(p.quantize_axis) +
                                               " is not allowed for uint8 data of rank " + std::to_string(rank) +
                                               "; it must be the last axis, other than gather_axis 0");
    out->components = 8 / p.bits;
  } else if (p.bits != 4) {
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": bits " + std::to_string(p.bits) + " is not allowed for " +
                                             onnx_name(data_type) + " data; bits must be 4");
  }
  return Status::ok();
}

// Blocks along the quantize axis: ceil(codes / block_size).
int64_t block_count(int64_t codes, int64_t block_size) { return codes / block_size + (codes % block_size != 0); }

// The scales' and zero points' shapes against the data's, where dims are known.
Status check_quantization_shapes(const OpVersion& v, const GbqParams& p, const Layout& l, const ValueInfo& data,
                                 const ValueInfo& scales, const ValueInfo* zero_points) {
  if (!scales.rank_known) return Status::ok();
  if (scales.dims.size() != data.dims.size())
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": scales " + scales.shape_string() +
                                         " must have the data's rank (data " + data.shape_string() + ")");
  for (size_t i = 0; i < data.dims.size(); ++i) {
    const Dim& d = data.dims[i];
    const Dim& s = scales.dims[i];
    if (!d.is_known() || !s.is_known()) continue;
    const int64_t want = i == l.quantize_axis ? block_count(d.value * l.components, p.block_size) : d.value;
    if (s.value != want)
      return ONNXWASM_ERROR(StatusCode::Shape,
                            v.label() + ": scales " + scales.shape_string() + " do not match data " + data.shape_string() +
                                ": dimension " + std::to_string(i) + " must be " + std::to_string(want) +
                                (i == l.quantize_axis ? " (blocks of " + std::to_string(p.block_size) + " codes along quantize_axis)" : ""));
  }
  if (!zero_points || !zero_points->rank_known) return Status::ok();
  if (zero_points->dims.size() != scales.dims.size())
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": zero_points " + zero_points->shape_string() +
                                         " must have the scales' rank (scales " + scales.shape_string() + ")");
  for (size_t i = 0; i < scales.dims.size(); ++i) {
    const Dim& s = scales.dims[i];
    const Dim& z = zero_points->dims[i];
    if (!s.is_known() || !z.is_known()) continue;
    const int64_t want = i == l.quantize_axis ? block_count(s.value, l.components) : s.value;
    if (z.value != want)
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": zero_points " + zero_points->shape_string() +
                                           " do not match scales " + scales.shape_string() + ": dimension " +
                                           std::to_string(i) + " must be " + std::to_string(want));
  }
  return Status::ok();
}

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// What a run reads, in the ORT kernel's terms: data as [M, axis_dim, block] around the gather
// axis and as [.., quantize_axis_dim, quantize_n] around the quantize axis (all in codes).
struct Run {
  const uint8_t* data;
  const void* scales;
  const uint8_t* zeros;  // null: the default zero point
  ElementType data_type, scale_type;
  int bits;
  bool is_signed;
  int32_t default_zero;
  int64_t block_size, axis_dim, block, quantize_dim, quantize_n, scale_row;  // scale_row: blocks * quantize_n
  DequantizeFn dequantize;
  DequantizeTo16Fn to16;  // non-null: 16-bit outputs are written by it, without the float scratch
  DequantizeRowTo16Fn row16;  // with to16: a whole row of blocks that have the default zero point
  const float* multiplier;    // null: none; else its value widened to float (see multiply)
  uint16_t multiplier_bits;   // a 16-bit multiplier as given
};

// Mul(out, multiplier) of `count` outputs of type t in place, by Mul's own loop (ops/arith.cpp):
// floats multiplied, halves and bfloat16s widened, multiplied and rounded back to nearest even.
void multiply(const Run& r, ElementType t, size_t count, void* out) {
  const void* m = t == ElementType::Float ? static_cast<const void*>(r.multiplier) : &r.multiplier_bits;
  arith_mul(t, count, out, 1, m, 0, out);
}

float scale_at(const Run& r, int64_t i) {
  switch (r.scale_type) {
    case ElementType::Float16: return half_to_float(static_cast<const uint16_t*>(r.scales)[i]);
    case ElementType::Bfloat16: return bfloat16_to_float(static_cast<const uint16_t*>(r.scales)[i]);
    default: return static_cast<const float*>(r.scales)[i];
  }
}

// The zero point of scale i: packed as the data along the scales' quantize axis (uint8: in rows
// of the scales' last dim, each row starting on a byte; int4/uint4: one stream, as ONNX packs).
int32_t zero_at(const Run& r, int64_t i) {
  if (!r.zeros) return r.default_zero;
  if (r.data_type != ElementType::Uint8) return packed_code(r.zeros, static_cast<size_t>(i), 4, r.is_signed);
  const int64_t per_byte = 8 / r.bits;
  const int64_t row = i / r.scale_row, in_row = i % r.scale_row;
  const int64_t row_bytes = (r.scale_row + per_byte - 1) / per_byte;
  return packed_code(r.zeros + row * row_bytes, static_cast<size_t>(in_row), r.bits, false);
}

// Calls run(i, count, e, s) for each run of codes of the `r.block` codes from logical element
// `first` that share scale s: `count` codes from logical element e, output element i of the block.
template <typename RunFn>
void for_each_run(const Run& r, int64_t first, RunFn run) {
  if (r.quantize_n == 1 && r.block == r.quantize_dim) {
    // The block is one row along the quantize axis (an embedding table: gather axis 0, quantize
    // axis the last of rank 2): its scales are consecutive, and no division finds them.
    int64_t s = first / r.quantize_dim * r.scale_row;
    for (int64_t i = 0; i < r.block; i += r.block_size, ++s) run(i, std::min(r.block_size, r.block - i), first + i, s);
    return;
  }
  if (r.quantize_n == 1) {
    // Runs of codes that share a scale: up to the next block boundary along the quantize axis.
    int64_t i = 0;
    while (i < r.block) {
      const int64_t e = first + i, y = e % r.quantize_dim;
      const int64_t count = std::min(r.block - i, std::min(r.block_size - y % r.block_size, r.quantize_dim - y));
      run(i, count, e, e / r.quantize_dim * r.scale_row + y / r.block_size);
      i += count;
    }
    return;
  }
  const int64_t full = r.quantize_dim * r.quantize_n;
  for (int64_t i = 0; i < r.block; ++i) {
    const int64_t e = first + i;
    run(i, 1, e, e / full * r.scale_row + e % full / r.quantize_n / r.block_size * r.quantize_n + e % r.quantize_n);
  }
}

// Dequantizes the `r.block` codes from logical element `first` into out (floats).
void dequantize_block(const Run& r, int64_t first, float* out) {
  for_each_run(r, first, [&](int64_t i, int64_t count, int64_t e, int64_t s) {
    r.dequantize(static_cast<size_t>(count), r.data, static_cast<size_t>(e), zero_at(r, s), scale_at(r, s), out + i);
  });
}

// The same into 16-bit outputs through r.to16 (4-bit codes, float16 or bfloat16 scales).
void dequantize_block_to16(const Run& r, int64_t first, uint16_t* out) {
  for_each_run(r, first, [&](int64_t i, int64_t count, int64_t e, int64_t s) {
    r.to16(static_cast<size_t>(count), r.data, static_cast<size_t>(e), r.is_signed, zero_at(r, s), scale_at(r, s), r.multiplier,
           out + i);
  });
}

// dequantize_block_to16 of an embedding table's row (the first case of for_each_run), its scales
// of one type known here: the general loop's calls a run (scale_at, half_to_float, zero_at, not
// inlined there) took as long as the table kernel itself on issue 30's gather. Without zero points
// the row is one call of the row kernel, which also widens the scales and computes the codes'
// differences once a row rather than once a block (docs/notes/2026-11-26-gbq-lut.md,
// docs/notes/2026-11-27-gbq-row-kernel.md).
template <bool kHalf>
void row_to16(const Run& r, int64_t first, uint16_t* out) {
  int64_t s = first / r.quantize_dim * r.scale_row;
  const uint16_t* scale = static_cast<const uint16_t*>(r.scales) + s;
  if (!r.zeros) {
    r.row16(static_cast<size_t>(r.block), static_cast<size_t>(r.block_size), r.data, static_cast<size_t>(first), r.is_signed,
            r.default_zero, scale, r.multiplier, out);
    return;
  }
  for (int64_t i = 0; i < r.block; i += r.block_size, ++s, ++scale)
    r.to16(static_cast<size_t>(std::min(r.block_size, r.block - i)), r.data, static_cast<size_t>(first + i), r.is_signed,
           zero_at(r, s), kHalf ? half_to_float(*scale) : bfloat16_to_float(*scale), r.multiplier, out + i);
}

// Gathers at least this large (output bytes) are split across threads, as Gather's element
// gathers are (each block is dequantized on its own: no part waits on another).
constexpr size_t kParallelBytes = size_t{256} * 1024;

// One run's output, split into `parts` equal ranges of its `blocks` output blocks.
struct OutputPlan {
  const Run* run;
  const DequantizeKernels* kernels;
  const uint32_t* norm;
  size_t n, blocks, parts;
  int64_t axis_dim;
  ElementType out_type;
  void* dst;
  std::unique_ptr<float, FreeDeleter> scratch;  // r.block floats a part (float16/bfloat16 outputs)
};

void run_output_part(void* ctx, size_t part) {
  const OutputPlan& p = *static_cast<const OutputPlan*>(ctx);
  const Run& r = *p.run;
  const size_t begin = p.blocks * part / p.parts, end = p.blocks * (part + 1) / p.parts;
  float* scratch = p.scratch ? p.scratch.get() + part * static_cast<size_t>(r.block) : nullptr;
  for (size_t b = begin; b < end; ++b) {
    const int64_t m = static_cast<int64_t>(b / p.n);
    const int64_t first = (m * p.axis_dim + p.norm[b % p.n]) * r.block;
    const int64_t at = static_cast<int64_t>(b) * r.block;
    if (p.out_type == ElementType::Float) {
      float* out = static_cast<float*>(p.dst) + at;
      dequantize_block(r, first, out);
      if (r.multiplier) multiply(r, p.out_type, static_cast<size_t>(r.block), out);
      continue;
    }
    if (r.to16) {
      uint16_t* out = static_cast<uint16_t*>(p.dst) + at;
      if (r.quantize_n != 1 || r.block != r.quantize_dim) dequantize_block_to16(r, first, out);
      else if (p.out_type == ElementType::Float16) row_to16<true>(r, first, out);
      else row_to16<false>(r, first, out);
      continue;
    }
    dequantize_block(r, first, scratch);
    uint16_t* out = static_cast<uint16_t*>(p.dst) + at;
    (p.out_type == ElementType::Float16 ? p.kernels->to_half : p.kernels->to_bfloat16)(static_cast<size_t>(r.block), scratch, out);
    if (r.multiplier) multiply(r, p.out_type, static_cast<size_t>(r.block), out);
  }
}

}  // namespace

Status parse_gather_block_quantized(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<GbqParams>();
  p->gather_axis = attrs.get_int("gather_axis", 0);
  p->quantize_axis = attrs.get_int("quantize_axis", 1);
  p->block_size = attrs.get_int("block_size", 128);
  p->bits = attrs.get_int("bits", 4);
  if (p->block_size < 16 || (p->block_size & (p->block_size - 1)) != 0)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": block_size " + std::to_string(p->block_size) +
                                             " must be a power of 2 and at least 16");
  if (p->bits != 2 && p->bits != 4 && p->bits != 8)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": bits " + std::to_string(p->bits) + " must be 2, 4 or 8");
  *out = std::move(p);
  return Status::ok();
}

Status infer_gather_block_quantized(const OpVersion& v, const OpParams& params, const std::vector<ValueInfo>& in,
                                    std::vector<ValueInfo>* out) {
  const GbqParams& p = static_cast<const GbqParams&>(params);
  const ValueInfo& data = in[0];
  const ValueInfo& indices = in[1];
  const ValueInfo& scales = in[2];
  const ValueInfo* zero_points = in.size() > 3 && in[3].type != ElementType::Undefined ? &in[3] : nullptr;
  if (in.size() > 4 && in[4].type != ElementType::Undefined && in[4].rank_known) {
    const ValueInfo& m = in[4];
    bool one = true;   // (an unknown dim: checked by the inference a run makes, where every dim is known)
    for (const Dim& d : m.dims) one = one && (!d.is_known() || d.value == 1);
    if (!one)
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": multiplier " + m.shape_string() + " must hold one element");
  }
  ValueInfo result;
  result.type = scales.type;
  if (!data.rank_known || !indices.rank_known) {
    result.rank_known = false;
    out->push_back(result);
    return Status::ok();
  }
  Layout l;
  ONNXWASM_RETURN_IF_ERROR(layout_of(v, p, data.type, data.dims.size(), &l));
  ONNXWASM_RETURN_IF_ERROR(check_quantization_shapes(v, p, l, data, scales, zero_points));
  result.dims.assign(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(l.gather_axis));
  result.dims.insert(result.dims.end(), indices.dims.begin(), indices.dims.end());
  result.dims.insert(result.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(l.gather_axis) + 1, data.dims.end());
  if (l.components > 1) {
    Dim& last = result.dims.back();
    if (last.is_known()) last.value *= l.components;
    else last = Dim::unknown();
  }
  out->push_back(std::move(result));
  return Status::ok();
}

// Its PlanRowsFn (registry.h): a table kept outside memory is read by rows along gather_axis 0
// (uint8 data, where gather_axis must be 0); its scales and zero points are taken at the same rows.
Status plan_gather_block_quantized_rows(const OpVersion& v, const OpParams& p, const std::vector<int64_t>& data_dims,
                                        const Tensor& indices, Tensor* remapped, Tensor* rows) {
  const GbqParams& gp = static_cast<const GbqParams&>(p);
  const int64_t rank = static_cast<int64_t>(data_dims.size());
  size_t axis = 0, quantize_axis = 0;
  ONNXWASM_RETURN_IF_ERROR(normalize_axis(v, "gather_axis", gp.gather_axis, rank, true, "data", &axis));
  ONNXWASM_RETURN_IF_ERROR(normalize_axis(v, "quantize_axis", gp.quantize_axis, rank, true, "data", &quantize_axis));
  if (axis != 0 || quantize_axis == 0)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": a table kept outside memory is read by rows: gather_axis 0 and quantize_axis " +
                                         "another axis, not " + std::to_string(gp.gather_axis) + " and " + std::to_string(gp.quantize_axis));
  return plan_rows_of(v, data_dims[0], indices, remapped, rows);
}

Status run_gather_block_quantized(const OpVersion& v, const OpParams& params, const std::vector<const Tensor*>& in,
                                  const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const GbqParams& p = static_cast<const GbqParams&>(params);
  const Tensor& data = *in[0];
  const Tensor& indices = *in[1];
  const Tensor& scales = *in[2];
  const Tensor* zeros = in.size() > 3 ? in[3] : nullptr;
  const Tensor* multiplier = in.size() > 4 ? in[4] : nullptr;   // (one element: inference checked it)
  Layout l;
  ONNXWASM_RETURN_IF_ERROR(layout_of(v, p, data.type, data.dims.size(), &l));

  std::vector<int64_t> out_dims;
  for (const Dim& d : inferred[0].dims) out_dims.push_back(d.value);
  int64_t out_count = 0, out_bytes = 0;
  ONNXWASM_RETURN_IF_ERROR(check_dims(scales.type, out_dims, &out_count, &out_bytes));

  const size_t n = static_cast<size_t>(indices.element_count());
  const int64_t axis_dim = data.dims[l.gather_axis];
  std::unique_ptr<uint32_t, FreeDeleter> norm(static_cast<uint32_t*>(std::malloc((n > 0 ? n : 1) * sizeof(uint32_t))));
  if (!norm)
    return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(n * 4) +
                                               " bytes to normalize the indices");
  ONNXWASM_RETURN_IF_ERROR(check_gather_indices(v, indices, l.gather_axis, axis_dim, norm.get()));

  Run r;
  r.data = data.buffer->data();
  r.scales = scales.buffer->data();
  r.zeros = zeros ? zeros->buffer->data() : nullptr;
  r.data_type = data.type;
  r.scale_type = scales.type;
  r.bits = data.type == ElementType::Uint8 ? static_cast<int>(p.bits) : 4;
  r.is_signed = data.type == ElementType::Int4;
  r.default_zero = data.type == ElementType::Uint8 ? 1 << (r.bits - 1) : 0;
  int64_t outer = 1;
  for (size_t i = 0; i < l.gather_axis; ++i) outer *= data.dims[i];
  r.axis_dim = axis_dim;
  r.block = 1;
  for (size_t i = l.gather_axis + 1; i < data.dims.size(); ++i) r.block *= data.dims[i];
  r.block *= l.components;
  r.quantize_dim = data.dims[l.quantize_axis] * l.components;
  // A block longer than the quantize axis is the whole axis (block_size may be any power of 2
  // from 16: 2^40 is no size_t of wasm32, and the kernels divided by it cut to 32 bits: 0).
  r.block_size = std::min(p.block_size, std::max<int64_t>(r.quantize_dim, 1));
  r.quantize_n = 1;
  for (size_t i = l.quantize_axis + 1; i < data.dims.size(); ++i) r.quantize_n *= data.dims[i];
  r.scale_row = block_count(r.quantize_dim, p.block_size) * r.quantize_n;
  const DequantizeKernels& k = dequantize_kernels_best();
  r.dequantize = r.bits == 2 ? k.u2 : r.bits == 8 ? k.u8 : r.is_signed ? k.s4 : k.u4;
  // 4-bit codes to float16 or bfloat16 through a table of the 16 codes' outputs a run, written
  // straight into the output: where the quantize axis is the last (quantize_n 1) and an output
  // block has 16 codes or more, so runs are whole blocks of codes but at a row's end, as in an
  // embedding table (issue 30's gather: docs/notes/2026-11-26-gbq-lut.md). Other forms keep the
  // float path, where runs may be single codes: one conversion a code rather than 16 a run.
  r.to16 = nullptr;
  r.row16 = nullptr;
  float multiplier_value = 0;
  r.multiplier = nullptr;
  r.multiplier_bits = 0;
  if (multiplier) {
    if (scales.type == ElementType::Float) {
      std::memcpy(&multiplier_value, multiplier->buffer->data(), sizeof(float));
    } else {
      std::memcpy(&r.multiplier_bits, multiplier->buffer->data(), sizeof(uint16_t));
      multiplier_value = scales.type == ElementType::Float16 ? half_to_float(r.multiplier_bits) : bfloat16_to_float(r.multiplier_bits);
    }
    r.multiplier = &multiplier_value;
  }
  if (r.bits == 4 && r.quantize_n == 1 && r.block >= 16 && scales.type != ElementType::Float) {
    r.to16 = scales.type == ElementType::Float16 ? k.lut4_to_half : k.lut4_to_bfloat16;
    r.row16 = scales.type == ElementType::Float16 ? k.lut4_row_half : k.lut4_row_bfloat16;
  }

  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(scales.type, std::move(out_dims), &result, /*zeroed=*/false));
  if (out_count > 0) {
    // Output blocks (one a gathered index, for each outer index) in parts, over threads where the
    // build has them and the output is large (each part runs on a thread of the pool). float16 and
    // bfloat16 outputs not written by r.to16 are dequantized into floats first, one block at a
    // time, in each part's own scratch, then narrowed.
    const size_t blocks = static_cast<size_t>(outer) * n;
    const size_t threads = static_cast<size_t>(out_bytes) >= kParallelBytes ? parallel_threads() : 1;
    OutputPlan plan;
    plan.run = &r;
    plan.kernels = &k;
    plan.norm = norm.get();
    plan.n = n;
    plan.axis_dim = axis_dim;
    plan.blocks = blocks;
    plan.parts = threads == 1 ? 1 : std::min(threads * 4, blocks);
    plan.out_type = scales.type;
    plan.dst = result.buffer->data();   // (16-byte aligned: floats or uint16s)
    if (scales.type != ElementType::Float && !r.to16) {
      const size_t scratch_bytes = plan.parts * static_cast<size_t>(r.block) * sizeof(float);
      plan.scratch.reset(static_cast<float*>(std::malloc(scratch_bytes)));
      if (!plan.scratch)
        return ONNXWASM_ERROR(StatusCode::OutOfMemory, v.label() + ": cannot allocate " + std::to_string(scratch_bytes) +
                                                   " bytes for blocks of output");
    }
    parallel_for(plan.parts, run_output_part, &plan);
  }
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
