// The opset registry: one table (registry.cpp) of every supported op version with its
// [since, until] opset range, type constraints per input, allowed attributes, and the shape
// inference and run functions that implement it.
#pragma once
#include <string>
#include <vector>

#include "attributes.h"
#include "shape.h"
#include "status.h"
#include "tensor.h"

namespace onnxwasm {

constexpr int kMinOpset = 1;
constexpr int kMaxOpset = 28;  // newest default-domain opset this runtime accepts

struct OpVersion;

// Shape inference: pure; no tensor data, no allocation of tensors. Inputs were already
// checked against the version's input count, types and attribute kinds.
using InferFn = Status (*)(const OpVersion& v, const Attributes& attrs,
                           const std::vector<ValueInfo>& inputs, std::vector<ValueInfo>* outputs);
// Compute: `inferred` holds the fully known output shapes that inference gave for these inputs.
// On error, *outputs is left empty.
using RunFn = Status (*)(const OpVersion& v, const Attributes& attrs,
                         const std::vector<const Tensor*>& inputs,
                         const std::vector<ValueInfo>& inferred, std::vector<Tensor>* outputs);

struct InputSpec {
  const char* name;
  const char* constraint;  // "T", "Tind", "tensor(int64)"
  TypeSet types;
  bool value_needed;       // inference reads its values (Reshape's shape)
};

struct AttrSpec {
  const char* name;
  AttrKind kind;
  bool required;
};

struct OpVersion {
  const char* op;
  int since;
  int until;
  std::vector<InputSpec> inputs;
  std::vector<AttrSpec> attributes;
  InferFn infer;
  RunFn run;
  const char* spec;  // link to the version's operator page

  std::string label() const { return std::string(op) + "-" + std::to_string(since); }
};

const std::vector<OpVersion>& op_versions();
std::vector<std::string> supported_ops();

// The newest version of `op` whose since is not above `opset`.
Status resolve_op(const std::string& op, int opset, const OpVersion** out);

// Checks input count, input types and attribute names/kinds against the version: the types
// first (check_input_types), then the attributes (check_attributes).
Status check_node(const OpVersion& v, const Attributes& attrs, const std::vector<ElementType>& input_types);
Status check_input_types(const OpVersion& v, const std::vector<ElementType>& input_types);
Status check_attributes(const OpVersion& v, const Attributes& attrs);

}  // namespace onnxwasm
