// The kernel sets a microkernel test runs: the scalar twin, then the wasm SIMD set where the build
// has one (the wasm build must: -msimd128 defines __wasm_simd128__; natively there is none, and
// the test says so), the last being the one the ops use (*_kernels_best()).
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace onnxwasm_test {

template <typename Kernels>
std::vector<const Kernels*> kernel_sets(const Kernels& scalar, const Kernels* simd, const Kernels& best) {
  std::vector<const Kernels*> sets = {&scalar};
#if defined(__wasm_simd128__)
  REQUIRE(simd != nullptr);
  REQUIRE(std::string(simd->target) == "wasmsimd");
#else
  if (!simd) WARN("built without wasm SIMD (native build): the wasmsimd kernels are tested in the wasm build");
#endif
  if (simd) sets.push_back(simd);
  CHECK(&best == sets.back());
  return sets;
}

}  // namespace onnxwasm_test
