// The scalar dequantization kernels (kernels/dequantize.h).
#include "binary.h"   // (ONNXWASM_PLAIN_LOOP)
#include "dequantize.h"

#include "float16.h"

namespace onnxwasm {
namespace {

template <int kBits, bool kSigned>
void dequantize(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  // The difference wraps as int32 (wasm's i32.sub, the SIMD kernels' lanes): only int32 codes
  // minus a zero point can leave int32's range.
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(packed_code(packed, first + i, kBits, kSigned)) -
                                                     static_cast<uint32_t>(zero))) *
             scale;
}

void to_half(size_t count, const float* in, uint16_t* out) {
  for (size_t i = 0; i < count; ++i) out[i] = float_to_half(in[i]);
}

void to_bfloat16(size_t count, const float* in, uint16_t* out) {
  for (size_t i = 0; i < count; ++i) out[i] = float_to_bfloat16(in[i]);
}

// x1-lut4-to16-scalar: the table of the 16 nibbles' outputs (8..15 are -8..-1 when signed), each
// multiplied by the multiplier if any, then a lookup a code.
template <bool kBfloat16>
__attribute__((noinline)) void lut4_to16(size_t count, const uint8_t* packed, size_t first, bool is_signed, int32_t zero, float scale,
                                         const float* multiplier, uint16_t* out) {
  if (count == 0) return;
  uint16_t table[16];
  // (plain loops: clang unrolled them, two conversions inlined an entry, for loops that run once a
  // call: docs/notes/2026-11-27-gbq-mul.md)
  ONNXWASM_PLAIN_LOOP
  for (int32_t n = 0; n < 16; ++n) {
    const int32_t code = is_signed && n >= 8 ? n - 16 : n;
    const float f = static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(code) - static_cast<uint32_t>(zero))) * scale;
    table[n] = kBfloat16 ? float_to_bfloat16(f) : float_to_half(f);
  }
  if (multiplier) {
    ONNXWASM_PLAIN_LOOP
    for (uint16_t& t : table)
      t = kBfloat16 ? float_to_bfloat16(bfloat16_to_float(t) * *multiplier) : float_to_half(half_to_float(t) * *multiplier);
  }
  for (size_t i = 0; i < count; ++i) out[i] = table[packed_code(packed, first + i, 4, false)];
}

// x1-lut4-row-to16-scalar: lut4_to16 block by block, each block's scale widened to float (a call a
// block: lut4_to16 is not inlined, so that its code is not copied into this kernel in every
// build; docs/performance.md, "Figures behind design choices").
template <bool kBfloat16>
void lut4_row_to16(size_t count, size_t block_size, const uint8_t* packed, size_t first, bool is_signed, int32_t zero,
                   const uint16_t* scales, const float* multiplier, uint16_t* out) {
  for (size_t i = 0; i < count; i += block_size, ++scales) {
    const float scale = kBfloat16 ? bfloat16_to_float(*scales) : half_to_float(*scales);
    lut4_to16<kBfloat16>(count - i < block_size ? count - i : block_size, packed, first + i, is_signed, zero, scale, multiplier,
                         out + i);
  }
}

const DequantizeKernels kScalar = {"scalar",
                                   dequantize<2, false>,
                                   dequantize<4, false>,
                                   dequantize<4, true>,
                                   dequantize<8, false>,
                                   dequantize<2, true>,
                                   dequantize<8, true>,
                                   dequantize<16, false>,
                                   dequantize<16, true>,
                                   dequantize<32, true>,
                                   to_half,
                                   to_bfloat16,
                                   lut4_to16<false>,
                                   lut4_to16<true>,
                                   lut4_row_to16<false>,
                                   lut4_row_to16<true>};

}  // namespace

const DequantizeKernels& dequantize_kernels_scalar() { return kScalar; }

const DequantizeKernels& dequantize_kernels_best() {
  const DequantizeKernels* simd = dequantize_kernels_wasmsimd();
  return simd ? *simd : kScalar;
}

}  // namespace onnxwasm
