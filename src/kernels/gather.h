// Gather microkernels (XNNPACK style): pointers and counts only, no validation. Every index in
// `idx` is already normalized into [0, axis_dim). Each wasm SIMD kernel has a scalar twin with
// the same signature; tests/cpp/gather_kernels_test.cpp checks that they agree at tile edges.
#pragma once
#include <cstddef>
#include <cstdint>

namespace onnxwasm {

// dst[i] = src[idx[i]] for i < n, elements of 1, 2, 4, 8 or 16 bytes (one-element slices).
using ElementGatherFn = void (*)(size_t n, const uint32_t* idx, const void* src, void* dst);
// dst slice i = src slice idx[i], slices of slice_bytes bytes.
using SliceGatherFn = void (*)(size_t n, const uint32_t* idx, const void* src, size_t slice_bytes, void* dst);
// Checks n indices against [-axis_dim, axis_dim - 1] and writes them normalized to [0, axis_dim)
// into out (skipped when out is null). Returns the position of the first index out of range, or n.
using NormalizeS32Fn = size_t (*)(size_t n, const int32_t* in, int64_t axis_dim, uint32_t* out);
using NormalizeS64Fn = size_t (*)(size_t n, const int64_t* in, int64_t axis_dim, uint32_t* out);

struct GatherKernels {
  const char* target;  // "scalar" or "wasmsimd"
  ElementGatherFn x8, x16, x32, x64, x128;
  SliceGatherFn slices;
  NormalizeS32Fn s32_normalize;
  NormalizeS64Fn s64_normalize;

  ElementGatherFn for_width(size_t bytes) const {
    switch (bytes) {
      case 1: return x8;
      case 2: return x16;
      case 4: return x32;
      case 8: return x64;
      case 16: return x128;
      default: return nullptr;
    }
  }
};

// Reads one byte per 64-byte cache line of [p, p + bytes), in order, so that the hardware
// streams the lines in before a random-order element gather reads them (wasm has no prefetch
// instruction). Returns a value that keeps the loads from being optimized away.
uint32_t touch_cache_lines(const void* p, size_t bytes);

const GatherKernels& gather_kernels_scalar();
const GatherKernels* gather_kernels_wasmsimd();  // null when built without wasm SIMD
// wasmsimd when built with it, else scalar.
const GatherKernels& gather_kernels_best();

}  // namespace onnxwasm
