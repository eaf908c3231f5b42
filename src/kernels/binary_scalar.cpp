// The scalar elementwise binary kernels (kernels/binary.h), and the float16 driver both sets use.
#include "binary.h"

#include "float16.h"

namespace onnxwasm {
namespace {

template <int kOp>
inline float apply(float x, float y) {
  if (kOp == kBinaryAdd) return x + y;
  if (kOp == kBinarySub) return x - y;
  if (kOp == kBinaryMul) return x * y;
  return x / y;
}

template <int kOp, int kForm>
void f32(size_t count, const float* a, const float* b, float* out) {
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < count; ++i)
    out[i] = apply<kOp>(a[kForm == kScalarTensor ? 0 : i], b[kForm == kTensorScalar ? 0 : i]);
}

void widen(size_t count, const uint16_t* in, float* out) {
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < count; ++i) out[i] = half_to_float(in[i]);
}

void narrow(size_t count, const float* in, uint16_t* out) {
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < count; ++i) out[i] = float_to_half(in[i]);
}

template <int kOp, int kForm>
void f16(size_t count, const uint16_t* a, const uint16_t* b, uint16_t* out) {
  binary_f16_via_f32(binary_kernels_scalar(), kOp, kForm, count, a, b, out);
}

// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments name templates and types
#define ONNXWASM_FORMS(fn, op) {fn<op, kTensorTensor>, fn<op, kTensorScalar>, fn<op, kScalarTensor>}
const BinaryKernels kScalar = {
    "scalar",
    {ONNXWASM_FORMS(f32, kBinaryAdd), ONNXWASM_FORMS(f32, kBinarySub), ONNXWASM_FORMS(f32, kBinaryMul),
     ONNXWASM_FORMS(f32, kBinaryDiv)},
    {ONNXWASM_FORMS(f16, kBinaryAdd), ONNXWASM_FORMS(f16, kBinarySub), ONNXWASM_FORMS(f16, kBinaryMul),
     ONNXWASM_FORMS(f16, kBinaryDiv)},
    widen,
    narrow,
};
#undef ONNXWASM_FORMS

}  // namespace

// Not inlined: one copy serves the 24 float16 entries of both sets.
__attribute__((noinline)) void binary_f16_via_f32(const BinaryKernels& k, int op, int form, size_t count, const uint16_t* a,
                                                  const uint16_t* b, uint16_t* out) {
  // Tiles of 256 (3 KB of floats on the stack, in L1): the scalar operand widened once.
  constexpr size_t kTile = 256;
  float fa[kTile], fb[kTile], fo[kTile];
  if (count == 0) return;
  if (form == kScalarTensor) k.widen(1, a, fa);
  if (form == kTensorScalar) k.widen(1, b, fb);
  const BinaryF32Fn fn = k.f32[op][form];
  for (size_t i = 0; i < count; i += kTile) {
    const size_t n = count - i < kTile ? count - i : kTile;
    if (form != kScalarTensor) k.widen(n, a + i, fa);
    if (form != kTensorScalar) k.widen(n, b + i, fb);
    fn(n, fa, fb, fo);
    k.narrow(n, fo, out + i);
  }
}

const BinaryKernels& binary_kernels_scalar() { return kScalar; }

const BinaryKernels& binary_kernels_best() {
  const BinaryKernels* simd = binary_kernels_wasmsimd();
  return simd ? *simd : kScalar;
}

}  // namespace onnxwasm
