// Identity: https://onnx.ai/onnx/operators/onnx__Identity.html (versions 1, 13, 14, 16, 19, 21, 23, 24, 25).
// The output is the input: its type, shape and (when inference knows them) values. It runs as a
// view (run_view): the output shares the input's buffer. From 14 ONNX also allows sequences and
// from 16 optionals; this runtime has tensors only, so only the tensor types are registered.
#include "ops.h"

namespace onnxwasm {

Status parse_identity(const OpVersion&, const Attributes&, std::unique_ptr<OpParams>* out) {
  *out = std::make_unique<OpParams>();
  return Status::ok();
}

Status infer_identity(const OpVersion&, const OpParams&, const std::vector<ValueInfo>& in,
                      std::vector<ValueInfo>* out) {
  out->push_back(in[0]);
  return Status::ok();
}

}  // namespace onnxwasm
