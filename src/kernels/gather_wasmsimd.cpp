// wasm SIMD gather microkernels (x8/x16/x32/x64/x128-gather-wasmsimd). One-element slices build
// full vectors from lane loads; remainders below a vector fall back to scalar element copies.
#include "gather.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include <cstring>

namespace onnxwasm {
namespace {

void x8_gather_wasmsimd(size_t n, const uint32_t* idx, const void* src, void* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* d = static_cast<uint8_t*>(dst);
  for (; n >= 16; n -= 16, idx += 16, d += 16) {
    v128_t v = wasm_v128_load8_splat(s + idx[0]);
    v = wasm_v128_load8_lane(s + idx[1], v, 1);
    v = wasm_v128_load8_lane(s + idx[2], v, 2);
    v = wasm_v128_load8_lane(s + idx[3], v, 3);
    v = wasm_v128_load8_lane(s + idx[4], v, 4);
    v = wasm_v128_load8_lane(s + idx[5], v, 5);
    v = wasm_v128_load8_lane(s + idx[6], v, 6);
    v = wasm_v128_load8_lane(s + idx[7], v, 7);
    v = wasm_v128_load8_lane(s + idx[8], v, 8);
    v = wasm_v128_load8_lane(s + idx[9], v, 9);
    v = wasm_v128_load8_lane(s + idx[10], v, 10);
    v = wasm_v128_load8_lane(s + idx[11], v, 11);
    v = wasm_v128_load8_lane(s + idx[12], v, 12);
    v = wasm_v128_load8_lane(s + idx[13], v, 13);
    v = wasm_v128_load8_lane(s + idx[14], v, 14);
    v = wasm_v128_load8_lane(s + idx[15], v, 15);
    wasm_v128_store(d, v);
  }
  for (size_t i = 0; i < n; ++i) d[i] = s[idx[i]];
}

void x16_gather_wasmsimd(size_t n, const uint32_t* idx, const void* src, void* dst) {
  const uint16_t* s = static_cast<const uint16_t*>(src);
  uint16_t* d = static_cast<uint16_t*>(dst);
  for (; n >= 8; n -= 8, idx += 8, d += 8) {
    v128_t v = wasm_v128_load16_splat(s + idx[0]);
    v = wasm_v128_load16_lane(s + idx[1], v, 1);
    v = wasm_v128_load16_lane(s + idx[2], v, 2);
    v = wasm_v128_load16_lane(s + idx[3], v, 3);
    v = wasm_v128_load16_lane(s + idx[4], v, 4);
    v = wasm_v128_load16_lane(s + idx[5], v, 5);
    v = wasm_v128_load16_lane(s + idx[6], v, 6);
    v = wasm_v128_load16_lane(s + idx[7], v, 7);
    wasm_v128_store(d, v);
  }
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i, s + idx[i], 2);
}

void x32_gather_wasmsimd(size_t n, const uint32_t* idx, const void* src, void* dst) {
  const uint32_t* s = static_cast<const uint32_t*>(src);
  uint32_t* d = static_cast<uint32_t*>(dst);
  for (; n >= 8; n -= 8, idx += 8, d += 8) {
    v128_t a = wasm_v128_load32_zero(s + idx[0]);
    v128_t b = wasm_v128_load32_zero(s + idx[4]);
    a = wasm_v128_load32_lane(s + idx[1], a, 1);
    b = wasm_v128_load32_lane(s + idx[5], b, 1);
    a = wasm_v128_load32_lane(s + idx[2], a, 2);
    b = wasm_v128_load32_lane(s + idx[6], b, 2);
    a = wasm_v128_load32_lane(s + idx[3], a, 3);
    b = wasm_v128_load32_lane(s + idx[7], b, 3);
    wasm_v128_store(d, a);
    wasm_v128_store(d + 4, b);
  }
  if (n >= 4) {
    v128_t a = wasm_v128_load32_zero(s + idx[0]);
    a = wasm_v128_load32_lane(s + idx[1], a, 1);
    a = wasm_v128_load32_lane(s + idx[2], a, 2);
    a = wasm_v128_load32_lane(s + idx[3], a, 3);
    wasm_v128_store(d, a);
    n -= 4, idx += 4, d += 4;
  }
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i, s + idx[i], 4);
}

void x64_gather_wasmsimd(size_t n, const uint32_t* idx, const void* src, void* dst) {
  const uint64_t* s = static_cast<const uint64_t*>(src);
  uint64_t* d = static_cast<uint64_t*>(dst);
  for (; n >= 4; n -= 4, idx += 4, d += 4) {
    v128_t a = wasm_v128_load64_zero(s + idx[0]);
    v128_t b = wasm_v128_load64_zero(s + idx[2]);
    a = wasm_v128_load64_lane(s + idx[1], a, 1);
    b = wasm_v128_load64_lane(s + idx[3], b, 1);
    wasm_v128_store(d, a);
    wasm_v128_store(d + 2, b);
  }
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i, s + idx[i], 8);
}

void x128_gather_wasmsimd(size_t n, const uint32_t* idx, const void* src, void* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* d = static_cast<uint8_t*>(dst);
  for (; n >= 2; n -= 2, idx += 2, d += 32) {
    const v128_t a = wasm_v128_load(s + size_t{idx[0]} * 16);
    const v128_t b = wasm_v128_load(s + size_t{idx[1]} * 16);
    wasm_v128_store(d, a);
    wasm_v128_store(d + 16, b);
  }
  if (n) wasm_v128_store(d, wasm_v128_load(s + size_t{idx[0]} * 16));
}

// Slices that are whole vectors and short copy with v128 loads; longer ones with memory.copy.
void slice_gather_wasmsimd(size_t n, const uint32_t* idx, const void* src, size_t slice_bytes, void* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* d = static_cast<uint8_t*>(dst);
  if (slice_bytes % 16 == 0 && slice_bytes <= 256) {
    for (size_t i = 0; i < n; ++i, d += slice_bytes) {
      const uint8_t* p = s + size_t{idx[i]} * slice_bytes;
      for (size_t k = 0; k < slice_bytes; k += 16) wasm_v128_store(d + k, wasm_v128_load(p + k));
    }
    return;
  }
  for (size_t i = 0; i < n; ++i, d += slice_bytes) std::memcpy(d, s + size_t{idx[i]} * slice_bytes, slice_bytes);
}

// Vectorized check of four indices at a time: any lane outside [lo, hi] stops the fast path and
// the scalar tail finds the exact position.
template <typename T>
size_t normalize_tail(size_t i, size_t n, const T* in, int64_t axis_dim, uint32_t* out) {
  for (; i < n; ++i) {
    const int64_t v = in[i];
    if (v < -axis_dim || v >= axis_dim) return i;
    if (out) out[i] = static_cast<uint32_t>(v < 0 ? v + axis_dim : v);
  }
  return n;
}

size_t s32_normalize_wasmsimd(size_t n, const int32_t* in, int64_t axis_dim, uint32_t* out) {
  if (axis_dim > INT32_MAX) return normalize_tail<int32_t>(0, n, in, axis_dim, out);
  const v128_t dim = wasm_i32x4_splat(static_cast<int32_t>(axis_dim));
  const v128_t neg_dim = wasm_i32x4_splat(static_cast<int32_t>(-axis_dim));
  const v128_t zero = wasm_i32x4_splat(0);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t v = wasm_v128_load(in + i);
    const v128_t bad = wasm_v128_or(wasm_i32x4_lt(v, neg_dim), wasm_i32x4_ge(v, dim));
    if (wasm_v128_any_true(bad)) break;
    if (out) wasm_v128_store(out + i, wasm_i32x4_add(v, wasm_v128_and(dim, wasm_i32x4_lt(v, zero))));
  }
  return normalize_tail<int32_t>(i, n, in, axis_dim, out);
}

size_t s64_normalize_wasmsimd(size_t n, const int64_t* in, int64_t axis_dim, uint32_t* out) {
  const v128_t dim = wasm_i64x2_splat(axis_dim);
  const v128_t neg_dim = wasm_i64x2_splat(-axis_dim);
  const v128_t zero = wasm_i64x2_splat(0);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const v128_t a = wasm_v128_load(in + i);
    const v128_t b = wasm_v128_load(in + i + 2);
    const v128_t bad = wasm_v128_or(wasm_v128_or(wasm_i64x2_lt(a, neg_dim), wasm_i64x2_ge(a, dim)),
                                    wasm_v128_or(wasm_i64x2_lt(b, neg_dim), wasm_i64x2_ge(b, dim)));
    if (wasm_v128_any_true(bad)) break;
    if (out) {
      const v128_t na = wasm_i64x2_add(a, wasm_v128_and(dim, wasm_i64x2_lt(a, zero)));
      const v128_t nb = wasm_i64x2_add(b, wasm_v128_and(dim, wasm_i64x2_lt(b, zero)));
      // Keep the low 32 bits of each 64-bit lane: lanes 0 and 2 of each vector.
      wasm_v128_store(out + i, wasm_i32x4_shuffle(na, nb, 0, 2, 4, 6));
    }
  }
  return normalize_tail<int64_t>(i, n, in, axis_dim, out);
}

const GatherKernels kWasmSimd = {
    "wasmsimd",
    x8_gather_wasmsimd, x16_gather_wasmsimd, x32_gather_wasmsimd, x64_gather_wasmsimd, x128_gather_wasmsimd,
    slice_gather_wasmsimd,
    s32_normalize_wasmsimd,
    s64_normalize_wasmsimd,
};

}  // namespace

const GatherKernels* gather_kernels_wasmsimd() { return &kWasmSimd; }

}  // namespace onnxwasm

#else

namespace onnxwasm {
const GatherKernels* gather_kernels_wasmsimd() { return nullptr; }
}  // namespace onnxwasm

#endif
