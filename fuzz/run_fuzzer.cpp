// libFuzzer target: run_node for every op and opset with tensors made from the fuzz input: half
// the time Gather, Flatten or Reshape (or a wrong name), else an op version of the registry's
// default domain at an opset of its range, its inputs typed from their constraints (inputs of one
// letter alike) and the ones inference reads by value given small integer values, mostly.
// Dims are bounded so that allocations stay small (a huge dim only next to a zero dim), but
// index values, shape values and attributes are arbitrary, int64 extremes included. Checks,
// besides the sanitizers:
// - on error: no outputs, a code and a message, and the inputs unchanged (type, dims, buffer
//   and every byte or string, compared with a copy taken before the run);
// - on success: the inputs unchanged too, one output of the data's type; Gather's output equals
//   a naive gather computed here; Reshape and Flatten outputs share the input's buffer and have
//   the dims a naive reading of the ONNX rules gives;
// - errors are the ones the naive rules predict (an index out of range gives ERR_INDEX naming
//   the first bad position, a bad axis ERR_ATTRIBUTE, an impossible shape ERR_SHAPE);
// - infer_node on the same concrete shapes (and shape values) agrees with run_node.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>

#include "fuzz_common.h"
#include "src/runtime.h"
#include "src/tensor.h"

using namespace onnxwasm;
using fuzz::interesting_int64;
using fuzz::zero_first_product;

namespace {

constexpr int64_t kMaxSmallDim = 5;

// A copy of everything observable about a tensor, to check that a run changed nothing.
struct Snapshot {
  ElementType type;
  std::vector<int64_t> dims;
  const Buffer* buffer;
  std::vector<uint8_t> bytes;
  std::vector<std::string> strings;

  explicit Snapshot(const Tensor& t) : type(t.type), dims(t.dims), buffer(t.buffer.get()) {
    if (t.is_string())
      strings.assign(t.buffer->strings(), t.buffer->strings() + t.buffer->string_count());
    else
      bytes.assign(t.buffer->data(), t.buffer->data() + t.buffer->bytes());
  }
  bool same_as(const Tensor& t) const {
    if (t.type != type || t.dims != dims || t.buffer.get() != buffer) return false;
    if (t.is_string())
      return t.buffer->string_count() == static_cast<int64_t>(strings.size()) &&
             std::equal(strings.begin(), strings.end(), t.buffer->strings());
    return t.buffer->bytes() == static_cast<int64_t>(bytes.size()) &&
           (bytes.empty() || std::memcmp(bytes.data(), t.buffer->data(), bytes.size()) == 0);
  }
};

enum class Role { Data, Indices, Shape };

// Dims of rank 0..4: small, or huge next to a zero dim (so the element count stays small while
// the product of the other dims may overflow). Also checks check_dims on the raw dims first.
std::vector<int64_t> fuzz_dims(FuzzedDataProvider& in, Role role, ElementType type) {
  // Data of rank 1..4 and then 0 (an exhausted input gives rank 1: Gather refuses scalar data).
  const int rank = role == Role::Shape     ? (fuzz::one_in(in, 8) ? in.ConsumeIntegralInRange<int>(0, 2) : 1)
                   : role == Role::Indices ? in.ConsumeIntegralInRange<int>(0, 3)
                                           : (in.ConsumeIntegralInRange<int>(0, 4) + 1) % 5;
  std::vector<int64_t> dims;
  for (int i = 0; i < rank; ++i)
    dims.push_back(fuzz::one_in(in, 8) ? interesting_int64(in)
                                                             : in.ConsumeIntegralInRange<int64_t>(0, kMaxSmallDim));
  // check_dims (no allocation) on the raw dims: negative dims and overflowing products are refused.
  int64_t count = 0, bytes = 0;
  const Status s = check_dims(type, dims, &count, &bytes);
  int64_t expected = 0;
  bool negative = false;
  for (int64_t d : dims) negative |= d < 0;
  if (negative || !zero_first_product(dims, &expected)) {
    FUZZ_CHECK(!s.is_ok() && s.code() == StatusCode::Shape, fuzz::dims_string(dims));
  } else {
    int64_t bits = 0;
    const int width = element_type_info(static_cast<int32_t>(type))->bits;
    if (type != ElementType::String && __builtin_mul_overflow(expected, int64_t{width}, &bits)) {
      FUZZ_CHECK(!s.is_ok() && s.code() == StatusCode::OutOfMemory, fuzz::dims_string(dims));
    } else {
      FUZZ_CHECK(s.is_ok() && count == expected, fuzz::dims_string(dims));
      if (type != ElementType::String) FUZZ_CHECK(bytes == bits / 8 + (bits % 8 != 0), fuzz::dims_string(dims));
    }
  }
  // Now make them allocatable: no negatives; small products, or a zero somewhere.
  for (int64_t& d : dims)
    if (d < 0) d = d == fuzz::kI64Min ? 0 : -d;
  int64_t p = 0;
  if (!zero_first_product(dims, &p) || p > 1024) {
    if (in.ConsumeBool() && !dims.empty())
      dims[in.ConsumeIntegralInRange<size_t>(0, dims.size() - 1)] = 0;
    else
      for (int64_t& d : dims) d %= kMaxSmallDim + 1;
  }
  return dims;
}

ElementType fuzz_tensor_type(FuzzedDataProvider& in, Role role) {
  if (!fuzz::one_in(in, 10)) {
    if (role == Role::Indices) return in.ConsumeBool() ? ElementType::Int64 : ElementType::Int32;
    if (role == Role::Shape) return ElementType::Int64;
  }
  return static_cast<ElementType>(in.ConsumeIntegralInRange<int32_t>(1, kMaxElementTypeId));
}

// An index value: usually within [-axis_dim, axis_dim - 1], now and then just outside, or anything.
int64_t fuzz_index(FuzzedDataProvider& in, int64_t axis_dim) {
  switch (in.ConsumeIntegralInRange<int>(0, 31)) {
    case 31: return interesting_int64(in);
    case 30: return in.ConsumeBool() ? axis_dim : -axis_dim - 1;
    default: {
      if (axis_dim == 0) return in.ConsumeIntegralInRange<int64_t>(-1, 0);
      const int64_t bound = std::min<int64_t>(axis_dim, int64_t{1} << 40);
      return in.ConsumeIntegralInRange<int64_t>(-bound, bound - 1);
    }
  }
}

// A shape value list: random, or one derived from the data dims that is likely valid.
std::vector<int64_t> fuzz_shape_values(FuzzedDataProvider& in, const std::vector<int64_t>& data_dims, size_t n_hint,
                                       bool any_length) {
  std::vector<int64_t> v;
  if (!in.ConsumeBool()) {  // an exhausted input takes this branch: [element count]
    int64_t count = 0;
    zero_first_product(data_dims, &count);
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: v = {count}; break;
      case 1: v = {-1}; break;
      case 2: v = data_dims; break;
      default:
        v = data_dims;
        if (v.size() >= 2) {  // merge two neighbours
          const size_t i = in.ConsumeIntegralInRange<size_t>(0, v.size() - 2);
          if (__builtin_mul_overflow(v[i], v[i + 1], &v[i])) v[i] = fuzz::kI64Max;
          v.erase(v.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        }
        break;
    }
    for (size_t i = 0; i < v.size(); ++i) {
      const int r = in.ConsumeIntegralInRange<int>(0, 9);
      if (r == 9) v[i] = -1;
      else if (r == 8) v[i] = 0;
    }
  } else {
    const size_t n = any_length ? (in.ConsumeIntegralInRange<size_t>(0, 6) + 1) % 7 : n_hint;
    for (size_t i = 0; i < n; ++i) {
      switch (in.ConsumeIntegralInRange<int>(0, 4)) {
        case 4: v.push_back(-1); break;
        case 3: v.push_back(0); break;
        case 2: v.push_back(interesting_int64(in)); break;
        default: v.push_back(in.ConsumeIntegralInRange<int64_t>(-2, 8)); break;
      }
    }
  }
  if (!any_length) v.resize(n_hint, 1);
  return v;
}

// Element count of dims that make_tensor accepted (a zero dim wins over an overflow of the others).
int64_t count_of(const std::vector<int64_t>& dims) {
  int64_t n = 0;
  FUZZ_CHECK(zero_first_product(dims, &n), fuzz::dims_string(dims));
  return n;
}

// (Named apart from src/element_type.h's element_bits, which this oracle does not call.)
int type_bits(ElementType t) { return element_type_info(static_cast<int32_t>(t))->bits; }

// Fills a new tensor: int64/int32 `values` when given (indices, shape values), other numbers
// from the fuzz bytes and then a pattern, strings short and varied.
void fill(FuzzedDataProvider& in, Tensor* t, const std::vector<int64_t>* values) {
  const int64_t n = count_of(t->dims);
  if (t->is_string()) {
    for (int64_t i = 0; i < n; ++i)
      t->buffer->strings()[i] = i < 4 ? in.ConsumeRandomLengthString(6) : "s" + std::to_string(i);
    return;
  }
  uint8_t* p = t->buffer->data();
  const int64_t bytes = t->buffer->bytes();
  if (values && t->type == ElementType::Int64) {
    for (int64_t i = 0; i < n; ++i) {
      const int64_t v = i < static_cast<int64_t>(values->size()) ? (*values)[static_cast<size_t>(i)] : 1;
      std::memcpy(p + i * 8, &v, 8);
    }
    return;
  }
  if (values && t->type == ElementType::Int32) {
    for (int64_t i = 0; i < n; ++i) {
      const int32_t v = static_cast<int32_t>(i < static_cast<int64_t>(values->size()) ? (*values)[static_cast<size_t>(i)] : 0);
      std::memcpy(p + i * 4, &v, 4);
    }
    return;
  }
  const std::vector<uint8_t> head = in.ConsumeBytes<uint8_t>(static_cast<size_t>(std::min<int64_t>(bytes, 64)));
  for (int64_t i = 0; i < bytes; ++i)
    p[i] = i < static_cast<int64_t>(head.size()) ? head[static_cast<size_t>(i)] : static_cast<uint8_t>(i * 131 + 7);
}

Tensor make(ElementType type, const std::vector<int64_t>& dims) {
  Tensor t;
  const Status s = make_tensor(type, dims, &t);
  FUZZ_CHECK(s.is_ok(), fuzz::dims_string(dims) + " " + s.message());
  FUZZ_CHECK(t.type == type && t.dims == dims && t.buffer, fuzz::dims_string(dims));
  return t;
}

int64_t index_at(const Tensor& idx, int64_t i) {
  if (idx.type == ElementType::Int32) {
    int32_t v;
    std::memcpy(&v, idx.buffer->data() + i * 4, 4);
    return v;
  }
  int64_t v;
  std::memcpy(&v, idx.buffer->data() + i * 8, 8);
  return v;
}

// The values inference is given for an input it reads by value, as a session gives them: int64,
// int32 and int16 ones widened (ValueInfo::int_values); none for other types.
std::optional<std::vector<int64_t>> known_values(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(count_of(t.dims)));
  for (size_t i = 0; i < v.size(); ++i) {
    const uint8_t* p = t.buffer->data();
    switch (t.type) {
      case ElementType::Int64: std::memcpy(&v[i], p + i * 8, 8); break;
      case ElementType::Int32: { int32_t x; std::memcpy(&x, p + i * 4, 4); v[i] = x; break; }
      case ElementType::Int16: { int16_t x; std::memcpy(&x, p + i * 2, 2); v[i] = x; break; }
      default: return std::nullopt;
    }
  }
  return v;
}

// What the ONNX rules, read naively, say a run must give.
struct Expected {
  enum Kind { Ok, Shape, Attribute, Index, IndexOrOutOfMemory, OkOrShape } kind = Ok;
  std::vector<int64_t> dims;
  int64_t bad_position = -1;
  size_t axis = 0;
};

Expected expect_gather(const Attributes& attrs, const Tensor& data, const Tensor& idx) {
  Expected e;
  const int64_t r = static_cast<int64_t>(data.dims.size());
  if (r == 0) return e.kind = Expected::Shape, e;
  const int64_t a = attrs.get_int("axis", 0);
  if (a < -r || a > r - 1) return e.kind = Expected::Attribute, e;
  e.axis = static_cast<size_t>(a < 0 ? a + r : a);
  e.dims.assign(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(e.axis));
  e.dims.insert(e.dims.end(), idx.dims.begin(), idx.dims.end());
  e.dims.insert(e.dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(e.axis) + 1, data.dims.end());
  int64_t out_count = 0;
  if (!zero_first_product(e.dims, &out_count)) return e.kind = Expected::Shape, e;
  const int64_t axis_dim = data.dims[e.axis];
  const int64_t n = count_of(idx.dims);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = index_at(idx, i);
    if (v < -axis_dim || v >= axis_dim) {
      // The output's byte size may overflow too (an empty data tensor with a huge dim): either
      // error is right then.
      int64_t out_bytes = 0;
      e.kind = data.is_string() || storage_bytes(data.type, out_count, &out_bytes) ? Expected::Index
                                                                                  : Expected::IndexOrOutOfMemory;
      e.bad_position = i;
      return e;
    }
  }
  return e;
}

Expected expect_flatten(const OpVersion& v, const Attributes& attrs, const Tensor& data) {
  Expected e;
  const int64_t r = static_cast<int64_t>(data.dims.size());
  const int64_t a = attrs.get_int("axis", 1);
  if (a < (v.since < 11 ? 0 : -r) || a > r) return e.kind = Expected::Attribute, e;
  const size_t axis = static_cast<size_t>(a < 0 ? a + r : a);
  int64_t outer = 0, inner = 0;
  if (!zero_first_product(std::vector<int64_t>(data.dims.begin(), data.dims.begin() + static_cast<std::ptrdiff_t>(axis)), &outer) ||
      !zero_first_product(std::vector<int64_t>(data.dims.begin() + static_cast<std::ptrdiff_t>(axis), data.dims.end()), &inner))
    return e.kind = Expected::Shape, e;
  e.dims = {outer, inner};
  return e;
}

Expected expect_reshape(const std::vector<int64_t>& data_dims, const std::vector<int64_t>& shape, bool allowzero) {
  Expected e;
  int minus = -1, minus_count = 0;
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < -1) return e.kind = Expected::Shape, e;
    if (shape[i] == -1) minus = static_cast<int>(i), ++minus_count;
    has_zero |= shape[i] == 0;
  }
  if (minus_count > 1 || (allowzero && has_zero && minus >= 0)) return e.kind = Expected::Shape, e;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowzero) {
      if (i >= data_dims.size()) return e.kind = Expected::Shape, e;
      e.dims.push_back(data_dims[i]);
    } else {
      e.dims.push_back(shape[i]);
    }
  }
  const int64_t in_count = count_of(data_dims);
  if (minus >= 0) {
    std::vector<int64_t> others = e.dims;
    others.erase(others.begin() + minus);
    int64_t p = 0;
    if (!zero_first_product(others, &p)) return e.kind = in_count == 0 ? Expected::OkOrShape : Expected::Shape, e;
    if (p == 0 || in_count % p != 0) return e.kind = Expected::Shape, e;
    e.dims[static_cast<size_t>(minus)] = in_count / p;
  } else {
    int64_t p = 0;
    if (!zero_first_product(e.dims, &p) || p != in_count) return e.kind = Expected::Shape, e;
  }
  return e;
}

void check_gather_output(const Tensor& data, const Tensor& idx, size_t axis, const Tensor& out, const std::string& ctx) {
  if (count_of(out.dims) == 0) return;  // then no product below overflows: all dims are nonzero
  const int64_t n = count_of(idx.dims);
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= data.dims[i];
  for (size_t i = axis + 1; i < data.dims.size(); ++i) inner *= data.dims[i];
  const int64_t axis_dim = data.dims[axis];
  FUZZ_CHECK(out.buffer != data.buffer, ctx);
  const int bits = type_bits(data.type);
  FUZZ_CHECK(data.is_string() || bits % 8 == 0, ctx);
  const size_t w = static_cast<size_t>(bits / 8);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < n; ++i) {
      int64_t k = index_at(idx, i);
      if (k < 0) k += axis_dim;
      for (int64_t j = 0; j < inner; ++j) {
        const int64_t src = (o * axis_dim + k) * inner + j, dst = (o * n + i) * inner + j;
        if (data.is_string())
          FUZZ_CHECK(out.buffer->strings()[dst] == data.buffer->strings()[src], ctx + " at " + std::to_string(dst));
        else
          FUZZ_CHECK(std::memcmp(out.buffer->data() + dst * static_cast<int64_t>(w),
                                 data.buffer->data() + src * static_cast<int64_t>(w), w) == 0,
                     ctx + " at " + std::to_string(dst));
      }
    }
}

std::string describe(const std::string& op, int opset, const Attributes& attrs, const std::vector<const Tensor*>& inputs) {
  std::string s = op + "@" + std::to_string(opset) + " attrs:";
  for (const Attribute& a : attrs.list()) {
    s += " " + a.name + ":" + attr_kind_name(a.kind);
    if (!a.ints.empty()) s += fuzz::dims_string(a.ints);
  }
  s += " inputs:";
  for (const Tensor* t : inputs) {
    if (!t) {
      s += " null";
      continue;
    }
    s += " " + std::string(onnx_name(t->type)) + fuzz::dims_string(t->dims);
    if ((t->type == ElementType::Int64 || t->type == ElementType::Int32) && count_of(t->dims) <= 16) {
      std::vector<int64_t> v;
      for (int64_t i = 0; i < count_of(t->dims); ++i) v.push_back(index_at(*t, i));
      s += "=" + fuzz::dims_string(v);
    }
  }
  return s;
}

// Same type, dims and elements (a view: the same buffer).
bool same_result(const Tensor& a, const Tensor& b) {
  if (a.type != b.type || a.dims != b.dims || !a.buffer || !b.buffer) return false;
  if (a.buffer == b.buffer) return true;
  const int64_t n = count_of(a.dims);
  if (a.is_string()) return std::equal(a.buffer->strings(), a.buffer->strings() + n, b.buffer->strings());
  int64_t bytes = 0;
  FUZZ_CHECK(storage_bytes(a.type, n, &bytes), fuzz::dims_string(a.dims));
  return bytes == 0 || std::memcmp(a.buffer->data(), b.buffer->data(), static_cast<size_t>(bytes)) == 0;
}

// The hot path of the bindings: a PreparedOp keeps its scratch vectors and the output shape it
// inferred from run to run. It agrees with run_node on these inputs, and still does after a run
// with other inputs (another arity, order or a missing input) in between, and on inputs of the
// same types and dims whose last one holds other values (other indices; other shape values, which
// change Reshape's output shape), right after a run that kept the shape of these.
void check_prepared(FuzzedDataProvider& in, const std::string& op, int opset, const Attributes& attrs,
                    const std::vector<const Tensor*>& inputs, const std::vector<Tensor>& owned, const Status& s,
                    const std::vector<Tensor>& outputs, const std::string& ctx) {
  PreparedOp p;
  const Status ps = PreparedOp::prepare(op, opset, attrs, &p);
  if (!ps.is_ok()) {
    FUZZ_CHECK(ps.code() == s.code() && ps.message() == s.message(), "prepare: " + ps.message() + ": " + ctx);
    return;
  }
  for (int round = 0; round < 2; ++round) {
    Tensor out;
    const Status rs = p.run(inputs.data(), inputs.size(), &out);
    FUZZ_CHECK(rs.code() == s.code() && rs.message() == s.message(),
               "prepared run " + std::to_string(round) + ": " + rs.message() + ": " + ctx);
    if (rs.is_ok()) FUZZ_CHECK(same_result(out, outputs[0]), "prepared run " + std::to_string(round) + ": " + ctx);
    if (round == 1) break;
    std::vector<const Tensor*> other;
    switch (in.ConsumeIntegralInRange<int>(0, 4)) {
      case 0: other.assign(inputs.rbegin(), inputs.rend()); break;
      case 1: other.assign(inputs.begin(), inputs.end() - (inputs.empty() ? 0 : 1)); break;
      case 2: other = inputs; other.push_back(&owned[0]); break;
      case 3: other = inputs; if (!other.empty()) other.back() = nullptr; break;
      default: for (const Tensor& t : owned) other.push_back(&t); break;
    }
    Tensor other_out;
    const Status os = p.run(other.data(), other.size(), &other_out);
    fuzz::check_status_shape(os);
    if (os.is_ok()) {
      FUZZ_CHECK(other.size() > 0 && other_out.type != ElementType::Undefined && other_out.buffer, ctx);
      // (of the type inference gives those inputs, which is not always input 0's: CastLike's output
      // has input 1's type, DequantizeLinear's and GatherBlockQuantized's their scales')
      if (std::find(other.begin(), other.end(), nullptr) == other.end()) {
        std::vector<ValueInfo> infos;
        for (const Tensor* t : other) infos.push_back(ValueInfo::of_dims(t->type, t->dims));
        std::vector<ValueInfo> inferred;
        if (infer_node(op, opset, attrs, infos, &inferred).is_ok())
          FUZZ_CHECK(inferred.size() == 1 && inferred[0].type == other_out.type, "prepared run, other inputs: output type: " + ctx);
      }
    }
  }
  if (inputs.size() != 2 || !inputs[0] || !inputs[1]) return;
  const Tensor& data = *inputs[0];
  const Tensor& last = *inputs[1];
  Tensor changed = make(last.type, last.dims);
  std::vector<int64_t> values;
  const int64_t n = count_of(last.dims);
  if (op == "Reshape") {
    values = fuzz_shape_values(in, data.dims, static_cast<size_t>(n), false);
  } else if (op == "Gather") {
    const int64_t rank = static_cast<int64_t>(data.dims.size()), a = attrs.get_int("axis", 0);
    const int64_t axis_dim = rank == 0 ? 1 : data.dims[static_cast<size_t>(a >= -rank && a < rank ? (a < 0 ? a + rank : a) : 0)];
    for (int64_t k = 0; k < n; ++k) values.push_back(fuzz_index(in, axis_dim));
  }
  fill(in, &changed, &values);
  const std::vector<const Tensor*> next = {&data, &changed};
  Tensor again, out;
  (void)p.run(inputs.data(), inputs.size(), &again);   // (checked above: keeps these inputs' shape)
  std::vector<Tensor> expected;
  const Status ns = p.run(next.data(), next.size(), &out);
  const Status es = run_node(op, opset, attrs, next, &expected);
  const std::string nctx = "same dims, other values: " + describe(op, opset, attrs, next) + " -> " + ns.message();
  FUZZ_CHECK(ns.code() == es.code() && ns.message() == es.message(), nctx + " (run_node: " + es.message() + ")");
  if (ns.is_ok()) FUZZ_CHECK(same_result(out, expected[0]), nctx);
}

// Allocations above this fail (returning null, as aligned_alloc does when wasm32 memory is
// exhausted) rather than being reported by ASan or libFuzzer: see __asan_default_options below.
constexpr int64_t kMaxAllocationBytes = int64_t{64} << 20;

// make_tensor with raw dims (huge, negative, overflowing), any type id and either zeroing: the
// Status that check_dims predicts, ERR_OUT_OF_MEMORY only for an allocation above the limit, and
// on success a tensor of exactly those dims and that size (zeroed when asked).
void check_make_tensor(FuzzedDataProvider& in) {
  const ElementType type = fuzz::element_type(in);
  std::vector<int64_t> dims(in.ConsumeIntegralInRange<size_t>(0, 5));
  for (int64_t& d : dims) d = in.ConsumeBool() ? interesting_int64(in) : in.ConsumeIntegralInRange<int64_t>(0, 9);
  const bool zeroed = in.ConsumeBool();
  Tensor t;
  const Status s = make_tensor(type, dims, &t, zeroed);
  const std::string ctx = std::to_string(static_cast<int>(type)) + fuzz::dims_string(dims) + ": " + s.message();
  fuzz::check_status_shape(s);
  FUZZ_CHECK(s.is_ok() == static_cast<bool>(t.buffer), ctx);
  if (!fuzz::is_valid_type(type)) {
    FUZZ_CHECK(s.code() == StatusCode::Type, ctx);
    return;
  }
  int64_t count = 0, bytes = 0;
  const Status c = check_dims(type, dims, &count, &bytes);
  if (!c.is_ok()) {
    FUZZ_CHECK(s.code() == c.code() && s.message() == c.message(), ctx);
    return;
  }
  const bool strings = type == ElementType::String;
  int64_t asked = strings ? 0 : bytes;
  if (strings && __builtin_mul_overflow(count, static_cast<int64_t>(sizeof(std::string)), &asked)) asked = fuzz::kI64Max;
  if (!s.is_ok()) {
    FUZZ_CHECK(s.code() == StatusCode::OutOfMemory && asked > kMaxAllocationBytes - 16, ctx);
    return;
  }
  FUZZ_CHECK(t.type == type && t.dims == dims && t.element_count() == count, ctx);
  if (strings) {
    FUZZ_CHECK(t.buffer->string_count() == count, ctx);
    for (int64_t i = 0; i < std::min<int64_t>(count, 64); ++i) FUZZ_CHECK(t.buffer->strings()[i].empty(), ctx);
    return;
  }
  FUZZ_CHECK(t.buffer->bytes() == bytes && t.buffer->data() != nullptr, ctx);
  FUZZ_CHECK(reinterpret_cast<uintptr_t>(t.buffer->data()) % 16 == 0, ctx);
  if (zeroed)
    for (int64_t i = 0; i < std::min<int64_t>(bytes, 4096); ++i) FUZZ_CHECK(t.buffer->data()[i] == 0, ctx);
}

// With FUZZ_STATS=1 in the environment: how often each op ended in each status (to see that the
// inputs reach the kernels and not only the argument checks).
struct Stats {
  std::map<std::string, long> counts;
  bool on = std::getenv("FUZZ_STATS") != nullptr;
  ~Stats() {
    if (!on) return;
    for (const auto& [k, n] : counts) std::fprintf(stderr, "FUZZ_STATS %-40s %ld\n", k.c_str(), n);
  }
};
Stats stats;

// Runs the node on the first `arity` of `owned` (now and then one of them null) and checks the
// outcome: inputs unchanged, the output's storage, the naive rules of Gather, Flatten and
// Reshape, a PreparedOp and infer_node agreeing with run_node.
int check_run(FuzzedDataProvider& in, const std::string& op, int opset, const Attributes& attrs,
              const std::vector<Tensor>& owned, int arity, const OpVersion* version, bool resolved) {
  std::vector<const Tensor*> inputs;
  for (int i = 0; i < arity; ++i) inputs.push_back(&owned[static_cast<size_t>(i)]);
  if (arity == 0 && !owned.empty() && in.ConsumeBool()) inputs.push_back(&owned[0]);
  bool has_null = false;
  if (!inputs.empty() && fuzz::one_in(in, 32)) {
    inputs[in.ConsumeIntegralInRange<size_t>(0, inputs.size() - 1)] = nullptr;
    has_null = true;
  }

  std::vector<Snapshot> before;
  for (const Tensor* t : inputs)
    if (t) before.emplace_back(*t);
  std::vector<Tensor> outputs;
  const Status s = run_node(op, opset, attrs, inputs, &outputs);
  const std::string ctx = describe(op, opset, attrs, inputs) + " -> " + status_code_string(s.code()) + " " + s.message();
  // Gather, Flatten and Reshape: their own rules below; any other op the fuzzer names (its string
  // compares find the registry's names) the general checks, whose output type may be another.
  const bool classic = op == "Gather" || op == "Flatten" || op == "Reshape";

  if (stats.on) {
    const bool known = op == "Gather" || op == "Flatten" || op == "Reshape";
    ++stats.counts[(known ? op : std::string("(other op)")) + " " + status_code_string(s.code())];
  }
  fuzz::check_status_shape(s);
  check_prepared(in, op, opset, attrs, inputs, owned, s, outputs, ctx);
  size_t k = 0;
  for (const Tensor* t : inputs)
    if (t) FUZZ_CHECK(before[k++].same_as(*t), "input changed: " + ctx);
  if (!s.is_ok()) {
    FUZZ_CHECK(outputs.empty(), ctx);
  } else {
    FUZZ_CHECK(outputs.size() == 1, ctx);
    const Tensor& out = outputs[0];
    FUZZ_CHECK((!classic || out.type == inputs[0]->type) && out.buffer, ctx);
    int64_t out_count = 0;
    FUZZ_CHECK(zero_first_product(out.dims, &out_count), ctx);
    if (out.is_string()) {
      FUZZ_CHECK(out.buffer->string_count() >= out_count, ctx);
    } else {
      int64_t need = 0;
      FUZZ_CHECK(storage_bytes(out.type, out_count, &need) && out.buffer->bytes() >= need, ctx);
    }
  }

  // The naive rules of Gather, Flatten and Reshape, for well-formed nodes (the registry's own
  // checks passed).
  std::vector<ElementType> types;
  for (const Tensor* t : inputs) types.push_back(t ? t->type : ElementType::Undefined);
  const bool well_formed = resolved && !has_null && check_node(*version, attrs, types).is_ok();
  if (well_formed && classic) {
    Expected e;
    if (op == "Gather") {
      e = expect_gather(attrs, *inputs[0], *inputs[1]);
    } else if (op == "Flatten") {
      e = expect_flatten(*version, attrs, *inputs[0]);
    } else if (version->since < 5) {
      e = expect_reshape(inputs[0]->dims, attrs.find("shape")->ints, false);
    } else if (inputs[1]->dims.size() != 1) {
      e.kind = Expected::Shape;
    } else {
      e = expect_reshape(inputs[0]->dims, *known_values(*inputs[1]), attrs.get_int("allowzero", 0) != 0);  // well-formed: int64
    }
    switch (e.kind) {
      case Expected::Ok:
        FUZZ_CHECK(s.is_ok(), "expected success with dims " + fuzz::dims_string(e.dims) + ": " + ctx);
        FUZZ_CHECK(outputs[0].dims == e.dims, "expected dims " + fuzz::dims_string(e.dims) + ", got " +
                                                  fuzz::dims_string(outputs[0].dims) + ": " + ctx);
        if (op == "Gather") {
          check_gather_output(*inputs[0], *inputs[1], e.axis, outputs[0], ctx);
        } else {
          FUZZ_CHECK(outputs[0].buffer == inputs[0]->buffer, "a view must share the input's buffer: " + ctx);
          FUZZ_CHECK(count_of(outputs[0].dims) == count_of(inputs[0]->dims), ctx);
        }
        break;
      case Expected::OkOrShape:
        FUZZ_CHECK(s.is_ok() || s.code() == StatusCode::Shape, ctx);
        break;
      case Expected::Shape:
        FUZZ_CHECK(s.code() == StatusCode::Shape, "expected ERR_SHAPE: " + ctx);
        break;
      case Expected::Attribute:
        FUZZ_CHECK(s.code() == StatusCode::Attribute, "expected ERR_ATTRIBUTE: " + ctx);
        break;
      case Expected::IndexOrOutOfMemory:
        FUZZ_CHECK(s.code() == StatusCode::Index || s.code() == StatusCode::OutOfMemory, "expected ERR_INDEX or ERR_OUT_OF_MEMORY: " + ctx);
        if (s.code() == StatusCode::OutOfMemory) break;
        // fall through
      case Expected::Index:
        FUZZ_CHECK(s.code() == StatusCode::Index, "expected ERR_INDEX: " + ctx);
        FUZZ_CHECK(s.message().find("at position " + std::to_string(e.bad_position) + " ") != std::string::npos,
                   "expected position " + std::to_string(e.bad_position) + ": " + ctx);
        break;
    }
  }

  // infer_node on the same concrete shapes agrees with run_node.
  if (!has_null) {
    std::vector<ValueInfo> infos;
    bool withheld = false;  // an input inference reads by value got none (Range's float ones)
    for (size_t i = 0; i < inputs.size(); ++i) {
      ValueInfo info = ValueInfo::of_dims(inputs[i]->type, inputs[i]->dims);
      if (well_formed && i < version->inputs.size() && version->inputs[i].value_needed) {
        info.int_values = known_values(*inputs[i]);
        withheld = withheld || !info.int_values;
      }
      infos.push_back(std::move(info));
    }
    std::vector<ValueInfo> inferred;
    const Status is = infer_node(op, opset, attrs, infos, &inferred);
    // (errors that depend on values, which inference does not see: an index out of range, memory,
    // and an invalid value of the ops that refuse some: an integer Div by zero, a string that
    // Cast/CastLike cannot parse, a float8 zero point of DequantizeLinear that is not 0)
    const bool value_error = s.code() == StatusCode::InvalidArgument && (op == "Div" || op == "Cast" || op == "CastLike" || op == "DequantizeLinear");
    if (s.code() == StatusCode::Shape && withheld) {
      // (a shape error of the run may come from values inference was not given, such as Range's
      // float delta of 0; inference then succeeds, or gives the same error)
      FUZZ_CHECK(is.is_ok() || is.code() == StatusCode::Shape, "infer gives " + std::string(status_code_string(is.code())) + ": " + ctx);
    } else if (s.is_ok() || s.code() == StatusCode::Index || s.code() == StatusCode::OutOfMemory || value_error) {
      FUZZ_CHECK(is.is_ok(), "run " + std::string(status_code_string(s.code())) + " but infer fails: " + is.message() + ": " + ctx);
      FUZZ_CHECK(inferred.size() == 1 && (s.is_ok() ? inferred[0].type == outputs[0].type : !classic || inferred[0].type == inputs[0]->type) &&
                     (!classic || inferred[0].fully_known()), ctx);
      if (s.is_ok() && inferred[0].fully_known()) {
        std::vector<int64_t> dims;
        for (const Dim& d : inferred[0].dims) dims.push_back(d.value);
        FUZZ_CHECK(dims == outputs[0].dims, "infer gives " + fuzz::dims_string(dims) + ": " + ctx);
      }
    } else {
      FUZZ_CHECK(!is.is_ok() && is.code() == s.code(), "infer gives " + std::string(status_code_string(is.code())) + ": " + ctx);
    }
  }

  // Last (so that the bytes read above mean what they meant before this was added).
  if (fuzz::one_in(in, 4)) check_make_tensor(in);
  return 0;
}

// A type of `set` (any type when the set is empty or now and then).
ElementType type_of(FuzzedDataProvider& in, TypeSet set) {
  std::vector<ElementType> members;
  for (int id = 1; id <= kMaxElementTypeId; ++id)
    if (set.contains(static_cast<ElementType>(id))) members.push_back(static_cast<ElementType>(id));
  if (members.empty() || fuzz::one_in(in, 8)) return fuzz_tensor_type(in, Role::Data);
  return members[in.ConsumeIntegralInRange<size_t>(0, members.size() - 1)];
}

// The inputs of a registry op version: as many as it has (a variadic last one repeated up to 3
// more times), now and then any number; inputs whose values inference reads are 1-D with small
// values (the huge ones now and then), the others data of small dims.
void registry_inputs(FuzzedDataProvider& in, const OpVersion& v, std::vector<Tensor>* owned) {
  size_t n = v.inputs.size();
  if (n && v.inputs.back().variadic) n += in.ConsumeIntegralInRange<size_t>(0, 3);
  if (fuzz::one_in(in, 16)) n = in.ConsumeIntegralInRange<size_t>(0, 4);
  std::map<std::string, ElementType> by_letter;
  for (size_t i = 0; i < n; ++i) {
    const InputSpec* spec = i < v.inputs.size() ? &v.inputs[i] : v.inputs.empty() || !v.inputs.back().variadic ? nullptr : &v.inputs.back();
    ElementType t = fuzz_tensor_type(in, Role::Data);
    if (spec) {
      const auto same = by_letter.find(spec->constraint);
      t = same != by_letter.end() && !fuzz::one_in(in, 8) ? same->second : type_of(in, spec->types);
      by_letter.emplace(spec->constraint, t);
    }
    if (spec && spec->value_needed) {
      std::vector<int64_t> values;
      const size_t count = in.ConsumeIntegralInRange<size_t>(0, 4);
      for (size_t k = 0; k < count; ++k) values.push_back(fuzz::one_in(in, 16) ? interesting_int64(in) : in.ConsumeIntegralInRange<int64_t>(-3, 6));
      std::vector<int64_t> dims = {static_cast<int64_t>(values.size())};
      if (fuzz::one_in(in, 8)) dims = fuzz_dims(in, Role::Shape, t);
      owned->push_back(make(t, dims));
      fill(in, &owned->back(), &values);
    } else {
      owned->push_back(make(t, fuzz_dims(in, Role::Data, t)));
      fill(in, &owned->back(), nullptr);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
  FuzzedDataProvider in(bytes, size);
  const OpVersion* picked = nullptr;
  if (in.ConsumeBool()) {
    // (the registry's default-domain versions, listed once)
    static const std::vector<const OpVersion*> plain = [] {
      std::vector<const OpVersion*> list;
      for (const OpVersion& v : op_versions())
        if (!*v.domain) list.push_back(&v);
      return list;
    }();
    picked = plain[in.ConsumeIntegralInRange<size_t>(0, plain.size() - 1)];
  }
  const std::string op = picked ? picked->op : fuzz::op_name(in);
  const int opset = picked ? in.ConsumeIntegralInRange<int>(picked->since, std::min(picked->until, kMaxOpset)) : fuzz::opset(in);
  const OpVersion* version = nullptr;
  const bool resolved = resolve_op(op, opset, &version).is_ok();
  if (picked) {
    std::vector<Tensor> owned;
    owned.reserve(8);
    registry_inputs(in, *picked, &owned);
    const int64_t rank = owned.empty() ? 1 : static_cast<int64_t>(owned[0].dims.size());
    return check_run(in, op, opset, fuzz::attributes(in, rank), owned, static_cast<int>(owned.size()), version, resolved);
  }

  // Data first, then attributes (axis values near the data's rank), then indices or shape.
  const ElementType data_type = fuzz_tensor_type(in, Role::Data);
  std::vector<int64_t> data_dims = fuzz_dims(in, Role::Data, data_type);
  std::vector<Tensor> owned;
  owned.reserve(4);
  owned.push_back(make(data_type, data_dims));
  fill(in, &owned[0], nullptr);
  const int64_t rank = static_cast<int64_t>(data_dims.size());
  Attributes attrs = fuzz::attributes(in, rank);
  const bool shape_attr = op == "Reshape" && resolved && version->since < 5;
  if (shape_attr && !fuzz::one_in(in, 4))
    attrs.add(Attribute{"shape", AttrKind::Ints, fuzz_shape_values(in, data_dims, 0, true), {}, {}, {}});
  if (op == "Reshape" && fuzz::one_in(in, 4))
    attrs.add(Attribute{"allowzero", AttrKind::Int, {in.ConsumeBool() ? 1 : interesting_int64(in)}, {}, {}, {}});

  int arity = op == "Flatten" || shape_attr ? 1 : 2;
  if (fuzz::one_in(in, 16)) arity = in.ConsumeIntegralInRange<int>(0, 3);
  for (int i = 1; i < arity; ++i) {
    if (op == "Gather" && i == 1) {
      const ElementType t = fuzz_tensor_type(in, Role::Indices);
      const std::vector<int64_t> dims = fuzz_dims(in, Role::Indices, t);
      const int64_t a = attrs.get_int("axis", 0);
      const int64_t axis_dim = rank == 0 ? 1 : data_dims[static_cast<size_t>(a >= -rank && a < rank ? (a < 0 ? a + rank : a) : 0)];
      std::vector<int64_t> values;
      const int64_t n = count_of(dims);
      for (int64_t k = 0; k < n; ++k) values.push_back(fuzz_index(in, axis_dim));
      owned.push_back(make(t, dims));
      fill(in, &owned.back(), &values);
    } else if (op == "Reshape" && i == 1) {
      const ElementType t = fuzz_tensor_type(in, Role::Shape);
      std::vector<int64_t> values = fuzz_shape_values(in, data_dims, 0, true);
      std::vector<int64_t> dims = {static_cast<int64_t>(values.size())};
      if (fuzz::one_in(in, 8)) dims = fuzz_dims(in, Role::Shape, t);
      owned.push_back(make(t, dims));
      fill(in, &owned.back(), &values);
    } else {
      const ElementType t = fuzz_tensor_type(in, Role::Data);
      owned.push_back(make(t, fuzz_dims(in, Role::Data, t)));
      fill(in, &owned.back(), nullptr);
    }
  }
  return check_run(in, op, opset, attrs, owned, arity, version, resolved);
}

// An allocation above kMaxAllocationBytes returns null instead of being reported as an error
// (ASan) or an out-of-memory (libFuzzer's -malloc_limit_mb hook sees only allocations that
// succeed), so that make_tensor's out-of-memory path runs as it does in wasm.
extern "C" const char* __asan_default_options() { return "allocator_may_return_null=1:max_allocation_size_mb=64"; }
