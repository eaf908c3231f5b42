// Dequantization microkernels of GatherBlockQuantized and DequantizeLinear
// (ops/gather_block_quantized.cpp, ops/dequantize_linear.cpp): `count` codes of a packed stream,
// from logical element `first`, that share one zero point and scale:
// out[i] = float(code(first + i) - zero) * scale, the difference exact in int32 (onnxruntime's
// order of operations). Sub-byte codes are packed lowest bits first (ONNX's packing of
// int2/uint2/int4/uint4, and MatMulNBits' of uint8 words of 2, 4 or 8-bit codes); 16 and 32-bit
// codes are little-endian. sN codes are signed, uN unsigned.
#pragma once
#include <cstddef>
#include <cstdint>

namespace onnxwasm {

using DequantizeFn = void (*)(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out);
// `count` floats to IEEE halves or bfloat16s, rounding to nearest even (kernels/float16.h).
using NarrowFn = void (*)(size_t count, const float* in, uint16_t* out);
// 4-bit codes as DequantizeFn (signed: int4, else uint4), straight to 16-bit outputs:
// out[i] = narrow(float(code - zero) * scale), narrow float_to_half or float_to_bfloat16, the same
// bits as DequantizeFn then NarrowFn. A call makes a table of the 16 codes' outputs (each computed
// as above) and maps its codes through it: 16 conversions a call however many codes, so it pays
// on runs of 16 codes or more. With a `multiplier` (null: none), each output is then multiplied by
// it as Mul multiplies two 16-bit values: out = narrow(widen(out) * *multiplier), the multiplier
// the other operand widened to float; done on the table's 16 entries, so that GatherBlockQuantized
// followed by a Mul by a constant costs a Mul per entry, not per output (ops/gather_block_quantized.cpp).
using DequantizeTo16Fn = void (*)(size_t count, const uint8_t* packed, size_t first, bool is_signed, int32_t zero, float scale,
                                  const float* multiplier, uint16_t* out);

// A row of 4-bit codes in blocks of `block_size` (> 0) that each have their own scale, to 16-bit
// outputs of the scales' type (halves or bfloat16s): `count` codes from logical element `first`,
// code i scaled by scales[i / block_size] widened to float, one zero point for all: the same bits
// as DequantizeTo16Fn called block by block. Per call rather than per block, the SIMD kernel
// widens the scales four at a time and computes the codes' differences once for every block's
// table (an embedding row of GatherBlockQuantized: ops/gather_block_quantized.cpp). `multiplier`
// as DequantizeTo16Fn's.
using DequantizeRowTo16Fn = void (*)(size_t count, size_t block_size, const uint8_t* packed, size_t first, bool is_signed,
                                     int32_t zero, const uint16_t* scales, const float* multiplier, uint16_t* out);

struct DequantizeKernels {
  const char* target;
  DequantizeFn u2, u4, s4, u8;
  DequantizeFn s2, s8, u16, s16, s32;
  NarrowFn to_half, to_bfloat16;
  DequantizeTo16Fn lut4_to_half, lut4_to_bfloat16;
  DequantizeRowTo16Fn lut4_row_half, lut4_row_bfloat16;
};

const DequantizeKernels& dequantize_kernels_scalar();
const DequantizeKernels* dequantize_kernels_wasmsimd();  // null when built without wasm SIMD
// wasmsimd when built with it, else scalar.
const DequantizeKernels& dequantize_kernels_best();

// The code at logical element i of a packed stream (the reference the kernels are tested against).
inline int32_t packed_code(const uint8_t* packed, size_t i, int bits, bool is_signed) {
  if (bits > 8) {   // 16 or 32 bits, little-endian
    const uint8_t* p = packed + i * static_cast<size_t>(bits / 8);
    uint32_t u = 0;
    for (int k = 0; k < bits / 8; ++k) u |= static_cast<uint32_t>(p[k]) << (8 * k);
    if (bits == 32) return static_cast<int32_t>(u);
    return is_signed && u >= (1u << (bits - 1)) ? static_cast<int32_t>(u) - (1 << bits) : static_cast<int32_t>(u);
  }
  const int per_byte = 8 / bits;
  const int shift = static_cast<int>(i % static_cast<size_t>(per_byte)) * bits;
  const int32_t u = (packed[i / static_cast<size_t>(per_byte)] >> shift) & ((1 << bits) - 1);
  return is_signed && u >= (1 << (bits - 1)) ? u - (1 << bits) : u;
}

}  // namespace onnxwasm
