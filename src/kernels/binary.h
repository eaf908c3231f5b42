// Elementwise binary microkernels of Add, Sub, Mul and Div (ops/arith.cpp) for float32 and IEEE
// half, in three forms: a[i] op b[i] (tensor op tensor), a[i] op b[0] (tensor op scalar) and
// a[0] op b[i] (scalar op tensor). Halves are computed in float and rounded to nearest even
// (float16.h), as onnxruntime's MLFloat16 kernels and torch do: every op of two halves is then
// correctly rounded (float's 24 bits are more than twice half's 11, plus 2).
#pragma once
#include <cstddef>
#include <cstdint>

#include "plain_loop.h"

namespace onnxwasm {

enum BinaryOp : int { kBinaryAdd = 0, kBinarySub = 1, kBinaryMul = 2, kBinaryDiv = 3 };
enum BinaryForm : int { kTensorTensor = 0, kTensorScalar = 1, kScalarTensor = 2 };

using BinaryF32Fn = void (*)(size_t count, const float* a, const float* b, float* out);
using BinaryF16Fn = void (*)(size_t count, const uint16_t* a, const uint16_t* b, uint16_t* out);

// `count` halves to floats, and floats to halves rounded to nearest even (float16.h).
using WidenFn = void (*)(size_t count, const uint16_t* in, float* out);
using NarrowHalfFn = void (*)(size_t count, const float* in, uint16_t* out);

struct BinaryKernels {
  const char* target;
  BinaryF32Fn f32[4][3];   // [BinaryOp][BinaryForm]
  BinaryF16Fn f16[4][3];
  WidenFn widen;
  NarrowHalfFn narrow;
};

// A float16 kernel made of a set's own parts: tiles of halves widened to float, the set's float32
// kernel, then rounded back. One driver for every op and form keeps the module small.
void binary_f16_via_f32(const BinaryKernels& k, int op, int form, size_t count, const uint16_t* a, const uint16_t* b,
                        uint16_t* out);

const BinaryKernels& binary_kernels_scalar();
const BinaryKernels* binary_kernels_wasmsimd();  // null when built without wasm SIMD
// wasmsimd when built with it, else scalar.
const BinaryKernels& binary_kernels_best();

}  // namespace onnxwasm
