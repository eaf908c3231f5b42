// Scalar gather microkernels: the reference twins of gather_wasmsimd.cpp.
#include <cassert>
#include <cstring>

#include "gather.h"

namespace onnxwasm {
namespace {

template <size_t W>
void xW_gather_scalar(size_t n, const uint32_t* idx, const void* src, void* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* d = static_cast<uint8_t*>(dst);
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i * W, s + size_t{idx[i]} * W, W);
}

void slice_gather_scalar(size_t n, const uint32_t* idx, const void* src, size_t slice_bytes, void* dst) {
  const uint8_t* s = static_cast<const uint8_t*>(src);
  uint8_t* d = static_cast<uint8_t*>(dst);
  for (size_t i = 0; i < n; ++i) std::memcpy(d + i * slice_bytes, s + size_t{idx[i]} * slice_bytes, slice_bytes);
}

template <typename T>
size_t normalize_scalar(size_t n, const T* in, int64_t axis_dim, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const int64_t v = in[i];
    if (v < -axis_dim || v >= axis_dim) return i;
    if (out) out[i] = static_cast<uint32_t>(v < 0 ? v + axis_dim : v);
  }
  return n;
}

const GatherKernels kScalar = {
    "scalar",
    xW_gather_scalar<1>, xW_gather_scalar<2>, xW_gather_scalar<4>, xW_gather_scalar<8>, xW_gather_scalar<16>,
    slice_gather_scalar,
    normalize_scalar<int32_t>,
    normalize_scalar<int64_t>,
};

}  // namespace

const GatherKernels& gather_kernels_scalar() { return kScalar; }

uint32_t touch_cache_lines(const void* p, size_t bytes) {
  const volatile uint8_t* b = static_cast<const volatile uint8_t*>(p);
  uint32_t acc = 0;
  for (size_t k = 0; k < bytes; k += 64) acc += b[k];
  return acc;
}

const GatherKernels& gather_kernels_best() {
  const GatherKernels* simd = gather_kernels_wasmsimd();
  return simd ? *simd : kScalar;
}

}  // namespace onnxwasm
