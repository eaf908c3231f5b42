// The scalar conversion kernels (kernels/convert.h).
#include "convert.h"

#include "float16.h"

namespace onnxwasm {
namespace {

void half_to_float_scalar(size_t count, const uint16_t* in, float* out) {
  for (size_t i = 0; i < count; ++i) out[i] = half_to_float(in[i]);
}

const ConvertKernels kScalar = {"scalar", half_to_float_scalar};

}  // namespace

const ConvertKernels& convert_kernels_scalar() { return kScalar; }

const ConvertKernels& convert_kernels_best() {
  const ConvertKernels* simd = convert_kernels_wasmsimd();
  return simd ? *simd : kScalar;
}

}  // namespace onnxwasm
