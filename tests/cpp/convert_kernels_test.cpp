// Conversion microkernels of src/kernels/convert.h, tested XNNPACK style: each kernel set (scalar,
// and wasmsimd in the wasm build) against the scalar conversion of every half (all 65,536 bit
// patterns, NaNs and subnormals included) at every count from 0 past two tiles of 8, from every
// start within a tile, with canaries after the output. Natively there are no SIMD kernels (a
// WARN); the wasm build REQUIREs them.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/kernels/convert.h"
#include "src/kernels/float16.h"
#include "tests/cpp/kernel_sets.h"

using namespace onnxwasm;

namespace {

std::vector<const ConvertKernels*> kernel_sets() {
  return onnxwasm_test::kernel_sets(convert_kernels_scalar(), convert_kernels_wasmsimd(), convert_kernels_best());
}

}  // namespace

TEST_CASE("half to float kernels: every half, bit for bit, at the tile edges, nothing written past the end") {
  std::vector<uint16_t> all(65536);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
  // The exact values, written from the IEEE format: sign, 5 exponent bits (bias 15), 10 mantissa bits.
  CHECK(half_to_float(0x3C00) == 1.0f);
  CHECK(half_to_float(0x7BFF) == 65504.0f);
  CHECK(half_to_float(0x0001) == 0x1.0p-24f);
  CHECK(half_to_float(0x8400) == -0x1.0p-14f);
  CHECK(float_bits(half_to_float(0x7C00)) == 0x7F800000u);
  CHECK(float_bits(half_to_float(0xFE00)) == 0xFFC00000u);
  for (const ConvertKernels* k : kernel_sets()) {
    std::vector<float> out(all.size() + 4, 12345.0f);
    k->half_to_float(all.size(), all.data(), out.data());
    for (size_t i = 0; i < all.size(); ++i) {
      INFO(k->target << " half " << i);
      REQUIRE(float_bits(out[i]) == float_bits(half_to_float(all[i])));
    }
    CHECK(out[all.size()] == 12345.0f);
    for (size_t first = 0; first < 8; ++first)
      for (size_t count = 0; count <= 40; ++count) {
        INFO(k->target << " first " << first << " count " << count);
        std::vector<float> o(count + 4, 12345.0f);
        k->half_to_float(count, all.data() + 0x3B00 + first, o.data());
        for (size_t i = 0; i < count; ++i) REQUIRE(float_bits(o[i]) == float_bits(half_to_float(static_cast<uint16_t>(0x3B00 + first + i))));
        for (size_t i = count; i < o.size(); ++i) REQUIRE(o[i] == 12345.0f);
      }
  }
}
