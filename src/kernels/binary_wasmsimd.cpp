// wasm SIMD elementwise binary kernels (x8-vadd/vsub/vmul/vdiv-f32 with their tensor-scalar
// forms: XNNPACK's vbinary and vbinaryc), two float vectors a step, the last count % 8 elements
// through the scalar kernel. float16: binary_f16_via_f32 with this set's x8 widening and
// narrowing (float16_wasmsimd.h: the scalar conversions' operations, so the same bits).
#include "binary.h"
#include "float16_wasmsimd.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

namespace onnxwasm {
namespace {

template <int kOp>
inline v128_t apply(v128_t x, v128_t y) {
  if (kOp == kBinaryAdd) return wasm_f32x4_add(x, y);
  if (kOp == kBinarySub) return wasm_f32x4_sub(x, y);
  if (kOp == kBinaryMul) return wasm_f32x4_mul(x, y);
  return wasm_f32x4_div(x, y);
}

template <int kOp, int kForm>
void x8_f32_wasmsimd(size_t count, const float* a, const float* b, float* out) {
  // The scalar operand, splat once (only with count >= 8: with fewer, nothing is read here).
  const v128_t sa = count >= 8 && kForm == kScalarTensor ? wasm_f32x4_splat(a[0]) : wasm_f32x4_splat(0);
  const v128_t sb = count >= 8 && kForm == kTensorScalar ? wasm_f32x4_splat(b[0]) : wasm_f32x4_splat(0);
  size_t i = 0;
  ONNXWASM_PLAIN_LOOP
  for (; i + 8 <= count; i += 8) {
    const v128_t a0 = kForm == kScalarTensor ? sa : wasm_v128_load(a + i);
    const v128_t a1 = kForm == kScalarTensor ? sa : wasm_v128_load(a + i + 4);
    const v128_t b0 = kForm == kTensorScalar ? sb : wasm_v128_load(b + i);
    const v128_t b1 = kForm == kTensorScalar ? sb : wasm_v128_load(b + i + 4);
    wasm_v128_store(out + i, apply<kOp>(a0, b0));
    wasm_v128_store(out + i + 4, apply<kOp>(a1, b1));
  }
  binary_kernels_scalar().f32[kOp][kForm](count - i, kForm == kScalarTensor ? a : a + i,
                                          kForm == kTensorScalar ? b : b + i, out + i);
}

void x8_widen_wasmsimd(size_t count, const uint16_t* in, float* out) {
  ONNXWASM_PLAIN_LOOP
  for (; count >= 8; count -= 8, in += 8, out += 8) {
    const v128_t v = wasm_v128_load(in);
    wasm_v128_store(out, half_to_float4(wasm_u32x4_extend_low_u16x8(v)));
    wasm_v128_store(out + 4, half_to_float4(wasm_u32x4_extend_high_u16x8(v)));
  }
  binary_kernels_scalar().widen(count, in, out);
}

void x8_narrow_wasmsimd(size_t count, const float* in, uint16_t* out) {
  ONNXWASM_PLAIN_LOOP
  for (; count >= 8; count -= 8, in += 8, out += 8)
    wasm_v128_store(out, wasm_u16x8_narrow_i32x4(half_bits4(wasm_v128_load(in)), half_bits4(wasm_v128_load(in + 4))));
  binary_kernels_scalar().narrow(count, in, out);
}

template <int kOp, int kForm>
void x8_f16_wasmsimd(size_t count, const uint16_t* a, const uint16_t* b, uint16_t* out) {
  binary_f16_via_f32(*binary_kernels_wasmsimd(), kOp, kForm, count, a, b, out);
}

// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments name templates and types
#define ONNXWASM_FORMS(fn, op) {fn<op, kTensorTensor>, fn<op, kTensorScalar>, fn<op, kScalarTensor>}
const BinaryKernels kWasmSimd = {
    "wasmsimd",
    {ONNXWASM_FORMS(x8_f32_wasmsimd, kBinaryAdd), ONNXWASM_FORMS(x8_f32_wasmsimd, kBinarySub),
     ONNXWASM_FORMS(x8_f32_wasmsimd, kBinaryMul), ONNXWASM_FORMS(x8_f32_wasmsimd, kBinaryDiv)},
    {ONNXWASM_FORMS(x8_f16_wasmsimd, kBinaryAdd), ONNXWASM_FORMS(x8_f16_wasmsimd, kBinarySub),
     ONNXWASM_FORMS(x8_f16_wasmsimd, kBinaryMul), ONNXWASM_FORMS(x8_f16_wasmsimd, kBinaryDiv)},
    x8_widen_wasmsimd,
    x8_narrow_wasmsimd,
};
#undef ONNXWASM_FORMS

}  // namespace

const BinaryKernels* binary_kernels_wasmsimd() { return &kWasmSimd; }

}  // namespace onnxwasm

#else

namespace onnxwasm {
const BinaryKernels* binary_kernels_wasmsimd() { return nullptr; }
}  // namespace onnxwasm

#endif
