// The objects that JS holds by address (an integer handle), shared by embind.cpp and
// run_path.cpp. Owner rule (the same for every handle): a handle returned to JS belongs to JS,
// which frees it exactly once (tensors: ow_tensor_delete, through Tensor.dispose() or its
// FinalizationRegistry; prepared nodes: nodeDelete, through PreparedNode.dispose()). A tensor
// holds a counted reference to its buffer, so a Reshape/Flatten output keeps its input's data
// alive after the input is freed. Handles are wasm32 addresses: JS reads them with >>> 0.
#pragma once
#include <cstdint>
#include <new>
#include <utility>

#include "src/runtime.h"

namespace onnxwasm::binding {

struct TensorHandle {
  Tensor tensor;
};

inline TensorHandle* tensor_at(uintptr_t p) { return reinterpret_cast<TensorHandle*>(p); }
inline const Tensor* tensor_or_null(uintptr_t p) { return p ? &tensor_at(p)->tensor : nullptr; }

// A new handle owning `t`, or 0 when the record cannot be allocated (t is then freed).
inline uintptr_t adopt(Tensor&& t) {
  auto* h = new (std::nothrow) TensorHandle{std::move(t)};
  return reinterpret_cast<uintptr_t>(h);
}

// A node prepared once (op, opset and attributes checked) and run many times: the per-run path
// behind InferenceSession.run.
struct NodeHandle {
  PreparedOp op;
};

inline NodeHandle* node_at(uintptr_t p) { return reinterpret_cast<NodeHandle*>(p); }

// Runs a prepared node on one or two tensors: the new output's handle, or 0 with *status set.
inline uintptr_t run_prepared(uintptr_t node, uintptr_t a, uintptr_t b, size_t n, Status* status) {
  const Tensor* in[2] = {tensor_or_null(a), tensor_or_null(b)};
  Tensor out;
  *status = node_at(node)->op.run(in, n, &out);
  if (!status->is_ok()) return 0;
  const uintptr_t h = adopt(std::move(out));
  if (!h) *status = Status(StatusCode::OutOfMemory, "cannot allocate a tensor record");
  return h;
}

}  // namespace onnxwasm::binding
