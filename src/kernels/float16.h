// IEEE half and bfloat16 to and from float, rounding to nearest even (as onnxruntime's MLFloat16
// and BFloat16 do for finite values). The half conversions are the branch-free ones of the FP16
// library (Maratyszcza): they rely only on float arithmetic rounding to nearest, which wasm and
// x86-64 guarantee.
#pragma once
#include <cstdint>
#include <cstring>

namespace onnxwasm {

inline uint32_t float_bits(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float bits_float(uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline float half_to_float(uint16_t h) {
  const uint32_t w = static_cast<uint32_t>(h) << 16;
  const uint32_t sign = w & 0x80000000u;
  const uint32_t two_w = w + w;
  const float normalized = bits_float((two_w >> 4) + (0xE0u << 23)) * 0x1.0p-112f;
  const float denormalized = bits_float((two_w >> 17) | (126u << 23)) - 0.5f;
  return bits_float(sign | (two_w < (1u << 27) ? float_bits(denormalized) : float_bits(normalized)));
}

inline uint16_t float_to_half(float f) {
  float base = (__builtin_fabsf(f) * 0x1.0p+112f) * 0x1.0p-110f;
  const uint32_t w = float_bits(f);
  const uint32_t shl1_w = w + w;
  const uint32_t sign = w & 0x80000000u;
  uint32_t bias = shl1_w & 0xFF000000u;
  if (bias < 0x71000000u) bias = 0x71000000u;
  base = bits_float((bias >> 1) + 0x07800000u) + base;
  const uint32_t b = float_bits(base);
  const uint32_t nonsign = ((b >> 13) & 0x00007C00u) + (b & 0x00000FFFu);
  return static_cast<uint16_t>((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

inline float bfloat16_to_float(uint16_t h) { return bits_float(static_cast<uint32_t>(h) << 16); }

inline uint16_t float_to_bfloat16(float f) {
  const uint32_t u = float_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<uint16_t>((u >> 16) | 0x0040u);   // NaN stays NaN
  return static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

}  // namespace onnxwasm
