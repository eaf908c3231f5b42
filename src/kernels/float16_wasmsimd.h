// float16.h's half conversions four lanes at a time, for the wasm SIMD kernels: the same
// operations as the scalar ones, so the same bits.
#pragma once
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

namespace onnxwasm {

// float_to_half of four float lanes, as int32 lanes of the half's bits.
inline v128_t half_bits4(v128_t f) {
  v128_t base = wasm_f32x4_mul(wasm_f32x4_mul(wasm_f32x4_abs(f), wasm_f32x4_splat(0x1.0p+112f)), wasm_f32x4_splat(0x1.0p-110f));
  const v128_t shl1_w = wasm_i32x4_add(f, f);
  const v128_t sign = wasm_v128_and(f, wasm_i32x4_splat(static_cast<int32_t>(0x80000000u)));
  const v128_t bias = wasm_u32x4_max(wasm_v128_and(shl1_w, wasm_i32x4_splat(static_cast<int32_t>(0xFF000000u))),
                                     wasm_i32x4_splat(0x71000000));
  base = wasm_f32x4_add(wasm_i32x4_add(wasm_u32x4_shr(bias, 1), wasm_i32x4_splat(0x07800000)), base);
  const v128_t nonsign = wasm_i32x4_add(wasm_v128_and(wasm_u32x4_shr(base, 13), wasm_i32x4_splat(0x7C00)),
                                        wasm_v128_and(base, wasm_i32x4_splat(0x0FFF)));
  const v128_t nan = wasm_u32x4_gt(shl1_w, wasm_i32x4_splat(static_cast<int32_t>(0xFF000000u)));
  return wasm_v128_or(wasm_u32x4_shr(sign, 16), wasm_v128_bitselect(wasm_i32x4_splat(0x7E00), nonsign, nan));
}

// half_to_float of four halves held in the low 16 bits of int32 lanes.
inline v128_t half_to_float4(v128_t h) {
  const v128_t w = wasm_i32x4_shl(h, 16);
  const v128_t sign = wasm_v128_and(w, wasm_i32x4_splat(static_cast<int32_t>(0x80000000u)));
  const v128_t two_w = wasm_i32x4_add(w, w);
  const v128_t normalized =
      wasm_f32x4_mul(wasm_i32x4_add(wasm_u32x4_shr(two_w, 4), wasm_i32x4_splat(0x70000000)), wasm_f32x4_splat(0x1.0p-112f));
  const v128_t denormalized =
      wasm_f32x4_sub(wasm_v128_or(wasm_u32x4_shr(two_w, 17), wasm_i32x4_splat(0x3F000000)), wasm_f32x4_splat(0.5f));
  const v128_t is_denormal = wasm_u32x4_lt(two_w, wasm_i32x4_splat(1 << 27));
  return wasm_v128_or(sign, wasm_v128_bitselect(denormalized, normalized, is_denormal));
}

// half_to_float(float_to_half(x)) of four float lanes, without the half's bits: x rounded to the
// half precision of its binade (nearest, ties to even), as a float. Adding then subtracting
// 1.5 * 2^(e + 13), e the exponent of |x| (at least -14, the subnormals' binade, so that those
// round to multiples of 2^-24), rounds x to a multiple of 2^(e - 10), half's ulp there, in the
// float unit's own rounding, and the subtraction is exact; the parity of the multiple is x's own,
// so ties go to the even half. Then x's sign (a value that rounds to zero keeps it), infinity from
// 65,520 up (where half rounds to infinity), and a NaN stays a NaN (its sign is the input's in V8).
// About half the operations of half_bits4 then half_to_float4; tests/cpp/dequantize_kernels_test.cpp
// checks it against them.
inline v128_t half_round4(v128_t x) {
  const v128_t sign = wasm_v128_and(x, wasm_i32x4_splat(static_cast<int32_t>(0x80000000u)));
  const v128_t ax = wasm_v128_xor(x, sign);
  const v128_t e = wasm_i32x4_min(wasm_i32x4_max(wasm_v128_and(ax, wasm_i32x4_splat(0x7F800000)), wasm_i32x4_splat(0x38800000)),
                                  wasm_i32x4_splat(0x47000000));
  const v128_t magic = wasm_v128_or(wasm_i32x4_add(e, wasm_i32x4_splat(13 << 23)), wasm_i32x4_splat(0x00400000));
  const v128_t r = wasm_v128_or(wasm_f32x4_sub(wasm_f32x4_add(x, magic), magic), sign);
  const v128_t inf = wasm_v128_or(wasm_i32x4_splat(0x7F800000), sign);
  return wasm_v128_bitselect(inf, r, wasm_f32x4_ge(ax, wasm_f32x4_splat(65520.0f)));
}

}  // namespace onnxwasm

#endif
