#include "runtime.h"

#include <algorithm>
#include <cstring>

#include "checked_mul.h"
#include "kernels/float16.h"
#include "ops/ops.h"

namespace onnxwasm {
namespace {

// Element k of a tensor whose values inference reads (InputSpec::value_needed): integers widened
// to int64, floating-point types to double (exact). False for the other types (their values are
// never read: the registry allows none of them for such an input).
bool int_value_at(const Tensor& t, int64_t k, int64_t* out) {
  const uint8_t* p = t.buffer->data();
  switch (t.type) {
    case ElementType::Int64: { int64_t v; std::memcpy(&v, p + k * 8, 8); *out = v; return true; }
    case ElementType::Int32: { int32_t v; std::memcpy(&v, p + k * 4, 4); *out = v; return true; }
    case ElementType::Int16: { int16_t v; std::memcpy(&v, p + k * 2, 2); *out = v; return true; }
    default: return false;
  }
}

bool float_value_at(const Tensor& t, int64_t k, double* out) {
  const uint8_t* p = t.buffer->data();
  switch (t.type) {
    case ElementType::Double: std::memcpy(out, p + k * 8, 8); return true;
    case ElementType::Float: { float v; std::memcpy(&v, p + k * 4, 4); *out = v; return true; }
    case ElementType::Float16: { uint16_t v; std::memcpy(&v, p + k * 2, 2); *out = half_to_float(v); return true; }
    case ElementType::Bfloat16: { uint16_t v; std::memcpy(&v, p + k * 2, 2); *out = bfloat16_to_float(v); return true; }
    default: return false;
  }
}

bool floating(ElementType t) {
  return t == ElementType::Float || t == ElementType::Double || t == ElementType::Float16 || t == ElementType::Bfloat16;
}

// Sets the values of a value_needed input, as ValueInfo keeps them.
void read_values(const Tensor& t, ValueInfo* info) {
  const int64_t n = t.element_count();
  if (floating(t.type)) {
    std::vector<double> values(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) float_value_at(t, k, &values[static_cast<size_t>(k)]);
    info->float_values = std::move(values);
  } else {
    std::vector<int64_t> values(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) int_value_at(t, k, &values[static_cast<size_t>(k)]);
    info->int_values = std::move(values);
  }
}

// Whether a tensor holds the values inference read from the last one (read_values).
bool same_values(const Tensor& t, const ValueInfo& info) {
  const int64_t n = t.element_count();
  if (info.float_values) {
    if (static_cast<size_t>(n) != info.float_values->size()) return false;
    double d = 0;
    for (int64_t k = 0; k < n; ++k) {
      float_value_at(t, k, &d);
      // Compared as bits: -0.0 and 0.0 may give other outputs, and a NaN equals itself here.
      uint64_t now = 0, then = 0;
      std::memcpy(&now, &d, sizeof d);
      std::memcpy(&then, &(*info.float_values)[static_cast<size_t>(k)], sizeof d);
      if (now != then) return false;
    }
    return true;
  }
  if (!info.int_values || static_cast<size_t>(n) != info.int_values->size()) return false;
  if (t.type == ElementType::Int64)
    return std::equal(info.int_values->begin(), info.int_values->end(), reinterpret_cast<const int64_t*>(t.buffer->data()));
  int64_t v = 0;
  for (int64_t k = 0; k < n; ++k)
    if (!int_value_at(t, k, &v) || v != (*info.int_values)[static_cast<size_t>(k)]) return false;
  return true;
}

Status check_input_dims(const OpVersion& v, const std::vector<ValueInfo>& inputs) {
  for (size_t i = 0; i < inputs.size(); ++i)
    for (const Dim& d : inputs[i].dims)
      if (d.is_known() && d.value < 0)
        return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input " + std::to_string(i) + " has shape " +
                                             inputs[i].shape_string() + "; dimensions must be >= 0");
  return Status::ok();
}

Status check_output_sizes(const OpVersion& v, const std::vector<ValueInfo>& outputs) {
  for (const ValueInfo& o : outputs) {
    if (!o.fully_known()) continue;
    // Counted as make_tensor counts: a zero dim makes an empty tensor even if the rest overflow.
    DimProduct product;
    for (const Dim& d : o.dims) product.mul(d.value);
    if (product.overflows())
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": the output shape " + o.shape_string() +
                                           " has an element count that overflows int64");
  }
  return Status::ok();
}

}  // namespace

Status infer_node(const std::string& domain, const std::string& op, int opset, const Attributes& attrs,
                  const std::vector<ValueInfo>& inputs, std::vector<ValueInfo>* outputs) {
  const OpVersion* v = nullptr;
  ONNXWASM_RETURN_IF_ERROR(resolve_op(domain, op, opset, &v));
  std::vector<ElementType> types;
  types.reserve(inputs.size());
  for (const ValueInfo& in : inputs) types.push_back(in.type);
  ONNXWASM_RETURN_IF_ERROR(check_input_types(*v, types));
  std::unique_ptr<OpParams> params;
  ONNXWASM_RETURN_IF_ERROR(parse_params(*v, attrs, &params));
  ONNXWASM_RETURN_IF_ERROR(check_input_dims(*v, inputs));
  std::vector<ValueInfo> result;
  ONNXWASM_RETURN_IF_ERROR(v->infer(*v, *params, inputs, &result));
  ONNXWASM_RETURN_IF_ERROR(check_output_sizes(*v, result));
  *outputs = std::move(result);
  return Status::ok();
}

Status run_node(const std::string& domain, const std::string& op, int opset, const Attributes& attrs,
                const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  PreparedOp p;
  ONNXWASM_RETURN_IF_ERROR(PreparedOp::prepare(domain, op, opset, attrs, &p));
  Tensor out;
  ONNXWASM_RETURN_IF_ERROR(p.run(inputs.data(), inputs.size(), &out));
  outputs->clear();
  outputs->push_back(std::move(out));
  return Status::ok();
}

Status PreparedOp::prepare(const std::string& domain, const std::string& op, int opset, const Attributes& attrs,
                           PreparedOp* out) {
  const OpVersion* v = nullptr;
  ONNXWASM_RETURN_IF_ERROR(resolve_op(domain, op, opset, &v));
  out->v_ = v;
  // Attributes do not change between runs: they are parsed once, here. A failure is reported by
  // each run, after the input types (check_node's order).
  out->params_.reset();
  out->params_status_ = parse_params(*v, attrs, &out->params_);
  return Status::ok();
}

bool PreparedOp::same_inputs_as_inferred(const Tensor* const* inputs, size_t n) const {
  if (!inferred_valid_ || n != types_.size()) return false;
  for (size_t i = 0; i < n; ++i) {
    const Tensor* t = inputs[i];
    if (!t) {
      if (types_[i] != ElementType::Undefined) return false;
      continue;
    }
    if (t->type != types_[i] || t->dims != inferred_dims_[i]) return false;
    if (v_->input(i).value_needed && !same_values(*t, infos_[i])) return false;
  }
  return true;
}

// (The types and the values that inference read are in types_ and infos_ already; the dims there
// are Dims, so the concrete ones are kept to compare.)
void PreparedOp::remember_inferred(const Tensor* const* inputs, size_t n) {
  inferred_dims_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (inputs[i]) inferred_dims_[i] = inputs[i]->dims;
    else inferred_dims_[i].clear();
  }
  inferred_valid_ = true;
}

Status PreparedOp::run(const Tensor* const* inputs, size_t n, Tensor* output) {
  const OpVersion& v = *v_;
  // (inferred_valid_ first: a node's first run, which compiles every wasm function it calls,
  // does not call the comparison)
  if (!inferred_valid_ || !same_inputs_as_inferred(inputs, n)) {
    ONNXWASM_RETURN_IF_ERROR(infer_for_run(inputs, n));
    remember_inferred(inputs, n);
  }
  inputs_.assign(inputs, inputs + n);
  result_.clear();
  Status s = v.run(v, *params_, inputs_, inferred_, &result_);
  if (s.is_ok()) *output = std::move(result_[0]);
  result_.clear();
  return s;
}

// The checks and shape inference of a run, into inferred_ (invalidated first: on an error the
// next run infers again).
Status PreparedOp::infer_for_run(const Tensor* const* inputs, size_t n) {
  const OpVersion& v = *v_;
  inferred_valid_ = false;
  for (size_t i = 0; i < n; ++i)
    if (!inputs[i] && !(i < v.max_inputs() && v.input(i).optional))
      return ONNXWASM_ERROR(StatusCode::Input, v.label() + ": input " + std::to_string(i) + " is missing");
  types_.clear();
  for (size_t i = 0; i < n; ++i) types_.push_back(inputs[i] ? inputs[i]->type : ElementType::Undefined);
  ONNXWASM_RETURN_IF_ERROR(check_input_types(v, types_));
  ONNXWASM_RETURN_IF_ERROR(params_status_);
  infos_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    ValueInfo& info = infos_[i];
    info.type = types_[i];
    info.dims.clear();
    info.int_values.reset();
    info.float_values.reset();
    info.rank_known = inputs[i] != nullptr;
    if (!inputs[i]) continue;
    info.dims.reserve(inputs[i]->dims.size());   // (no growth path to compile at the first run)
    for (int64_t d : inputs[i]->dims) info.dims.push_back(Dim::known(d));
    if (v.input(i).value_needed) read_values(*inputs[i], &info);
  }
  inferred_.clear();
  ONNXWASM_RETURN_IF_ERROR(v.infer(v, *params_, infos_, &inferred_));
  ONNXWASM_RETURN_IF_ERROR(check_output_sizes(v, inferred_));
  for (const ValueInfo& o : inferred_)
    if (!o.fully_known())
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": the output shape " + o.shape_string() +
                                           " is not fully determined by the inputs");
  return Status::ok();
}

Status PreparedOp::plan_rows(ElementType data_type, const std::vector<int64_t>& data_dims, const Tensor* const* inputs,
                            size_t n, Tensor* remapped, Tensor* rows, const std::vector<OutsideInput>& outside) {
  const OpVersion& v = *v_;
  inferred_valid_ = false;   // inferred_ is about to hold this table's shapes
  if (!v.caps.plan_rows || v.caps.rows_input != 0)
    return ONNXWASM_ERROR(StatusCode::Input, v.label() + ": this op does not read a table kept outside memory");
  if (n < 2 || !inputs[1])
    return ONNXWASM_ERROR(StatusCode::Input, v.label() + ": reading a table by rows needs the indices (input 1)");
  const auto outside_at = [&](size_t i) -> const OutsideInput* {
    for (const OutsideInput& o : outside)
      if (o.input == i) return &o;
    return nullptr;
  };
  for (const OutsideInput& o : outside)
    if (o.input < 2 || o.input >= n || !(v.caps.rows_also & (1u << o.input)))
      return ONNXWASM_ERROR(StatusCode::Input, v.label() + ": input " + std::to_string(o.input) +
                                               " is not one read with the table's rows, so it cannot be outside memory");
  types_.assign({data_type});
  for (size_t i = 1; i < n; ++i) {
    const OutsideInput* o = outside_at(i);
    types_.push_back(o ? o->type : inputs[i] ? inputs[i]->type : ElementType::Undefined);
  }
  ONNXWASM_RETURN_IF_ERROR(check_input_types(v, types_));
  ONNXWASM_RETURN_IF_ERROR(params_status_);
  infos_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    ValueInfo& info = infos_[i];
    const OutsideInput* o = i == 0 ? nullptr : outside_at(i);
    info.type = types_[i];
    info.rank_known = i == 0 || o || inputs[i] != nullptr;
    info.int_values.reset();
    info.float_values.reset();
    info.dims.clear();
    if (!info.rank_known) continue;
    for (int64_t d : i == 0 ? data_dims : o ? o->dims : inputs[i]->dims) info.dims.push_back(Dim::known(d));
    if (i > 0 && !o && v.input(i).value_needed) read_values(*inputs[i], &info);
  }
  inferred_.clear();
  ONNXWASM_RETURN_IF_ERROR(v.infer(v, *params_, infos_, &inferred_));
  ONNXWASM_RETURN_IF_ERROR(check_output_sizes(v, inferred_));
  return v.caps.plan_rows(v, *params_, data_dims, *inputs[1], remapped, rows);
}

}  // namespace onnxwasm
