// The parse, shape inference and run functions of each op version, named in registry.cpp's
// table. Each op file keeps its parameter struct (derived from OpParams) to itself.
#pragma once
#include "../registry.h"

namespace onnxwasm {

// axis.cpp: `axis` (an attribute `name`) in [-rank, rank - 1], or [0, rank - 1] where negative
// axes are not allowed, normalized into *out; else an AttributeError naming the value, the range
// and what has the rank (`of`: "data", "inputs"), and for a negative axis the opset that allows
// it. axis_range_error is that error, with the caller's code.
Status normalize_axis(const OpVersion& v, const char* name, int64_t axis, int64_t rank, bool negative_ok, const char* of,
                      size_t* out);
ONNXWASM_COLD Status axis_range_error(const OpVersion& v, StatusCode code, const char* name, int64_t axis, int64_t rank,
                                      bool negative_ok, const char* of);

// gather.cpp: Gather-1, -11 and -13 share their rules; only their types differ.
Status parse_gather(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_gather(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_gather(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                  std::vector<Tensor>*);
// Checks every index against [-axis_dim, axis_dim - 1] (an IndexOutOfRangeError naming the first
// one outside), and writes them normalized to [0, axis_dim) into `norm` unless it is null.
Status check_gather_indices(const OpVersion& v, const Tensor& indices, size_t axis, int64_t axis_dim, uint32_t* norm);
// That error: index `value` at `position` (in the indices tensor) outside [-axis_dim, axis_dim - 1]
// for data's axis `axis` (Gather, GatherElements and GatherND report bad indices alike).
ONNXWASM_COLD Status index_range_error(const OpVersion& v, int64_t value, size_t position, size_t axis, int64_t axis_dim);
// Gather's PlanRowsFn (registry.h): axis 0 only.
Status plan_gather_rows(const OpVersion& v, const OpParams& p, const std::vector<int64_t>& data_dims,
                        const Tensor& indices, Tensor* remapped, Tensor* rows);
// The body of a PlanRowsFn along axis 0 of `axis_dim` rows: the indices checked as Gather checks
// them (check_gather_indices), then the distinct rows and the remapped indices.
Status plan_rows_of(const OpVersion& v, int64_t axis_dim, const Tensor& indices, Tensor* remapped, Tensor* rows);

// flatten.cpp: axis in [0, r] (versions 1 and 9) or [-r, r] (11 and later).
Status parse_flatten(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_flatten_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_flatten_11(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);

// reshape.cpp: shape from the attribute (1) or from the second input (5; allowzero from 14).
Status parse_reshape(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_reshape_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_reshape_5(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);

// view.cpp: the output of an op whose capabilities say `view` (Reshape, Flatten): the input's
// buffer with the inferred dims, no copy.
Status run_view(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                std::vector<Tensor>*);

// shape.cpp: Shape (all dims at 1 and 13; start/end from 15) and Size; an int64 output from the
// input's dims only, with its values (int_values) when those dims are known.
Status parse_shape(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_shape_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_shape_15(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_shape(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                 std::vector<Tensor>*);
Status parse_size(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_size(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_size(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                std::vector<Tensor>*);

// identity.cpp: Identity (every version alike; runs as a view).
Status parse_identity(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_identity(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);

// unsqueeze.cpp: Unsqueeze and Squeeze (views): axes as an attribute (1: non-negative; 11: negative
// too) or as an input (13 and later; optional for Squeeze).
Status parse_unsqueeze(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_unsqueeze_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_unsqueeze_11(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_unsqueeze_13(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status parse_squeeze(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_squeeze_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_squeeze_11(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_squeeze_13(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);

// gather_block_quantized.cpp: com.microsoft GatherBlockQuantized-1.
Status parse_gather_block_quantized(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_gather_block_quantized(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&,
                                    std::vector<ValueInfo>*);
Status run_gather_block_quantized(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&,
                                  const std::vector<ValueInfo>&, std::vector<Tensor>*);
Status plan_gather_block_quantized_rows(const OpVersion&, const OpParams&, const std::vector<int64_t>& data_dims,
                                        const Tensor& indices, Tensor* remapped, Tensor* rows);

// dequantize_linear.cpp: DequantizeLinear-10 (per tensor), -13 (per axis), -19 (x_scale's type
// out), -21 (blocked), -23, -24 and -25 (output_dtype).
Status parse_dequantize_linear(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_dequantize_linear_10(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_dequantize_linear_13(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_dequantize_linear_19(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_dequantize_linear_23(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_dequantize_linear(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&,
                             const std::vector<ValueInfo>&, std::vector<Tensor>*);

// concat.cpp: Concat-1, -4, -11 and -13 (axis optional in 1, negative from 11).
Status parse_concat(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_concat(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_concat(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                  std::vector<Tensor>*);

// gather_elements.cpp: GatherElements-11 and -13 (types differ only); torch.gather's export.
Status parse_gather_elements(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_gather_elements(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_gather_elements(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&,
                           const std::vector<ValueInfo>&, std::vector<Tensor>*);

// gather_nd.cpp: GatherND-11, -12 (batch_dims) and -13 (bfloat16); int64 indices.
Status parse_gather_nd(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_gather_nd(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_gather_nd(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                     std::vector<Tensor>*);

// slice.cpp: Slice-1 (starts, ends, axes as attributes), -10 (as inputs, axes >= 0), -11 and -13
// (negative axes too).
Status parse_slice(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_slice_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_slice_10(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_slice_11(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_slice(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                 std::vector<Tensor>*);

// range.cpp: Range-11 and -27 (float16 and bfloat16, computed in stash_type).
Status parse_range(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_range(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_range(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                 std::vector<Tensor>*);

// constant_of_shape.cpp: ConstantOfShape-9, -20, -21, -23, -24, -25 (the value's types per version).
Status parse_constant_of_shape(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_constant_of_shape(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_constant_of_shape(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&,
                             const std::vector<ValueInfo>&, std::vector<Tensor>*);

// cast.cpp: Cast (the output type from `to`: a name at 1, an id from 6) and CastLike (from input 1);
// saturate from 19, round_mode from 24.
Status parse_cast(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_cast(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_cast(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                std::vector<Tensor>*);
Status parse_cast_like(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_cast_like(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_cast_like(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                     std::vector<Tensor>*);

// arith.cpp: Add, Sub, Mul and Div (legacy broadcast=1/axis at 1 and 6; numpy broadcasting from 7).
Status parse_arith(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>*);
Status infer_arith_1(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_arith_7(const OpVersion&, const OpParams&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_arith(const OpVersion&, const OpParams&, const std::vector<const Tensor*>&, const std::vector<ValueInfo>&,
                 std::vector<Tensor>*);
// Mul's own loop for element type t (one Mul takes; a float type here): out[i] = a[i * sa] * b[i * sb]
// for n elements, each stride 0 or 1, as run_arith computes it. For ops that fold a Mul into their
// output (onnx-wasm GatherBlockQuantized's multiplier).
void arith_mul(ElementType t, size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out);

}  // namespace onnxwasm
