// Embind layer: converts JS values to the plain C++ types of src/ and Status to
// { error: { code, message } } results that js/ turns into typed Errors. No logic of its own.
//
// Memory: every TensorHandle returned to JS (in `handle` or `outputs`) is owned by JS and must
// be freed with .delete() (Tensor.dispose() in js/). A handle holds a shared_ptr to its buffer,
// so a Reshape/Flatten output keeps its input's data alive after the input is disposed.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "src/kernels/gather.h"
#include "src/runtime.h"

using emscripten::val;
namespace ow = onnxwasm;

namespace {

// Appends to a JS array (val::call is avoided: its cached method callers misbehave in 3.1.6).
template <typename T>
void push(val& array, T&& value) {
  array.set(array["length"], std::forward<T>(value));
}

class TensorHandle {
 public:
  explicit TensorHandle(ow::Tensor t) : t_(std::move(t)) {}
  int type() const { return static_cast<int>(t_.type); }
  val dims() const {
    val a = val::array();
    for (int64_t d : t_.dims) push(a, static_cast<double>(d));
    return a;
  }
  double size() const { return static_cast<double>(t_.element_count()); }
  int rank() const { return static_cast<int>(t_.dims.size()); }
  double dim(int i) const { return static_cast<double>(t_.dims[static_cast<size_t>(i)]); }
  // Address of the first byte in wasm memory (0 for strings); valid while the handle lives.
  double dataPtr() const { return static_cast<double>(reinterpret_cast<uintptr_t>(t_.buffer->data())); }
  double byteLength() const { return static_cast<double>(t_.buffer->bytes()); }
  bool sharesBufferWith(const TensorHandle& o) const { return t_.buffer == o.t_.buffer; }
  std::string getString(double i) const { return t_.buffer->strings()[static_cast<int64_t>(i)]; }
  void setString(double i, const std::string& s) { t_.buffer->strings()[static_cast<int64_t>(i)] = s; }
  const ow::Tensor& tensor() const { return t_; }

 private:
  ow::Tensor t_;
};

val error_result(const ow::Status& s) {
  val e = val::object();
  e.set("code", std::string(ow::status_code_string(s.code())));
  e.set("message", s.message());
  val r = val::object();
  r.set("error", e);
  return r;
}

std::vector<int64_t> to_int64s(const val& a) {
  std::vector<int64_t> out;
  const unsigned n = a["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) out.push_back(static_cast<int64_t>(a[i].as<double>()));
  return out;
}

// attrs: [{ name, kind: 'INT' | 'INTS' | 'FLOAT' | 'FLOATS' | 'STRING' | 'STRINGS', value }]
ow::Attributes to_attributes(const val& list) {
  ow::Attributes attrs;
  const unsigned n = list["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const val a = list[i];
    ow::Attribute attr;
    attr.name = a["name"].as<std::string>();
    const std::string kind = a["kind"].as<std::string>();
    const val v = a["value"];
    if (kind == "INT") {
      attr.kind = ow::AttrKind::Int;
      attr.ints = {static_cast<int64_t>(v.as<double>())};
    } else if (kind == "INTS") {
      attr.kind = ow::AttrKind::Ints;
      attr.ints = to_int64s(v);
    } else if (kind == "FLOAT") {
      attr.kind = ow::AttrKind::Float;
      attr.floats = {v.as<double>()};
    } else if (kind == "FLOATS") {
      attr.kind = ow::AttrKind::Floats;
      const unsigned m = v["length"].as<unsigned>();
      for (unsigned j = 0; j < m; ++j) attr.floats.push_back(v[j].as<double>());
    } else if (kind == "STRING") {
      attr.kind = ow::AttrKind::String;
      attr.strings = {v.as<std::string>()};
    } else {
      attr.kind = ow::AttrKind::Strings;
      const unsigned m = v["length"].as<unsigned>();
      for (unsigned j = 0; j < m; ++j) attr.strings.push_back(v[j].as<std::string>());
    }
    attrs.add(std::move(attr));
  }
  return attrs;
}

// A new zeroed tensor: { handle } or { error }. The caller fills it through dataPtr/setString.
val create_tensor(int type_id, val dims) {
  ow::Tensor t;
  const ow::Status s = ow::make_tensor(static_cast<ow::ElementType>(type_id), to_int64s(dims), &t);
  if (!s.is_ok()) return error_result(s);
  val r = val::object();
  r.set("handle", TensorHandle(std::move(t)));
  return r;
}

// inputs: array of TensorHandle. Returns { outputs: [TensorHandle] } or { error }.
val run_node(const std::string& op, int opset, val attrs, val inputs) {
  std::vector<const ow::Tensor*> in;
  const unsigned n = inputs["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const val h = inputs[i];
    in.push_back(h.isNull() || h.isUndefined() ? nullptr : &h.as<const TensorHandle&>().tensor());
  }
  std::vector<ow::Tensor> out;
  const ow::Status s = ow::run_node(op, opset, to_attributes(attrs), in, &out);
  if (!s.is_ok()) return error_result(s);
  val list = val::array();
  for (ow::Tensor& t : out) push(list, TensorHandle(std::move(t)));
  val r = val::object();
  r.set("outputs", list);
  return r;
}

// A node prepared once (op, opset, attributes parsed) and run many times with no JS objects
// built per call: the fast path behind InferenceSession.run and runNode. run1/run2 return a new
// TensorHandle owned by JS, or null with the Status in errorCode()/errorMessage().
class PreparedNode {
 public:
  PreparedNode(std::string op, int opset, ow::Attributes attrs)
      : op_(std::move(op)), opset_(opset), attrs_(std::move(attrs)) {}
  TensorHandle* run1(const TensorHandle* a) { return run({a ? &a->tensor() : nullptr}); }
  TensorHandle* run2(const TensorHandle* a, const TensorHandle* b) {
    return run({a ? &a->tensor() : nullptr, b ? &b->tensor() : nullptr});
  }
  std::string errorCode() const { return ow::status_code_string(status_.code()); }
  std::string errorMessage() const { return status_.message(); }

 private:
  TensorHandle* run(const std::vector<const ow::Tensor*>& in) {
    std::vector<ow::Tensor> out;
    status_ = ow::run_node(op_, opset_, attrs_, in, &out);
    if (!status_.is_ok()) return nullptr;
    return new TensorHandle(std::move(out[0]));
  }
  std::string op_;
  int opset_;
  ow::Attributes attrs_;
  ow::Status status_;
};

// { node: PreparedNode } or { error } when the op or opset is refused.
val prepare_node(const std::string& op, int opset, val attrs) {
  const ow::OpVersion* v = nullptr;
  const ow::Status s = ow::resolve_op(op, opset, &v);
  if (!s.is_ok()) return error_result(s);
  val r = val::object();
  r.set("node", PreparedNode(op, opset, to_attributes(attrs)));
  r.set("inputs", static_cast<int>(v->inputs.size()));
  return r;
}

val dims_to_js(const ow::ValueInfo& v) {
  if (!v.rank_known) return val::null();
  val a = val::array();
  for (const ow::Dim& d : v.dims) {
    if (d.kind == ow::Dim::Kind::Known)
      push(a, static_cast<double>(d.value));
    else if (d.kind == ow::Dim::Kind::Symbol)
      push(a, d.symbol);
    else
      push(a, val::null());
  }
  return a;
}

// inputs: [{ type: onnx id, dims: [number | string | null] | null, value?: number[] }]
// Returns { outputs: [{ type, dims }] } or { error }.
val infer_node(const std::string& op, int opset, val attrs, val inputs) {
  std::vector<ow::ValueInfo> in;
  const unsigned n = inputs["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const val x = inputs[i];
    ow::ValueInfo info;
    info.type = static_cast<ow::ElementType>(x["type"].as<int>());
    const val dims = x["dims"];
    if (dims.isNull() || dims.isUndefined()) {
      info.rank_known = false;
    } else {
      const unsigned r = dims["length"].as<unsigned>();
      for (unsigned j = 0; j < r; ++j) {
        const val d = dims[j];
        if (d.isNumber())
          info.dims.push_back(ow::Dim::known(static_cast<int64_t>(d.as<double>())));
        else if (d.isString())
          info.dims.push_back(ow::Dim::named(d.as<std::string>()));
        else
          info.dims.push_back(ow::Dim::unknown());
      }
    }
    const val value = x["value"];
    if (!value.isNull() && !value.isUndefined()) info.int_values = to_int64s(value);
    in.push_back(std::move(info));
  }
  std::vector<ow::ValueInfo> out;
  const ow::Status s = ow::infer_node(op, opset, to_attributes(attrs), in, &out);
  if (!s.is_ok()) return error_result(s);
  val list = val::array();
  for (const ow::ValueInfo& v : out) {
    val o = val::object();
    o.set("type", static_cast<int>(v.type));
    o.set("dims", dims_to_js(v));
    push(list, o);
  }
  val r = val::object();
  r.set("outputs", list);
  return r;
}

// The registry table, for the JS API's opVersions() and the playground's rule display.
val op_versions() {
  val list = val::array();
  for (const ow::OpVersion& v : ow::op_versions()) {
    val o = val::object();
    o.set("op", std::string(v.op));
    o.set("since", v.since);
    o.set("until", v.until);
    o.set("spec", std::string(v.spec));
    val inputs = val::array();
    for (const ow::InputSpec& in : v.inputs) {
      val i = val::object();
      i.set("name", std::string(in.name));
      i.set("constraint", std::string(in.constraint));
      val types = val::array();
      for (int id = 1; id <= ow::kMaxElementTypeId; ++id)
        if (const ow::ElementTypeInfo* info = ow::element_type_info(id))
          if (in.types.contains(info->type)) push(types, std::string(info->js_name));
      i.set("types", types);
      push(inputs, i);
    }
    o.set("inputs", inputs);
    val attrs = val::array();
    for (const ow::AttrSpec& a : v.attributes) {
      val x = val::object();
      x.set("name", std::string(a.name));
      x.set("kind", std::string(ow::attr_kind_name(a.kind)));
      x.set("required", a.required);
      push(attrs, x);
    }
    o.set("attributes", attrs);
    push(list, o);
  }
  return list;
}

std::string kernel_target() { return ow::gather_kernels_best().target; }
int max_opset() { return ow::kMaxOpset; }
int min_opset() { return ow::kMinOpset; }

}  // namespace

EMSCRIPTEN_BINDINGS(onnx_wasm) {
  emscripten::class_<TensorHandle>("TensorHandle")
      .function("type", &TensorHandle::type)
      .function("dims", &TensorHandle::dims)
      .function("size", &TensorHandle::size)
      .function("rank", &TensorHandle::rank)
      .function("dim", &TensorHandle::dim)
      .function("dataPtr", &TensorHandle::dataPtr)
      .function("byteLength", &TensorHandle::byteLength)
      .function("sharesBufferWith", &TensorHandle::sharesBufferWith)
      .function("getString", &TensorHandle::getString)
      .function("setString", &TensorHandle::setString);
  emscripten::class_<PreparedNode>("PreparedNode")
      .function("run1", &PreparedNode::run1, emscripten::allow_raw_pointers())
      .function("run2", &PreparedNode::run2, emscripten::allow_raw_pointers())
      .function("errorCode", &PreparedNode::errorCode)
      .function("errorMessage", &PreparedNode::errorMessage);
  emscripten::function("prepareNode", &prepare_node);
  emscripten::function("createTensor", &create_tensor);
  emscripten::function("runNode", &run_node);
  emscripten::function("inferNode", &infer_node);
  emscripten::function("opVersions", &op_versions);
  emscripten::function("kernelTarget", &kernel_target);
  emscripten::function("maxOpset", &max_opset);
  emscripten::function("minOpset", &min_opset);
}
