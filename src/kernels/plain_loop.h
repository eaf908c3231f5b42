// ONNXWASM_PLAIN_LOOP, before a loop that must stay one plain loop: clang would vectorize and
// unroll each of many small template instances (in the SIMD build, where the scalar kernels only
// take the tails of the SIMD ones), which made the module much larger (docs/performance.md,
// "Figures behind design choices"); and a loop whose body is long gains nothing from unrolling.
#pragma once

#if defined(__clang__)
#define ONNXWASM_PLAIN_LOOP _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define ONNXWASM_PLAIN_LOOP
#endif
