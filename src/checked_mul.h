// int64 multiplication that reports overflow, for element counts and byte sizes.
#pragma once
#include <cstdint>

namespace onnxwasm {

// *out = a * b; returns true when that overflows int64 (as __builtin_mul_overflow). When both
// are in [0, 2^31) (nearly always) the product fits and is one multiply: the checked form is a
// 128-bit library call (__multi3) in wasm32, a tenth of a tiny Gather's time.
inline bool mul_overflows(int64_t a, int64_t b, int64_t* out) {
  if (((static_cast<uint64_t>(a) | static_cast<uint64_t>(b)) >> 31) == 0) {
    *out = a * b;
    return false;
  }
  return __builtin_mul_overflow(a, b, out);
}

}  // namespace onnxwasm
