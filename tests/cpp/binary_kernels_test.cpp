// Elementwise binary microkernels of src/kernels/binary.h, tested XNNPACK style: each kernel set
// (scalar, and wasmsimd in the wasm build) against a reference written here, for every op and
// form (tensor-tensor, tensor-scalar, scalar-tensor), every count from 0 past three 8-element
// tiles and every start offset 0..3 (unaligned loads), with canaries after the output. Inputs are
// random values and random bit patterns (halves: every class, subnormals, inf and NaN). Natively
// there are no SIMD kernels (a WARN); the wasm build REQUIREs them.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "src/kernels/binary.h"
#include "src/kernels/float16.h"
#include "tests/cpp/kernel_sets.h"

using namespace onnxwasm;

namespace {

std::vector<const BinaryKernels*> kernel_sets() {
  return onnxwasm_test::kernel_sets(binary_kernels_scalar(), binary_kernels_wasmsimd(), binary_kernels_best());
}

float reference(int op, float x, float y) {
  switch (op) {
    case kBinaryAdd: return x + y;
    case kBinarySub: return x - y;
    case kBinaryMul: return x * y;
    default: return x / y;
  }
}

bool same_f32(float got, float want) { return float_bits(got) == float_bits(want) || (std::isnan(got) && std::isnan(want)); }
bool same_f16(uint16_t got, uint16_t want) {
  return got == want || (std::isnan(half_to_float(got)) && std::isnan(half_to_float(want)));
}

}  // namespace

TEST_CASE("binary kernels: float32, every op and form, counts 0..40 at offsets 0..3, nothing written past the end") {
  std::mt19937 rng(17);
  std::vector<float> a(48), b(48);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = i % 7 == 3 ? bits_float(static_cast<uint32_t>(rng())) : static_cast<float>(static_cast<int>(rng() % 20001) - 10000) / 97.0f;
    b[i] = i % 5 == 1 ? bits_float(static_cast<uint32_t>(rng())) : static_cast<float>(static_cast<int>(rng() % 20001) - 10000) / 89.0f;
  }
  b[9] = 0.0f;   // a division by zero among them
  for (const BinaryKernels* k : kernel_sets())
    for (int op = 0; op < 4; ++op)
      for (int form = 0; form < 3; ++form)
        for (size_t offset = 0; offset < 4; ++offset)
          for (size_t count = 0; count <= 40; ++count) {
            INFO(k->target << " op " << op << " form " << form << " offset " << offset << " count " << count);
            std::vector<float> out(offset + count + 4, 12345.0f);
            k->f32[op][form](count, a.data() + offset, b.data() + offset, out.data() + offset);
            for (size_t i = 0; i < count; ++i) {
              const float x = a[offset + (form == kScalarTensor ? 0 : i)], y = b[offset + (form == kTensorScalar ? 0 : i)];
              REQUIRE(same_f32(out[offset + i], reference(op, x, y)));
            }
            for (size_t i = 0; i < offset; ++i) REQUIRE(out[i] == 12345.0f);
            for (size_t i = offset + count; i < out.size(); ++i) REQUIRE(out[i] == 12345.0f);
          }
}

TEST_CASE("binary kernels: float16 computed in float and rounded to nearest even, every op and form at the tile edges") {
  std::mt19937 rng(23);
  std::vector<uint16_t> a(4100), b(4100);
  // Special halves first (zeros, the smallest subnormal, the largest finite, inf, NaN), then random bits.
  const uint16_t special[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x3555, 0x1000};
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = i < 16 ? special[i] : static_cast<uint16_t>(rng());
    b[i] = i < 16 ? special[15 - i] : static_cast<uint16_t>(rng());
  }
  for (const BinaryKernels* k : kernel_sets())
    for (int op = 0; op < 4; ++op)
      for (int form = 0; form < 3; ++form)
        for (size_t offset = 0; offset < 4; ++offset)
          for (size_t count : {0, 1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 33, 64, 4096}) {
            INFO(k->target << " op " << op << " form " << form << " offset " << offset << " count " << count);
            std::vector<uint16_t> out(offset + count + 4, 0xABCD);
            k->f16[op][form](count, a.data() + offset, b.data() + offset, out.data() + offset);
            for (size_t i = 0; i < count; ++i) {
              const uint16_t x = a[offset + (form == kScalarTensor ? 0 : i)], y = b[offset + (form == kTensorScalar ? 0 : i)];
              INFO("element " << i << ": " << x << " op " << y);
              REQUIRE(same_f16(out[offset + i], float_to_half(reference(op, half_to_float(x), half_to_float(y)))));
            }
            for (size_t i = 0; i < offset; ++i) REQUIRE(out[i] == 0xABCD);
            for (size_t i = offset + count; i < out.size(); ++i) REQUIRE(out[i] == 0xABCD);
          }
}

TEST_CASE("binary kernels: half widening and narrowing equal the scalar conversions at every count around the tiles") {
  std::mt19937 rng(29);
  std::vector<uint16_t> halves(300);
  std::vector<float> floats(300);
  for (size_t i = 0; i < halves.size(); ++i) {
    halves[i] = static_cast<uint16_t>(rng());
    floats[i] = i % 3 ? bits_float(static_cast<uint32_t>(rng())) : static_cast<float>(static_cast<int>(rng() % 200001) - 100000) / 1000.0f;
  }
  for (const BinaryKernels* k : kernel_sets())
    for (size_t count = 0; count <= 40; ++count) {
      INFO(k->target << " count " << count);
      std::vector<float> wide(count + 2, 12345.0f);
      std::vector<uint16_t> narrow(count + 2, 0xABCD);
      k->widen(count, halves.data() + 1, wide.data());
      k->narrow(count, floats.data() + 1, narrow.data());
      for (size_t i = 0; i < count; ++i) {
        REQUIRE(float_bits(wide[i]) == float_bits(half_to_float(halves[i + 1])));
        REQUIRE(narrow[i] == float_to_half(floats[i + 1]));
      }
      CHECK(wide[count] == 12345.0f);
      CHECK(narrow[count] == 0xABCD);
    }
}
