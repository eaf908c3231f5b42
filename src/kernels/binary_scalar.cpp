// The scalar elementwise binary kernels (kernels/binary.h).
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
  for (size_t i = 0; i < count; ++i)
    out[i] = apply<kOp>(a[kForm == kScalarTensor ? 0 : i], b[kForm == kTensorScalar ? 0 : i]);
}

template <int kOp, int kForm>
void f16(size_t count, const uint16_t* a, const uint16_t* b, uint16_t* out) {
  for (size_t i = 0; i < count; ++i)
    out[i] = float_to_half(apply<kOp>(half_to_float(a[kForm == kScalarTensor ? 0 : i]),
                                      half_to_float(b[kForm == kTensorScalar ? 0 : i])));
}

#define ONNXWASM_FORMS(fn, op) {fn<op, kTensorTensor>, fn<op, kTensorScalar>, fn<op, kScalarTensor>}
const BinaryKernels kScalar = {
    "scalar",
    {ONNXWASM_FORMS(f32, kBinaryAdd), ONNXWASM_FORMS(f32, kBinarySub), ONNXWASM_FORMS(f32, kBinaryMul),
     ONNXWASM_FORMS(f32, kBinaryDiv)},
    {ONNXWASM_FORMS(f16, kBinaryAdd), ONNXWASM_FORMS(f16, kBinarySub), ONNXWASM_FORMS(f16, kBinaryMul),
     ONNXWASM_FORMS(f16, kBinaryDiv)},
};
#undef ONNXWASM_FORMS

}  // namespace

const BinaryKernels& binary_kernels_scalar() { return kScalar; }

const BinaryKernels& binary_kernels_best() {
  const BinaryKernels* simd = binary_kernels_wasmsimd();
  return simd ? *simd : kScalar;
}

}  // namespace onnxwasm
