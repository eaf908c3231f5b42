// The two entry points behind the JS API: shape inference of one node, and running one node.
// Both resolve the op version for the opset, check inputs and attributes against the registry,
// and return a Status; neither aborts. On error the outputs are left empty.
#pragma once
#include <string>
#include <vector>

#include "registry.h"

namespace onnxwasm {

Status infer_node(const std::string& op, int opset, const Attributes& attrs, const std::vector<ValueInfo>& inputs,
                  std::vector<ValueInfo>* outputs);

// Inputs are borrowed; outputs own (or share, for Reshape and Flatten) their buffers.
Status run_node(const std::string& op, int opset, const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                std::vector<Tensor>* outputs);

}  // namespace onnxwasm
