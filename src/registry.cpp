#include "registry.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ops/ops.h"

namespace onnxwasm {
namespace {

using E = ElementType;

// ONNX's type lists, version by version (see each op's page for the T constraint).
constexpr TypeSet kFloats = {E::Float16, E::Float, E::Double};
constexpr TypeSet kClassic = {E::Bool,    E::Complex128, E::Complex64, E::Double, E::Float,
                              E::Float16, E::Int16,      E::Int32,     E::Int64,  E::Int8,
                              E::String,  E::Uint16,     E::Uint32,    E::Uint64, E::Uint8};
constexpr TypeSet kWithBf16 = kClassic | TypeSet{E::Bfloat16};
constexpr TypeSet kFloat8 = {E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz};
constexpr TypeSet kWithFloat8 = kWithBf16 | kFloat8;
constexpr TypeSet kWithInt4 = kWithFloat8 | TypeSet{E::Int4, E::Uint4};
constexpr TypeSet kWithFloat4 = kWithInt4 | TypeSet{E::Float4e2m1};
constexpr TypeSet kWithE8m0 = kWithFloat4 | TypeSet{E::Float8e8m0};
constexpr TypeSet kWithInt2 = kWithE8m0 | TypeSet{E::Int2, E::Uint2};
// Cast and CastLike: every type but the complex ones (T1 and T2 alike), version by version.
constexpr TypeSet kCast1 = {E::Bool,  E::Double, E::Float,  E::Float16, E::Int16,  E::Int32,
                            E::Int64, E::Int8,   E::Uint16, E::Uint32,  E::Uint64, E::Uint8};
constexpr TypeSet kCast9 = kCast1 | TypeSet{E::String};
constexpr TypeSet kCast13 = kCast9 | TypeSet{E::Bfloat16};
constexpr TypeSet kCast19 = kCast13 | kFloat8;
constexpr TypeSet kCast21 = kCast19 | TypeSet{E::Int4, E::Uint4};
constexpr TypeSet kCast23 = kCast21 | TypeSet{E::Float4e2m1};
constexpr TypeSet kCast24 = kCast23 | TypeSet{E::Float8e8m0};
constexpr TypeSet kCast25 = kCast24 | TypeSet{E::Int2, E::Uint2};
constexpr TypeSet kIndexTypes = {E::Int32, E::Int64};
constexpr TypeSet kInt64 = {E::Int64};

// The input lists of the ops, for each type list T they take.
template <const TypeSet& T>
struct In {
  static constexpr InputSpec data[] = {{"data", "T", T}};
  static constexpr InputSpec input[] = {{"input", "T", T}};
  // Identity's input is T until 13, V (tensors, sequences, optionals: the tensors only here) from 14.
  static constexpr InputSpec input_v[] = {{"input", "V", T}};
  static constexpr InputSpec gather[] = {{"data", "T", T}, {"indices", "Tind", kIndexTypes}};
  // GatherND: indices are int64 in every version.
  static constexpr InputSpec gather_nd[] = {{"data", "T", T}, {"indices", "tensor(int64)", kInt64}};
  static constexpr InputSpec reshape[] = {{"data", "T", T}, {"shape", "tensor(int64)", kInt64, true}};
  // Unsqueeze-13 and later: axes (required); Squeeze-13 and later: axes (optional); inference reads them.
  static constexpr InputSpec unsqueeze[] = {{"data", "T", T}, {"axes", "tensor(int64)", kInt64, true}};
  static constexpr InputSpec squeeze[] = {{"data", "T", T}, {"axes", "tensor(int64)", kInt64, true, true}};
  // Cast: T1 in, T2 (from `to`) out; CastLike: T2 is its second input's type.
  static constexpr InputSpec cast[] = {{"input", "T1", T}};
  static constexpr InputSpec cast_like[] = {{"input", "T1", T}, {"target_type", "T2", T}};
  // Concat: one or more inputs of one type (variadic T).
  static constexpr InputSpec concat[] = {{"inputs", "T", T, false, false, true}};
  // Slice-10 and later: starts, ends and the optional axes and steps, of one index type; inference reads them.
  static constexpr InputSpec slice[] = {{"data", "T", T},
                                        {"starts", "Tind", kIndexTypes, true},
                                        {"ends", "Tind", kIndexTypes, true},
                                        {"axes", "Tind", kIndexTypes, true, true},
                                        {"steps", "Tind", kIndexTypes, true, true}};
  // Range: three scalars of one type, whose values give the output's length.
  static constexpr InputSpec range[] = {{"start", "T", T, true}, {"limit", "T", T, true}, {"delta", "T", T, true}};
  // Add, Sub, Mul, Div: two inputs of one type.
  static constexpr InputSpec binary[] = {{"A", "T", T}, {"B", "T", T}};
};

constexpr AttrSpec kAxis[] = {{"axis", AttrKind::Int, false}};
constexpr AttrSpec kReshape1Attrs[] = {{"shape", AttrKind::Ints, true}, {"consumed_inputs", AttrKind::Ints, false}};
constexpr AttrSpec kAllowzero[] = {{"allowzero", AttrKind::Int, false}};
constexpr AttrSpec kShapeSlice[] = {{"start", AttrKind::Int, false}, {"end", AttrKind::Int, false}};
constexpr AttrSpec kAxesRequired[] = {{"axes", AttrKind::Ints, true}};
constexpr AttrSpec kAxesOptional[] = {{"axes", AttrKind::Ints, false}};
constexpr AttrSpec kCast1Attrs[] = {{"to", AttrKind::String, true}};
constexpr AttrSpec kCast6Attrs[] = {{"to", AttrKind::Int, true}};
constexpr AttrSpec kCast19Attrs[] = {{"to", AttrKind::Int, true}, {"saturate", AttrKind::Int, false}};
constexpr AttrSpec kCast24Attrs[] = {{"to", AttrKind::Int, true}, {"saturate", AttrKind::Int, false}, {"round_mode", AttrKind::String, false}};
constexpr AttrSpec kCastLike19Attrs[] = {{"saturate", AttrKind::Int, false}};
constexpr AttrSpec kCastLike24Attrs[] = {{"saturate", AttrKind::Int, false}, {"round_mode", AttrKind::String, false}};
constexpr AttrSpec kConcatAxis[] = {{"axis", AttrKind::Int, true}};
constexpr AttrSpec kBatchDims[] = {{"batch_dims", AttrKind::Int, false}};
constexpr AttrSpec kSlice1Attrs[] = {{"starts", AttrKind::Ints, true}, {"ends", AttrKind::Ints, true}, {"axes", AttrKind::Ints, false}};
constexpr AttrSpec kStashType[] = {{"stash_type", AttrKind::Int, false}};
constexpr AttrSpec kConstantValue[] = {{"value", AttrKind::Tensor, false}};

// Range's T: 11 the five numeric types, 27 float16 and bfloat16 too.
constexpr TypeSet kRange11 = {E::Float, E::Double, E::Int16, E::Int32, E::Int64};
constexpr TypeSet kRange27 = kRange11 | TypeSet{E::Float16, E::Bfloat16};
// ConstantOfShape's input (T1); its output type (T2) is the attribute's, checked by its parse.
constexpr InputSpec kConstantOfShapeInputs[] = {{"input", "T1", kInt64, true}};

// Add, Sub, Mul and Div: floats at 1; the high-precision numeric types at 6 and 7; bfloat16 from
// 13; every numeric type (int8, int16, uint8, uint16 too) from 14. 1 and 6 broadcast only when
// asked (broadcast, axis); 1 also has the legacy consumed_inputs.
constexpr TypeSet kArith6 = {E::Uint32, E::Uint64, E::Int32, E::Int64, E::Float16, E::Float, E::Double};
constexpr TypeSet kArith13 = kArith6 | TypeSet{E::Bfloat16};
constexpr TypeSet kArith14 = kArith13 | TypeSet{E::Uint8, E::Uint16, E::Int8, E::Int16};
constexpr AttrSpec kArith1Attrs[] = {{"broadcast", AttrKind::Int, false},
                                     {"consumed_inputs", AttrKind::Ints, false},
                                     {"axis", AttrKind::Int, false}};
constexpr AttrSpec kArith6Attrs[] = {{"broadcast", AttrKind::Int, false}, {"axis", AttrKind::Int, false}};

// The scales of quantized tables (GatherBlockQuantized's T2; DequantizeLinear's T2 from 19).
constexpr TypeSet kQuantScales = {E::Float, E::Float16, E::Bfloat16};

// com.microsoft GatherBlockQuantized: quantized data (T1), indices, scales (T2, the output's
// type) and optional zero points (T1).
constexpr TypeSet kGbqData = {E::Uint8, E::Uint4, E::Int4};
constexpr InputSpec kGbqInputs[] = {
    {"data", "T1", kGbqData},
    {"indices", "Tind", kIndexTypes},
    {"scales", "T2", kQuantScales},
    {"zero_points", "T1", kGbqData, false, true},
};
// onnx-wasm GatherBlockQuantized: the same, and a multiplier of the scales' type (one element).
constexpr InputSpec kGbqMulInputs[] = {
    {"data", "T1", kGbqData},
    {"indices", "Tind", kIndexTypes},
    {"scales", "T2", kQuantScales},
    {"zero_points", "T1", kGbqData, false, true},
    {"multiplier", "T2", kQuantScales, false, true},
};
constexpr AttrSpec kGbqAttrs[] = {{"gather_axis", AttrKind::Int, false},
                                  {"quantize_axis", AttrKind::Int, false},
                                  {"block_size", AttrKind::Int, false},
                                  {"bits", AttrKind::Int, false}};

// DequantizeLinear: x and x_zero_point (T, T1), x_scale (float; T2 from 19), per version: float8
// x from 19, float4e2m1 from 23, a float8e8m0 x_scale from 24.
constexpr TypeSet kDqlX10 = {E::Int8, E::Uint8, E::Int32};
constexpr TypeSet kDqlX19 = kDqlX10 | kFloat8;
constexpr TypeSet kDqlX21 = kDqlX19 | TypeSet{E::Int16, E::Uint16, E::Int4, E::Uint4};
constexpr TypeSet kDqlX23 = kDqlX21 | TypeSet{E::Float4e2m1};
constexpr TypeSet kDqlX25 = kDqlX23 | TypeSet{E::Int2, E::Uint2};
constexpr TypeSet kDqlScales24 = kQuantScales | TypeSet{E::Float8e8m0};
constexpr InputSpec kDqlInputs10[] = {
    {"x", "T", kDqlX10}, {"x_scale", "tensor(float)", {E::Float}}, {"x_zero_point", "T", kDqlX10, false, true}};
template <const TypeSet& X, const TypeSet& S = kQuantScales>
struct DqlIn {
  static constexpr InputSpec inputs[] = {
      {"x", "T1", X}, {"x_scale", "T2", S}, {"x_zero_point", "T1", X, false, true}};
};
constexpr AttrSpec kDqlAttrs13[] = {{"axis", AttrKind::Int, false}};
constexpr AttrSpec kDqlAttrs21[] = {{"axis", AttrKind::Int, false}, {"block_size", AttrKind::Int, false}};
constexpr AttrSpec kDqlAttrs23[] = {
    {"axis", AttrKind::Int, false}, {"block_size", AttrKind::Int, false}, {"output_dtype", AttrKind::Int, false}};

// Gather reads its data (input 0) by rows from outside memory when it gathers along axis 0;
// GatherBlockQuantized too (gather_axis 0), with its scales and zero points (inputs 2 and 3) taken
// at the same rows.
constexpr Capabilities kGatherCaps = {false, 0, "axis", plan_gather_rows};
constexpr Capabilities kGbqCaps = {false, 0, "gather_axis", plan_gather_block_quantized_rows, (1u << 2) | (1u << 3)};
constexpr Capabilities kView = {true, -1, nullptr, nullptr};
constexpr Capabilities kNone = {};

#define SPEC(op, v) "https://onnx.ai/onnx/operators/onnx__" #op ".html#" #op "-" #v

}  // namespace

Span<DomainInfo> domains() {
  static constexpr DomainInfo table[] = {{"", kMinOpset, kMaxOpset}, {"com.microsoft", 1, 1}, {"onnx-wasm", 1, 1}};
  return table;
}

Span<OpVersion> op_versions() {
  static constexpr OpVersion table[] = {
      // domain, op, since, until, inputs, attributes, parse, infer, run, capabilities, spec
      {"", "Gather", 1, 10, In<kClassic>::gather, kAxis, parse_gather, infer_gather, run_gather, kGatherCaps, SPEC(Gather, 1)},
      {"", "Gather", 11, 12, In<kClassic>::gather, kAxis, parse_gather, infer_gather, run_gather, kGatherCaps, SPEC(Gather, 11)},
      {"", "Gather", 13, kMaxOpset, In<kWithBf16>::gather, kAxis, parse_gather, infer_gather, run_gather, kGatherCaps, SPEC(Gather, 13)},

      {"", "Flatten", 1, 8, In<kFloats>::input, kAxis, parse_flatten, infer_flatten_1, run_view, kView, SPEC(Flatten, 1)},
      {"", "Flatten", 9, 10, In<kClassic>::input, kAxis, parse_flatten, infer_flatten_1, run_view, kView, SPEC(Flatten, 9)},
      {"", "Flatten", 11, 12, In<kClassic>::input, kAxis, parse_flatten, infer_flatten_11, run_view, kView, SPEC(Flatten, 11)},
      {"", "Flatten", 13, 20, In<kWithBf16>::input, kAxis, parse_flatten, infer_flatten_11, run_view, kView, SPEC(Flatten, 13)},
      {"", "Flatten", 21, 22, In<kWithInt4>::input, kAxis, parse_flatten, infer_flatten_11, run_view, kView, SPEC(Flatten, 21)},
      {"", "Flatten", 23, 23, In<kWithFloat4>::input, kAxis, parse_flatten, infer_flatten_11, run_view, kView, SPEC(Flatten, 23)},
      {"", "Flatten", 24, 24, In<kWithE8m0>::input, kAxis, parse_flatten, infer_flatten_11, run_view, kView, SPEC(Flatten, 24)},
      {"", "Flatten", 25, kMaxOpset, In<kWithInt2>::input, kAxis, parse_flatten, infer_flatten_11, run_view, kView, SPEC(Flatten, 25)},

      {"", "Reshape", 1, 4, In<kFloats>::data, kReshape1Attrs, parse_reshape, infer_reshape_1, run_view, kView, SPEC(Reshape, 1)},
      {"", "Reshape", 5, 12, In<kClassic>::reshape, {}, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 5)},
      {"", "Reshape", 13, 13, In<kWithBf16>::reshape, {}, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 13)},
      {"", "Reshape", 14, 18, In<kWithBf16>::reshape, kAllowzero, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 14)},
      {"", "Reshape", 19, 20, In<kWithFloat8>::reshape, kAllowzero, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 19)},
      {"", "Reshape", 21, 22, In<kWithInt4>::reshape, kAllowzero, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 21)},
      {"", "Reshape", 23, 23, In<kWithFloat4>::reshape, kAllowzero, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 23)},
      {"", "Reshape", 24, 24, In<kWithE8m0>::reshape, kAllowzero, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 24)},
      {"", "Reshape", 25, kMaxOpset, In<kWithInt2>::reshape, kAllowzero, parse_reshape, infer_reshape_5, run_view, kView, SPEC(Reshape, 25)},

      {"", "Shape", 1, 12, In<kClassic>::data, {}, parse_shape, infer_shape_1, run_shape, kNone, SPEC(Shape, 1)},
      {"", "Shape", 13, 14, In<kWithBf16>::data, {}, parse_shape, infer_shape_1, run_shape, kNone, SPEC(Shape, 13)},
      {"", "Shape", 15, 18, In<kWithBf16>::data, kShapeSlice, parse_shape, infer_shape_15, run_shape, kNone, SPEC(Shape, 15)},
      {"", "Shape", 19, 20, In<kWithFloat8>::data, kShapeSlice, parse_shape, infer_shape_15, run_shape, kNone, SPEC(Shape, 19)},
      {"", "Shape", 21, 22, In<kWithInt4>::data, kShapeSlice, parse_shape, infer_shape_15, run_shape, kNone, SPEC(Shape, 21)},
      {"", "Shape", 23, 23, In<kWithFloat4>::data, kShapeSlice, parse_shape, infer_shape_15, run_shape, kNone, SPEC(Shape, 23)},
      {"", "Shape", 24, 24, In<kWithE8m0>::data, kShapeSlice, parse_shape, infer_shape_15, run_shape, kNone, SPEC(Shape, 24)},
      {"", "Shape", 25, kMaxOpset, In<kWithInt2>::data, kShapeSlice, parse_shape, infer_shape_15, run_shape, kNone, SPEC(Shape, 25)},

      {"", "Size", 1, 12, In<kClassic>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 1)},
      {"", "Size", 13, 18, In<kWithBf16>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 13)},
      {"", "Size", 19, 20, In<kWithFloat8>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 19)},
      {"", "Size", 21, 22, In<kWithInt4>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 21)},
      {"", "Size", 23, 23, In<kWithFloat4>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 23)},
      {"", "Size", 24, 24, In<kWithE8m0>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 24)},
      {"", "Size", 25, kMaxOpset, In<kWithInt2>::data, {}, parse_size, infer_size, run_size, kNone, SPEC(Size, 25)},

      {"", "Identity", 1, 12, In<kClassic>::input, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 1)},
      {"", "Identity", 13, 13, In<kWithBf16>::input, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 13)},
      {"", "Identity", 14, 15, In<kWithBf16>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 14)},
      {"", "Identity", 16, 18, In<kWithBf16>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 16)},
      {"", "Identity", 19, 20, In<kWithFloat8>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 19)},
      {"", "Identity", 21, 22, In<kWithInt4>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 21)},
      {"", "Identity", 23, 23, In<kWithFloat4>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 23)},
      {"", "Identity", 24, 24, In<kWithE8m0>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 24)},
      {"", "Identity", 25, kMaxOpset, In<kWithInt2>::input_v, {}, parse_identity, infer_identity, run_view, kView, SPEC(Identity, 25)},

      {"", "Unsqueeze", 1, 10, In<kClassic>::data, kAxesRequired, parse_unsqueeze, infer_unsqueeze_1, run_view, kView, SPEC(Unsqueeze, 1)},
      {"", "Unsqueeze", 11, 12, In<kClassic>::data, kAxesRequired, parse_unsqueeze, infer_unsqueeze_11, run_view, kView, SPEC(Unsqueeze, 11)},
      {"", "Unsqueeze", 13, 20, In<kWithBf16>::unsqueeze, {}, parse_unsqueeze, infer_unsqueeze_13, run_view, kView, SPEC(Unsqueeze, 13)},
      {"", "Unsqueeze", 21, 22, In<kWithInt4>::unsqueeze, {}, parse_unsqueeze, infer_unsqueeze_13, run_view, kView, SPEC(Unsqueeze, 21)},
      {"", "Unsqueeze", 23, 23, In<kWithFloat4>::unsqueeze, {}, parse_unsqueeze, infer_unsqueeze_13, run_view, kView, SPEC(Unsqueeze, 23)},
      {"", "Unsqueeze", 24, 24, In<kWithE8m0>::unsqueeze, {}, parse_unsqueeze, infer_unsqueeze_13, run_view, kView, SPEC(Unsqueeze, 24)},
      {"", "Unsqueeze", 25, kMaxOpset, In<kWithInt2>::unsqueeze, {}, parse_unsqueeze, infer_unsqueeze_13, run_view, kView, SPEC(Unsqueeze, 25)},

      {"", "Squeeze", 1, 10, In<kClassic>::data, kAxesOptional, parse_squeeze, infer_squeeze_1, run_view, kView, SPEC(Squeeze, 1)},
      {"", "Squeeze", 11, 12, In<kClassic>::data, kAxesOptional, parse_squeeze, infer_squeeze_11, run_view, kView, SPEC(Squeeze, 11)},
      {"", "Squeeze", 13, 20, In<kWithBf16>::squeeze, {}, parse_squeeze, infer_squeeze_13, run_view, kView, SPEC(Squeeze, 13)},
      {"", "Squeeze", 21, 22, In<kWithInt4>::squeeze, {}, parse_squeeze, infer_squeeze_13, run_view, kView, SPEC(Squeeze, 21)},
      {"", "Squeeze", 23, 23, In<kWithFloat4>::squeeze, {}, parse_squeeze, infer_squeeze_13, run_view, kView, SPEC(Squeeze, 23)},
      {"", "Squeeze", 24, 24, In<kWithE8m0>::squeeze, {}, parse_squeeze, infer_squeeze_13, run_view, kView, SPEC(Squeeze, 24)},
      {"", "Squeeze", 25, kMaxOpset, In<kWithInt2>::squeeze, {}, parse_squeeze, infer_squeeze_13, run_view, kView, SPEC(Squeeze, 25)},

      {"com.microsoft", "GatherBlockQuantized", 1, 1, kGbqInputs, kGbqAttrs, parse_gather_block_quantized,
       infer_gather_block_quantized, run_gather_block_quantized, kGbqCaps,
       "https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md#com.microsoft.GatherBlockQuantized"},

      // onnx-wasm's own Gather: Gather-13 for every element type, sub-byte ones included.
      {"onnx-wasm", "Gather", 1, 1, In<kWithInt2>::gather, kAxis, parse_gather, infer_gather, run_gather, kGatherCaps,
       "https://github.com/onnx-wasm/onnx-wasm/blob/main/docs/tensors-and-nodes.md#onnx-wasm-gather"},
      // onnx-wasm's GatherBlockQuantized: com.microsoft's, then a Mul by a one-element multiplier.
      {"onnx-wasm", "GatherBlockQuantized", 1, 1, kGbqMulInputs, kGbqAttrs, parse_gather_block_quantized,
       infer_gather_block_quantized, run_gather_block_quantized, kGbqCaps,
       "https://github.com/onnx-wasm/onnx-wasm/blob/main/docs/tensors-and-nodes.md#onnx-wasm-gatherblockquantized"},

      {"", "Concat", 1, 3, In<kFloats>::concat, kAxis, parse_concat, infer_concat, run_concat, kNone, SPEC(Concat, 1)},
      {"", "Concat", 4, 10, In<kClassic>::concat, kConcatAxis, parse_concat, infer_concat, run_concat, kNone, SPEC(Concat, 4)},
      {"", "Concat", 11, 12, In<kClassic>::concat, kConcatAxis, parse_concat, infer_concat, run_concat, kNone, SPEC(Concat, 11)},
      {"", "Concat", 13, kMaxOpset, In<kWithBf16>::concat, kConcatAxis, parse_concat, infer_concat, run_concat, kNone, SPEC(Concat, 13)},

      {"", "GatherElements", 11, 12, In<kClassic>::gather, kAxis, parse_gather_elements, infer_gather_elements, run_gather_elements, kNone, SPEC(GatherElements, 11)},
      {"", "GatherElements", 13, kMaxOpset, In<kWithBf16>::gather, kAxis, parse_gather_elements, infer_gather_elements, run_gather_elements, kNone, SPEC(GatherElements, 13)},

      {"", "GatherND", 11, 11, In<kClassic>::gather_nd, {}, parse_gather_nd, infer_gather_nd, run_gather_nd, kNone, SPEC(GatherND, 11)},
      {"", "GatherND", 12, 12, In<kClassic>::gather_nd, kBatchDims, parse_gather_nd, infer_gather_nd, run_gather_nd, kNone, SPEC(GatherND, 12)},
      {"", "GatherND", 13, kMaxOpset, In<kWithBf16>::gather_nd, kBatchDims, parse_gather_nd, infer_gather_nd, run_gather_nd, kNone, SPEC(GatherND, 13)},

      {"", "Slice", 1, 9, In<kClassic>::data, kSlice1Attrs, parse_slice, infer_slice_1, run_slice, kNone, SPEC(Slice, 1)},
      {"", "Slice", 10, 10, In<kClassic>::slice, {}, parse_slice, infer_slice_10, run_slice, kNone, SPEC(Slice, 10)},
      {"", "Slice", 11, 12, In<kClassic>::slice, {}, parse_slice, infer_slice_11, run_slice, kNone, SPEC(Slice, 11)},
      {"", "Slice", 13, kMaxOpset, In<kWithBf16>::slice, {}, parse_slice, infer_slice_11, run_slice, kNone, SPEC(Slice, 13)},

      {"", "Range", 11, 26, In<kRange11>::range, {}, parse_range, infer_range, run_range, kNone, SPEC(Range, 11)},
      {"", "Range", 27, kMaxOpset, In<kRange27>::range, kStashType, parse_range, infer_range, run_range, kNone, SPEC(Range, 27)},

      {"", "ConstantOfShape", 9, 19, kConstantOfShapeInputs, kConstantValue, parse_constant_of_shape, infer_constant_of_shape, run_constant_of_shape, kNone, SPEC(ConstantOfShape, 9)},
      {"", "ConstantOfShape", 20, 20, kConstantOfShapeInputs, kConstantValue, parse_constant_of_shape, infer_constant_of_shape, run_constant_of_shape, kNone, SPEC(ConstantOfShape, 20)},
      {"", "ConstantOfShape", 21, 22, kConstantOfShapeInputs, kConstantValue, parse_constant_of_shape, infer_constant_of_shape, run_constant_of_shape, kNone, SPEC(ConstantOfShape, 21)},
      {"", "ConstantOfShape", 23, 23, kConstantOfShapeInputs, kConstantValue, parse_constant_of_shape, infer_constant_of_shape, run_constant_of_shape, kNone, SPEC(ConstantOfShape, 23)},
      {"", "ConstantOfShape", 24, 24, kConstantOfShapeInputs, kConstantValue, parse_constant_of_shape, infer_constant_of_shape, run_constant_of_shape, kNone, SPEC(ConstantOfShape, 24)},
      {"", "ConstantOfShape", 25, kMaxOpset, kConstantOfShapeInputs, kConstantValue, parse_constant_of_shape, infer_constant_of_shape, run_constant_of_shape, kNone, SPEC(ConstantOfShape, 25)},

      {"", "Cast", 1, 5, In<kCast1>::cast, kCast1Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 1)},
      {"", "Cast", 6, 8, In<kCast1>::cast, kCast6Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 6)},
      {"", "Cast", 9, 12, In<kCast9>::cast, kCast6Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 9)},
      {"", "Cast", 13, 18, In<kCast13>::cast, kCast6Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 13)},
      {"", "Cast", 19, 20, In<kCast19>::cast, kCast19Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 19)},
      {"", "Cast", 21, 22, In<kCast21>::cast, kCast19Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 21)},
      {"", "Cast", 23, 23, In<kCast23>::cast, kCast19Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 23)},
      {"", "Cast", 24, 24, In<kCast24>::cast, kCast24Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 24)},
      {"", "Cast", 25, kMaxOpset, In<kCast25>::cast, kCast24Attrs, parse_cast, infer_cast, run_cast, kNone, SPEC(Cast, 25)},

      {"", "CastLike", 15, 18, In<kCast13>::cast_like, {}, parse_cast_like, infer_cast_like, run_cast_like, kNone, SPEC(CastLike, 15)},
      {"", "CastLike", 19, 20, In<kCast19>::cast_like, kCastLike19Attrs, parse_cast_like, infer_cast_like, run_cast_like, kNone, SPEC(CastLike, 19)},
      {"", "CastLike", 21, 22, In<kCast21>::cast_like, kCastLike19Attrs, parse_cast_like, infer_cast_like, run_cast_like, kNone, SPEC(CastLike, 21)},
      {"", "CastLike", 23, 23, In<kCast23>::cast_like, kCastLike19Attrs, parse_cast_like, infer_cast_like, run_cast_like, kNone, SPEC(CastLike, 23)},
      {"", "CastLike", 24, 24, In<kCast24>::cast_like, kCastLike24Attrs, parse_cast_like, infer_cast_like, run_cast_like, kNone, SPEC(CastLike, 24)},
      {"", "CastLike", 25, kMaxOpset, In<kCast25>::cast_like, kCastLike24Attrs, parse_cast_like, infer_cast_like, run_cast_like, kNone, SPEC(CastLike, 25)},

      {"", "Add", 1, 5, In<kFloats>::binary, kArith1Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Add, 1)},
      {"", "Add", 6, 6, In<kArith6>::binary, kArith6Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Add, 6)},
      {"", "Add", 7, 12, In<kArith6>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Add, 7)},
      {"", "Add", 13, 13, In<kArith13>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Add, 13)},
      {"", "Add", 14, kMaxOpset, In<kArith14>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Add, 14)},
      {"", "Sub", 1, 5, In<kFloats>::binary, kArith1Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Sub, 1)},
      {"", "Sub", 6, 6, In<kArith6>::binary, kArith6Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Sub, 6)},
      {"", "Sub", 7, 12, In<kArith6>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Sub, 7)},
      {"", "Sub", 13, 13, In<kArith13>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Sub, 13)},
      {"", "Sub", 14, kMaxOpset, In<kArith14>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Sub, 14)},
      {"", "Mul", 1, 5, In<kFloats>::binary, kArith1Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Mul, 1)},
      {"", "Mul", 6, 6, In<kArith6>::binary, kArith6Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Mul, 6)},
      {"", "Mul", 7, 12, In<kArith6>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Mul, 7)},
      {"", "Mul", 13, 13, In<kArith13>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Mul, 13)},
      {"", "Mul", 14, kMaxOpset, In<kArith14>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Mul, 14)},
      {"", "Div", 1, 5, In<kFloats>::binary, kArith1Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Div, 1)},
      {"", "Div", 6, 6, In<kArith6>::binary, kArith6Attrs, parse_arith, infer_arith_1, run_arith, kNone, SPEC(Div, 6)},
      {"", "Div", 7, 12, In<kArith6>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Div, 7)},
      {"", "Div", 13, 13, In<kArith13>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Div, 13)},
      {"", "Div", 14, kMaxOpset, In<kArith14>::binary, {}, parse_arith, infer_arith_7, run_arith, kNone, SPEC(Div, 14)},

      {"", "DequantizeLinear", 10, 12, kDqlInputs10, {}, parse_dequantize_linear, infer_dequantize_linear_10, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 10)},
      {"", "DequantizeLinear", 13, 18, kDqlInputs10, kDqlAttrs13, parse_dequantize_linear, infer_dequantize_linear_13, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 13)},
      {"", "DequantizeLinear", 19, 20, DqlIn<kDqlX19>::inputs, kDqlAttrs13, parse_dequantize_linear, infer_dequantize_linear_19, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 19)},
      {"", "DequantizeLinear", 21, 22, DqlIn<kDqlX21>::inputs, kDqlAttrs21, parse_dequantize_linear, infer_dequantize_linear_19, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 21)},
      {"", "DequantizeLinear", 23, 23, DqlIn<kDqlX23>::inputs, kDqlAttrs23, parse_dequantize_linear, infer_dequantize_linear_23, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 23)},
      {"", "DequantizeLinear", 24, 24, DqlIn<kDqlX23, kDqlScales24>::inputs, kDqlAttrs23, parse_dequantize_linear, infer_dequantize_linear_23, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 24)},
      {"", "DequantizeLinear", 25, kMaxOpset, DqlIn<kDqlX25, kDqlScales24>::inputs, kDqlAttrs23, parse_dequantize_linear, infer_dequantize_linear_23, run_dequantize_linear, kNone, SPEC(DequantizeLinear, 25)},
  };
  return table;
}

std::string OpVersion::label() const {
  std::string s = domain[0] ? std::string(domain) + "." : std::string();
  return s.append(op).append("-").append(std::to_string(since));
}

size_t OpVersion::min_inputs() const {
  size_t n = 0;
  while (n < inputs.size() && !inputs[n].optional) ++n;
  return n;
}

size_t OpVersion::max_inputs() const { return !inputs.empty() && inputs.back().variadic ? SIZE_MAX : inputs.size(); }

std::string canonical_domain(const std::string& domain) { return domain == "ai.onnx" ? std::string() : domain; }

std::vector<std::string> supported_ops(const std::string& domain) {
  std::vector<std::string> ops;
  for (const OpVersion& v : op_versions())
    if (domain == v.domain && std::find(ops.begin(), ops.end(), v.op) == ops.end()) ops.emplace_back(v.op);
  return ops;
}

// Error paths that build their message in steps, apart from the checks (see ONNXWASM_COLD).
namespace {

std::string list_of(const std::vector<std::string>& items) {
  std::string list;
  for (const std::string& s : items) list += (list.empty() ? "" : ", ") + s;
  return list;
}

ONNXWASM_COLD Status unsupported_op_error(const std::string& domain, const std::string& op) {
  const std::vector<std::string> ops = supported_ops(domain);
  if (domain.empty())
    return Status(StatusCode::UnsupportedOp, "op '" + op + "' is not supported; onnx-wasm runs " + list_of(ops));
  std::vector<std::string> names;
  for (const DomainInfo& d : domains()) names.push_back(d.domain[0] ? "'" + std::string(d.domain) + "'" : "'' (ai.onnx)");
  if (ops.empty())
    return Status(StatusCode::UnsupportedOp, "op '" + op + "' of domain '" + domain +
                                                 "' is not supported; onnx-wasm runs the domains " + list_of(names));
  return Status(StatusCode::UnsupportedOp, "op '" + op + "' of domain '" + domain +
                                               "' is not supported; onnx-wasm runs " + list_of(ops) + " there");
}

ONNXWASM_COLD Status opset_error(const std::string& domain, const std::string& op, int opset, const DomainInfo* d) {
  const std::string name = domain.empty() ? op : domain + "." + op;
  if (opset < d->min_opset || opset > d->max_opset)
    return Status(StatusCode::Opset, name + ": opset " + std::to_string(opset) + " is outside the supported range [" +
                                         std::to_string(d->min_opset) + ", " + std::to_string(d->max_opset) + "]" +
                                         (domain.empty() ? "" : " of domain '" + domain + "'"));
  return Status(StatusCode::Opset, name + ": no version is defined at opset " + std::to_string(opset));
}

ONNXWASM_COLD Status input_count_error(const OpVersion& v, size_t given) {
  const size_t lo = v.min_inputs(), hi = v.max_inputs();
  std::string takes = std::to_string(lo);
  if (hi == SIZE_MAX) takes = "at least " + takes;
  else if (hi != lo) takes += " to " + std::to_string(hi);
  return Status(StatusCode::Input, v.label() + " takes " + takes + " input" + ((hi == SIZE_MAX ? lo : hi) == 1 ? "" : "s") + ", got " +
                                       std::to_string(given));
}

ONNXWASM_COLD Status input_type_error(const OpVersion& v, size_t i, ElementType type) {
  const InputSpec& in = v.input(i);
  const std::string allowed = in.constraint[0] == 't' ? "input '" + std::string(in.name) + "' must be " + in.constraint
                                                      : std::string(in.constraint) + " must be one of " + in.types.describe();
  // NOLINTBEGIN(performance-inefficient-string-concatenation)
  const std::string label = v.label();
  std::string msg = label + ": input " + std::to_string(i) + " ('" + in.name + "') has type tensor(" +
                    onnx_name(type) + ")" + (type == ElementType::Undefined ? " (it was omitted)" : "") + ", which " +
                    label + " does not allow; " + allowed;
  // NOLINTEND(performance-inefficient-string-concatenation)
  const size_t k = std::min(i, v.inputs.size() - 1);
  for (const OpVersion& later : op_versions())
    if (std::string(later.domain) == v.domain && later.op == v.op && later.since > v.since && later.inputs.size() > k &&
        later.inputs[k].types.contains(type)) {
      msg.append(" (tensor(").append(onnx_name(type)).append(") needs opset ")
          .append(std::to_string(later.since)).append(" or later)");
      break;
    }
  return Status(StatusCode::Type, msg);
}

ONNXWASM_COLD Status shared_type_error(const OpVersion& v, size_t first, size_t i, ElementType a, ElementType b) {
  return Status(StatusCode::Type, v.label() + ": input " + std::to_string(i) + " ('" + v.input(i).name + "') has type tensor(" +
                                      onnx_name(b) + ") but input " + std::to_string(first) + " ('" + v.input(first).name +
                                      "') has tensor(" + onnx_name(a) + "); both are " + v.input(i).constraint +
                                      ", one type");
}

ONNXWASM_COLD Status unknown_attribute_error(const OpVersion& v, const std::string& name) {
  std::string allowed;
  for (const AttrSpec& s : v.attributes) allowed += (allowed.empty() ? "" : ", ") + std::string(s.name);
  return Status(StatusCode::Attribute, v.label() + " has no attribute '" + name + "'; it allows " +
                                           (allowed.empty() ? std::string("none") : allowed));
}

}  // namespace

Status resolve_op(const std::string& given_domain, const std::string& op, int opset, const OpVersion** out) {
  const std::string domain = canonical_domain(given_domain);
  const DomainInfo* d = nullptr;
  for (const DomainInfo& x : domains())
    if (domain == x.domain) d = &x;
  bool known = false;
  if (d) {
    for (const OpVersion& v : op_versions()) {
      if (op != v.op || domain != v.domain) continue;
      known = true;
      if (opset >= d->min_opset && opset <= d->max_opset && v.since <= opset && opset <= v.until) {
        *out = &v;
        return Status::ok();
      }
    }
  }
  if (!known) return unsupported_op_error(domain, op);
  return opset_error(domain, op, opset, d);
}

Status check_input_types(const OpVersion& v, const std::vector<ElementType>& input_types) {
  // The label is built on error paths only: this runs on every prepared run.
  const size_t n = input_types.size();
  if (n < v.min_inputs() || n > v.max_inputs()) return input_count_error(v, n);
  for (size_t i = 0; i < n; ++i) {
    const InputSpec& in = v.input(i);
    if (input_types[i] == ElementType::Undefined && in.optional) continue;   // omitted
    if (!in.types.contains(input_types[i])) return input_type_error(v, i, input_types[i]);
    // Inputs of one constraint letter ("T") have one type: compared with the first given.
    if (in.constraint[0] == 't') continue;
    for (size_t j = 0; j < i; ++j)
      if (input_types[j] != ElementType::Undefined && !std::strcmp(v.input(j).constraint, in.constraint)) {
        if (input_types[j] != input_types[i]) return shared_type_error(v, j, i, input_types[j], input_types[i]);
        break;
      }
  }
  return Status::ok();
}

Status check_attributes(const OpVersion& v, const Attributes& attrs) {
  for (const Attribute& a : attrs.list()) {
    const AttrSpec* spec = nullptr;
    for (const AttrSpec& s : v.attributes)
      if (a.name == s.name) spec = &s;
    if (!spec) return unknown_attribute_error(v, a.name);
    if (spec->kind != a.kind)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute '" + a.name + "' must be " +
                                               attr_kind_name(spec->kind) + ", got " + attr_kind_name(a.kind));
  }
  for (const AttrSpec& s : v.attributes)
    if (s.required && !attrs.find(s.name))
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute '" + s.name + "' (" + attr_kind_name(s.kind) +
                                               ") is required");
  return Status::ok();
}

Status check_node(const OpVersion& v, const Attributes& attrs, const std::vector<ElementType>& input_types) {
  ONNXWASM_RETURN_IF_ERROR(check_input_types(v, input_types));
  return check_attributes(v, attrs);
}

Status parse_params(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  ONNXWASM_RETURN_IF_ERROR(check_attributes(v, attrs));
  return v.parse(v, attrs, out);
}

}  // namespace onnxwasm
