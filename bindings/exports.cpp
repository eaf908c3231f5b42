// The wasm boundary: plain C exports (Module._ow_*) that convert between JS and the C++ types of
// src/, with no logic of their own. Integers, addresses and doubles cross as arguments; the rest
// crosses as bytes in wasm memory: a request that js/wire.mjs writes into the argument buffer
// (ow_arg_buffer) and a text answer (JSON, or a string) that JS reads from ow_text(). A failing
// export returns 0 (or -1) and leaves its Status for ow_take_error(): one error path to the typed
// Errors of js/errors.mjs.
//
// Embind is not used: its start-up (registering its types and functions when the module loads)
// was a third of the time from instantiating the module to a first Gather result in a browser.
//
// Memory: every tensor address returned to JS (ow_tensor_create, ow_run_node, ow_node_run1/2,
// ow_node_gather_rows, ow_take_remapped) is owned by JS and must be freed once with
// ow_tensor_delete (Tensor.dispose() in js/); every node address from ow_prepare_node with
// ow_node_delete. A tensor holds a counted reference to its buffer, so a Reshape/Flatten output
// keeps its input's data alive after the input is deleted. The argument buffer, the dims buffer,
// the outputs list and the text belong to this file; each is valid until the next export call.
// Addresses are i32: JS reads them with >>> 0.
#include <emscripten/emscripten.h>

#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <new>
#include <string>
#include <vector>

#include "src/kernels/gather.h"
#include "src/parallel.h"
#include "src/runtime.h"

namespace ow = onnxwasm;

namespace {

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
void tensor_delete(uintptr_t p) { delete T(p); }

// ---- Errors: the Status of the last export that failed, taken once by JS.

ow::Status g_last_error;

uintptr_t fail(ow::Status s) {
  g_last_error = std::move(s);
  return 0;
}

// ---- The text answer: JSON or a string, read by JS at ow_text() for the length returned, then
// released (ow_text_release), so that the heap holds nothing between calls.

std::string g_text;

int text(std::string s) {
  g_text = std::move(s);
  return static_cast<int>(g_text.size());
}

// JSON built by appending: strings escaped, numbers as integers (dims, opsets).
class Json {
 public:
  Json& raw(const char* s) {
    comma();
    out_ += s;
    return *this;
  }
  Json& str(std::string_view s) {
    comma();
    out_ += '"';
    for (const char c : s) {
      if (c == '"' || c == '\\') {
        out_ += '\\';
        out_ += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        static const char hex[] = "0123456789abcdef";
        out_ += "\\u00";
        out_ += hex[(c >> 4) & 0xf];
        out_ += hex[c & 0xf];
      } else {
        out_ += c;
      }
    }
    out_ += '"';
    return *this;
  }
  Json& num(int64_t v) {
    comma();
    out_ += std::to_string(v);
    return *this;
  }
  Json& boolean(bool v) { return raw(v ? "true" : "false"); }
  Json& key(const char* k) {
    str(k);
    out_ += ':';
    after_key_ = true;
    return *this;
  }
  Json& open(char c) {
    comma();
    out_ += c;
    first_ = true;
    return *this;
  }
  Json& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  std::string take() { return std::move(out_); }

 private:
  void comma() {
    if (after_key_) {
      after_key_ = false;
    } else if (!first_) {
      out_ += ',';
    }
    first_ = false;
  }
  std::string out_;
  bool first_ = true;
  bool after_key_ = false;
};

// ---- A scratch area JS writes into before the export that reads it: N elements in static memory,
// a heap block for more. get() gives room for n (null if it cannot be allocated); the reader calls
// reset() once it has copied what it needs, which frees a heap block.
template <typename T, size_t N>
class Scratch {
 public:
  T* get(size_t n) {
    reset();
    if (n <= N) return data_;
    void* p = n > SIZE_MAX / sizeof(T) ? nullptr : std::malloc(n * sizeof(T));
    if (!p) return nullptr;
    data_ = static_cast<T*>(p);
    capacity_ = n;
    return data_;
  }
  void reset() {
    if (data_ != small_) std::free(data_);
    data_ = small_;
    capacity_ = N;
  }
  const T* data() const { return data_; }
  size_t capacity() const { return capacity_; }

 private:
  T small_[N];
  T* data_ = small_;
  size_t capacity_ = N;
};

// ---- Requests: bytes JS wrote into the argument buffer (js/wire.mjs, little-endian): u8, i32,
// u32, f64 and strings (u32 byte length, then UTF-8).

Scratch<uint8_t, 4096> g_args;

class Reader {
 public:
  explicit Reader(uint32_t bytes) : p_(g_args.data()), end_(g_args.data() + (bytes <= g_args.capacity() ? bytes : 0)) {}
  // Everything read was copied out: a heap block for a large request is freed here.
  ~Reader() { g_args.reset(); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  bool ok() const { return ok_; }
  uint8_t u8() {
    uint8_t v = 0;
    take(&v, 1);
    return v;
  }
  uint32_t u32() {
    uint32_t v = 0;
    take(&v, 4);
    return v;
  }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  double f64() {
    double v = 0;
    take(&v, 8);
    return v;
  }
  std::string str() {
    const uint32_t n = u32();
    if (!ok_ || n > static_cast<size_t>(end_ - p_)) {
      ok_ = false;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return s;
  }
  // A count of items of at least `min_bytes` each: refused when the request cannot hold them.
  uint32_t count(size_t min_bytes) {
    const uint32_t n = u32();
    if (ok_ && n > static_cast<size_t>(end_ - p_) / min_bytes) ok_ = false;
    return ok_ ? n : 0;
  }

 private:
  void take(void* out, size_t n) {
    if (!ok_ || n > static_cast<size_t>(end_ - p_)) {
      ok_ = false;
      return;
    }
    std::memcpy(out, p_, n);
    p_ += n;
  }
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

ow::Status malformed() {
  return ow::Status(ow::StatusCode::InvalidArgument, "malformed request from JS to the wasm module");
}

// Attribute kinds, as js/wire.mjs numbers them.
enum WireAttr : uint8_t { kInt = 0, kInts = 1, kFloat = 2, kFloats = 3, kString = 4, kStrings = 5 };

// op, opset and attributes: [{ name, kind, value }] (INT values are doubles, exact below 2^53).
struct NodeRequest {
  std::string op;
  int opset = 0;
  ow::Attributes attrs;
};

NodeRequest read_node(Reader& r) {
  NodeRequest n;
  n.op = r.str();
  n.opset = r.i32();
  const uint32_t count = r.count(5);
  for (uint32_t i = 0; i < count && r.ok(); ++i) {
    ow::Attribute a;
    a.name = r.str();
    const uint8_t kind = r.u8();
    switch (kind) {
      case kInt:
        a.kind = ow::AttrKind::Int;
        a.ints = {static_cast<int64_t>(r.f64())};
        break;
      case kInts: {
        a.kind = ow::AttrKind::Ints;
        const uint32_t m = r.count(8);
        for (uint32_t j = 0; j < m; ++j) a.ints.push_back(static_cast<int64_t>(r.f64()));
        break;
      }
      case kFloat:
        a.kind = ow::AttrKind::Float;
        a.floats = {r.f64()};
        break;
      case kFloats: {
        a.kind = ow::AttrKind::Floats;
        const uint32_t m = r.count(8);
        for (uint32_t j = 0; j < m; ++j) a.floats.push_back(r.f64());
        break;
      }
      case kString:
        a.kind = ow::AttrKind::String;
        a.strings = {r.str()};
        break;
      default: {
        a.kind = ow::AttrKind::Strings;
        const uint32_t m = r.count(4);
        for (uint32_t j = 0; j < m; ++j) a.strings.push_back(r.str());
      }
    }
    n.attrs.add(std::move(a));
  }
  return n;
}

// ---- Dims passed from JS to ow_tensor_create and ow_node_gather_rows, as doubles (exact
// integers below 2^53): JS writes `rank` of them at the address ow_dims_buffer returns. Up to 64
// in static memory; a larger rank gets a heap block, freed by the export that reads it.

Scratch<double, 64> g_dims;

// The dims JS wrote to g_dims[0..rank) (see ow_dims_buffer), or false with the Status for ow_take_error().
bool take_dims(int rank, std::vector<int64_t>* dims) {
  if (rank < 0 || static_cast<size_t>(rank) > g_dims.capacity()) {
    g_dims.reset();
    fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate room for " + std::to_string(rank) + " dims"));
    return false;
  }
  dims->resize(static_cast<size_t>(rank));
  for (int i = 0; i < rank; ++i) (*dims)[static_cast<size_t>(i)] = static_cast<int64_t>(g_dims.data()[static_cast<size_t>(i)]);
  g_dims.reset();
  return true;
}

uintptr_t adopt(ow::Tensor&& t) {
  TensorHandle* h = new (std::nothrow) TensorHandle(std::move(t));
  if (!h) return fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a tensor record"));
  return addr(h);
}

// A new tensor of g_dims[0..rank), zeroed unless `zeroed` is 0 (for data JS writes in full), or 0
// with the Status for ow_take_error(). The caller fills it through ow_tensor_data or
// ow_tensor_set_string.
uintptr_t tensor_create(int type_id, int rank, int zeroed) {
  std::vector<int64_t> dims;
  if (!take_dims(rank, &dims)) return 0;
  ow::Tensor t;
  const ow::Status s = ow::make_tensor(static_cast<ow::ElementType>(type_id), std::move(dims), &t, zeroed != 0);
  if (!s.is_ok()) return fail(s);
  return adopt(std::move(t));
}

// ---- What JS reads of a tensor once, when it wraps its address in a Tensor (ow_tensor_info).

Scratch<double, 64> g_info;

const double* tensor_info(uintptr_t p) {
  const ow::Tensor& t = T(p)->tensor();
  double* out = g_info.get(t.dims.size() + 2);
  if (!out) {
    fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate room for the " + std::to_string(t.dims.size()) + " dims of a tensor"));
    return nullptr;
  }
  out[0] = static_cast<double>(t.type);
  out[1] = static_cast<double>(t.dims.size());
  for (size_t i = 0; i < t.dims.size(); ++i) out[i + 2] = static_cast<double>(t.dims[i]);
  return out;
}

// The output addresses of the last ow_run_node (an op has at most this many outputs).
uint32_t g_outputs[8];

// Request: a node, then u32 n and n tensor addresses (0 for a missing input). Returns the number
// of outputs, whose addresses are at ow_outputs(), or -1.
int run_node(uint32_t bytes) {
  Reader r(bytes);
  NodeRequest node = read_node(r);
  std::vector<const ow::Tensor*> in;
  const uint32_t n = r.count(4);
  for (uint32_t i = 0; i < n; ++i) {
    const uintptr_t p = r.u32();
    in.push_back(p ? &T(p)->tensor() : nullptr);
  }
  if (!r.ok()) return (fail(malformed()), -1);
  std::vector<ow::Tensor> out;
  const ow::Status s = ow::run_node(node.op, node.opset, node.attrs, in, &out);
  if (!s.is_ok()) return (fail(s), -1);
  if (out.size() > std::size(g_outputs)) return (fail(ow::Status(ow::StatusCode::InvalidArgument, node.op + " gave more outputs than the binding passes")), -1);
  for (size_t i = 0; i < out.size(); ++i) {
    const uintptr_t h = adopt(std::move(out[i]));
    if (!h) {
      for (size_t k = 0; k < i; ++k) tensor_delete(g_outputs[k]);
      return -1;
    }
    g_outputs[i] = static_cast<uint32_t>(h);
  }
  return static_cast<int>(out.size());
}

// A node prepared once (op, opset and attributes parsed) and run many times: the fast path
// behind InferenceSession.run. node_run1/2 return a new tensor address owned by JS, or 0 with
// the Status for ow_take_error().
class PreparedNode {
 public:
  uintptr_t run(const ow::Tensor* a, const ow::Tensor* b, size_t n) {
    const ow::Tensor* in[2] = {a, b};
    ow::Tensor out;
    ow::Status s = op.run(in, n, &out);
    if (!s.is_ok()) return fail(std::move(s));
    return adopt(std::move(out));
  }
  ow::PreparedOp op;
};

PreparedNode* N(uintptr_t p) { return reinterpret_cast<PreparedNode*>(p); }
const ow::Tensor* in_tensor(uintptr_t p) { return p ? &T(p)->tensor() : nullptr; }

// Request: a node. Returns its address, or 0 when the op, opset or attributes are refused.
uintptr_t prepare_node(uint32_t bytes) {
  Reader r(bytes);
  NodeRequest req = read_node(r);
  if (!r.ok()) return fail(malformed());
  auto* node = new (std::nothrow) PreparedNode();
  if (!node) return fail(ow::Status(ow::StatusCode::OutOfMemory, "cannot allocate a prepared node"));
  ow::Status s = ow::PreparedOp::prepare(req.op, req.opset, std::move(req.attrs), &node->op);
  if (!s.is_ok()) {
    delete node;
    return fail(std::move(s));
  }
  return addr(node);
}

// The rows a prepared Gather needs from data of `type_id` and dims g_dims[0..rank) that is not in
// memory (a table kept in its file), for `indices`: returns a new int64 tensor of the distinct
// rows, ascending, and keeps for ow_take_remapped a new int64 tensor of the indices as positions
// in it (both owned by JS); or 0 with the Status for ow_take_error() (the errors a run would give).
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

void dims_json(Json& j, const ow::ValueInfo& v) {
  if (!v.rank_known) {
    j.raw("null");
    return;
  }
  j.open('[');
  for (const ow::Dim& d : v.dims) {
    if (d.kind == ow::Dim::Kind::Known)
      j.num(d.value);
    else if (d.kind == ow::Dim::Kind::Symbol)
      j.str(d.symbol);
    else
      j.raw("null");
  }
  j.close(']');
}

// Request: a node, then u32 n inputs, each: i32 type id, u8 rank known, u32 rank and per dim u8
// tag (0 unknown, 1 known: f64, 2 symbol: string), u8 has values and u32 count + f64 values.
// Text: [{ "type": onnx id, "dims": [number | string | null] | null }]; returns its length, or 0.
int infer_node(uint32_t bytes) {
  Reader r(bytes);
  NodeRequest node = read_node(r);
  std::vector<ow::ValueInfo> in;
  const uint32_t n = r.count(10);
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    ow::ValueInfo info;
    info.type = static_cast<ow::ElementType>(r.i32());
    info.rank_known = r.u8() != 0;
    const uint32_t rank = r.count(1);
    for (uint32_t k = 0; k < rank && r.ok(); ++k) {
      const uint8_t tag = r.u8();
      if (tag == 1)
        info.dims.push_back(ow::Dim::known(static_cast<int64_t>(r.f64())));
      else if (tag == 2)
        info.dims.push_back(ow::Dim::named(r.str()));
      else
        info.dims.push_back(ow::Dim::unknown());
    }
    if (r.u8()) {
      std::vector<int64_t> values;
      const uint32_t m = r.count(8);
      for (uint32_t k = 0; k < m; ++k) values.push_back(static_cast<int64_t>(r.f64()));
      info.int_values = std::move(values);
    }
    in.push_back(std::move(info));
  }
  if (!r.ok()) return (fail(malformed()), 0);
  std::vector<ow::ValueInfo> out;
  const ow::Status s = ow::infer_node(node.op, node.opset, node.attrs, in, &out);
  if (!s.is_ok()) return (fail(s), 0);
  Json j;
  j.open('[');
  for (const ow::ValueInfo& v : out) {
    j.open('{').key("type").num(static_cast<int>(v.type)).key("dims");
    dims_json(j, v);
    j.close('}');
  }
  j.close(']');
  return text(j.take());
}

// The registry table as JSON, for the JS API's opVersions() and the playground's rule display.
int op_versions() {
  Json j;
  j.open('[');
  for (const ow::OpVersion& v : ow::op_versions()) {
    j.open('{').key("op").str(v.op).key("since").num(v.since).key("until").num(v.until).key("spec").str(v.spec);
    j.key("inputs").open('[');
    for (const ow::InputSpec& in : v.inputs) {
      j.open('{').key("name").str(in.name).key("constraint").str(in.constraint).key("types").open('[');
      for (int id = 1; id <= ow::kMaxElementTypeId; ++id)
        if (const ow::ElementTypeInfo* info = ow::element_type_info(id))
          if (in.types.contains(info->type)) j.str(info->js_name);
      j.close(']').close('}');
    }
    j.close(']').key("attributes").open('[');
    for (const ow::AttrSpec& a : v.attributes)
      j.open('{').key("name").str(a.name).key("kind").str(ow::attr_kind_name(a.kind)).key("required").boolean(a.required).close('}');
    j.close(']').close('}');
  }
  j.close(']');
  return text(j.take());
}

}  // namespace

extern "C" {
// Room for a request of `bytes` that JS writes before the call that reads it (null if none).
EMSCRIPTEN_KEEPALIVE uint8_t* ow_arg_buffer(uint32_t bytes) { return g_args.get(bytes); }
// The text answer of the last export that gave one (its length is what that export returned).
EMSCRIPTEN_KEEPALIVE const char* ow_text() { return g_text.data(); }
EMSCRIPTEN_KEEPALIVE void ow_text_release() { std::string().swap(g_text); }
// The last failure, taken once: text "CODE\nmessage" (the code as in status_codes.def), its length returned.
EMSCRIPTEN_KEEPALIVE int ow_take_error() {
  const ow::Status s = std::move(g_last_error);
  g_last_error = ow::Status();
  return text(std::string(ow::status_code_string(s.code())) + "\n" + s.message());
}

// Nodes (requests: see read_node).
EMSCRIPTEN_KEEPALIVE uintptr_t ow_prepare_node(uint32_t bytes) { return prepare_node(bytes); }
EMSCRIPTEN_KEEPALIVE int ow_node_inputs(uintptr_t n) { return static_cast<int>(N(n)->op.version().inputs.size()); }
EMSCRIPTEN_KEEPALIVE void ow_node_delete(uintptr_t n) { delete N(n); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_run1(uintptr_t n, uintptr_t a) { return N(n)->run(in_tensor(a), nullptr, 1); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_run2(uintptr_t n, uintptr_t a, uintptr_t b) { return N(n)->run(in_tensor(a), in_tensor(b), 2); }
EMSCRIPTEN_KEEPALIVE int ow_run_node(uint32_t bytes) { return run_node(bytes); }
EMSCRIPTEN_KEEPALIVE const uint32_t* ow_outputs() { return g_outputs; }
EMSCRIPTEN_KEEPALIVE int ow_infer_node(uint32_t bytes) { return infer_node(bytes); }
EMSCRIPTEN_KEEPALIVE int ow_op_versions() { return op_versions(); }
// Rows of a table kept outside memory (node_gather_rows); the remapped indices' tensor is taken
// once with ow_take_remapped.
EMSCRIPTEN_KEEPALIVE uintptr_t ow_node_gather_rows(uintptr_t n, uintptr_t indices, int type_id, int rank) { return node_gather_rows(n, indices, type_id, rank); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_take_remapped() { const uintptr_t r = remapped_slot; remapped_slot = 0; return r; }

// Tensors.
// Room for `rank` dims (doubles) that JS writes before calling ow_tensor_create (null if none).
EMSCRIPTEN_KEEPALIVE double* ow_dims_buffer(int rank) { return g_dims.get(rank < 0 ? 0 : static_cast<size_t>(rank)); }
EMSCRIPTEN_KEEPALIVE uintptr_t ow_tensor_create(int type_id, int rank, int zeroed) { return tensor_create(type_id, rank, zeroed); }
// The type id, rank and dims of a tensor in one call (a new Tensor in JS reads them once): doubles
// [type id, rank, dims...] at the returned address, valid until the next ow_tensor_info; null if
// a rank above 62 found no memory (the Status for ow_take_error()).
EMSCRIPTEN_KEEPALIVE const double* ow_tensor_info(uintptr_t p) { return tensor_info(p); }
// Address of the first byte in wasm memory (0 for strings); valid while the tensor lives.
EMSCRIPTEN_KEEPALIVE uintptr_t ow_tensor_data(uintptr_t p) { return addr(T(p)->tensor().buffer->data()); }
EMSCRIPTEN_KEEPALIVE double ow_tensor_bytes(uintptr_t p) { return static_cast<double>(T(p)->tensor().buffer->bytes()); }
EMSCRIPTEN_KEEPALIVE int ow_tensor_shares_buffer(uintptr_t a, uintptr_t b) { return T(a)->tensor().buffer == T(b)->tensor().buffer ? 1 : 0; }
// String element i: its UTF-8 bytes at ow_tensor_string_data, valid until the element changes.
EMSCRIPTEN_KEEPALIVE const char* ow_tensor_string_data(uintptr_t p, double i) { return T(p)->tensor().buffer->strings()[static_cast<int64_t>(i)].data(); }
EMSCRIPTEN_KEEPALIVE double ow_tensor_string_size(uintptr_t p, double i) { return static_cast<double>(T(p)->tensor().buffer->strings()[static_cast<int64_t>(i)].size()); }
// Sets string element i to the `bytes` of UTF-8 JS wrote into the argument buffer.
EMSCRIPTEN_KEEPALIVE void ow_tensor_set_string(uintptr_t p, double i, uint32_t bytes) {
  T(p)->tensor().buffer->strings()[static_cast<int64_t>(i)].assign(reinterpret_cast<const char*>(g_args.data()), bytes <= g_args.capacity() ? bytes : 0);
  g_args.reset();
}
EMSCRIPTEN_KEEPALIVE void ow_tensor_delete(uintptr_t p) { tensor_delete(p); }

// Runtime facts.
EMSCRIPTEN_KEEPALIVE int ow_kernel_target() { return text(ow::gather_kernels_best().target); }
EMSCRIPTEN_KEEPALIVE int ow_threads() { return static_cast<int>(ow::parallel_planned_threads()); }
EMSCRIPTEN_KEEPALIVE void ow_enable_threads() { ow::parallel_enable(); }
EMSCRIPTEN_KEEPALIVE int ow_threads_active() { return ow::parallel_threads() > 1 ? 1 : 0; }
// Bytes the allocator has handed out and not taken back (for leak and soak tests). mallinfo's
// fields are int: read as unsigned, so that a heap above 2 GiB is not negative (wasm32 <= 4 GiB).
EMSCRIPTEN_KEEPALIVE double ow_heap_used() { return static_cast<double>(static_cast<uint32_t>(mallinfo().uordblks)); }
EMSCRIPTEN_KEEPALIVE int ow_min_opset() { return ow::kMinOpset; }
EMSCRIPTEN_KEEPALIVE int ow_max_opset() { return ow::kMaxOpset; }
}
