// Dequantization microkernels of src/kernels/dequantize.h, tested XNNPACK style: each kernel set
// (scalar, and wasmsimd in the wasm build) against a naive reference written here, at the tile
// edges: every start code within a byte and beyond (first 0..9) and every count from 0 past two
// tiles of each width (64 codes of 2 bits, 32 of 4, 16 of 8, 8 of 16, 4 of 32; signed and
// unsigned), with canaries after the output; and the half and bfloat16 narrowings against the
// scalar conversions on special values and random bit patterns; the 4-bit to 16-bit table kernels
// (x32-lut4-to16) at their tile edges likewise, and the row kernel into halves for every half
// scale. Natively there are no SIMD kernels (a WARN); the wasm build REQUIREs them.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/kernels/dequantize.h"
#include "src/kernels/float16.h"
#include "tests/cpp/kernel_sets.h"
#if defined(__wasm_simd128__)
#include "src/kernels/float16_wasmsimd.h"
#endif

using namespace onnxwasm;

namespace {

std::vector<const DequantizeKernels*> kernel_sets() {
  return onnxwasm_test::kernel_sets(dequantize_kernels_scalar(), dequantize_kernels_wasmsimd(), dequantize_kernels_best());
}

int32_t naive_code(const std::vector<uint8_t>& b, size_t i, int bits, bool is_signed) {
  if (bits == 32) {
    int32_t v = 0;
    std::memcpy(&v, &b[i * 4], 4);
    return v;
  }
  if (bits == 16) {
    const uint32_t u = b[i * 2] | static_cast<uint32_t>(b[i * 2 + 1]) << 8;
    return is_signed && u >> 15 ? static_cast<int32_t>(u) - 65536 : static_cast<int32_t>(u);
  }
  uint32_t word = b[i * static_cast<size_t>(bits) / 8];
  const uint32_t u = (word >> (i * static_cast<size_t>(bits) % 8)) & ((1u << bits) - 1);
  return is_signed && u >> (bits - 1) ? static_cast<int32_t>(u) - (1 << bits) : static_cast<int32_t>(u);
}

}  // namespace

TEST_CASE("dequantize kernels: every start and count at the tile edges, bit for bit, nothing written past the end") {
  std::mt19937 rng(11);
  std::vector<uint8_t> packed(800);   // 150 codes of 32 bits
  for (uint8_t& b : packed) b = static_cast<uint8_t>(rng());
  struct Variant {
    const char* name;
    int bits;
    bool is_signed;
    DequantizeFn DequantizeKernels::*fn;
  };
  const Variant variants[] = {{"u2", 2, false, &DequantizeKernels::u2},   {"s2", 2, true, &DequantizeKernels::s2},
                              {"u4", 4, false, &DequantizeKernels::u4},   {"s4", 4, true, &DequantizeKernels::s4},
                              {"u8", 8, false, &DequantizeKernels::u8},   {"s8", 8, true, &DequantizeKernels::s8},
                              {"u16", 16, false, &DequantizeKernels::u16}, {"s16", 16, true, &DequantizeKernels::s16},
                              {"s32", 32, true, &DequantizeKernels::s32}};
  for (const DequantizeKernels* k : kernel_sets()) {
    for (const Variant& v : variants) {
      for (size_t first = 0; first < 10; ++first) {
        for (size_t count = 0; count <= 140; ++count) {
          INFO(k->target << " " << v.name << " first " << first << " count " << count);
          const int32_t zero = static_cast<int32_t>(rng() % 17) - 8;
          const float scale = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 313.0f;
          std::vector<float> out(count + 4, 12345.0f);
          (k->*v.fn)(count, packed.data(), first, zero, scale, out.data());
          for (size_t i = 0; i < count; ++i) {
            // int32 codes minus the zero point wrap (two's complement), as wasm's i32.sub.
            const int64_t d = static_cast<int64_t>(naive_code(packed, first + i, v.bits, v.is_signed)) - zero;
            const float want = static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(d))) * scale;
            REQUIRE(float_bits(out[i]) == float_bits(want));
          }
          for (size_t i = count; i < out.size(); ++i) REQUIRE(out[i] == 12345.0f);
        }
      }
    }
  }
}

TEST_CASE("narrowing kernels: halves and bfloat16s of special values and random bits equal the scalar conversions") {
  std::vector<float> in = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65520.0f, -65520.0f, 1e-8f, -1e-8f, 0x1.0p-24f, 0x1.8p-25f,
                           0x1.0p-14f, 0x1.ffcp-15f, 1.0f + 0x1.0p-11f, 1.0f + 3 * 0x1.0p-11f, 1.0f + 0x1.0p-8f,
                           3.3895314e38f, bits_float(0x7F800000u), bits_float(0xFF800000u), bits_float(0x7FC00000u),
                           bits_float(0xFFC00001u), bits_float(0x7F800001u), bits_float(0x00000001u)};
  std::mt19937 rng(5);
  while (in.size() < 4099) in.push_back(bits_float(static_cast<uint32_t>(rng())));
  for (const DequantizeKernels* k : kernel_sets()) {
    for (size_t count : {size_t{0}, size_t{1}, size_t{7}, size_t{8}, size_t{9}, size_t{15}, size_t{16}, size_t{17}, in.size()}) {
      INFO(k->target << " count " << count);
      std::vector<uint16_t> half(count + 2, 0xABCD), bf(count + 2, 0xABCD);
      k->to_half(count, in.data(), half.data());
      k->to_bfloat16(count, in.data(), bf.data());
      for (size_t i = 0; i < count; ++i) {
        INFO("value " << i << " bits " << float_bits(in[i]));
        REQUIRE(half[i] == float_to_half(in[i]));
        REQUIRE(bf[i] == float_to_bfloat16(in[i]));
      }
      CHECK(half[count] == 0xABCD);
      CHECK(bf[count] == 0xABCD);
    }
  }
}

TEST_CASE("4-bit to 16-bit table kernels: every start and count at the tile edges, bit for bit, nothing written past the end") {
  // Against the reference (the code's float, narrowed by the scalar conversion) and, for the
  // wasmsimd set, against the scalar twin; zero points and scales that reach every nibble's table
  // entry, half subnormals, overflow to infinity and the int32 wrap of the difference.
  std::mt19937 rng(17);
  std::vector<uint8_t> packed(64);   // 128 codes
  for (uint8_t& b : packed) b = static_cast<uint8_t>(rng());
  struct Variant {
    const char* name;
    bool is_signed, bfloat16;
    DequantizeTo16Fn DequantizeKernels::*fn;
  };
  const Variant variants[] = {{"u4 to half", false, false, &DequantizeKernels::lut4_to_half},
                              {"s4 to half", true, false, &DequantizeKernels::lut4_to_half},
                              {"u4 to bfloat16", false, true, &DequantizeKernels::lut4_to_bfloat16},
                              {"s4 to bfloat16", true, true, &DequantizeKernels::lut4_to_bfloat16}};
  const float scales[] = {0.0f, -0.0f, 1.0f, -0.37f, 1e-7f, 3e-8f, 9000.0f, 3.3e38f, bits_float(0x7F800000u)};
  const int32_t zeros[] = {0, 8, -8, 15, 3, INT32_MIN, INT32_MAX};
  // (Gemma's embedding scale as a half, a negative one, one that overflows halves, a subnormal, 0, NaN)
  const float multipliers[] = {50.59375f, -0.3125f, 4096.0f, 0x1.0p-20f, 0.0f, bits_float(0x7FC00000u)};
  const std::vector<const DequantizeKernels*> sets = kernel_sets();
  for (const DequantizeKernels* k : sets) {
    for (const Variant& v : variants) {
      for (size_t first = 0; first < 4; ++first) {
        for (size_t count = 0; count <= 2 * 32 + 20; ++count) {
          const int32_t zero = zeros[rng() % 7];
          const float scale = rng() % 3 ? static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 313.0f : scales[rng() % 9];
          // (a multiplier in half the calls: each output then as Mul computes it, widened, multiplied, narrowed)
          const float multiplier = multipliers[rng() % 6];
          const float* m = rng() % 2 ? &multiplier : nullptr;
          INFO(k->target << " " << v.name << " first " << first << " count " << count << " zero " << zero << " scale " << scale
                         << " multiplier " << (m ? *m : 1.0f));
          std::vector<uint16_t> out(count + 4, 0xABCD), twin(count + 4, 0xABCD);
          (k->*v.fn)(count, packed.data(), first, v.is_signed, zero, scale, m, out.data());
          (sets.front()->*v.fn)(count, packed.data(), first, v.is_signed, zero, scale, m, twin.data());
          for (size_t i = 0; i < count; ++i) {
            const int64_t d = static_cast<int64_t>(naive_code(packed, first + i, 4, v.is_signed)) - zero;
            const float f = static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(d))) * scale;
            uint16_t want = v.bfloat16 ? float_to_bfloat16(f) : float_to_half(f);
            if (m) want = v.bfloat16 ? float_to_bfloat16(bfloat16_to_float(want) * *m) : float_to_half(half_to_float(want) * *m);
            // (a NaN times a NaN multiplier: which one's sign the product keeps is the engine's
            // choice, in wasm as in IEEE 754; such outputs are checked to be NaN)
            const auto is_nan = [&v](uint16_t h) { return v.bfloat16 ? (h & 0x7F80) == 0x7F80 && (h & 0x7F) : (h & 0x7C00) == 0x7C00 && (h & 0x3FF); };
            if (m && std::isnan(*m) && is_nan(want)) {
              REQUIRE(is_nan(out[i]));
              REQUIRE(is_nan(twin[i]));
              continue;
            }
            REQUIRE(out[i] == want);
            REQUIRE(out[i] == twin[i]);
          }
          for (size_t i = count; i < out.size(); ++i) REQUIRE(out[i] == 0xABCD);
        }
      }
    }
  }
}

TEST_CASE("4-bit row kernels: blocks of every size and count at the tile edges, bit for bit, no read past the last scale") {
  // A row of blocks (x32-lut4-row-to16) against the table kernel called block by block with the
  // scale widened by the scalar conversion (the reference), and, for the wasmsimd set, against the
  // scalar twin: blocks of 16, 32 and 64 codes, 1 to 9 blocks (the SIMD kernel widens scales four
  // at a time: whole groups and the rest), a last block cut short, starts within a byte, and
  // scales that include subnormal halves, zero, infinity and NaN. The scales are exactly as many
  // as the blocks (no read past them: ASan in the native build), and a canary follows the output.
  std::mt19937 rng(29);
  std::vector<uint8_t> packed(400);   // 800 codes
  for (uint8_t& b : packed) b = static_cast<uint8_t>(rng());
  struct Variant {
    const char* name;
    bool is_signed, bfloat16;
    DequantizeRowTo16Fn DequantizeKernels::*row;
    DequantizeTo16Fn DequantizeKernels::*block;
  };
  const Variant variants[] = {
      {"u4, half scales", false, false, &DequantizeKernels::lut4_row_half, &DequantizeKernels::lut4_to_half},
      {"s4, half scales", true, false, &DequantizeKernels::lut4_row_half, &DequantizeKernels::lut4_to_half},
      {"u4, bfloat16 scales", false, true, &DequantizeKernels::lut4_row_bfloat16, &DequantizeKernels::lut4_to_bfloat16},
      {"s4, bfloat16 scales", true, true, &DequantizeKernels::lut4_row_bfloat16, &DequantizeKernels::lut4_to_bfloat16}};
  const uint16_t special_halves[] = {0x0000, 0x8000, 0x0001, 0x03FF, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x3C00, 0xB555};
  const int32_t zeros[] = {0, 8, 2, 15, -8, INT32_MIN};
  const std::vector<const DequantizeKernels*> sets = kernel_sets();
  const DequantizeKernels& scalar = *sets.front();
  for (const DequantizeKernels* k : sets) {
    for (const Variant& v : variants) {
      for (const size_t block_size : {size_t{16}, size_t{32}, size_t{64}}) {
        for (size_t blocks = 1; blocks <= 9; ++blocks) {
          for (const size_t cut : {size_t{0}, size_t{1}, size_t{15}, block_size - 1}) {   // codes missing from the last block
            for (size_t first = 0; first < 3; ++first) {
              const size_t count = blocks * block_size - cut;
              const int32_t zero = zeros[rng() % 6];
              std::vector<uint16_t> scales(blocks);
              for (uint16_t& s : scales) s = rng() % 4 ? static_cast<uint16_t>(rng()) : special_halves[rng() % 10];
              const float multiplier = -3.5f;   // (in half the cases)
              const float* m = rng() % 2 ? &multiplier : nullptr;
              INFO(k->target << " " << v.name << " block " << block_size << " blocks " << blocks << " cut " << cut << " first "
                             << first << " zero " << zero << (m ? " multiplier -3.5" : ""));
              std::vector<uint16_t> out(count + 4, 0xABCD), want(count + 4, 0xABCD), twin(count + 4, 0xABCD);
              (k->*v.row)(count, block_size, packed.data(), first, v.is_signed, zero, scales.data(), m, out.data());
              (scalar.*v.row)(count, block_size, packed.data(), first, v.is_signed, zero, scales.data(), m, twin.data());
              for (size_t b = 0; b < blocks; ++b) {
                const float s = v.bfloat16 ? bfloat16_to_float(scales[b]) : half_to_float(scales[b]);
                const size_t i = b * block_size;
                (scalar.*v.block)(std::min(block_size, count - i), packed.data(), first + i, v.is_signed, zero, s, m, want.data() + i);
              }
              REQUIRE(out == want);
              REQUIRE(out == twin);
            }
          }
        }
      }
    }
  }
}

TEST_CASE("4-bit row kernels: every half and bfloat16 scale, every nibble, bit for bit") {
  // Each of the 65,536 half scales (normal, subnormal, zero, infinite, NaN, both signs), and each
  // of the 65,536 bfloat16 ones, scales a block holding every nibble twice, for signed and unsigned
  // codes, through the row kernel, against the table kernel of the scalar set: every zero point
  // from -9 to 16 into halves without a multiplier and with Gemma's embedding scale as one; and
  // with the defaults' zero points (where the SIMD tables are made from half their entries) and
  // others, multipliers that are negative, zero of either sign, infinite, NaN, subnormal and one
  // that overflows, into both types. (A NaN entry times a NaN multiplier: which sign the product
  // keeps is the engine's choice; such outputs are checked to be NaN.)
  std::vector<uint8_t> packed(16);   // 32 codes: 0, 1, ..., 15 twice
  for (size_t i = 0; i < packed.size(); ++i) packed[i] = static_cast<uint8_t>((2 * i % 16) | ((2 * i + 1) % 16) << 4);
  std::vector<uint8_t> row(16 * 256);
  for (size_t b = 0; b < 256; ++b) std::memcpy(row.data() + 16 * b, packed.data(), 16);
  const DequantizeKernels& scalar = dequantize_kernels_scalar();
  const float gemma = 50.59375f;
  const float others[] = {-0.3125f, 0.0f, -0.0f, bits_float(0x7F800000u), bits_float(0x7FC00000u), 0x1.0p-20f, 4096.0f};
  struct Config {
    bool bfloat16;
    const float* m;
    std::vector<int32_t> zeros;
  };
  std::vector<int32_t> every;
  for (int32_t zero = -9; zero <= 16; ++zero) every.push_back(zero);
  std::vector<Config> configs = {{false, nullptr, every}, {false, &gemma, every}, {true, nullptr, {-9, 0, 8, 16}}, {true, &gemma, {0, 8}}};
  for (const float& m : others)
    for (const bool bfloat16 : {false, true}) configs.push_back({bfloat16, &m, {0, 8, 3}});
  for (const DequantizeKernels* k : kernel_sets()) {
    for (const Config& c : configs) {
      const DequantizeRowTo16Fn row_fn = c.bfloat16 ? k->lut4_row_bfloat16 : k->lut4_row_half;
      const DequantizeTo16Fn block_fn = c.bfloat16 ? scalar.lut4_to_bfloat16 : scalar.lut4_to_half;
      const auto is_nan = [&c](uint16_t h) { return c.bfloat16 ? (h & 0x7F80) == 0x7F80 && (h & 0x7F) : (h & 0x7C00) == 0x7C00 && (h & 0x3FF); };
      for (const bool is_signed : {false, true}) {
        for (const int32_t zero : c.zeros) {
          INFO(k->target << (is_signed ? " s4" : " u4") << (c.bfloat16 ? " bfloat16" : " half") << " zero " << zero << " multiplier "
                         << (c.m ? *c.m : 1.0f));
          std::vector<uint16_t> out(32 * 256), want(32 * 256);
          std::vector<uint16_t> scales(256);
          for (uint32_t hi = 0; hi < 256; ++hi) {   // 256 rows of 256 blocks: every scale once
            for (uint32_t lo = 0; lo < 256; ++lo) scales[lo] = static_cast<uint16_t>(hi << 8 | lo);
            row_fn(32 * 256, 32, row.data(), 0, is_signed, zero, scales.data(), c.m, out.data());
            for (size_t b = 0; b < 256; ++b) {
              const float s = c.bfloat16 ? bfloat16_to_float(scales[b]) : half_to_float(scales[b]);
              block_fn(32, row.data(), 32 * b, is_signed, zero, s, c.m, want.data() + 32 * b);
            }
            size_t i = 0;   // the first output that differs, if any
            while (i < out.size() && (out[i] == want[i] || (c.m && std::isnan(*c.m) && is_nan(want[i]) && is_nan(out[i])))) ++i;
            INFO("scale 0x" << std::hex << (i < out.size() ? scales[i / 32] : 0) << " code " << std::dec << (i % 16));
            REQUIRE(i == out.size());
          }
        }
      }
    }
  }
}

#if defined(__wasm_simd128__)
TEST_CASE("half_round4: every float near a half, and floats of every exponent, as float_to_half then half_to_float") {
  // The table kernels' multiplier path widens a half without its bits (float16_wasmsimd.h): checked
  // on each half's value, the floats one ulp either side of it and of the midpoint to the next
  // half (the ties and their neighbours, both signs), and 2^22 floats, every 12-bit top of the bits
  // with random low bits; NaN in, NaN out.
  std::vector<float> xs;
  for (uint32_t h = 0; h < 0x8000; ++h) {
    const uint32_t v = float_bits(half_to_float(static_cast<uint16_t>(h)));
    const uint32_t mid = float_bits((half_to_float(static_cast<uint16_t>(h)) + half_to_float(static_cast<uint16_t>(h + 1))) / 2);
    for (const uint32_t b : {v - 1, v, v + 1, mid - 1, mid, mid + 1})
      for (const uint32_t sign : {0u, 0x80000000u}) xs.push_back(bits_float(b | sign));
  }
  std::mt19937 rng(41);
  for (uint32_t top = 0; top < 4096; ++top)
    for (int k = 0; k < 1024; ++k) xs.push_back(bits_float(top << 20 | (rng() & 0xFFFFF)));
  for (const float f : {0.0f, -0.0f, 65504.0f, 65519.996f, 65520.0f, -65520.0f, 0x1.0p-25f, 0x1.8p-25f, 0x1.0p-24f, 1e-45f})
    xs.push_back(f);
  while (xs.size() % 4) xs.push_back(0.0f);
  for (size_t i = 0; i < xs.size(); i += 4) {
    alignas(16) float got[4];
    wasm_v128_store(got, half_round4(wasm_v128_load(&xs[i])));
    for (size_t k = 0; k < 4; ++k) {
      const float want = half_to_float(float_to_half(xs[i + k]));
      if (std::isnan(want)) {
        if (!std::isnan(got[k])) FAIL("x 0x" << std::hex << float_bits(xs[i + k]) << ": not NaN");
        continue;
      }
      if (float_bits(got[k]) != float_bits(want))
        FAIL("x 0x" << std::hex << float_bits(xs[i + k]) << ": 0x" << float_bits(got[k]) << ", want 0x" << float_bits(want));
    }
  }
  SUCCEED(xs.size() << " floats");
}
#endif
