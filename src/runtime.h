// The entry points behind the JS API: shape inference of one node (infer_node: inferShapes and a
// session's create), one node run once (run_node: runNode), and a node prepared once and run many
// times (PreparedOp: PreparedNode and every node of a session). Each resolves the op version for
// the (domain, op, opset), checks inputs and attributes against the registry, and returns a
// Status; none aborts. On error no output is written. An omitted optional input is a ValueInfo of
// type Undefined, or a null Tensor.
#pragma once
#include <string>
#include <vector>

#include "registry.h"

namespace onnxwasm {

Status infer_node(const std::string& domain, const std::string& op, int opset, const Attributes& attrs,
                  const std::vector<ValueInfo>& inputs, std::vector<ValueInfo>* outputs);

// Inputs are borrowed; outputs own (or share, for the ops whose capabilities say `view`) their
// buffers.
Status run_node(const std::string& domain, const std::string& op, int opset, const Attributes& attrs,
                const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs);

// The same in the default ONNX domain.
inline Status infer_node(const std::string& op, int opset, const Attributes& attrs, const std::vector<ValueInfo>& inputs,
                         std::vector<ValueInfo>* outputs) {
  return infer_node("", op, opset, attrs, inputs, outputs);
}
inline Status run_node(const std::string& op, int opset, const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                       std::vector<Tensor>* outputs) {
  return run_node("", op, opset, attrs, inputs, outputs);
}

// A node resolved once (op version; attributes checked and parsed into the version's parameters)
// and run many times with the same checks as run_node. Keeps its scratch vectors between runs so that a run allocates little more than its
// output, and the shapes it inferred (as XNNPACK's operators keep a plan until the shapes change):
// a run whose inputs have the types, dims (and, where inference reads them, the values) of the
// last run that passed inference reuses its output shape. Not thread-safe: one caller at a time.
class PreparedOp {
 public:
  static Status prepare(const std::string& domain, const std::string& op, int opset, const Attributes& attrs,
                        PreparedOp* out);
  static Status prepare(const std::string& op, int opset, const Attributes& attrs, PreparedOp* out) {
    return prepare("", op, opset, attrs, out);
  }
  const OpVersion& version() const { return *v_; }
  // `inputs` are borrowed (null for an omitted optional input); on success *output owns (or
  // shares) its buffer.
  Status run(const Tensor* const* inputs, size_t n, Tensor* output);
  // An input kept outside memory with the table (one of Capabilities::rows_also): its type and
  // dims, and no data.
  struct OutsideInput {
    size_t input;
    ElementType type;
    std::vector<int64_t> dims;
  };
  // An op whose table (Capabilities::rows_input, input 0, of `data_type` and `data_dims`) is not in
  // memory, with its other inputs (`inputs[0]` unused; inputs[1] the indices; null for an omitted
  // one, and for those of `outside`, which are outside memory too): the same checks as a run with
  // that data, then the version's plan_rows fills `remapped` and `rows`.
  Status plan_rows(ElementType data_type, const std::vector<int64_t>& data_dims, const Tensor* const* inputs, size_t n,
                   Tensor* remapped, Tensor* rows, const std::vector<OutsideInput>& outside = {});
  // The same for an op of two inputs (data, indices).
  Status plan_rows(ElementType data_type, const std::vector<int64_t>& data_dims, const Tensor& indices,
                   Tensor* remapped, Tensor* rows) {
    const Tensor* inputs[2] = {nullptr, &indices};
    return plan_rows(data_type, data_dims, inputs, 2, remapped, rows);
  }

 private:
  Status infer_for_run(const Tensor* const* inputs, size_t n);
  bool same_inputs_as_inferred(const Tensor* const* inputs, size_t n) const;
  void remember_inferred(const Tensor* const* inputs, size_t n);

  const OpVersion* v_ = nullptr;
  std::unique_ptr<OpParams> params_;
  // The failure of checking or parsing the attributes at prepare(), reported by a run after the
  // input types (check_node's order), or ok.
  Status params_status_;
  std::vector<ElementType> types_;
  std::vector<const Tensor*> inputs_;
  std::vector<ValueInfo> infos_;
  std::vector<ValueInfo> inferred_;
  std::vector<Tensor> result_;
  // While inferred_valid_, inferred_ holds the output shapes inferred from the inputs whose types
  // are types_, whose dims are inferred_dims_ and whose values (where inference reads them) are
  // infos_[i].int_values; plan_rows, which writes those too, clears it.
  bool inferred_valid_ = false;
  std::vector<std::vector<int64_t>> inferred_dims_;
};

}  // namespace onnxwasm
