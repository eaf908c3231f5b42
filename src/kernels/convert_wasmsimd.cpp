// wasm SIMD conversion microkernels (x8-half-to-float-wasmsimd): half_to_float of
// kernels/float16.h (the FP16 library's branch-free conversion), four lanes at a time, the same
// operations as the scalar twin, so the same bits. The count's tail takes the scalar kernel.
#include "convert.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

namespace onnxwasm {
namespace {

// Four halves, as the high 16 bits of uint32 lanes (w = h << 16), to floats.
inline v128_t float4_of_halves(v128_t w) {
  const v128_t sign = wasm_v128_and(w, wasm_i32x4_splat(static_cast<int32_t>(0x80000000u)));
  const v128_t two_w = wasm_i32x4_add(w, w);
  const v128_t normalized = wasm_f32x4_mul(wasm_i32x4_add(wasm_u32x4_shr(two_w, 4), wasm_i32x4_splat(0xE0 << 23)),
                                           wasm_f32x4_splat(0x1.0p-112f));
  const v128_t denormalized = wasm_f32x4_sub(wasm_v128_or(wasm_u32x4_shr(two_w, 17), wasm_i32x4_splat(126 << 23)),
                                             wasm_f32x4_splat(0.5f));
  const v128_t is_denormal = wasm_u32x4_lt(two_w, wasm_i32x4_splat(1 << 27));
  return wasm_v128_or(sign, wasm_v128_bitselect(denormalized, normalized, is_denormal));
}

void x8_half_to_float_wasmsimd(size_t count, const uint16_t* in, float* out) {
  for (; count >= 8; count -= 8, in += 8, out += 8) {
    const v128_t h = wasm_v128_load(in);
    wasm_v128_store(out, float4_of_halves(wasm_i32x4_shl(wasm_u32x4_extend_low_u16x8(h), 16)));
    wasm_v128_store(out + 4, float4_of_halves(wasm_i32x4_shl(wasm_u32x4_extend_high_u16x8(h), 16)));
  }
  convert_kernels_scalar().half_to_float(count, in, out);
}

const ConvertKernels kWasmSimd = {"wasmsimd", x8_half_to_float_wasmsimd};

}  // namespace

const ConvertKernels* convert_kernels_wasmsimd() { return &kWasmSimd; }

}  // namespace onnxwasm

#else

namespace onnxwasm {
const ConvertKernels* convert_kernels_wasmsimd() { return nullptr; }
}  // namespace onnxwasm

#endif
