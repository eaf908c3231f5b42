// Dequantization microkernels for quantized gathers (ops/gather_block_quantized.cpp): `count`
// codes of a packed stream, from logical element `first`, that share one zero point and scale:
// out[i] = float(code(first + i) - zero) * scale. Codes are packed lowest bits first (ONNX's
// packing of int4/uint4, and MatMulNBits' of uint8 words of 2, 4 or 8-bit codes); s4 codes are
// signed (int4), the others unsigned.
#pragma once
#include <cstddef>
#include <cstdint>

namespace onnxwasm {

using DequantizeFn = void (*)(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out);
// `count` floats to IEEE halves or bfloat16s, rounding to nearest even (kernels/float16.h).
using NarrowFn = void (*)(size_t count, const float* in, uint16_t* out);

struct DequantizeKernels {
  const char* target;
  DequantizeFn u2, u4, s4, u8;
  NarrowFn to_half, to_bfloat16;
};

const DequantizeKernels& dequantize_kernels_scalar();
const DequantizeKernels* dequantize_kernels_wasmsimd();  // null when built without wasm SIMD
// wasmsimd when built with it, else scalar.
const DequantizeKernels& dequantize_kernels_best();

// The code at logical element i of a packed stream (the reference the kernels are tested against).
inline int32_t packed_code(const uint8_t* packed, size_t i, int bits, bool is_signed) {
  const int per_byte = 8 / bits;
  const int shift = static_cast<int>(i % static_cast<size_t>(per_byte)) * bits;
  const int32_t u = (packed[i / static_cast<size_t>(per_byte)] >> shift) & ((1 << bits) - 1);
  return is_signed && u >= (1 << (bits - 1)) ? u - (1 << bits) : u;
}

}  // namespace onnxwasm
