// The per-run path as plain exports (Module._ow_*): the calls a session's run makes for every
// node, kept out of Embind because its invokers would break the speed targets (the figure is on
// each export, from bench/boundary.mjs; README, "The boundary"). Everything else crosses through
// Embind (embind.cpp).
//
// Failures: these exports never report one. A run that fails returns 0, and JS then makes the
// Embind call that does the same work (nodeRun, tensorInfo), which returns the result or the
// failure as { code, message }: one way to signal failure for every call.
// Memory: handles as in handles.h. ow_tensor_info's doubles belong to this file and are valid
// until the next ow_tensor_info call.
#include <emscripten/emscripten.h>

#include <cstddef>
#include <cstdint>

#include "bindings/handles.h"

namespace ob = onnxwasm::binding;

namespace {
// [type id, rank, dims...] of the last ow_tensor_info (a rank above 62 takes nodeInfo instead).
double g_info[64];
}  // namespace

extern "C" {
// A prepared node run on one or two tensors: the output's handle, or 0 when the run failed.
// (Embind's CSP-safe call, nodeRun: see bench/boundary.mjs for the per-call figures.)
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_run1(uintptr_t n, uintptr_t a) {
  onnxwasm::Status s;
  return ob::run_prepared(n, a, 0, 1, &s);
}
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_run2(uintptr_t n, uintptr_t a, uintptr_t b) {
  onnxwasm::Status s;
  return ob::run_prepared(n, a, b, 2, &s);
}
// The type id, rank and dims of a tensor in one call (an output's Tensor reads them once):
// doubles at the returned address; null for a rank above 62 (JS then calls tensorInfo).
EMSCRIPTEN_KEEPALIVE const double* ow_tensor_info(uintptr_t p) {
  const onnxwasm::Tensor& t = ob::tensor_at(p)->tensor;
  if (t.dims.size() + 2 > std::size(g_info)) return nullptr;
  g_info[0] = static_cast<double>(t.type);
  g_info[1] = static_cast<double>(t.dims.size());
  for (size_t i = 0; i < t.dims.size(); ++i) g_info[i + 2] = static_cast<double>(t.dims[i]);
  return g_info;
}
// Frees a tensor handle (Tensor.dispose()).
EMSCRIPTEN_KEEPALIVE void ow_tensor_delete(uintptr_t p) { delete ob::tensor_at(p); }
}
