// Add, Sub, Mul and Div (versions 1, 6, 7, 13, 14), checked against facts and an oracle written
// here from ONNX's definitions (onnx/defs/math/defs.cc and old.cc), not read from the registry:
// - Versions and types: the version each opset 1..28 resolves to; every ONNX type accepted or
//   refused at each version (1: float16, float, double; 6 and 7: + int32, int64, uint32, uint64;
//   13: + bfloat16; 14: + int8, int16, uint8, uint16).
// - Runs of every version and type over broadcast shapes (numpy rules from 7; broadcast/axis at
//   1 and 6; 3,000 random broadcast shapes at 14), each output element against the oracle: floats computed in double and rounded once
//   to the type (one rounding of the exact result, as double has more than twice the bits plus
//   2), integers in 64 bits and wrapped to their width, Div truncated toward zero.
// - Integer Div by zero and INT_MIN / -1 (int32, int64) refused with the element named; int8
//   and int16 wrap as onnxruntime does; float Div by zero is IEEE.
// - Inference: symbolic broadcasting, the legacy placement rules, and the values of small int64
//   tensors (Shape -> Gather -> Mul -> Unsqueeze -> Concat -> Reshape).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/kernels/float16.h"
#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;
using onnxwasm_test::Ints;
using onnxwasm_test::parse_shape;
using onnxwasm_test::below;

namespace {

const char* const kOps[] = {"Add", "Sub", "Mul", "Div"};

// ---- The ONNX facts ----
const std::vector<E> kV1 = {E::Float16, E::Float, E::Double};
const std::vector<E> kV6 = {E::Float16, E::Float, E::Double, E::Int32, E::Int64, E::Uint32, E::Uint64};
const std::vector<E> kV13 = {E::Float16, E::Float, E::Double, E::Int32, E::Int64, E::Uint32, E::Uint64, E::Bfloat16};
const std::vector<E> kV14 = {E::Float16, E::Float, E::Double, E::Int32, E::Int64, E::Uint32, E::Uint64, E::Bfloat16,
                             E::Int8, E::Int16, E::Uint8, E::Uint16};
struct VersionFacts {
  int since, until;
  const std::vector<E>* types;
};
const VersionFacts kVersions[] = {{1, 5, &kV1}, {6, 6, &kV6}, {7, 12, &kV6}, {13, 13, &kV13}, {14, 28, &kV14}};

bool has(const std::vector<E>& ts, E t) {
  for (E x : ts)
    if (x == t) return true;
  return false;
}

int width(E t) { return element_bits(t) / 8; }
bool is_signed_int(E t) { return t == E::Int8 || t == E::Int16 || t == E::Int32 || t == E::Int64; }
bool is_float(E t) { return t == E::Float || t == E::Double || t == E::Float16 || t == E::Bfloat16; }

// ---- The oracle ----
double to_double(E t, uint64_t bits) {
  switch (t) {
    case E::Float: return bits_float(static_cast<uint32_t>(bits));
    case E::Float16: return half_to_float(static_cast<uint16_t>(bits));
    case E::Bfloat16: return bfloat16_to_float(static_cast<uint16_t>(bits));
    default: {
      double d = 0;
      std::memcpy(&d, &bits, 8);
      return d;
    }
  }
}

uint64_t from_double(E t, double d) {
  switch (t) {
    case E::Float: return float_bits(static_cast<float>(d));
    case E::Float16: return float_to_half(static_cast<float>(d));
    case E::Bfloat16: return float_to_bfloat16(static_cast<float>(d));
    default: {
      uint64_t u = 0;
      std::memcpy(&u, &d, 8);
      return u;
    }
  }
}

int64_t sign_extend(uint64_t bits, int w) {
  if (w == 8) return static_cast<int64_t>(bits);
  return static_cast<int64_t>(bits << (64 - 8 * w)) >> (64 - 8 * w);   // an arithmetic shift (two's complement)
}

uint64_t mask(uint64_t x, int w) { return w == 8 ? x : x & ((uint64_t{1} << (8 * w)) - 1); }

uint64_t oracle(E t, int op, uint64_t x, uint64_t y) {
  if (is_float(t)) {
    const double a = to_double(t, x), b = to_double(t, y);
    const double r = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : a / b;
    return from_double(t, r);
  }
  const int w = width(t);
  if (op < 3) {
    const uint64_t r = op == 0 ? x + y : op == 1 ? x - y : x * y;   // mod 2^64, then mod 2^width
    return mask(r, w);
  }
  if (is_signed_int(t)) return mask(static_cast<uint64_t>(sign_extend(x, w) / sign_extend(y, w)), w);
  return mask(x / y, w);
}

bool same(E t, uint64_t got, uint64_t want) {
  if (got == want) return true;
  return is_float(t) && std::isnan(to_double(t, got)) && std::isnan(to_double(t, want));
}

// Random element bits: floats from values and from any bit pattern (specials included), integers
// over their whole range; Div's divisors are never 0 (nor -1 under INT_MIN at 32 and 64 bits).
uint64_t random_bits(std::mt19937_64& rng, E t) {
  const uint64_t r = rng();
  if (t == E::Float) return r % 4 == 0 ? static_cast<uint32_t>(r >> 8) : float_bits(static_cast<float>(static_cast<int>(r >> 40) % 20001 - 10000) / 64.0f);
  if (t == E::Double) return from_double(t, static_cast<double>(static_cast<int64_t>(r >> 20) % 2000001 - 1000000) / 1024.0);
  return mask(r, width(t));
}

Tensor tensor_of(E t, const std::vector<int64_t>& dims, const std::vector<uint64_t>& bits) {
  Tensor x;
  REQUIRE(make_tensor(t, dims, &x).is_ok());
  REQUIRE(static_cast<size_t>(x.element_count()) == bits.size());
  const int w = width(t);
  for (size_t i = 0; i < bits.size(); ++i) std::memcpy(x.buffer->data() + i * w, &bits[i], static_cast<size_t>(w));   // little-endian
  return x;
}

uint64_t element(const Tensor& x, size_t i) {
  uint64_t u = 0;
  std::memcpy(&u, x.buffer->data() + i * width(x.type), static_cast<size_t>(width(x.type)));
  return u;
}

int64_t count_of(const std::vector<int64_t>& d) {
  int64_t n = 1;
  for (int64_t x : d) n *= x;
  return n;
}

// numpy broadcasting, written here: the output's dims and, for output element i, the elements of
// a and b it reads.
std::vector<int64_t> broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r);
  for (size_t d = 0; d < r; ++d) {
    const int64_t x = d + a.size() >= r ? a[d + a.size() - r] : 1, y = d + b.size() >= r ? b[d + b.size() - r] : 1;
    REQUIRE((x == y || x == 1 || y == 1));
    out[d] = x == 1 ? y : x;
  }
  return out;
}

size_t source_index(const std::vector<int64_t>& out, const std::vector<int64_t>& in, int64_t i) {
  int64_t idx = 0, stride = 1;
  for (size_t k = 0; k < in.size(); ++k) {
    const size_t d_out = out.size() - 1 - k, d_in = in.size() - 1 - k;
    int64_t rest = i;
    for (size_t j = out.size() - 1; j > d_out; --j) rest /= out[j];
    const int64_t coord = rest % out[d_out];
    if (in[d_in] != 1) idx += coord * stride;
    stride *= in[d_in];
  }
  return static_cast<size_t>(idx);
}

struct Case {
  std::vector<int64_t> a, b;
};

// Runs op at opset on random inputs of these shapes; b_as_read: B's dims as broadcasting reads
// them (the legacy versions place them), empty for numpy's rules. Returns how many elements it checked.
size_t check_run(const std::string& op, int opset, E t, const std::vector<int64_t>& a_dims, const std::vector<int64_t>& b_dims,
                 const Attributes& attrs, const std::vector<int64_t>* b_as_read, std::mt19937_64& rng) {
  const int opi = op == "Add" ? 0 : op == "Sub" ? 1 : op == "Mul" ? 2 : 3;
  std::vector<uint64_t> av(static_cast<size_t>(count_of(a_dims))), bv(static_cast<size_t>(count_of(b_dims)));
  for (uint64_t& x : av) x = random_bits(rng, t);
  for (uint64_t& y : bv) {
    y = random_bits(rng, t);
    if (opi == 3 && !is_float(t)) {
      if (y == 0) y = 1;
      if (is_signed_int(t) && width(t) >= 4 && sign_extend(y, width(t)) == -1) y = 3;
    }
  }
  const Tensor a = tensor_of(t, a_dims, av), b = tensor_of(t, b_dims, bv);
  std::vector<Tensor> out;
  const Status s = run_node(op, opset, attrs, {&a, &b}, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  const std::vector<int64_t>& bd = b_as_read ? *b_as_read : b_dims;
  const std::vector<int64_t> want_dims = broadcast(a_dims, bd);
  REQUIRE(out[0].type == t);
  REQUIRE(out[0].dims == want_dims);
  const int64_t n = count_of(want_dims);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t x = av[source_index(want_dims, a_dims, i)], y = bv[source_index(want_dims, bd, i)];
    const uint64_t want = oracle(t, opi, x, y), got = element(out[0], static_cast<size_t>(i));
    INFO("element " << i << ": " << x << " op " << y << " gave " << got << ", want " << want);
    REQUIRE(same(t, got, want));
  }
  return static_cast<size_t>(n);
}

std::string label_at(const std::string& op, int opset) {
  const OpVersion* v = nullptr;
  REQUIRE(resolve_op(op, opset, &v).is_ok());
  return v->label();
}

}  // namespace

TEST_CASE("Add, Sub, Mul, Div: the version at every opset and the types each version takes") {
  int accepted = 0, refused = 0;
  for (const char* op : kOps) {
    for (const VersionFacts& f : kVersions) {
      for (int opset = f.since; opset <= f.until; ++opset) {
        REQUIRE(label_at(op, opset) == std::string(op) + "-" + std::to_string(f.since));
        for (int id = 0; id <= kMaxElementTypeId; ++id) {
          const E t = static_cast<E>(id);
          INFO(op << " at opset " << opset << ", type " << onnx_name(t));
          std::vector<ValueInfo> out;
          const Status s = infer_node(op, opset, Attributes(), {parse_shape(t, "[2, 3]"), parse_shape(t, "[2, 3]")}, &out);
          INFO(s.message());
          if (has(*f.types, t)) {
            ++accepted;
            REQUIRE(s.is_ok());
            CHECK(out[0].type == t);
            CHECK(out[0].shape_string() == "[2, 3]");
          } else {
            ++refused;
            CHECK(s.code() == StatusCode::Type);
          }
        }
        // A and B share T.
        std::vector<ValueInfo> out;
        const Status s = infer_node(op, opset, Attributes(), {parse_shape(E::Float, "[2]"), parse_shape(E::Double, "[2]")}, &out);
        CHECK(s.code() == StatusCode::Type);
        CHECK_THAT(s.message(), Catch::Contains("input 1 ('B') has type tensor(double) but input 0 ('A') has tensor(float)"));
      }
    }
  }
  CHECK(accepted == 4 * (5 * 3 + 1 * 7 + 6 * 7 + 1 * 8 + 15 * 12));
  CHECK(refused > 2000);
  // Version 1 has consumed_inputs; 6 does not; 7 and later have no attributes.
  std::vector<ValueInfo> out;
  const std::vector<ValueInfo> ab = {parse_shape(E::Float, "[2]"), parse_shape(E::Float, "[2]")};
  CHECK(infer_node("Mul", 5, Attributes({Ints("consumed_inputs", {0, 0})}), ab, &out).is_ok());
  CHECK(infer_node("Mul", 6, Attributes({Ints("consumed_inputs", {0, 0})}), ab, &out).code() == StatusCode::Attribute);
  const Status s = infer_node("Add", 7, Attributes({Int("broadcast", 1)}), ab, &out);
  CHECK(s.code() == StatusCode::Attribute);
  CHECK(s.message() == "Add-7 has no attribute 'broadcast'; it allows none");
}

TEST_CASE("Add, Sub, Mul, Div 7, 13, 14: every type over broadcast shapes against the oracle") {
  // Shapes that take each path: equal shapes (one run), tensor-scalar both ways, inner and outer
  // broadcasts of both inputs, empty outputs, and runs long enough for the SIMD kernels' tiles and tails.
  const Case cases[] = {
      {{2, 3, 4}, {2, 3, 4}}, {{2, 3, 4}, {}}, {{}, {2, 3, 4}}, {{}, {}}, {{2, 1, 4}, {3, 1}}, {{5}, {1}},
      {{1, 3, 1}, {2, 1, 5}}, {{0, 3}, {3}}, {{3, 37}, {37}}, {{37, 1}, {1, 19}}, {{101}, {101}}, {{2, 53}, {2, 1}},
      {{4, 1, 1}, {1, 1}},
  };
  std::mt19937_64 rng(7);
  size_t checked = 0;
  for (const char* op : kOps)
    for (const int opset : {7, 13, 14})
      for (const E t : opset == 7 ? kV6 : opset == 13 ? kV13 : kV14)
        for (const Case& c : cases) {
          INFO(op << "-" << opset << " " << onnx_name(t) << " shapes " << c.a.size() << "-d and " << c.b.size() << "-d");
          checked += check_run(op, opset, t, c.a, c.b, Attributes(), nullptr, rng);
        }
  CHECK(checked > 100000);
}

TEST_CASE("Arithmetic 14 (Add Sub Mul Div): random broadcast shapes (3000) against the oracle for every type") {
  // An output of rank 0 to 5 (dims 0 to 5, now and then up to 40 for the SIMD tiles); A and B
  // each a suffix of it, each dim the output's or 1.
  std::mt19937_64 rng(2026);
  size_t checked = 0;
  for (int k = 0; k < 3000; ++k) {
    std::vector<int64_t> out(static_cast<size_t>(below(rng, 6)));
    for (int64_t& d : out) d = below(rng, 10) == 0 ? 0 : below(rng, 6) == 0 ? 1 + below(rng, 40) : 1 + below(rng, 5);
    std::vector<int64_t> ab[2];
    for (std::vector<int64_t>& x : ab) {
      const size_t r = static_cast<size_t>(below(rng, static_cast<uint64_t>(out.size()) + 1));
      x.assign(out.end() - static_cast<std::ptrdiff_t>(r), out.end());
      for (int64_t& d : x) if (below(rng, 3) == 0) d = 1;
    }
    const char* op = kOps[below(rng, 4)];
    const E t = kV14[static_cast<size_t>(below(rng, kV14.size()))];
    INFO(op << "-14 " << onnx_name(t) << " shapes " << onnxwasm_test::describe(ValueInfo::of_dims(t, ab[0])) << " and "
                 << onnxwasm_test::describe(ValueInfo::of_dims(t, ab[1])));
    checked += check_run(op, 14, t, ab[0], ab[1], Attributes(), nullptr, rng);
  }
  CHECK(checked > 100000);
}

TEST_CASE("Add, Sub, Mul, Div 1 and 6: broadcast=1 places B in A (one element, a suffix, or at axis)") {
  std::mt19937_64 rng(3);
  struct Legacy {
    std::vector<int64_t> a, b;
    std::vector<Attribute> attrs;
    std::vector<int64_t> b_as_read;
  };
  const std::vector<Legacy> rows = {
      {{2, 3, 4, 5}, {2, 3, 4, 5}, {}, {2, 3, 4, 5}},
      {{2, 3, 4, 5}, {}, {Int("broadcast", 1)}, {1, 1, 1, 1}},
      {{2, 3, 4, 5}, {1, 1}, {Int("broadcast", 1)}, {1, 1, 1, 1}},
      {{2, 3, 4, 5}, {5}, {Int("broadcast", 1)}, {1, 1, 1, 5}},
      {{2, 3, 4, 5}, {4, 5}, {Int("broadcast", 1)}, {1, 1, 4, 5}},
      {{2, 3, 4, 5}, {3, 4}, {Int("broadcast", 1), Int("axis", 1)}, {1, 3, 4, 1}},
      {{2, 3, 4, 5}, {2}, {Int("broadcast", 1), Int("axis", 0)}, {2, 1, 1, 1}},
      {{2, 3, 4, 5}, {2, 3, 4, 5}, {Int("broadcast", 1), Int("axis", 0)}, {2, 3, 4, 5}},
      // A dim of 1 in B expands (PyTorch's opset-6 exports rely on it; the spec's text says it does not).
      {{2, 3}, {2, 1}, {Int("broadcast", 1), Int("axis", 0)}, {2, 1}},
      {{2, 3}, {1, 3}, {Int("broadcast", 1), Int("axis", 0)}, {1, 3}},
      {{2, 3, 4}, {3, 1}, {Int("broadcast", 1), Int("axis", 1)}, {1, 3, 1}},
  };
  for (const char* op : kOps)
    for (const int opset : {1, 6})
      for (const E t : opset == 1 ? kV1 : kV6)
        for (const Legacy& r : rows) {
          INFO(op << "-" << opset << " " << onnx_name(t) << " B rank " << r.b.size() << " with " << r.attrs.size() << " attributes");
          check_run(op, opset, t, r.a, r.b, Attributes(r.attrs), &r.b_as_read, rng);
        }
  // The refusals, in inference and in runs alike.
  struct Bad {
    const char* a;
    const char* b;
    std::vector<Attribute> attrs;
    StatusCode code;
    const char* message;
  };
  const Bad bad[] = {
      {"[2, 3]", "[3]", {}, StatusCode::Shape,
       "Mul-6: input 0 ('A') has shape [2, 3] and input 1 ('B') [3]; without broadcast=1 they must have the same shape"},
      {"[2, 3]", "[2, 4]", {}, StatusCode::Shape,
       "Mul-6: input 0 ('A') has shape [2, 3] and input 1 ('B') [2, 4]; without broadcast=1 they must have the same shape"},
      {"[2, 3]", "[2]", {Int("broadcast", 1)}, StatusCode::Shape,
       "Mul-6: input 0 ('A') has shape [2, 3] and input 1 ('B') [2]; with broadcast=1 and axis 1, each of B's dims must equal A's from there or be 1"},
      {"[2, 1]", "[2, 3]", {Int("broadcast", 1)}, StatusCode::Shape,
       "Mul-6: input 0 ('A') has shape [2, 1] and input 1 ('B') [2, 3]; with broadcast=1 and axis 0, each of B's dims must equal A's from there or be 1"},
      {"[3]", "[2, 3]", {Int("broadcast", 1)}, StatusCode::Shape,
       "Mul-6: input 0 ('A') has shape [3] and input 1 ('B') [2, 3]; with broadcast=1, B's rank must not exceed A's"},
      {"[2, 3]", "[3]", {Int("broadcast", 1), Int("axis", 2)}, StatusCode::Attribute,
       "Mul-6: attribute 'axis' is 2; B's dims start there in A's, so it must be in [0, 1] (A [2, 3], B [3])"},
      {"[2, 3]", "[3]", {Int("broadcast", 1), Int("axis", -1)}, StatusCode::Attribute,
       "Mul-6: attribute 'axis' is -1; B's dims start there in A's, so it must be in [0, 1] (A [2, 3], B [3])"},
      {"[2, 3]", "[3]", {Int("broadcast", 2)}, StatusCode::Attribute, "Mul-6: attribute 'broadcast' is 2; it must be 0 or 1"},
  };
  for (const Bad& r : bad) {
    INFO(r.message);
    std::vector<ValueInfo> out;
    const Status s = infer_node("Mul", 6, Attributes(r.attrs), {parse_shape(E::Float, r.a), parse_shape(E::Float, r.b)}, &out);
    CHECK(s.code() == r.code);
    CHECK(s.message() == r.message);
    const ValueInfo a = parse_shape(E::Float, r.a), b = parse_shape(E::Float, r.b);
    std::vector<int64_t> ad, bd;
    for (const Dim& d : a.dims) ad.push_back(d.value);
    for (const Dim& d : b.dims) bd.push_back(d.value);
    Tensor ta, tb;
    REQUIRE(make_tensor(E::Float, ad, &ta).is_ok());
    REQUIRE(make_tensor(E::Float, bd, &tb).is_ok());
    std::vector<Tensor> outs;
    const Status rs = run_node("Mul", 6, Attributes(r.attrs), {&ta, &tb}, &outs);
    CHECK(rs.code() == r.code);
    CHECK(rs.message() == r.message);
    CHECK(outs.empty());
  }
  // Symbolic dims: the output is A's shape; unknown dims are not refused.
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Add", 1, Attributes({Int("broadcast", 1)}), {parse_shape(E::Float, "[batch, ?, 4]"),
                                                                     parse_shape(E::Float, "[n, 4]")}, &out).is_ok());
  CHECK(out[0].shape_string() == "[batch, ?, 4]");
}

TEST_CASE("Add, Sub, Mul, Div: inference broadcasts symbolic dims and refuses dims that cannot") {
  struct Row {
    const char* a;
    const char* b;
    const char* out;   // or the error's end
  };
  const Row ok[] = {
      {"[batch, 1, 3]", "[4, 1]", "[batch, 4, 3]"}, {"[batch]", "[batch]", "[batch]"}, {"[n]", "[m]", "[?]"},
      {"[?]", "[3]", "[3]"}, {"[1]", "[n]", "[n]"}, {"[n]", "[1]", "[n]"}, {"[]", "[2, n]", "[2, n]"},
      {"*", "[2]", "*"}, {"[2]", "*", "*"}, {"[0, 1]", "[1, 5]", "[0, 5]"}, {"[?]", "[1]", "[?]"},
  };
  for (const Row& r : ok) {
    INFO(r.a << " and " << r.b);
    std::vector<ValueInfo> out;
    REQUIRE(infer_node("Add", 14, Attributes(), {parse_shape(E::Float, r.a), parse_shape(E::Float, r.b)}, &out).is_ok());
    CHECK(onnxwasm_test::describe(out[0]) == r.out);
  }
  std::vector<ValueInfo> out;
  const Status s = infer_node("Div", 13, Attributes(), {parse_shape(E::Float, "[2, 3]"), parse_shape(E::Float, "[batch, 4]")}, &out);
  CHECK(s.code() == StatusCode::Shape);
  CHECK(s.message() == "Div-13: input 0 ('A') has shape [2, 3] and input 1 ('B') [batch, 4]; they do not broadcast: output "
                       "dimension 1 would take 3 and 4 (aligned from the last dim, each pair must be equal or one of them 1)");
  CHECK(out.empty());
}

TEST_CASE("Add, Sub, Mul, Div: the values of small int64 tensors (Shape -> Gather -> Mul -> Unsqueeze -> Concat)") {
  // x.view(x.size(0), x.size(1) * x.size(2)) with x [4, 6, 5]: Shape, two Gathers of scalars, their product.
  auto scalar = [](int64_t v) {
    ValueInfo x = ValueInfo::of_dims(E::Int64, {});
    x.int_values = std::vector<int64_t>{v};
    return x;
  };
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Mul", 14, Attributes(), {scalar(6), scalar(5)}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{30});
  std::vector<ValueInfo> unsq;
  ValueInfo axes = ValueInfo::of_dims(E::Int64, {1});
  axes.int_values = std::vector<int64_t>{0};
  REQUIRE(infer_node("Unsqueeze", 13, Attributes(), {out[0], axes}, &unsq).is_ok());
  REQUIRE(unsq[0].int_values);
  ValueInfo first = ValueInfo::of_dims(E::Int64, {1});
  first.int_values = std::vector<int64_t>{4};
  std::vector<ValueInfo> shape;
  REQUIRE(infer_node("Concat", 13, Attributes({Int("axis", 0)}), {first, unsq[0]}, &shape).is_ok());
  REQUIRE(shape[0].int_values);
  CHECK(*shape[0].int_values == std::vector<int64_t>{4, 30});
  std::vector<ValueInfo> reshaped;
  REQUIRE(infer_node("Reshape", 14, Attributes(), {parse_shape(E::Float, "[4, 6, 5]"), shape[0]}, &reshaped).is_ok());
  CHECK(reshaped[0].shape_string() == "[4, 30]");

  // Each op, with broadcasting, and wrapping at 64 bits; Div truncates; no values where Div has none.
  ValueInfo v = ValueInfo::of_dims(E::Int64, {3});
  v.int_values = std::vector<int64_t>{7, -7, INT64_MAX};
  struct Row {
    const char* op;
    int64_t s;
    std::vector<int64_t> want;
  };
  const Row rows[] = {{"Add", 2, {9, -5, INT64_MIN + 1}}, {"Sub", 2, {5, -9, INT64_MAX - 2}},
                      {"Mul", 2, {14, -14, -2}},           {"Div", 2, {3, -3, INT64_MAX / 2}}};
  for (const Row& r : rows) {
    INFO(r.op);
    REQUIRE(infer_node(r.op, 14, Attributes(), {v, scalar(r.s)}, &out).is_ok());
    REQUIRE(out[0].int_values);
    CHECK(*out[0].int_values == r.want);
  }
  for (const int64_t d : {int64_t{0}, int64_t{-1}}) {
    ValueInfo m = ValueInfo::of_dims(E::Int64, {2});
    m.int_values = std::vector<int64_t>{INT64_MIN, 4};
    REQUIRE(infer_node("Div", 14, Attributes(), {m, scalar(d)}, &out).is_ok());
    CHECK(!out[0].int_values);
    CHECK(out[0].shape_string() == "[2]");
  }
  // Values stay unknown when one input's are, and for other types.
  ValueInfo unknown = ValueInfo::of_dims(E::Int64, {});
  REQUIRE(infer_node("Mul", 14, Attributes(), {scalar(6), unknown}, &out).is_ok());
  CHECK(!out[0].int_values);
  // Version 6 (legacy broadcast) propagates too.
  REQUIRE(infer_node("Add", 6, Attributes({Int("broadcast", 1)}), {v, scalar(1)}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{8, -6, INT64_MIN});
}

TEST_CASE("Div of integers: truncation toward zero, and refusals of what has no quotient") {
  auto run = [](E t, const std::vector<int64_t>& ad, const std::vector<uint64_t>& av, const std::vector<int64_t>& bd,
                const std::vector<uint64_t>& bv, std::vector<Tensor>* out) {
    const Tensor a = tensor_of(t, ad, av), b = tensor_of(t, bd, bv);
    return run_node("Div", 14, Attributes(), {&a, &b}, out);
  };
  auto u = [](int64_t x) { return static_cast<uint64_t>(x); };
  std::vector<Tensor> out;
  REQUIRE(run(E::Int32, {4}, {u(7), mask(u(-7), 4), 7, mask(u(-7), 4)}, {4}, {2, 2, mask(u(-2), 4), mask(u(-2), 4)}, &out).is_ok());
  const int32_t* q = reinterpret_cast<const int32_t*>(out[0].buffer->data());
  CHECK(std::vector<int32_t>(q, q + 4) == std::vector<int32_t>{3, -3, -3, 3});
  // int8 and int16 divide as int: INT_MIN / -1 wraps to INT_MIN (as onnxruntime's kernels give).
  REQUIRE(run(E::Int8, {1}, {0x80}, {1}, {0xFF}, &out).is_ok());
  CHECK(out[0].buffer->data()[0] == 0x80);
  REQUIRE(run(E::Int16, {1}, {0x8000}, {1}, {0xFFFF}, &out).is_ok());
  CHECK(element(out[0], 0) == 0x8000);
  // By zero: the element of B is named, through broadcasting; no output.
  struct Bad {
    E t;
    std::vector<int64_t> ad;
    std::vector<uint64_t> av;
    std::vector<int64_t> bd;
    std::vector<uint64_t> bv;
    const char* message;
  };
  const Bad bad[] = {
      {E::Int32, {2, 3}, {1, 2, 3, 4, 5, 6}, {3}, {1, 0, 1}, "Div-14: input 1 ('B') element 1 is 0: integer division by zero (tensor(int32))"},
      {E::Uint8, {2, 2}, {1, 2, 3, 4}, {}, {0}, "Div-14: input 1 ('B') element 0 is 0: integer division by zero (tensor(uint8))"},
      {E::Int64, {3}, {1, 2, 3}, {3}, {5, 6, 0}, "Div-14: input 1 ('B') element 2 is 0: integer division by zero (tensor(int64))"},
      {E::Int32, {3}, {1, 0x80000000u, 3}, {}, {0xFFFFFFFFu},
       "Div-14: input 0 ('A') element 1 is -2147483648 and input 1 ('B') element 0 is -1: the quotient, 2147483648, does not fit tensor(int32)"},
      {E::Int64, {2}, {5, u(INT64_MIN)}, {2}, {1, u(-1)},
       "Div-14: input 0 ('A') element 1 is -9223372036854775808 and input 1 ('B') element 1 is -1: the quotient, 9223372036854775808, does not fit tensor(int64)"},
  };
  for (const Bad& r : bad) {
    INFO(r.message);
    out.clear();
    const Status s = run(r.t, r.ad, r.av, r.bd, r.bv, &out);
    CHECK(s.code() == StatusCode::InvalidArgument);
    CHECK(s.message() == r.message);
    CHECK(out.empty());
  }
  // Version 7 names itself; and the module keeps working after the refusal.
  const Tensor a = tensor_of(E::Int32, {1}, {4}), z = tensor_of(E::Int32, {1}, {0}), two = tensor_of(E::Int32, {1}, {2});
  const Status s = run_node("Div", 9, Attributes(), {&a, &z}, &out);
  CHECK(s.message() == "Div-7: input 1 ('B') element 0 is 0: integer division by zero (tensor(int32))");
  REQUIRE(run_node("Div", 9, Attributes(), {&a, &two}, &out).is_ok());
  CHECK(element(out[0], 0) == 2);
}

TEST_CASE("Add, Sub, Mul, Div: integer wrap, IEEE specials, float16 and bfloat16 rounding") {
  std::vector<Tensor> out;
  auto run1 = [&](const char* op, E t, uint64_t x, uint64_t y) {
    const Tensor a = tensor_of(t, {1}, {x}), b = tensor_of(t, {1}, {y});
    REQUIRE(run_node(op, 14, Attributes(), {&a, &b}, &out).is_ok());
    return element(out[0], 0);
  };
  CHECK(run1("Add", E::Int8, 100, 100) == 0xC8);                           // -56
  CHECK(run1("Mul", E::Uint8, 200, 2) == 144);
  CHECK(run1("Mul", E::Uint16, 65535, 65535) == 1);                        // no int promotion overflow
  CHECK(run1("Add", E::Int32, 0x7FFFFFFF, 1) == 0x80000000u);
  CHECK(run1("Sub", E::Uint64, 0, 1) == UINT64_MAX);
  CHECK(run1("Mul", E::Int64, uint64_t{1} << 62, 4) == 0);
  CHECK(run1("Div", E::Uint32, 0xFFFFFFFFu, 2) == 0x7FFFFFFFu);
  const uint64_t one = float_bits(1.0f), zero = float_bits(0.0f), neg_zero = float_bits(-0.0f);
  CHECK(run1("Div", E::Float, one, zero) == float_bits(INFINITY));
  CHECK(run1("Div", E::Float, one, neg_zero) == float_bits(-INFINITY));
  CHECK(std::isnan(bits_float(static_cast<uint32_t>(run1("Div", E::Float, zero, zero)))));
  // Halves: 65504 * 2 overflows to inf; 1 + 2^-11 is a tie that rounds to even (1); 1/3 rounds to nearest.
  CHECK(run1("Mul", E::Float16, 0x7BFF, 0x4000) == 0x7C00);
  CHECK(run1("Add", E::Float16, 0x3C00, 0x1000) == 0x3C00);
  CHECK(run1("Div", E::Float16, 0x3C00, 0x4200) == 0x3555);
  CHECK(run1("Div", E::Float16, 0x3C00, 0x0000) == 0x7C00);
  // bfloat16: 1 + 2^-8 is a tie (to 1), 1 + 3 * 2^-9 rounds up.
  CHECK(run1("Add", E::Bfloat16, 0x3F80, 0x3B80) == 0x3F80);
  CHECK(run1("Add", E::Bfloat16, 0x3F80, 0x3BC0) == 0x3F81);
}

TEST_CASE("Mul and Add of embedding-sized float32 and float16 tensors by a scalar and by a row") {
  std::mt19937_64 rng(1);
  for (const E t : {E::Float, E::Float16}) {
    INFO(onnx_name(t));
    check_run("Mul", 14, t, {2, 3, 2560}, {}, Attributes(), nullptr, rng);
    check_run("Mul", 14, t, {}, {2, 3, 2560}, Attributes(), nullptr, rng);
    check_run("Add", 14, t, {2, 3, 2560}, {2560}, Attributes(), nullptr, rng);
  }
}
