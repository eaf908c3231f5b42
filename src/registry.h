// The opset registry: one table (registry.cpp) of every supported op version, keyed by
// (domain, op, [since, until]), with its type constraints per input, its allowed attributes, its
// capabilities, and the functions that implement it: parse (attributes into typed parameters,
// once, when a node is prepared), infer (shapes) and run. Adding an op is a row in that table and
// a file in ops/ (docs/architecture.md, "Adding an op").
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "attributes.h"
#include "shape.h"
#include "status.h"
#include "tensor.h"

namespace onnxwasm {

constexpr int kMinOpset = 1;
constexpr int kMaxOpset = 28;  // newest default-domain opset this runtime accepts

// The opsets each domain's versions are registered for. "" is the default ONNX domain (a node or
// opset_import may also name it "ai.onnx"); com.microsoft is onnxruntime's contrib domain;
// onnx-wasm is this runtime's own (its Gather of every element type).
struct DomainInfo {
  const char* domain;
  int min_opset;
  int max_opset;
};

// A view of a constant array: the registry is data, made at compile time (no constructor runs,
// nothing is allocated when it is first read).
template <typename T>
class Span {
 public:
  constexpr Span() = default;
  template <size_t N>
  constexpr Span(const T (&a)[N]) : data_(a), size_(N) {}  // NOLINT(google-explicit-constructor)
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  constexpr const T& back() const { return data_[size_ - 1]; }
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

Span<DomainInfo> domains();

struct OpVersion;

// An op version's attributes, parsed once by its ParseFn into a struct of its own (derived from
// this), as onnxruntime's kernels read theirs in their constructors: runs read no attribute
// strings. Each op file casts to its own struct.
struct OpParams {
  OpParams() = default;
  OpParams(const OpParams&) = default;
  OpParams& operator=(const OpParams&) = default;
  virtual ~OpParams() = default;
};

// Parse: attributes (already checked against the version's names and kinds) into parameters.
// Only rules that need no shapes are checked here (a value's range that depends on a rank is the
// inference's).
using ParseFn = Status (*)(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out);
// Shape inference: pure; no tensor data, no allocation of tensors. Inputs were already checked
// against the version's input count and types; an omitted optional input has type Undefined.
using InferFn = Status (*)(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& inputs,
                           std::vector<ValueInfo>* outputs);
// Compute: `inferred` holds the fully known output shapes that inference gave for these inputs;
// an omitted optional input is null. On error, *outputs is left empty.
using RunFn = Status (*)(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& inputs,
                         const std::vector<ValueInfo>& inferred, std::vector<Tensor>* outputs);
// For an op that can read its table (input Capabilities::rows_input) by rows from outside memory:
// checks `indices` as a run would (the same errors) and plans the reads. `rows`: the distinct rows
// the indices name, ascending (int64 [u]); `remapped`: each index as a position in `rows` (int64,
// the indices' dims), so that the op on (the u rows read, remapped) is the op on (data, indices).
using PlanRowsFn = Status (*)(const OpVersion& v, const OpParams& p, const std::vector<int64_t>& data_dims,
                              const Tensor& indices, Tensor* remapped, Tensor* rows);

struct InputSpec {
  const char* name;
  const char* constraint;  // "T", "Tind", "tensor(int64)": inputs that share a letter share a type
  TypeSet types;
  bool value_needed = false;  // inference reads its values (Reshape's shape)
  bool optional = false;      // may be omitted (an empty name in the node, or absent at the end)
  bool variadic = false;      // the last input only: repeated one or more times (Concat's inputs)
};

struct AttrSpec {
  const char* name;
  AttrKind kind;
  bool required;
};

// What the JS layer may rely on, declared here instead of recognised by function.
struct Capabilities {
  // The output is input 0's buffer with other dims: no copy (Reshape, Flatten, Identity,
  // Squeeze, Unsqueeze).
  bool view = false;
  // Input `rows_input` may be a table kept outside memory (in its file, a Blob or OPFS) and read
  // by rows, when the attribute `rows_axis` gathers along axis 0; plan_rows plans those reads.
  int rows_input = -1;
  const char* rows_axis = nullptr;
  PlanRowsFn plan_rows = nullptr;
  // Inputs indexed by the same rows as that table (bit k: input k), such as GatherBlockQuantized's
  // scales and zero points: a run on the rows read takes the same rows of these.
  uint32_t rows_also = 0;
};

struct OpVersion {
  const char* domain;
  const char* op;
  int since;
  int until;
  Span<InputSpec> inputs;
  Span<AttrSpec> attributes;
  ParseFn parse;
  InferFn infer;
  RunFn run;
  Capabilities caps;
  const char* spec;  // link to the version's operator page

  // "Gather-13", or "com.microsoft.GatherBlockQuantized-1" outside the default domain.
  std::string label() const;
  // Inputs a node must give (those before the first optional one) and may give (SIZE_MAX when
  // the last is variadic).
  size_t min_inputs() const;
  size_t max_inputs() const;
  // The spec of input i (the variadic last one for every i beyond it).
  const InputSpec& input(size_t i) const { return inputs[i < inputs.size() ? i : inputs.size() - 1]; }
};

Span<OpVersion> op_versions();
// The ops of a domain, each once, in the table's order.
std::vector<std::string> supported_ops(const std::string& domain);
// "" for "" and "ai.onnx"; any other domain as given.
std::string canonical_domain(const std::string& domain);

// The newest version of (domain, op) whose since is not above `opset` (that domain's opset).
Status resolve_op(const std::string& domain, const std::string& op, int opset, const OpVersion** out);
inline Status resolve_op(const std::string& op, int opset, const OpVersion** out) { return resolve_op("", op, opset, out); }

// Checks input count, input types and attribute names/kinds against the version: the types
// first (check_input_types), then the attributes (check_attributes).
Status check_node(const OpVersion& v, const Attributes& attrs, const std::vector<ElementType>& input_types);
Status check_input_types(const OpVersion& v, const std::vector<ElementType>& input_types);
Status check_attributes(const OpVersion& v, const Attributes& attrs);
// check_attributes, then the version's parse.
Status parse_params(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out);

}  // namespace onnxwasm
