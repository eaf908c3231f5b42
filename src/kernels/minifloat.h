// The small float formats of ONNX, to and from float: float8 E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ
// (https://onnx.ai/onnx/technical/float8.html), float4 E2M1 (technical/float4.html) and float8 E8M0
// (the scale type of the OCP microscaling formats). Pure functions of one value, no tables: Cast
// uses them, and DequantizeLinear can decode with them.
//
// Encoding rounds to nearest even at the format's precision (float arithmetic: nearbyint rounds
// to nearest even in the default rounding mode, the only one wasm has). The special values follow
// the tables of ONNX's Cast (versions 19 and later):
// - saturate (the default): a value whose rounding exceeds the largest finite one, and an
//   infinity, become that largest value with the sign;
// - not saturating: they become NaN (E4M3FN: with the sign; the FNUZ types' one NaN, 0x80) or,
//   for E5M2, the infinity of that sign;
// - NaN stays NaN (0x7F with the sign for E4M3FN and E5M2, 0x80 for the FNUZ types); the FNUZ
//   types have no -0: a negative value that rounds to zero is +0.
// - E2M1 has neither NaN nor infinity: it always saturates, and NaN becomes +6 (float4.md's table).
// E8M0 (2^(code - 127), 0xFF NaN) follows onnx.numpy_helper.to_float8e8m0, the reference that
// makes ONNX's test data: the sign is ignored, round_mode up (any fraction rounds the exponent up,
// except past the largest with saturate), down (truncates) or nearest; NaN is 0xFF; an infinity is
// 0xFF unless saturating, where it is 0xFE (the spec's table: Inf to E8M0_MAX; the reference
// gives NaN there).
#pragma once
#include <cmath>
#include <cstdint>

#include "float16.h"

namespace onnxwasm {

enum class MiniFloat : uint8_t { E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ, E2M1 };

struct MiniFloatFormat {
  int bits;       // 8, or 4 for E2M1
  int mant_bits;  // mantissa bits
  int bias;       // exponent bias
  uint8_t max_magnitude;  // code of the largest finite value, sign bit clear
  float max_value;
};

inline const MiniFloatFormat& minifloat_format(MiniFloat k) {
  static constexpr MiniFloatFormat kFormats[] = {
      {8, 3, 7, 0x7E, 448.0f},      // E4M3FN: 0x7F and 0xFF are NaN, no infinity
      {8, 3, 8, 0x7F, 240.0f},      // E4M3FNUZ: 0x80 is the NaN, no -0, no infinity
      {8, 2, 15, 0x7B, 57344.0f},   // E5M2: IEEE-like, 0x7C infinity, 0x7D..0x7F NaN
      {8, 2, 16, 0x7F, 57344.0f},   // E5M2FNUZ: 0x80 is the NaN
      {4, 1, 1, 0x7, 6.0f},         // E2M1: no NaN, no infinity
  };
  return kFormats[static_cast<int>(k)];
}

inline bool minifloat_fnuz(MiniFloat k) { return k == MiniFloat::E4M3FNUZ || k == MiniFloat::E5M2FNUZ; }

inline float minifloat_to_float(uint8_t code, MiniFloat k) {
  const MiniFloatFormat& f = minifloat_format(k);
  const uint8_t sign_bit = static_cast<uint8_t>(1u << (f.bits - 1));
  const uint8_t mag = static_cast<uint8_t>(code & (sign_bit - 1));
  const bool negative = (code & sign_bit) != 0;
  const float nan = bits_float(0x7FC00000u);
  if (minifloat_fnuz(k) && code == 0x80) return -nan;  // (its sign bit is set: onnxruntime's 0xFFC00000)
  if (k == MiniFloat::E4M3FN && mag == 0x7F) return negative ? -nan : nan;
  if (k == MiniFloat::E5M2 && mag >= 0x7C) {
    if (mag > 0x7C) return negative ? -nan : nan;
    return negative ? -HUGE_VALF : HUGE_VALF;
  }
  const int e = mag >> f.mant_bits, m = mag & ((1 << f.mant_bits) - 1);
  const float a = e == 0 ? std::ldexp(static_cast<float>(m), 1 - f.bias - f.mant_bits)
                         : std::ldexp(static_cast<float>((1 << f.mant_bits) + m), e - f.bias - f.mant_bits);
  return negative ? -a : a;
}

inline uint8_t float_to_minifloat(float x, MiniFloat k, bool saturate) {
  const MiniFloatFormat& f = minifloat_format(k);
  const bool negative = std::signbit(x);
  const uint8_t sign = negative ? static_cast<uint8_t>(1u << (f.bits - 1)) : 0;
  const bool fnuz = minifloat_fnuz(k);
  if (k == MiniFloat::E2M1) saturate = true;
  if (std::isnan(x)) return k == MiniFloat::E2M1 ? f.max_magnitude : fnuz ? 0x80 : static_cast<uint8_t>(sign | 0x7F);
  const float a = std::fabs(x);
  // What an overflow (a rounded value beyond the largest, or an infinity) becomes.
  const uint8_t overflow = saturate ? static_cast<uint8_t>(sign | f.max_magnitude)
                           : fnuz   ? uint8_t{0x80}
                           : k == MiniFloat::E5M2 ? static_cast<uint8_t>(sign | 0x7C)
                                                  : static_cast<uint8_t>(sign | 0x7F);
  if (std::isinf(a)) return overflow;
  const int min_exp = 1 - f.bias;  // the exponent of the smallest normal, shared by the subnormals
  int e2 = 0;
  (void)std::frexp(a, &e2);  // a = fraction * 2^e2, fraction in [0.5, 1): the exponent is e2 - 1
  const int exp = e2 - 1 < min_exp ? min_exp : e2 - 1;
  // Units of the last place at that exponent: exact (a power of two scaling), then rounded.
  const float q = std::nearbyint(std::ldexp(a, f.mant_bits - exp));
  if (q == 0) return fnuz ? 0 : sign;
  if (std::ldexp(q, exp - f.mant_bits) > f.max_value) return overflow;
  const int one = 1 << f.mant_bits;
  const int units = static_cast<int>(q);  // at most 2 * one: exact
  int e_field = 0, m_field = 0;
  if (units >= 2 * one) {  // rounded up into the next binade
    e_field = exp + 1 + f.bias;
    m_field = 0;
  } else if (units >= one) {
    e_field = exp + f.bias;
    m_field = units - one;
  } else {  // subnormal (exp is min_exp)
    m_field = units;
  }
  return static_cast<uint8_t>(sign | (e_field << f.mant_bits) | m_field);
}

enum class E8m0Round : uint8_t { Up, Down, Nearest };

inline float e8m0_to_float(uint8_t code) {
  if (code == 0xFF) return bits_float(0x7FC00000u);
  return std::ldexp(1.0f, static_cast<int>(code) - 127);
}

inline uint8_t float_to_e8m0(float x, bool saturate, E8m0Round mode) {
  const uint32_t b = float_bits(x);
  uint32_t exponent = (b >> 23) & 0xFF;
  if (exponent == 0xFF) return (b & 0x7FFFFF) == 0 && saturate ? 0xFE : 0xFF;
  bool up = false;
  if (mode == E8m0Round::Up) {
    up = (b & 0x7FFFFF) != 0;
  } else if (mode == E8m0Round::Nearest) {
    const bool g = (b & 0x400000) != 0, r = (b & 0x200000) != 0, s = (b & 0x1FFFFF) != 0, lsb = exponent > 0;
    up = g && (r || s || lsb);
  }
  if (up && saturate && exponent == 0xFE) up = false;
  exponent += up ? 1 : 0;
  return static_cast<uint8_t>(exponent);
}

}  // namespace onnxwasm
