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

// A node resolved once (op version, attribute kinds) and run many times with the same checks as
// run_node. Keeps its scratch vectors between runs so that a run allocates little more than its
// output, and the shapes it inferred (as XNNPACK's operators keep a plan until the shapes change):
// a run whose inputs have the types, dims (and, where inference reads them, the values) of the
// last run that passed inference reuses its output shape. Not thread-safe: one caller at a time.
class PreparedOp {
 public:
  static Status prepare(const std::string& op, int opset, Attributes attrs, PreparedOp* out);
  const OpVersion& version() const { return *v_; }
  // `inputs` are borrowed; on success *output owns (or shares) its buffer.
  Status run(const Tensor* const* inputs, size_t n, Tensor* output);
  // A Gather whose data (of `data_type` and `data_dims`) is not in memory: the same checks as run
  // with that data, then plan_gather_rows (ops.h) fills `remapped` and `rows`.
  Status plan_rows(ElementType data_type, const std::vector<int64_t>& data_dims, const Tensor& indices,
                   Tensor* remapped, Tensor* rows);

 private:
  Status infer_for_run(const Tensor* const* inputs, size_t n);
  bool same_inputs_as_inferred(const Tensor* const* inputs, size_t n) const;
  void remember_inferred(const Tensor* const* inputs, size_t n);

  const OpVersion* v_ = nullptr;
  Attributes attrs_;
  bool attrs_ok_ = false;
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
