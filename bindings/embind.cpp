// The wasm boundary, registered with Embind (EMSCRIPTEN_BINDINGS at the end): tensors made, read
// and exposed as typed arrays over wasm memory (typed_memory_view), nodes prepared and run, shape
// inference, the registry and runtime facts. Values cross as Embind types (numbers, std::string,
// emscripten::val arrays and objects, memory views), and on the per-run path as 32-bit integers
// in two areas of wasm memory: a node's input handles (inputsAddress) and an output's type and
// dims (infoAddress); no rules of the ops live here. JS calls them as Module.<name> (js/tensor.mjs,
// node.mjs, prepared.mjs, registry.mjs, runtime.mjs, thread-pool.mjs; nodeRunHandle and
// tensorDelete through runtime.mjs's runCalls). Their invokers come from embind-invoker.js:
// CSP-safe, and near a plain export's cost (docs/performance.md, "The boundary").
//
// Failures, one way for every call: a call that can fail returns `val`, which is either its
// result or the failure, an object { code, message } with the code as in src/status_codes.def;
// js/binding.mjs's check() throws the latter as a typed Error. A malformed call (a value of the
// wrong kind from JS) is a failure too: each value is checked before Embind converts it, which
// would otherwise throw through C++ frames. The per-run calls (nodeRunHandle, tensorInfoAddress,
// tensorCreateHandle) return integers instead, as a val costs several times a call of numbers to
// make and read (docs/notes/2026-11-25-embind-boundary.md): they report no failure, and 0 sends
// JS to the val call that does the same work (nodeRun, tensorInfo, tensorCreate).
//
// Memory, one owner rule for every handle: a handle returned to JS (a tensor's or a prepared
// node's wasm32 address, read with >>> 0) belongs to JS, which frees it exactly once with
// tensorDelete (Tensor.dispose() or its FinalizationRegistry) or nodeDelete (PreparedNode's). A
// tensor holds a counted reference to its buffer, so the output of a view (Reshape, Flatten,
// Identity, Squeeze, Unsqueeze: the ops whose capabilities say `view`) keeps its input's data
// alive after the input is freed. A memory view is valid until its tensor is freed or wasm
// memory grows (it then detaches); the info int32s (infoAddress) until the next call that writes
// them (nodeRunHandle, tensorInfoAddress).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "src/runtime.h"
#include "src/kernels/gather.h"
#include "src/parallel.h"

namespace ow = onnxwasm;
using emscripten::val;

namespace {

// ---- Handles.

struct TensorHandle {
  ow::Tensor tensor;
};

TensorHandle* tensor_at(uintptr_t p) { return reinterpret_cast<TensorHandle*>(p); }
const ow::Tensor* tensor_or_null(uintptr_t p) { return p ? &tensor_at(p)->tensor : nullptr; }

// A new handle owning `t`, or 0 when the record cannot be allocated (t is then freed).
uintptr_t adopt(ow::Tensor&& t) { return reinterpret_cast<uintptr_t>(new (std::nothrow) TensorHandle{std::move(t)}); }

// A node prepared once (op, opset and attributes checked) and run many times: the per-run path
// behind InferenceSession.run.
struct NodeHandle {
  ow::PreparedOp op;
};

NodeHandle* node_at(uintptr_t p) { return reinterpret_cast<NodeHandle*>(p); }

// The handles of a prepared node's inputs, written by JS (js/prepared.mjs) at inputs_address()
// before each nodeRunHandle or nodeRun call: 0 for an omitted input. It grows to the largest
// count asked for (inputsAddress), so that no arity is fixed here; JS keeps its address.
// (Arrays of their own, not vectors: the module is built without exceptions, and a vector that
// cannot grow would abort.)
struct InputArea {
  std::unique_ptr<uint32_t[]> handles{new uint32_t[8]()};
  std::unique_ptr<const ow::Tensor*[]> tensors{new const ow::Tensor*[8]()};
  size_t size = 8;
  bool reserve(size_t n) {
    if (n <= size) return true;
    std::unique_ptr<uint32_t[]> h(new (std::nothrow) uint32_t[n]());
    std::unique_ptr<const ow::Tensor*[]> t(new (std::nothrow) const ow::Tensor*[n]());
    if (!h || !t) return false;
    handles = std::move(h);
    tensors = std::move(t);
    size = n;
    return true;
  }
} g_inputs;

// Runs a prepared node on the first `n` handles of g_inputs: the new output's handle, or 0 with
// *status set.
uintptr_t run_prepared(uintptr_t node, int n, ow::Status* status) {
  const size_t count = n < 0 ? 0 : static_cast<size_t>(n);
  if (count > g_inputs.size) {
    *status = ow::Status(ow::StatusCode::InvalidArgument, "malformed call from JS to the wasm module: more inputs than inputsAddress made room for");
    return 0;
  }
  for (size_t i = 0; i < count; ++i) g_inputs.tensors[i] = tensor_or_null(g_inputs.handles[i]);
  ow::Tensor out;
  *status = node_at(node)->op.run(g_inputs.tensors.get(), count, &out);
  if (!status->is_ok()) return 0;
  const uintptr_t h = adopt(std::move(out));
  if (!h) *status = ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a tensor record");
  return h;
}

// ---- Failures and results. (The failures are cold and apart: a call that succeeds compiles none of
// them, V8 compiling a wasm function whole at its first call.)

ONNXWASM_COLD val failure(const ow::Status& s) {
  val o = val::object();
  o.set("code", val(ow::status_code_string(s.code())));
  o.set("message", val(s.message()));
  return o;
}

ONNXWASM_COLD val malformed(const char* what) {
  return failure(ow::Status(ow::StatusCode::InvalidArgument, std::string("malformed call from JS to the wasm module: ") + what));
}

val handle_val(uintptr_t h) { return val(static_cast<double>(h)); }

ONNXWASM_COLD val no_record() { return failure(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a tensor record")); }

// An integer held exactly by a double (|d| < 2^53), into *out; false for anything else.
bool exact_integer(double d, int64_t* out) {
  if (!(std::fabs(d) <= 9007199254740991.0) || d != std::floor(d)) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

// ---- Values read from JS, each checked before it is converted; the first wrong one marks the
// call malformed (and what was read after it is not used). The readers of strings, arrays and
// tensors are functions of their own (noinline), so that a node's first run compiles only those
// of the attribute kinds it has (docs/performance.md, "Figures behind design choices").

class Reader {
 public:
  bool ok() const { return ok_; }
  double number(const val& v) {
    if (!v.isNumber()) return bad(0.0);
    return v.as<double>();
  }
  // An integer exactly held by a double (exact_integer).
  int64_t integer(double d) {
    int64_t v = 0;
    return exact_integer(d, &v) ? v : bad<int64_t>(0);
  }
  [[gnu::noinline]] std::string string(const val& v) {
    if (!v.isString()) return bad(std::string());
    return v.as<std::string>();
  }
  // The length of an array, or 0 when `v` is not one.
  uint32_t length(const val& v) {
    if (!v.isArray()) return bad(0u);
    return v["length"].as<uint32_t>();
  }
  // An array of numbers (each checked: a typed array's copy would turn '3' into 3).
  [[gnu::noinline]] std::vector<double> numbers(const val& v) {
    const uint32_t n = length(v);
    std::vector<double> out;
    out.reserve(n);
    for (uint32_t i = 0; i < n && ok_; ++i) out.push_back(number(v[i]));
    return out;
  }
  std::vector<int64_t> integers(const val& v) {
    std::vector<int64_t> out;
    for (const double d : numbers(v)) out.push_back(integer(d));
    return out;
  }
  // int64 values: numbers (exact integers) or, beyond 2^53, decimal strings ("9223372036854775807").
  [[gnu::noinline]] std::vector<int64_t> int64s(const val& v) {
    const uint32_t n = length(v);
    std::vector<int64_t> out;
    for (uint32_t i = 0; i < n && ok_; ++i) {
      const val x = v[i];
      if (!x.isString()) {
        out.push_back(integer(number(x)));
        continue;
      }
      int64_t parsed = 0;
      if (!decimal(x.as<std::string>(), &parsed)) return bad(std::vector<int64_t>());
      out.push_back(parsed);
    }
    return out;
  }
  // Whether `s` is a decimal integer ("-12"), into *out; one outside int64 is malformed (then
  // true, with the reader marked bad).
  [[gnu::noinline]] bool decimal(const std::string& s, int64_t* out) {
    bool digits = !s.empty() && s != "-";
    for (size_t k = !s.empty() && s[0] == '-' ? 1 : 0; k < s.size(); ++k) digits = digits && s[k] >= '0' && s[k] <= '9';
    if (!digits) return false;
    errno = 0;
    *out = std::strtoll(s.c_str(), nullptr, 10);
    if (errno == ERANGE) ok_ = false;
    return true;
  }

 private:
  template <typename T>
  T bad(T fallback) {
    ok_ = false;
    return fallback;
  }
  bool ok_ = true;
};

// A node as the wrapper sends it: op type, opset, and attributes [{ name, kind, value }] with kind
// one of ONNX's names (attr_kind_name: 'INT', 'INTS', ...) and INT values exact below 2^53.
// A TENSOR attribute's value, { type: ONNX id, dims, bytes: the storage's bytes } or, for
// strings, { type, dims, strings } (js/node.mjs, tensorValue), into *out.
[[gnu::noinline]] void read_tensor_value(Reader& r, const val& value, ow::Tensor* out) {
  if (value.isNull() || value.typeOf().as<std::string>() != "object") {
    r.integer(NAN);
    return;
  }
  const int64_t id = r.integer(r.number(value["type"]));
  const std::vector<int64_t> dims = r.integers(value["dims"]);
  if (!r.ok() || !ow::element_type_info(static_cast<int32_t>(id)) ||
      !ow::make_tensor(static_cast<ow::ElementType>(id), dims, out).is_ok()) {
    r.integer(NAN);
    return;
  }
  if (out->is_string()) {
    const val strings = value["strings"];
    if (r.length(strings) != static_cast<uint64_t>(out->element_count())) r.integer(NAN);
    for (int64_t i = 0; i < out->element_count() && r.ok(); ++i) out->buffer->strings()[i] = r.string(strings[static_cast<uint32_t>(i)]);
    return;
  }
  const std::vector<double> bytes = r.numbers(value["bytes"]);
  if (!r.ok() || bytes.size() != static_cast<size_t>(out->buffer->bytes())) {
    r.integer(NAN);
    return;
  }
  for (size_t i = 0; i < bytes.size() && r.ok(); ++i) {
    const int64_t b = r.integer(bytes[i]);
    if (b < 0 || b > 255) r.integer(NAN);
    out->buffer->data()[i] = static_cast<uint8_t>(b);
  }
}

[[gnu::noinline]] void read_strings(Reader& r, const val& value, std::vector<std::string>* out) {
  const uint32_t n = r.length(value);
  for (uint32_t j = 0; j < n && r.ok(); ++j) out->push_back(r.string(value[j]));
}

ow::Attributes read_attributes(Reader& r, const val& list) {
  ow::Attributes attrs;
  const uint32_t count = r.length(list);
  for (uint32_t i = 0; i < count && r.ok(); ++i) {
    const val a = list[i];
    ow::Attribute attr;
    attr.name = r.string(a["name"]);
    const std::string kind = r.string(a["kind"]);
    const val value = a["value"];
    bool known = false;
    for (const ow::AttrKind k : {ow::AttrKind::Int, ow::AttrKind::Ints, ow::AttrKind::Float, ow::AttrKind::Floats,
                                 ow::AttrKind::String, ow::AttrKind::Strings, ow::AttrKind::Tensor}) {
      if (kind != ow::attr_kind_name(k)) continue;
      known = true;
      attr.kind = k;
      switch (k) {
        // (ints: numbers, or beyond 2^53 decimal strings, as torch's INT64_MAX Slice ends)
        case ow::AttrKind::Int: {
          int64_t big = 0;
          attr.ints = {value.isString() && r.decimal(value.as<std::string>(), &big) ? big : r.integer(r.number(value))};
          break;
        }
        case ow::AttrKind::Ints: attr.ints = r.int64s(value); break;
        case ow::AttrKind::Float: attr.floats = {r.number(value)}; break;
        case ow::AttrKind::Floats: attr.floats = r.numbers(value); break;
        case ow::AttrKind::String: attr.strings = {r.string(value)}; break;
        case ow::AttrKind::Strings: read_strings(r, value, &attr.strings); break;
        case ow::AttrKind::Tensor: read_tensor_value(r, value, &attr.tensor); break;
      }
    }
    if (!known) r.integer(NAN);   // (marks the call malformed)
    attrs.add(std::move(attr));
  }
  return attrs;
}

// ---- Tensors.

// A new tensor of `type_id` and `dims`, zeroed unless `zeroed` is false (for data JS writes in
// full): its handle, or the failure.
val tensor_create(int type_id, val dims, bool zeroed) {
  Reader r;
  std::vector<int64_t> shape = r.integers(dims);
  if (!r.ok()) return malformed("dims must be an array of integers");
  ow::Tensor t;
  const ow::Status s = ow::make_tensor(static_cast<ow::ElementType>(type_id), std::move(shape), &t, zeroed);
  if (!s.is_ok()) return failure(s);
  const uintptr_t h = adopt(std::move(t));
  return h ? handle_val(h) : no_record();
}

// The same for rank <= 4 with the dims as numbers (d0..d3, those beyond the rank ignored), on the
// path of a Tensor made per run: its handle, or 0 (then JS calls tensorCreate). An array of dims
// costs three emval calls a dim, more than the rest of the call
// (docs/notes/2026-11-25-embind-boundary.md, "Tensors made per run").
uintptr_t tensor_create_handle(int type_id, int rank, int zeroed, double d0, double d1, double d2, double d3) {
  if (rank < 0 || rank > 4) return 0;
  const double given[4] = {d0, d1, d2, d3};
  std::vector<int64_t> shape(static_cast<size_t>(rank));
  for (int i = 0; i < rank; ++i)
    if (!exact_integer(given[i], &shape[static_cast<size_t>(i)])) return 0;
  ow::Tensor t;
  if (!ow::make_tensor(static_cast<ow::ElementType>(type_id), std::move(shape), &t, zeroed != 0).is_ok()) return 0;
  return adopt(std::move(t));
}

template <typename T>
val view_of(const ow::Buffer& b) {
  return val(emscripten::typed_memory_view(static_cast<size_t>(b.bytes()) / sizeof(T), reinterpret_cast<T*>(b.data())));
}

// The tensor's storage as a typed array over wasm memory, of the class src/element_types.def
// names for its type (BigInt64Array for int64, Uint8Array for packed sub-byte types...);
// undefined for strings.
val tensor_data(uintptr_t p) {
  const ow::Tensor& t = tensor_at(p)->tensor;
  const ow::Buffer& b = *t.buffer.get();
  const char* array = "";
  switch (t.type) {
#define ONNX_ELEMENT_TYPE(E, js, onnx, id, bits, cls) \
  case ow::ElementType::E: array = cls; break;
#include "src/element_types.def"
#undef ONNX_ELEMENT_TYPE
    default: break;
  }
  if (!std::strcmp(array, "Float32Array")) return view_of<float>(b);
  if (!std::strcmp(array, "Float64Array")) return view_of<double>(b);
  if (!std::strcmp(array, "Int8Array")) return view_of<int8_t>(b);
  if (!std::strcmp(array, "Uint8Array")) return view_of<uint8_t>(b);
  if (!std::strcmp(array, "Int16Array")) return view_of<int16_t>(b);
  if (!std::strcmp(array, "Uint16Array")) return view_of<uint16_t>(b);
  if (!std::strcmp(array, "Int32Array")) return view_of<int32_t>(b);
  if (!std::strcmp(array, "Uint32Array")) return view_of<uint32_t>(b);
  if (!std::strcmp(array, "BigInt64Array")) return view_of<int64_t>(b);
  if (!std::strcmp(array, "BigUint64Array")) return view_of<uint64_t>(b);
  return val::undefined();
}

// { type: ONNX id, dims: number[] } of a tensor (the path for what g_info cannot hold).
val tensor_info(uintptr_t p) {
  const ow::Tensor& t = tensor_at(p)->tensor;
  val dims = val::array();
  for (size_t i = 0; i < t.dims.size(); ++i) dims.set(i, static_cast<double>(t.dims[i]));
  val o = val::object();
  o.set("type", static_cast<int>(t.type));
  o.set("dims", dims);
  return o;
}

// [type id, rank, dims...] of a tensor as int32 in g_info (the per-run path: an output's Tensor
// reads them once), valid until the next call that writes them; rank -1 for a rank above 62 or a
// dimension above 2^31 - 1 (then JS calls tensorInfo). Int32, not doubles: in V8's first tiers, a
// session's first runs, each double read from a Float64Array allocated a heap number, which
// showed in a cold tiny run (docs/notes/2026-11-26-cold-runs-at-the-line.md, "An output's type
// and dims as int32s").
int32_t g_info[64];
bool write_info(const ow::Tensor& t) {
  g_info[0] = static_cast<int32_t>(t.type);
  g_info[1] = -1;
  if (t.dims.size() + 2 > std::size(g_info)) return false;
  for (size_t i = 0; i < t.dims.size(); ++i) {
    if (t.dims[i] > INT32_MAX) return false;
    g_info[i + 2] = static_cast<int32_t>(t.dims[i]);
  }
  g_info[1] = static_cast<int32_t>(t.dims.size());
  return true;
}
uintptr_t info_address() { return reinterpret_cast<uintptr_t>(g_info); }
// A tensor's info written to g_info: its address, or 0 where g_info cannot hold it.
uintptr_t tensor_info_address(uintptr_t p) { return write_info(tensor_at(p)->tensor) ? info_address() : 0; }

void tensor_delete(uintptr_t p) { delete tensor_at(p); }

bool tensor_shares_buffer(uintptr_t a, uintptr_t b) { return tensor_at(a)->tensor.buffer == tensor_at(b)->tensor.buffer; }

// String element i (UTF-8 in wasm memory, a JS string across).
std::string tensor_string(uintptr_t p, double i) { return tensor_at(p)->tensor.buffer->strings()[static_cast<int64_t>(i)]; }
void tensor_set_string(uintptr_t p, double i, std::string s) {
  tensor_at(p)->tensor.buffer->strings()[static_cast<int64_t>(i)] = std::move(s);
}

// ---- Nodes.

// A prepared node: { node: handle }, or the failure.
val prepare_node(val domain_name, val op_name, int opset, val attrs) {
  Reader r;
  const std::string domain = r.string(domain_name), op = r.string(op_name);
  if (!r.ok()) return malformed("the domain and the op type must be strings");
  ow::Attributes a = read_attributes(r, attrs);
  if (!r.ok()) return malformed("attributes must be [{ name, kind, value }]");
  auto* node = new (std::nothrow) NodeHandle();
  if (!node) return failure(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a prepared node"));
  const ow::Status s = ow::PreparedOp::prepare(domain, op, opset, a, &node->op);
  if (!s.is_ok()) {
    delete node;
    return failure(s);
  }
  val o = val::object();
  o.set("node", handle_val(reinterpret_cast<uintptr_t>(node)));
  return o;
}

void node_delete(uintptr_t n) { delete node_at(n); }

// Room for `n` input handles in g_inputs: its address (it moves when it grows), or 0 when it
// cannot grow.
uintptr_t inputs_address(int n) {
  if (n > 0 && !g_inputs.reserve(static_cast<size_t>(n))) return 0;
  return reinterpret_cast<uintptr_t>(g_inputs.handles.get());
}

// A prepared node run on the first `n` handles of g_inputs: the output's handle, or the failure.
val node_run(uintptr_t node, int n) {
  ow::Status s;
  const uintptr_t h = run_prepared(node, n, &s);
  return h ? handle_val(h) : failure(s);
}

// The same run on the per-run path: the output's handle, its info written to g_info (one call a
// run, where reading the info after took a second), or 0 (then JS calls nodeRun).
uintptr_t node_run_handle(uintptr_t node, int n) {
  ow::Status s;
  const uintptr_t h = run_prepared(node, n, &s);
  if (h) write_info(tensor_at(h)->tensor);
  return h;
}

// The rows a prepared node (whose capabilities say it can: a Gather, a GatherBlockQuantized)
// needs from its data (input 0) of `type_id` and `dims` that is not in memory (a table kept in its
// file), for the other inputs: the first `count` handles of g_inputs, as for a run (the first one
// unused, the second the indices; `outside`: the type and dims of other inputs kept outside memory
// with the table, such as a GatherBlockQuantized's scales, whose handles are 0). { rows, remapped },
// new int64 tensors (owned by JS) of the distinct rows, ascending, and of the indices as positions
// among them; or the failure (the errors a run would give).
val node_gather_rows(uintptr_t n, int count, int type_id, val dims, val outside) {
  Reader r;
  const std::vector<int64_t> shape = r.integers(dims);
  // outside: for each other input kept outside memory, [input, type id, rank, dims...], flat.
  const std::vector<int64_t> flat = r.integers(outside);
  if (!r.ok()) return malformed("dims and outside must be arrays of integers");
  std::vector<ow::PreparedOp::OutsideInput> also;
  size_t k = 0;
  while (k + 3 <= flat.size()) {
    const int64_t rank = flat[k + 2];
    if (rank < 0 || static_cast<size_t>(rank) > flat.size() - k - 3 || flat[k] < 0 || flat[k + 1] < 0 ||
        flat[k + 1] > ow::kMaxElementTypeId)
      break;
    const auto first = flat.begin() + static_cast<std::ptrdiff_t>(k + 3);
    also.push_back({static_cast<size_t>(flat[k]), static_cast<ow::ElementType>(flat[k + 1]),
                    std::vector<int64_t>(first, first + static_cast<std::ptrdiff_t>(rank))});
    k += 3 + static_cast<size_t>(rank);
  }
  if (k != flat.size()) return malformed("outside must hold [input, type id, rank, dims...] entries");
  if (count < 2 || static_cast<size_t>(count) > g_inputs.size) return malformed("an input count outside the input area");
  g_inputs.tensors[0] = nullptr;
  for (int i = 1; i < count; ++i) g_inputs.tensors[i] = tensor_or_null(g_inputs.handles[i]);
  ow::Tensor remapped, rows;
  const ow::Status s = node_at(n)->op.plan_rows(static_cast<ow::ElementType>(type_id), shape, g_inputs.tensors.get(),
                                                static_cast<size_t>(count), &remapped, &rows, also);
  if (!s.is_ok()) return failure(s);
  const uintptr_t hr = adopt(std::move(rows));
  const uintptr_t hm = hr ? adopt(std::move(remapped)) : 0;
  if (!hm) {
    delete tensor_at(hr);
    return no_record();
  }
  val o = val::object();
  o.set("rows", handle_val(hr));
  o.set("remapped", handle_val(hm));
  return o;
}

// One node run once: inputs are tensor handles (0 for an omitted input). The outputs' handles,
// or the failure.
val run_node(val domain_name, val op_name, int opset, val attrs, val inputs) {
  Reader r;
  const std::string domain = r.string(domain_name), op = r.string(op_name);
  ow::Attributes a = read_attributes(r, attrs);
  std::vector<const ow::Tensor*> in;
  for (const double h : r.numbers(inputs)) in.push_back(tensor_or_null(static_cast<uintptr_t>(h)));
  if (!r.ok()) return malformed("a node and an array of tensor handles");
  std::vector<ow::Tensor> out;
  const ow::Status s = ow::run_node(domain, op, opset, a, in, &out);
  if (!s.is_ok()) return failure(s);
  std::vector<uintptr_t> handles;
  for (ow::Tensor& t : out) {
    const uintptr_t h = adopt(std::move(t));
    if (!h) {
      for (const uintptr_t k : handles) delete tensor_at(k);
      return no_record();
    }
    handles.push_back(h);
  }
  val list = val::array();
  for (size_t i = 0; i < handles.size(); ++i) list.set(i, handle_val(handles[i]));
  return list;
}

// A dim as JS sees it: a number, a symbol's name, or null (unknown).
val dim_val(const ow::Dim& d) {
  if (d.kind == ow::Dim::Kind::Known) return val(static_cast<double>(d.value));
  if (d.kind == ow::Dim::Kind::Symbol) return val(d.symbol);
  return val::null();
}

// The parts of infer_node, each a function of its own (noinline), as the readers are: a node's
// first inference compiles those its inputs and outputs need.

// An input's value: entries a number, a decimal string beyond 2^53, a symbol or null (dim_values).
[[gnu::noinline]] void read_value_entries(Reader& r, const val& value, ow::ValueInfo* info) {
  const uint32_t n = r.length(value);
  std::vector<ow::Dim> entries;
  for (uint32_t k = 0; k < n && r.ok(); ++k) {
    const val e = value[k];
    if (e.isString()) {
      const std::string text = e.as<std::string>();
      int64_t big = 0;
      if (r.decimal(text, &big)) entries.push_back(ow::Dim::known(big));
      else entries.push_back(ow::Dim::named(text));
    } else if (e.isNull()) {
      entries.push_back(ow::Dim::unknown());
    } else {
      entries.push_back(ow::Dim::known(r.integer(r.number(e))));
    }
  }
  info->set_values(std::move(entries));
}

[[gnu::noinline]] ow::ValueInfo read_value_info(Reader& r, const val& x) {
  ow::ValueInfo info;
  info.type = static_cast<ow::ElementType>(r.integer(r.number(x["type"])));
  const val dims = x["dims"];
  info.rank_known = !dims.isNull();
  const uint32_t rank = info.rank_known ? r.length(dims) : 0;
  for (uint32_t k = 0; k < rank && r.ok(); ++k) {
    const val d = dims[k];
    if (d.isNumber())
      info.dims.push_back(ow::Dim::known(r.integer(d.as<double>())));
    else if (d.isString())
      info.dims.push_back(ow::Dim::named(d.as<std::string>()));
    else if (d.isNull())
      info.dims.push_back(ow::Dim::unknown());
    else
      r.integer(NAN);
  }
  const val value = x["value"];
  if (!value.isUndefined()) read_value_entries(r, value, &info);
  return info;
}

// An output's known values as JS gets them: numbers, or beyond 2^53 decimal strings (a double
// would round them); or entries a number, a symbol or null.
[[gnu::noinline]] val values_val(const ow::ValueInfo& info) {
  val values = val::array();
  if (info.int_values) {
    for (size_t k = 0; k < info.int_values->size(); ++k) {
      const int64_t x = (*info.int_values)[k];
      if (x >= -9007199254740991 && x <= 9007199254740991) values.set(k, static_cast<double>(x));
      else values.set(k, std::to_string(x));
    }
  } else {
    for (size_t k = 0; k < info.dim_values->size(); ++k) values.set(k, dim_val((*info.dim_values)[k]));
  }
  return values;
}

[[gnu::noinline]] val info_val(const ow::ValueInfo& info) {
  val o = val::object();
  o.set("type", static_cast<int>(info.type));
  if (info.rank_known) {
    val dims = val::array();
    for (size_t k = 0; k < info.dims.size(); ++k) dims.set(k, dim_val(info.dims[k]));
    o.set("dims", dims);
  } else {
    o.set("dims", val::null());
  }
  if (info.int_values || info.dim_values) o.set("value", values_val(info));
  return o;
}

// Output types and shapes of one node. Inputs: [{ type: ONNX id (0 for an omitted input), dims:
// (number | string | null)[] | null, value?: (number | string | null)[] }]: value entries are
// numbers, a decimal string for an int64 beyond 2^53, or for values computed from symbolic dims a
// symbol or null. Returns [{ type, dims }] (dims null for an unknown rank; `value` too, the values
// of a small int64 output that inference knows, such as Shape's, written the same way), or the
// failure.
val infer_node(val domain_name, val op_name, int opset, val attrs, val inputs) {
  Reader r;
  const std::string domain = r.string(domain_name), op = r.string(op_name);
  ow::Attributes a = read_attributes(r, attrs);
  std::vector<ow::ValueInfo> in;
  const uint32_t n = r.length(inputs);
  for (uint32_t i = 0; i < n && r.ok(); ++i) in.push_back(read_value_info(r, inputs[i]));
  if (!r.ok()) return malformed("a node and an array of { type, dims, value? }");
  std::vector<ow::ValueInfo> out;
  const ow::Status s = ow::infer_node(domain, op, opset, a, in, &out);
  if (!s.is_ok()) return failure(s);
  val list = val::array();
  for (size_t i = 0; i < out.size(); ++i) list.set(i, info_val(out[i]));
  return list;
}

// ---- The registry and runtime facts.

// Every op version: [{ domain, op, since, until, spec, inputs: [{ name, constraint, types,
// optional, variadic }], attributes: [{ name, kind, required }], capabilities: { view,
// rowsInput, rowsAxis } }], types as the JS API names them (rowsInput -1 and rowsAxis '' when the
// op reads no table by rows).
val op_versions() {
  val list = val::array();
  int i = 0;
  for (const ow::OpVersion& v : ow::op_versions()) {
    val o = val::object();
    o.set("domain", val(v.domain));
    o.set("op", val(v.op));
    o.set("since", v.since);
    o.set("until", v.until);
    o.set("spec", val(v.spec));
    val inputs = val::array();
    for (size_t k = 0; k < v.inputs.size(); ++k) {
      const ow::InputSpec& in = v.inputs[k];
      val types = val::array();
      int t = 0;
      for (int id = 1; id <= ow::kMaxElementTypeId; ++id)
        if (const ow::ElementTypeInfo* info = ow::element_type_info(id))
          if (in.types.contains(info->type)) types.set(t++, val(info->js_name));
      val spec = val::object();
      spec.set("name", val(in.name));
      spec.set("constraint", val(in.constraint));
      spec.set("types", types);
      spec.set("optional", in.optional);
      spec.set("variadic", in.variadic);
      inputs.set(k, spec);
    }
    val attributes = val::array();
    for (size_t k = 0; k < v.attributes.size(); ++k) {
      val spec = val::object();
      spec.set("name", val(v.attributes[k].name));
      spec.set("kind", val(ow::attr_kind_name(v.attributes[k].kind)));
      spec.set("required", v.attributes[k].required);
      attributes.set(k, spec);
    }
    val caps = val::object();
    caps.set("view", v.caps.view);
    caps.set("rowsInput", v.caps.rows_input);
    caps.set("rowsAxis", val(v.caps.rows_axis ? v.caps.rows_axis : ""));
    val also = val::array();
    for (unsigned k = 0, j = 0; k < 32; ++k)
      if (v.caps.rows_also & (1u << k)) also.set(j++, static_cast<int>(k));
    caps.set("rowsAlso", also);
    o.set("inputs", inputs);
    o.set("attributes", attributes);
    o.set("capabilities", caps);
    list.set(i++, o);
  }
  return list;
}

// The registry in brief, for what a session checks at every create (which ops run, which read a
// table by rows): one line a (domain, op), "domain\top\trowsInput\trowsAxis\trowsAlso", in the table's
// order. One string: opVersions() builds every row as objects, which a session's first result
// would wait for (docs/performance.md, "Figures behind design choices").
// (The first row of each pair is found by comparing names with the pairs listed so far, newest
// first: a table's rows of one op are adjacent, so the search ends at once. It runs in a session's
// first create, in code the engine has just compiled, where searching the string built so far for
// each row was a part of that create worth saving: docs/performance.md.)
// (digits by hand: std::to_string would add its own functions for the engine to compile at
// start-up)
void append_decimal(std::string& out, int64_t x) {
  char digits[24];
  char* const end = digits + sizeof digits;
  char* p = end;
  uint64_t u = x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  do {
    *--p = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (x < 0) *--p = '-';
  out.append(p, static_cast<size_t>(end - p));
}

std::string build_registry_index() {
  std::string out;
  std::vector<const ow::OpVersion*> listed;
  for (const ow::OpVersion& v : ow::op_versions()) {
    auto same = [&v](const ow::OpVersion* x) { return std::strcmp(x->op, v.op) == 0 && std::strcmp(x->domain, v.domain) == 0; };
    if (std::find_if(listed.rbegin(), listed.rend(), same) != listed.rend()) continue;
    listed.push_back(&v);
    out.append(v.domain).append("\t").append(v.op).append("\t");
    append_decimal(out, v.caps.rows_input);
    out.append("\t").append(v.caps.rows_axis ? v.caps.rows_axis : "").append("\t");
    append_decimal(out, v.caps.rows_also);
    out.append("\n");
  }
  return out;
}

// That string's UTF-8 bytes, as a Uint8Array over wasm memory. Memory: the module owns the string,
// built when the module starts (so that no create finds the heap grown by it) and kept for its
// life; the caller copies the bytes out before anything can grow memory. (A view, not a
// std::string: Embind's std::string decoder tests every byte in JS, which a first create ran
// uncompiled.)
const std::string kRegistryIndex = build_registry_index();
val registry_index() {
  return val(emscripten::typed_memory_view(kRegistryIndex.size(), reinterpret_cast<const unsigned char*>(kRegistryIndex.data())));
}

// { kernels, threads (how many the largest gathers will use), minOpset, maxOpset (of the default
// domain), domains: [{ domain, minOpset, maxOpset }] }.
val runtime_facts() {
  val o = val::object();
  val list = val::array();
  for (size_t i = 0; i < ow::domains().size(); ++i) {
    const ow::DomainInfo& d = ow::domains()[i];
    val x = val::object();
    x.set("domain", val(d.domain));
    x.set("minOpset", d.min_opset);
    x.set("maxOpset", d.max_opset);
    list.set(i, x);
  }
  o.set("domains", list);
  o.set("kernels", val(ow::gather_kernels_best().target));
  o.set("threads", static_cast<int>(ow::parallel_planned_threads()));
  o.set("minOpset", ow::kMinOpset);
  o.set("maxOpset", ow::kMaxOpset);
  return o;
}

bool threads_active() { return ow::parallel_threads() > 1; }
void enable_threads() { ow::parallel_enable(); }
// Bytes the allocator has handed out and not taken back (for leak and soak tests). mallinfo's
// fields are int: read as unsigned, so that a heap above 2 GiB is not negative (wasm32 <= 4 GiB).
double heap_used() { return static_cast<double>(static_cast<uint32_t>(mallinfo().uordblks)); }

}  // namespace

EMSCRIPTEN_BINDINGS(onnx_wasm) {
  using emscripten::function;
  // Embind 3.1.6 registers no memory views of 64-bit integers: BigInt64Array and BigUint64Array
  // (8 and 9 in its typed-array table; needs -sWASM_BIGINT).
  // Depends on Emscripten 3.1.6 internals; scripts/build-wasm.sh checks the version.
  emscripten::internal::_embind_register_memory_view(emscripten::internal::TypeID<emscripten::memory_view<int64_t>>::get(), 8,
                                                     "emscripten::memory_view<int64_t>");
  emscripten::internal::_embind_register_memory_view(emscripten::internal::TypeID<emscripten::memory_view<uint64_t>>::get(), 9,
                                                     "emscripten::memory_view<uint64_t>");
  function("tensorCreate", &tensor_create);
  function("tensorCreateHandle", &tensor_create_handle);
  function("tensorData", &tensor_data);
  function("tensorInfo", &tensor_info);
  function("tensorInfoAddress", &tensor_info_address);
  function("infoAddress", &info_address);
  function("tensorDelete", &tensor_delete);
  function("tensorSharesBuffer", &tensor_shares_buffer);
  function("tensorString", &tensor_string);
  function("tensorSetString", &tensor_set_string);
  function("prepareNode", &prepare_node);
  function("inputsAddress", &inputs_address);
  function("nodeRun", &node_run);
  function("nodeRunHandle", &node_run_handle);
  function("nodeDelete", &node_delete);
  function("nodeGatherRows", &node_gather_rows);
  function("runNode", &run_node);
  function("inferNode", &infer_node);
  function("opVersions", &op_versions);
  function("registryIndex", &registry_index);
  function("runtimeFacts", &runtime_facts);
  function("threadsActive", &threads_active);
  function("enableThreads", &enable_threads);
  function("heapUsed", &heap_used);
}
