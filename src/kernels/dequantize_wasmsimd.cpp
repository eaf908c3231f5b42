// wasm SIMD dequantization microkernels (x32-dequantize-u4/s4-wasmsimd, x16-u8/s8, x64-u2/s2,
// x8-u16/s16, x4-s32; x8-to-half/to-bfloat16-wasmsimd; x32-lut4-to16-wasmsimd and
// x32-lut4-row-to16-wasmsimd, below). Each full tile of codes is widened to int32 lanes, the zero
// point subtracted, converted to float and multiplied by the scale: the scalar kernels' operations
// in the same order, so the results are the same bits. Codes before the first whole byte and after
// the last whole tile take the scalar kernel.
#include "dequantize.h"
#include "float16_wasmsimd.h"
#include "plain_loop.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

namespace onnxwasm {
namespace {

// Four int32 lanes of codes: float(code - zero) * scale, stored at out.
inline void store4(v128_t codes, v128_t zero, v128_t scale, float* out) {
  wasm_v128_store(out, wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(codes, zero)), scale));
}

// 16 codes of 8 bits (unsigned, or signed for int4 once sign-extended) from one vector of bytes.
inline void store16_u8(v128_t bytes, v128_t zero, v128_t scale, float* out) {
  const v128_t lo = wasm_u16x8_extend_low_u8x16(bytes), hi = wasm_u16x8_extend_high_u8x16(bytes);
  store4(wasm_u32x4_extend_low_u16x8(lo), zero, scale, out);
  store4(wasm_u32x4_extend_high_u16x8(lo), zero, scale, out + 4);
  store4(wasm_u32x4_extend_low_u16x8(hi), zero, scale, out + 8);
  store4(wasm_u32x4_extend_high_u16x8(hi), zero, scale, out + 12);
}

inline void store16_s8(v128_t bytes, v128_t zero, v128_t scale, float* out) {
  const v128_t lo = wasm_i16x8_extend_low_i8x16(bytes), hi = wasm_i16x8_extend_high_i8x16(bytes);
  store4(wasm_i32x4_extend_low_i16x8(lo), zero, scale, out);
  store4(wasm_i32x4_extend_high_i16x8(lo), zero, scale, out + 4);
  store4(wasm_i32x4_extend_low_i16x8(hi), zero, scale, out + 8);
  store4(wasm_i32x4_extend_high_i16x8(hi), zero, scale, out + 12);
}

// 4-bit codes, 32 a tile (16 bytes): the low nibble of each byte comes first.
template <bool kSigned>
void x32_dequantize_4_wasmsimd(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  const DequantizeFn scalar = kSigned ? dequantize_kernels_scalar().s4 : dequantize_kernels_scalar().u4;
  if (first & 1) {
    const size_t head = count < 1 ? count : 1;
    scalar(head, packed, first, zero, scale, out);
    count -= head, first += head, out += head;
  }
  const uint8_t* p = packed + first / 2;
  const v128_t z = wasm_i32x4_splat(zero), s = wasm_f32x4_splat(scale), mask = wasm_i8x16_splat(0x0F);
  for (; count >= 32; count -= 32, p += 16, out += 32, first += 32) {
    const v128_t v = wasm_v128_load(p);
    v128_t lo = wasm_v128_and(v, mask), hi = wasm_u8x16_shr(v, 4);
    if (kSigned) {   // nibbles 8..15 are -8..-1: (x ^ 8) - 8
      const v128_t eight = wasm_i8x16_splat(8);
      lo = wasm_i8x16_sub(wasm_v128_xor(lo, eight), eight);
      hi = wasm_i8x16_sub(wasm_v128_xor(hi, eight), eight);
    }
    const v128_t a = wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const v128_t b = wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    if (kSigned) {
      store16_s8(a, z, s, out);
      store16_s8(b, z, s, out + 16);
    } else {
      store16_u8(a, z, s, out);
      store16_u8(b, z, s, out + 16);
    }
  }
  scalar(count, packed, first, zero, scale, out);
}

// 8-bit codes, 16 a tile.
template <bool kSigned>
void x16_dequantize_8_wasmsimd(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  const uint8_t* p = packed + first;
  const v128_t z = wasm_i32x4_splat(zero), s = wasm_f32x4_splat(scale);
  for (; count >= 16; count -= 16, p += 16, out += 16, first += 16) {
    if (kSigned) store16_s8(wasm_v128_load(p), z, s, out);
    else store16_u8(wasm_v128_load(p), z, s, out);
  }
  (kSigned ? dequantize_kernels_scalar().s8 : dequantize_kernels_scalar().u8)(count, packed, first, zero, scale, out);
}

// 16-bit codes, 8 a tile.
template <bool kSigned>
void x8_dequantize_16_wasmsimd(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  const uint8_t* p = packed + first * 2;
  const v128_t z = wasm_i32x4_splat(zero), s = wasm_f32x4_splat(scale);
  for (; count >= 8; count -= 8, p += 16, out += 8, first += 8) {
    const v128_t v = wasm_v128_load(p);
    store4(kSigned ? wasm_i32x4_extend_low_i16x8(v) : wasm_u32x4_extend_low_u16x8(v), z, s, out);
    store4(kSigned ? wasm_i32x4_extend_high_i16x8(v) : wasm_u32x4_extend_high_u16x8(v), z, s, out + 4);
  }
  (kSigned ? dequantize_kernels_scalar().s16 : dequantize_kernels_scalar().u16)(count, packed, first, zero, scale, out);
}

// 32-bit signed codes, 4 a tile.
void x4_dequantize_s32_wasmsimd(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  const uint8_t* p = packed + first * 4;
  const v128_t z = wasm_i32x4_splat(zero), s = wasm_f32x4_splat(scale);
  for (; count >= 4; count -= 4, p += 16, out += 4, first += 4) store4(wasm_v128_load(p), z, s, out);
  dequantize_kernels_scalar().s32(count, packed, first, zero, scale, out);
}

// 2-bit codes, 64 a tile (16 bytes): bits 0-1 of each byte first, then 2-3, 4-5, 6-7.
template <bool kSigned>
void x64_dequantize_2_wasmsimd(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  const DequantizeFn scalar = kSigned ? dequantize_kernels_scalar().s2 : dequantize_kernels_scalar().u2;
  if (first & 3) {
    const size_t head = count < 4 - (first & 3) ? count : 4 - (first & 3);
    scalar(head, packed, first, zero, scale, out);
    count -= head, first += head, out += head;
  }
  const uint8_t* p = packed + first / 4;
  const v128_t z = wasm_i32x4_splat(zero), s = wasm_f32x4_splat(scale), mask = wasm_i8x16_splat(3);
  for (; count >= 64; count -= 64, p += 16, out += 64, first += 64) {
    const v128_t v = wasm_v128_load(p);
    v128_t c0 = wasm_v128_and(v, mask), c1 = wasm_v128_and(wasm_u8x16_shr(v, 2), mask);
    v128_t c2 = wasm_v128_and(wasm_u8x16_shr(v, 4), mask), c3 = wasm_u8x16_shr(v, 6);
    if (kSigned) {   // codes 2 and 3 are -2 and -1: (x ^ 2) - 2
      const v128_t two = wasm_i8x16_splat(2);
      c0 = wasm_i8x16_sub(wasm_v128_xor(c0, two), two);
      c1 = wasm_i8x16_sub(wasm_v128_xor(c1, two), two);
      c2 = wasm_i8x16_sub(wasm_v128_xor(c2, two), two);
      c3 = wasm_i8x16_sub(wasm_v128_xor(c3, two), two);
    }
    // Byte k holds codes 4k..4k+3: interleave (c0, c1) and (c2, c3) by bytes, then those by pairs.
    const v128_t e01 = wasm_i8x16_shuffle(c0, c1, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const v128_t f01 = wasm_i8x16_shuffle(c0, c1, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const v128_t e23 = wasm_i8x16_shuffle(c2, c3, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    const v128_t f23 = wasm_i8x16_shuffle(c2, c3, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    const auto store16 = kSigned ? store16_s8 : store16_u8;
    store16(wasm_i16x8_shuffle(e01, e23, 0, 8, 1, 9, 2, 10, 3, 11), z, s, out);
    store16(wasm_i16x8_shuffle(e01, e23, 4, 12, 5, 13, 6, 14, 7, 15), z, s, out + 16);
    store16(wasm_i16x8_shuffle(f01, f23, 0, 8, 1, 9, 2, 10, 3, 11), z, s, out + 32);
    store16(wasm_i16x8_shuffle(f01, f23, 4, 12, 5, 13, 6, 14, 7, 15), z, s, out + 48);
  }
  scalar(count, packed, first, zero, scale, out);
}

void x8_to_half_wasmsimd(size_t count, const float* in, uint16_t* out) {
  for (; count >= 8; count -= 8, in += 8, out += 8)
    wasm_v128_store(out, wasm_u16x8_narrow_i32x4(half_bits4(wasm_v128_load(in)), half_bits4(wasm_v128_load(in + 4))));
  dequantize_kernels_scalar().to_half(count, in, out);
}

// float_to_bfloat16, four lanes at a time: round to nearest even, NaN kept quiet.
inline v128_t bfloat16_bits4(v128_t f) {
  const v128_t rounded = wasm_u32x4_shr(
      wasm_i32x4_add(f, wasm_i32x4_add(wasm_i32x4_splat(0x7FFF), wasm_v128_and(wasm_u32x4_shr(f, 16), wasm_i32x4_splat(1)))), 16);
  const v128_t nan = wasm_u32x4_gt(wasm_v128_and(f, wasm_i32x4_splat(0x7FFFFFFF)), wasm_i32x4_splat(0x7F800000));
  const v128_t quiet = wasm_v128_or(wasm_u32x4_shr(f, 16), wasm_i32x4_splat(0x0040));
  return wasm_v128_bitselect(quiet, rounded, nan);
}

void x8_to_bfloat16_wasmsimd(size_t count, const float* in, uint16_t* out) {
  for (; count >= 8; count -= 8, in += 8, out += 8)
    wasm_v128_store(out, wasm_u16x8_narrow_i32x4(bfloat16_bits4(wasm_v128_load(in)), bfloat16_bits4(wasm_v128_load(in + 4))));
  dequantize_kernels_scalar().to_bfloat16(count, in, out);
}

// x32-lut4-to16-wasmsimd: 4-bit codes straight to halves or bfloat16s through a table of the 16
// nibbles' outputs (8..15 are -8..-1 when signed: a flag, not two more instances of the kernel),
// made with the scalar kernels' operations four lanes at a time (so the same bits) and kept as
// its low bytes and its high bytes, each a vector that i8x16.swizzle looks codes up in: a tile of
// 32 codes (16 bytes) is 2 shuffles to put the nibbles in order, 4 swizzles and 4 shuffles to
// interleave the bytes into 16-bit outputs, against 8 conversions to float and 8 to half through a
// float scratch (x32-dequantize-u4 then x8-to-half). A code before the first whole byte and the
// codes after the last whole tile (or half tile) are looked up one at a time in the same table.
// x32-lut4-row-to16-wasmsimd: the same for a row of blocks, each with its own scale: the codes'
// differences (code - zero, as floats) are computed once a call, the scales widened four at a
// time, so that a block's table is 4 multiplications and 4 narrowings (2 of each where the
// differences are -8..7: lut4_table_odd). With a multiplier, each table's entries are widened
// again, multiplied by it and narrowed (the scalar twin's steps).

// The 16 nibbles' differences from the zero point as floats, four a vector. Nibbles 8..15 of signed
// codes are -8..-1: 16 more is subtracted from them, with the zero point (in uint32, so that it
// wraps as the scalar kernel's difference).
inline void lut4_differences(bool is_signed, int32_t zero, v128_t d[4]) {
  const v128_t z_low = wasm_i32x4_splat(zero);
  const v128_t z_high = wasm_i32x4_splat(static_cast<int32_t>(static_cast<uint32_t>(zero) + (is_signed ? 16u : 0u)));
  for (int q = 0; q < 4; ++q) {
    const int32_t c = 4 * q;
    d[q] = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(wasm_i32x4_make(c, c + 1, c + 2, c + 3), q < 2 ? z_low : z_high));
  }
}

// A table: the 16 outputs as two vectors of 8 (t0, t1), and their low and high bytes.
struct Lut4Table {
  v128_t t0, t1, low, high;
};

// Four table entries from four differences times the scale, `f`: the 16-bit values' bits in int32
// lanes. (scaled: each entry is then multiplied by `multiplier`, four float lanes of it, as the
// scalar twin does: the entry as a 16-bit value, widened (half_round4: the same float without the
// bits; bfloat16: its rounding, then the low bits cleared), times the multiplier, rounded once
// more.) `f` is left as the float narrowed, whose NaN lanes lut4_table_odd keeps apart.
template <bool kBfloat16>
inline v128_t lut4_entries(v128_t& f, bool scaled, v128_t multiplier) {
  if (scaled) f = wasm_f32x4_mul(kBfloat16 ? wasm_i32x4_shl(bfloat16_bits4(f), 16) : half_round4(f), multiplier);
  return kBfloat16 ? bfloat16_bits4(f) : half_bits4(f);
}

template <bool kBfloat16>
inline Lut4Table lut4_table(const v128_t d[4], v128_t scale, bool scaled, v128_t multiplier) {
  v128_t bits[4];
  // (one loop, not four copies: with lut4_table_odd taking the default zero points, this is the
  // rarer path, and unrolled it took the threads build over its size limit for no speed measured:
  // docs/notes/2026-11-27-opfs-row-layout.md)
  ONNXWASM_PLAIN_LOOP
  for (int q = 0; q < 4; ++q) {
    v128_t f = wasm_f32x4_mul(d[q], scale);
    bits[q] = lut4_entries<kBfloat16>(f, scaled, multiplier);
  }
  Lut4Table t;
  // (the bits are 0..0xFFFF: the signed-to-unsigned saturating narrowing keeps them)
  t.t0 = wasm_u16x8_narrow_i32x4(bits[0], bits[1]);
  t.t1 = wasm_u16x8_narrow_i32x4(bits[2], bits[3]);
  t.low = wasm_i8x16_shuffle(t.t0, t.t1, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  t.high = wasm_i8x16_shuffle(t.t0, t.t1, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  return t;
}

// The same table where the differences are -8..7 (unsigned codes with zero point 8, signed codes
// with zero point 0: the defaults), from the entries of 1..8 (two vectors of the steps above, not
// four): the entry of -d is that of d with its sign flipped, as every step is odd (a product, half's
// and bfloat16's rounding to nearest even, infinity), except for a NaN, which keeps its sign (it is
// the scale's or the multiplier's, or the machine's default, whatever d's sign), and the entry of 0
// (`zero`: its bits in lane 0), which the caller makes with the same steps, four blocks at a time.
// Checked against the scalar twin on every half and bfloat16 scale (tests/cpp/dequantize_kernels_test.cpp).
template <bool kBfloat16>
inline Lut4Table lut4_table_odd(bool is_signed, v128_t scale, bool scaled, v128_t multiplier, v128_t zero) {
  v128_t bits[2], keep[2];
  for (int q = 0; q < 2; ++q) {
    const float c = static_cast<float>(4 * q + 1);
    v128_t f = wasm_f32x4_mul(wasm_f32x4_make(c, c + 1, c + 2, c + 3), scale);
    bits[q] = lut4_entries<kBfloat16>(f, scaled, multiplier);
    keep[q] = wasm_f32x4_eq(f, f);   // (all ones where f is no NaN)
  }
  const v128_t positive = wasm_u16x8_narrow_i32x4(bits[0], bits[1]);   // 1..8
  const v128_t flip = wasm_v128_and(wasm_i16x8_narrow_i32x4(keep[0], keep[1]), wasm_i16x8_splat(static_cast<int16_t>(0x8000)));
  const v128_t negative = wasm_v128_xor(positive, flip);   // -1..-8
  const v128_t low = wasm_i8x16_shuffle(zero, positive, 0, 1, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);   // 0..7
  const v128_t high = wasm_i8x16_shuffle(negative, negative, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);   // -8..-1
  Lut4Table t;
  t.t0 = is_signed ? low : high;
  t.t1 = is_signed ? high : low;
  t.low = wasm_i8x16_shuffle(t.t0, t.t1, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  t.high = wasm_i8x16_shuffle(t.t0, t.t1, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  return t;
}

inline void lut4_store16(v128_t codes, v128_t low, v128_t high, uint16_t* out) {
  const v128_t l = wasm_i8x16_swizzle(low, codes), h = wasm_i8x16_swizzle(high, codes);
  wasm_v128_store(out, wasm_i8x16_shuffle(l, h, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23));
  wasm_v128_store(out + 8, wasm_i8x16_shuffle(l, h, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31));
}

// `count` codes from logical element `first` through table t.
__attribute__((noinline)) void lut4_lookup(size_t count, const uint8_t* packed, size_t first, const Lut4Table& t, uint16_t* out) {
  // (the table's entries one by one, for the codes outside whole tiles and half tiles)
  alignas(16) uint16_t table[16];
  const bool odd_codes = (first & 1) || ((count - (first & 1)) & 15);
  if (odd_codes) {
    wasm_v128_store(table, t.t0);
    wasm_v128_store(table + 8, t.t1);
  }
  if (first & 1) {
    *out++ = table[packed[first / 2] >> 4];
    --count, ++first;
  }
  const uint8_t* p = packed + first / 2;
  const v128_t mask = wasm_i8x16_splat(0x0F);
  for (; count >= 32; count -= 32, p += 16, out += 32) {
    const v128_t v = wasm_v128_load(p);
    const v128_t lo = wasm_v128_and(v, mask), hi = wasm_u8x16_shr(v, 4);
    lut4_store16(wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), t.low, t.high, out);
    lut4_store16(wasm_i8x16_shuffle(lo, hi, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31), t.low, t.high, out + 16);
  }
  if (count >= 16) {
    const v128_t v = wasm_v128_load64_zero(p);
    const v128_t lo = wasm_v128_and(v, mask), hi = wasm_u8x16_shr(v, 4);
    lut4_store16(wasm_i8x16_shuffle(lo, hi, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23), t.low, t.high, out);
    count -= 16, p += 8, out += 16;
  }
  for (size_t i = 0; i < count; ++i) out[i] = table[(p[i / 2] >> (4 * (i & 1))) & 0x0F];
}

template <bool kBfloat16>
void x32_lut4_to16_wasmsimd(size_t count, const uint8_t* packed, size_t first, bool is_signed, int32_t zero, float scale,
                            const float* multiplier, uint16_t* out) {
  if (count == 0) return;
  v128_t d[4];
  lut4_differences(is_signed, zero, d);
  const v128_t m = wasm_f32x4_splat(multiplier ? *multiplier : 1.0f);
  lut4_lookup(count, packed, first, lut4_table<kBfloat16>(d, wasm_f32x4_splat(scale), multiplier != nullptr, m), out);
}

template <bool kBfloat16>
void x32_lut4_row_to16_wasmsimd(size_t count, size_t block_size, const uint8_t* packed, size_t first, bool is_signed,
                                int32_t zero, const uint16_t* scales, const float* multiplier, uint16_t* out) {
  if (count == 0) return;
  v128_t d[4];
  lut4_differences(is_signed, zero, d);
  const bool scaled = multiplier != nullptr;
  const v128_t m = wasm_f32x4_splat(scaled ? *multiplier : 1.0f);
  const size_t blocks = (count + block_size - 1) / block_size;
  // (differences -8..7: tables from the entries of 1..8, and of 0 made here four blocks at a time)
  const bool odd = is_signed ? zero == 0 : zero == 8;
  alignas(16) float widened[4];
  alignas(16) uint32_t zeros[4];
  for (size_t b = 0; b < blocks; ++b) {
    if (b % 4 == 0) {
      // The next four scales as floats (fewer at the row's end: no read past its last scale).
      v128_t h;
      if (blocks - b >= 4) {
        h = wasm_u32x4_extend_low_u16x8(wasm_v128_load64_zero(scales + b));
      } else {
        alignas(16) uint16_t rest[4] = {0, 0, 0, 0};
        for (size_t k = 0; k < blocks - b; ++k) rest[k] = scales[b + k];
        h = wasm_u32x4_extend_low_u16x8(wasm_v128_load64_zero(rest));
      }
      const v128_t s4 = kBfloat16 ? wasm_i32x4_shl(h, 16) : half_to_float4(h);
      wasm_v128_store(widened, s4);
      if (odd) {
        v128_t f = wasm_f32x4_mul(wasm_f32x4_splat(0.0f), s4);
        wasm_v128_store(zeros, lut4_entries<kBfloat16>(f, scaled, m));
      }
    }
    const size_t i = b * block_size, n = count - i < block_size ? count - i : block_size;
    const v128_t scale = wasm_v128_load32_splat(&widened[b % 4]);
    lut4_lookup(n, packed, first + i,
                odd ? lut4_table_odd<kBfloat16>(is_signed, scale, scaled, m, wasm_v128_load32_splat(&zeros[b % 4]))
                    : lut4_table<kBfloat16>(d, scale, scaled, m),
                out + i);
  }
}

const DequantizeKernels kWasmSimd = {
    "wasmsimd",
    x64_dequantize_2_wasmsimd<false>,
    x32_dequantize_4_wasmsimd<false>,
    x32_dequantize_4_wasmsimd<true>,
    x16_dequantize_8_wasmsimd<false>,
    x64_dequantize_2_wasmsimd<true>,
    x16_dequantize_8_wasmsimd<true>,
    x8_dequantize_16_wasmsimd<false>,
    x8_dequantize_16_wasmsimd<true>,
    x4_dequantize_s32_wasmsimd,
    x8_to_half_wasmsimd,
    x8_to_bfloat16_wasmsimd,
    x32_lut4_to16_wasmsimd<false>,
    x32_lut4_to16_wasmsimd<true>,
    x32_lut4_row_to16_wasmsimd<false>,
    x32_lut4_row_to16_wasmsimd<true>,
};

}  // namespace

const DequantizeKernels* dequantize_kernels_wasmsimd() { return &kWasmSimd; }

}  // namespace onnxwasm

#else

namespace onnxwasm {
const DequantizeKernels* dequantize_kernels_wasmsimd() { return nullptr; }
}  // namespace onnxwasm

#endif
