// Embind layer: converts JS values to the plain C++ types of src/ and Status to
// { error: { code, message } } results that js/ turns into typed Errors. No logic of its own.
//
// Tensors and prepared nodes cross the boundary as plain addresses of C++ objects, so that a run
// costs a few integer calls and no Embind class wrappers (the hot path of InferenceSession.run).
// Memory: every tensor address returned to JS (ow_tensor_create, runNode, ow_node_run1/2) is
// owned by JS and must be freed once with ow_tensor_delete (Tensor.dispose() in js/); every node
// address from prepareNode with nodeDelete. A tensor holds a counted reference to its buffer, so
// a Reshape/Flatten output keeps its input's data alive after the input is deleted.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "src/kernels/gather.h"
#include "src/parallel.h"
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
  const ow::Tensor& tensor() const { return t_; }
  ow::Tensor& tensor() { return t_; }

 private:
  ow::Tensor t_;
};

TensorHandle* T(uintptr_t p) { return reinterpret_cast<TensorHandle*>(p); }
uintptr_t addr(const void* p) { return reinterpret_cast<uintptr_t>(p); }

int tensor_type(uintptr_t p) { return static_cast<int>(T(p)->tensor().type); }
int tensor_rank(uintptr_t p) { return static_cast<int>(T(p)->tensor().dims.size()); }
double tensor_dim(uintptr_t p, int i) { return static_cast<double>(T(p)->tensor().dims[static_cast<size_t>(i)]); }
// Address of the first byte in wasm memory (0 for strings); valid while the tensor lives.
double tensor_data(uintptr_t p) { return static_cast<double>(addr(T(p)->tensor().buffer->data())); }
double tensor_bytes(uintptr_t p) { return static_cast<double>(T(p)->tensor().buffer->bytes()); }
bool tensor_shares_buffer(uintptr_t a, uintptr_t b) { return T(a)->tensor().buffer == T(b)->tensor().buffer; }
std::string tensor_get_string(uintptr_t p, double i) { return T(p)->tensor().buffer->strings()[static_cast<int64_t>(i)]; }
void tensor_set_string(uintptr_t p, double i, const std::string& s) {
  T(p)->tensor().buffer->strings()[static_cast<int64_t>(i)] = s;
}
void tensor_delete(uintptr_t p) { delete T(p); }

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

// The Status of the last C export that failed (returned 0): read once by JS with lastError().
ow::Status g_last_error;

uintptr_t fail(ow::Status s) {
  g_last_error = std::move(s);
  return 0;
}

// { code, message } of the last failed C export, which is then cleared (its message freed).
val last_error() {
  const ow::Status s = std::move(g_last_error);
  g_last_error = ow::Status();
  val e = val::object();
  e.set("code", std::string(ow::status_code_string(s.code())));
  e.set("message", s.message());
  return e;
}

// Dims passed from JS to ow_tensor_create, as doubles (exact integers below 2^53): JS writes
// `rank` of them at the address dims_buffer returns. Up to 64 in static memory; a larger rank
// gets a heap block, freed by the ow_tensor_create that reads it.
double g_small_dims[64];
double* g_dims = g_small_dims;
size_t g_dims_capacity = 64;

void reset_dims_buffer() {
  if (g_dims != g_small_dims) std::free(g_dims);
  g_dims = g_small_dims;
  g_dims_capacity = 64;
}

// Room for `rank` dims, or null when it cannot be allocated (ow_tensor_create then fails).
double* dims_buffer(int rank) {
  reset_dims_buffer();
  if (rank <= 64) return g_dims;
  void* p = static_cast<size_t>(rank) > SIZE_MAX / sizeof(double) ? nullptr : std::malloc(static_cast<size_t>(rank) * sizeof(double));
  if (!p) return nullptr;
  g_dims = static_cast<double*>(p);
  g_dims_capacity = static_cast<size_t>(rank);
  return g_dims;
}

// The dims JS wrote to g_dims[0..rank) (see dims_buffer), or false with the Status in lastError().
bool take_dims(int rank, std::vector<int64_t>* dims) {
  if (rank < 0 || static_cast<size_t>(rank) > g_dims_capacity) {
    reset_dims_buffer();
    fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate room for " + std::to_string(rank) + " dims"));
    return false;
  }
  dims->resize(static_cast<size_t>(rank));
  for (int i = 0; i < rank; ++i) (*dims)[static_cast<size_t>(i)] = static_cast<int64_t>(g_dims[static_cast<size_t>(i)]);
  reset_dims_buffer();
  return true;
}

uintptr_t adopt(ow::Tensor&& t) {
  TensorHandle* h = new (std::nothrow) TensorHandle(std::move(t));
  if (!h) return fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a tensor record"));
  return addr(h);
}

// A new tensor of g_dims[0..rank), zeroed unless `zeroed` is 0 (for data JS writes in full), or 0
// with the Status in lastError(). The caller fills it through ow_tensor_data / tensorSetString.
uintptr_t tensor_create(int type_id, int rank, int zeroed) {
  std::vector<int64_t> dims;
  if (!take_dims(rank, &dims)) return 0;
  ow::Tensor t;
  const ow::Status s = ow::make_tensor(static_cast<ow::ElementType>(type_id), std::move(dims), &t, zeroed != 0);
  if (!s.is_ok()) return fail(s);
  return adopt(std::move(t));
}

// inputs: array of tensor addresses (0 for a missing input). Returns { outputs: [address] } or { error }.
val run_node(const std::string& op, int opset, val attrs, val inputs) {
  std::vector<const ow::Tensor*> in;
  const unsigned n = inputs["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i) {
    const uintptr_t p = inputs[i].as<uintptr_t>();
    in.push_back(p ? &T(p)->tensor() : nullptr);
  }
  std::vector<ow::Tensor> out;
  const ow::Status s = ow::run_node(op, opset, to_attributes(attrs), in, &out);
  if (!s.is_ok()) return error_result(s);
  val list = val::array();
  for (ow::Tensor& t : out) push(list, addr(new TensorHandle(std::move(t))));
  val r = val::object();
  r.set("outputs", list);
  return r;
}

// A node prepared once (op, opset and attributes parsed) and run many times: the fast path
// behind InferenceSession.run. node_run1/2 return a new tensor address owned by JS, or 0 with
// the Status in lastError().
class PreparedNode {
 public:
  uintptr_t run(const ow::Tensor* a, const ow::Tensor* b, size_t n) {
    const ow::Tensor* in[2] = {a, b};
    ow::Tensor out;
    ow::Status s = op.run(in, n, &out);
    if (!s.is_ok()) return fail(std::move(s));
    TensorHandle* h = new (std::nothrow) TensorHandle(std::move(out));
    if (!h) return fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a tensor record"));
    return addr(h);
  }
  ow::PreparedOp op;
};

PreparedNode* N(uintptr_t p) { return reinterpret_cast<PreparedNode*>(p); }
const ow::Tensor* in_tensor(uintptr_t p) { return p ? &T(p)->tensor() : nullptr; }
uintptr_t node_run1(uintptr_t n, uintptr_t a) { return N(n)->run(in_tensor(a), nullptr, 1); }
uintptr_t node_run2(uintptr_t n, uintptr_t a, uintptr_t b) { return N(n)->run(in_tensor(a), in_tensor(b), 2); }
void node_delete(uintptr_t n) { delete N(n); }

// The rows a prepared Gather needs from data of `type_id` and dims g_dims[0..rank) that is not in
// memory (a table kept in its file), for `indices`: returns a new int64 tensor of the distinct
// rows, ascending, and stores in *remapped_out a new int64 tensor of the indices as positions in
// it (both owned by JS); or 0 with the Status in lastError() (the errors a run would give).
uintptr_t remapped_slot = 0;
uintptr_t node_gather_rows(uintptr_t n, uintptr_t indices, int type_id, int rank) {
  std::vector<int64_t> dims;
  if (!take_dims(rank, &dims)) return 0;
  ow::Tensor remapped, rows;
  ow::Status s = N(n)->op.plan_rows(static_cast<ow::ElementType>(type_id), dims, T(indices)->tensor(), &remapped, &rows);
  if (!s.is_ok()) return fail(std::move(s));
  const uintptr_t r = adopt(std::move(rows));
  if (!r) return 0;
  remapped_slot = adopt(std::move(remapped));
  if (!remapped_slot) {
    tensor_delete(r);
    return 0;
  }
  return r;
}

// { ptr: node address, inputs: count } or { error } when the op or opset is refused.
val prepare_node(const std::string& op, int opset, val attrs) {
  ow::Attributes parsed = to_attributes(attrs);
  auto* node = new PreparedNode();
  const ow::Status s = ow::PreparedOp::prepare(op, opset, std::move(parsed), &node->op);
  if (!s.is_ok()) {
    delete node;
    return error_result(s);
  }
  val r = val::object();
  r.set("ptr", addr(node));
  r.set("inputs", static_cast<int>(node->op.version().inputs.size()));
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
int threads() { return static_cast<int>(ow::parallel_planned_threads()); }
void enable_threads() { ow::parallel_enable(); }
bool threads_active() { return ow::parallel_threads() > 1; }
// Bytes the allocator has handed out and not taken back (for leak and soak tests). mallinfo's
// fields are int: read as unsigned, so that a heap above 2 GiB is not negative (wasm32 <= 4 GiB).
double heap_used() { return static_cast<double>(static_cast<uint32_t>(mallinfo().uordblks)); }
int min_opset() { return ow::kMinOpset; }

}  // namespace

// The hot path as plain C exports (Module._ow_*): a call costs tens of nanoseconds where an
// Embind call costs a quarter of a microsecond, which is most of a tiny Gather. Integers only;
// same ownership rules as the Embind functions of the same names. Addresses are i32: JS reads
// them with >>> 0.
extern "C" {
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_run1(uintptr_t n, uintptr_t a) { return node_run1(n, a); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_run2(uintptr_t n, uintptr_t a, uintptr_t b) { return node_run2(n, a, b); }
EMSCRIPTEN_KEEPALIVE int ow_tensor_type(uintptr_t p) { return tensor_type(p); }
EMSCRIPTEN_KEEPALIVE int ow_tensor_rank(uintptr_t p) { return tensor_rank(p); }
EMSCRIPTEN_KEEPALIVE double ow_tensor_dim(uintptr_t p, int i) { return tensor_dim(p, i); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_tensor_data(uintptr_t p) { return addr(T(p)->tensor().buffer->data()); }
EMSCRIPTEN_KEEPALIVE double ow_tensor_bytes(uintptr_t p) { return tensor_bytes(p); }
EMSCRIPTEN_KEEPALIVE void ow_tensor_delete(uintptr_t p) { tensor_delete(p); }
// Room for `rank` dims (doubles) that JS writes before calling ow_tensor_create (null if none).
EMSCRIPTEN_KEEPALIVE double* ow_dims_buffer(int rank) { return dims_buffer(rank); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_tensor_create(int type_id, int rank, int zeroed) { return tensor_create(type_id, rank, zeroed); }
// Rows of a table kept outside memory (node_gather_rows); the remapped indices' tensor is taken
// once with ow_take_remapped.
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_gather_rows(uintptr_t n, uintptr_t indices, int type_id, int rank) { return node_gather_rows(n, indices, type_id, rank); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_take_remapped() { const uintptr_t r = remapped_slot; remapped_slot = 0; return r; }
// Runtime facts, as plain integers: each Embind function costs start-up time (its registration
// runs when the module loads).
EMSCRIPTEN_KEEPALIVE int ow_threads() { return threads(); }
EMSCRIPTEN_KEEPALIVE void ow_enable_threads() { enable_threads(); }
EMSCRIPTEN_KEEPALIVE int ow_threads_active() { return threads_active() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE double ow_heap_used() { return heap_used(); }
EMSCRIPTEN_KEEPALIVE int ow_min_opset() { return min_opset(); }
EMSCRIPTEN_KEEPALIVE int ow_max_opset() { return max_opset(); }
}

EMSCRIPTEN_BINDINGS(onnx_wasm) {
  using emscripten::function;
  function("lastError", &last_error);
  function("tensorSharesBuffer", &tensor_shares_buffer);
  function("tensorGetString", &tensor_get_string);
  function("tensorSetString", &tensor_set_string);
  function("prepareNode", &prepare_node);
  function("nodeDelete", &node_delete);
  function("runNode", &run_node);
  function("inferNode", &infer_node);
  function("opVersions", &op_versions);
  function("kernelTarget", &kernel_target);
}
