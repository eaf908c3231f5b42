#include "registry.h"

#include <algorithm>

#include "ops/ops.h"

namespace onnxwasm {
namespace {

using E = ElementType;

// ONNX's type lists, version by version (see each op's page for the T constraint).
const TypeSet kFloats = {E::Float16, E::Float, E::Double};
const TypeSet kClassic = {E::Bool,    E::Complex128, E::Complex64, E::Double, E::Float,
                          E::Float16, E::Int16,      E::Int32,     E::Int64,  E::Int8,
                          E::String,  E::Uint16,     E::Uint32,    E::Uint64, E::Uint8};
const TypeSet kWithBf16 = kClassic | TypeSet{E::Bfloat16};
const TypeSet kFloat8 = {E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz};
const TypeSet kWithFloat8 = kWithBf16 | kFloat8;
const TypeSet kWithInt4 = kWithFloat8 | TypeSet{E::Int4, E::Uint4};
const TypeSet kWithFloat4 = kWithInt4 | TypeSet{E::Float4e2m1};
const TypeSet kWithE8m0 = kWithFloat4 | TypeSet{E::Float8e8m0};
const TypeSet kWithInt2 = kWithE8m0 | TypeSet{E::Int2, E::Uint2};
const TypeSet kIndexTypes = {E::Int32, E::Int64};
const TypeSet kInt64 = {E::Int64};

std::vector<InputSpec> data_in(TypeSet t) { return {{"data", "T", t, false}}; }
std::vector<InputSpec> gather_in(TypeSet t) { return {{"data", "T", t, false}, {"indices", "Tind", kIndexTypes, false}}; }
std::vector<InputSpec> flatten_in(TypeSet t) { return {{"input", "T", t, false}}; }
std::vector<InputSpec> reshape_in(TypeSet t) { return {{"data", "T", t, false}, {"shape", "tensor(int64)", kInt64, true}}; }

const std::vector<AttrSpec> kAxis = {{"axis", AttrKind::Int, false}};
const std::vector<AttrSpec> kReshape1Attrs = {{"shape", AttrKind::Ints, true},
                                              {"consumed_inputs", AttrKind::Ints, false}};
const std::vector<AttrSpec> kNoAttrs = {};
const std::vector<AttrSpec> kAllowzero = {{"allowzero", AttrKind::Int, false}};

#define SPEC(op, v) "https://onnx.ai/onnx/operators/onnx__" #op ".html#" #op "-" #v

}  // namespace

const std::vector<OpVersion>& op_versions() {
  static const std::vector<OpVersion> table = {
      // op, since, until, inputs, attributes, infer, run, spec
      {"Gather", 1, 10, gather_in(kClassic), kAxis, infer_gather, run_gather, SPEC(Gather, 1)},
      {"Gather", 11, 12, gather_in(kClassic), kAxis, infer_gather, run_gather, SPEC(Gather, 11)},
      {"Gather", 13, kMaxOpset, gather_in(kWithBf16), kAxis, infer_gather, run_gather, SPEC(Gather, 13)},

      {"Flatten", 1, 8, flatten_in(kFloats), kAxis, infer_flatten_1, run_view, SPEC(Flatten, 1)},
      {"Flatten", 9, 10, flatten_in(kClassic), kAxis, infer_flatten_1, run_view, SPEC(Flatten, 9)},
      {"Flatten", 11, 12, flatten_in(kClassic), kAxis, infer_flatten_11, run_view, SPEC(Flatten, 11)},
      {"Flatten", 13, 20, flatten_in(kWithBf16), kAxis, infer_flatten_11, run_view, SPEC(Flatten, 13)},
      {"Flatten", 21, 22, flatten_in(kWithInt4), kAxis, infer_flatten_11, run_view, SPEC(Flatten, 21)},
      {"Flatten", 23, 23, flatten_in(kWithFloat4), kAxis, infer_flatten_11, run_view, SPEC(Flatten, 23)},
      {"Flatten", 24, 24, flatten_in(kWithE8m0), kAxis, infer_flatten_11, run_view, SPEC(Flatten, 24)},
      {"Flatten", 25, kMaxOpset, flatten_in(kWithInt2), kAxis, infer_flatten_11, run_view, SPEC(Flatten, 25)},

      {"Reshape", 1, 4, data_in(kFloats), kReshape1Attrs, infer_reshape_1, run_view, SPEC(Reshape, 1)},
      {"Reshape", 5, 12, reshape_in(kClassic), kNoAttrs, infer_reshape_5, run_view, SPEC(Reshape, 5)},
      {"Reshape", 13, 13, reshape_in(kWithBf16), kNoAttrs, infer_reshape_5, run_view, SPEC(Reshape, 13)},
      {"Reshape", 14, 18, reshape_in(kWithBf16), kAllowzero, infer_reshape_5, run_view, SPEC(Reshape, 14)},
      {"Reshape", 19, 20, reshape_in(kWithFloat8), kAllowzero, infer_reshape_5, run_view, SPEC(Reshape, 19)},
      {"Reshape", 21, 22, reshape_in(kWithInt4), kAllowzero, infer_reshape_5, run_view, SPEC(Reshape, 21)},
      {"Reshape", 23, 23, reshape_in(kWithFloat4), kAllowzero, infer_reshape_5, run_view, SPEC(Reshape, 23)},
      {"Reshape", 24, 24, reshape_in(kWithE8m0), kAllowzero, infer_reshape_5, run_view, SPEC(Reshape, 24)},
      {"Reshape", 25, kMaxOpset, reshape_in(kWithInt2), kAllowzero, infer_reshape_5, run_view, SPEC(Reshape, 25)},
  };
  return table;
}

std::vector<std::string> supported_ops() {
  std::vector<std::string> ops;
  for (const OpVersion& v : op_versions())
    if (std::find(ops.begin(), ops.end(), v.op) == ops.end()) ops.emplace_back(v.op);
  return ops;
}

// Error paths that build their message in steps, apart from the checks (see ONNXWASM_COLD).
namespace {

ONNXWASM_COLD Status unsupported_op_error(const std::string& op) {
  std::string list;
  for (const std::string& s : supported_ops()) list += (list.empty() ? "" : ", ") + s;
  return Status(StatusCode::UnsupportedOp, "op '" + op + "' is not supported; onnx-wasm runs " + list);
}

ONNXWASM_COLD Status input_type_error(const OpVersion& v, size_t i, ElementType type) {
  const InputSpec& in = v.inputs[i];
  const std::string allowed = in.constraint[0] == 't' ? "input '" + std::string(in.name) + "' must be " + in.constraint
                                                      : std::string(in.constraint) + " must be one of " + in.types.describe();
  // NOLINTBEGIN(performance-inefficient-string-concatenation)
  const std::string label = v.label();
  std::string msg = label + ": input " + std::to_string(i) + " ('" + in.name + "') has type tensor(" +
                    onnx_name(type) + "), which " + label + " does not allow; " + allowed;
  // NOLINTEND(performance-inefficient-string-concatenation)
  for (const OpVersion& later : op_versions())
    if (later.op == v.op && later.since > v.since && later.inputs.size() > i && later.inputs[i].types.contains(type)) {
      msg.append(" (tensor(").append(onnx_name(type)).append(") needs opset ")
          .append(std::to_string(later.since)).append(" or later)");
      break;
    }
  return Status(StatusCode::Type, msg);
}

ONNXWASM_COLD Status unknown_attribute_error(const OpVersion& v, const std::string& name) {
  std::string allowed;
  for (const AttrSpec& s : v.attributes) allowed += (allowed.empty() ? "" : ", ") + std::string(s.name);
  return Status(StatusCode::Attribute, v.label() + " has no attribute '" + name + "'; it allows " +
                                           (allowed.empty() ? std::string("none") : allowed));
}

}  // namespace

Status resolve_op(const std::string& op, int opset, const OpVersion** out) {
  bool known = false;
  for (const OpVersion& v : op_versions()) {
    if (op != v.op) continue;
    known = true;
    if (opset >= kMinOpset && opset <= kMaxOpset && v.since <= opset && opset <= v.until) {
      *out = &v;
      return Status::ok();
    }
  }
  if (!known) return unsupported_op_error(op);
  if (opset < kMinOpset || opset > kMaxOpset)
    return ONNXWASM_ERROR(StatusCode::Opset, op + ": opset " + std::to_string(opset) + " is outside the supported range [" +
                                         std::to_string(kMinOpset) + ", " + std::to_string(kMaxOpset) + "]");
  return ONNXWASM_ERROR(StatusCode::Opset, op + ": no version is defined at opset " + std::to_string(opset));
}

Status check_input_types(const OpVersion& v, const std::vector<ElementType>& input_types) {
  // The label is built on error paths only: this runs on every prepared run.
  if (input_types.size() != v.inputs.size())
    return ONNXWASM_ERROR(StatusCode::Input, v.label() + " takes " + std::to_string(v.inputs.size()) + " input" +
                                         (v.inputs.size() == 1 ? "" : "s") + ", got " +
                                         std::to_string(input_types.size()));
  for (size_t i = 0; i < v.inputs.size(); ++i)
    if (!v.inputs[i].types.contains(input_types[i])) return input_type_error(v, i, input_types[i]);
  return Status::ok();
}

Status check_attributes(const OpVersion& v, const Attributes& attrs) {
  for (const Attribute& a : attrs.list()) {
    const AttrSpec* spec = nullptr;
    for (const AttrSpec& s : v.attributes)
      if (a.name == s.name) spec = &s;
    if (!spec) return unknown_attribute_error(v, a.name);
    if (spec->kind != a.kind)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute '" + a.name + "' must be " +
                                               attr_kind_name(spec->kind) + ", got " + attr_kind_name(a.kind));
  }
  for (const AttrSpec& s : v.attributes)
    if (s.required && !attrs.find(s.name))
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute '" + s.name + "' (" + attr_kind_name(s.kind) +
                                               ") is required");
  return Status::ok();
}

Status check_node(const OpVersion& v, const Attributes& attrs, const std::vector<ElementType>& input_types) {
  ONNXWASM_RETURN_IF_ERROR(check_input_types(v, input_types));
  return check_attributes(v, attrs);
}

}  // namespace onnxwasm
