// Conversion microkernels of Cast's hot paths (ops/cast.cpp): IEEE halves to floats (a float16
// table gathered, then cast to float: transformers.js's fp16 embeddings). The other direction,
// floats to halves and to bfloat16, is the narrowing of kernels/dequantize.h.
#pragma once
#include <cstddef>
#include <cstdint>

namespace onnxwasm {

// `count` halves to floats, exactly (kernels/float16.h's half_to_float).
using WidenFn = void (*)(size_t count, const uint16_t* in, float* out);

struct ConvertKernels {
  const char* target;
  WidenFn half_to_float;
};

const ConvertKernels& convert_kernels_scalar();
const ConvertKernels* convert_kernels_wasmsimd();  // null when built without wasm SIMD
// wasmsimd when built with it, else scalar.
const ConvertKernels& convert_kernels_best();

}  // namespace onnxwasm
