#include "runtime.h"

namespace onnxwasm {
namespace {

Status check_input_dims(const OpVersion& v, const std::vector<ValueInfo>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i)
    for (const Dim& d : inputs[i].dims)
      if (d.is_known() && d.value < 0)
        return Status(StatusCode::Shape, v.label() + ": input " + std::to_string(i) + " has shape " +
                                             inputs[i].shape_string() + "; dimensions must be >= 0");
  return Status::ok();
}

Status check_output_sizes(const OpVersion& v, const std::vector<ValueInfo>& outputs) {
  for (const ValueInfo& o : outputs) {
    if (!o.fully_known()) continue;
    int64_t product = 1;
    bool overflow = false;
    for (const Dim& d : o.dims) overflow |= __builtin_mul_overflow(product, d.value, &product);
    if (overflow)
      return Status(StatusCode::Shape, v.label() + ": the output shape " + o.shape_string() +
                                           " has an element count that overflows int64");
  }
  return Status::ok();
}

}  // namespace

Status infer_node(const std::string& op, int opset, const Attributes& attrs, const std::vector<ValueInfo>& inputs,
                  std::vector<ValueInfo>* outputs) {
  const OpVersion* v = nullptr;
  ONNXWASM_RETURN_IF_ERROR(resolve_op(op, opset, &v));
  std::vector<ElementType> types;
  for (const ValueInfo& in : inputs) types.push_back(in.type);
  ONNXWASM_RETURN_IF_ERROR(check_node(*v, attrs, types));
  ONNXWASM_RETURN_IF_ERROR(check_input_dims(*v, inputs));
  std::vector<ValueInfo> result;
  ONNXWASM_RETURN_IF_ERROR(v->infer(*v, attrs, inputs, &result));
  ONNXWASM_RETURN_IF_ERROR(check_output_sizes(*v, result));
  *outputs = std::move(result);
  return Status::ok();
}

Status run_node(const std::string& op, int opset, const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                std::vector<Tensor>* outputs) {
  const OpVersion* v = nullptr;
  ONNXWASM_RETURN_IF_ERROR(resolve_op(op, opset, &v));
  std::vector<ElementType> types;
  types.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i])
      return Status(StatusCode::Input, v->label() + ": input " + std::to_string(i) + " is missing");
    types.push_back(inputs[i]->type);
  }
  ONNXWASM_RETURN_IF_ERROR(check_node(*v, attrs, types));

  std::vector<ValueInfo> infos;
  infos.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    ValueInfo info = ValueInfo::of_dims(inputs[i]->type, inputs[i]->dims);
    if (v->inputs[i].value_needed) {
      const int64_t* p = reinterpret_cast<const int64_t*>(inputs[i]->buffer->data());
      info.int_values = std::vector<int64_t>(p, p + inputs[i]->element_count());
    }
    infos.push_back(std::move(info));
  }
  std::vector<ValueInfo> inferred;
  inferred.reserve(1);
  ONNXWASM_RETURN_IF_ERROR(v->infer(*v, attrs, infos, &inferred));
  ONNXWASM_RETURN_IF_ERROR(check_output_sizes(*v, inferred));
  for (const ValueInfo& o : inferred)
    if (!o.fully_known())
      return Status(StatusCode::Shape, v->label() + ": the output shape " + o.shape_string() +
                                           " is not fully determined by the inputs");
  std::vector<Tensor> result;
  result.reserve(1);
  ONNXWASM_RETURN_IF_ERROR(v->run(*v, attrs, inputs, inferred, &result));
  *outputs = std::move(result);
  return Status::ok();
}

}  // namespace onnxwasm
