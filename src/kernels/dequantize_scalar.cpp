// The scalar dequantization kernels (kernels/dequantize.h).
#include "dequantize.h"

namespace onnxwasm {
namespace {

template <int kBits, bool kSigned>
void dequantize(size_t count, const uint8_t* packed, size_t first, int32_t zero, float scale, float* out) {
  for (size_t i = 0; i < count; ++i) out[i] = static_cast<float>(packed_code(packed, first + i, kBits, kSigned) - zero) * scale;
}

const DequantizeKernels kScalar = {"scalar", dequantize<2, false>, dequantize<4, false>, dequantize<4, true>,
                                   dequantize<8, false>};

}  // namespace

const DequantizeKernels& dequantize_kernels_scalar() { return kScalar; }

}  // namespace onnxwasm
