// Shape, Size, Identity, Unsqueeze and Squeeze: every version ONNX defines through opset 28,
// checked against lists written here from ONNX's operator definitions (onnx/defs/tensor/defs.cc
// and old.cc), not read from the registry.
// - Versions: the version each opset 1..28 resolves to.
// - Element types: for every version and every ONNX type, accepted or refused (the refusal names
//   the version, the type, and the opset that first takes it); axes (13 and later) int64 only.
// - Inference rows, one named row per case run at every opset of its range: output shapes with
//   symbols and unknown ranks, the output's values (int_values) for Shape and Size when the dims
//   are known and passed through by Identity, Unsqueeze and Squeeze, and each refusal by
//   StatusCode and message.
// - Runs: Shape and Size from dims only (strings and sub-byte types too), Identity, Unsqueeze
//   and Squeeze as views of the input's buffer, errors that only a run can meet, and PreparedOp
//   inferring again when the axes' values change.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;

using onnxwasm_test::describe;
using onnxwasm_test::Int;
using onnxwasm_test::Ints;
using onnxwasm_test::parse_shape;

namespace {

// ---- The ONNX facts (onnx/defs/operator_sets.h; type lists from defs.cc and old.cc) ----

const std::map<std::string, std::vector<int>>& since_versions() {
  static const std::map<std::string, std::vector<int>> m = {
      {"Shape", {1, 13, 15, 19, 21, 23, 24, 25}},
      {"Size", {1, 13, 19, 21, 23, 24, 25}},
      {"Identity", {1, 13, 14, 16, 19, 21, 23, 24, 25}},
      {"Unsqueeze", {1, 11, 13, 21, 23, 24, 25}},
      {"Squeeze", {1, 11, 13, 21, 23, 24, 25}},
  };
  return m;
}

int since_at(const std::string& op, int opset) {
  int since = 0;
  for (int s : since_versions().at(op))
    if (s <= opset) since = s;
  return since;
}
std::string label_at(const std::string& op, int opset) { return op + "-" + std::to_string(since_at(op, opset)); }

const char* type_name(E t) {
  const ElementTypeInfo* info = element_type_info(static_cast<int32_t>(t));
  return info ? info->onnx_name : "undefined";
}

using Types = std::vector<E>;
Types operator+(Types a, const Types& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
// OpSchema::all_tensor_types() and its _ir4, _ir9 ... _ir13 successors.
const Types kClassic = {E::Bool,  E::Complex128, E::Complex64, E::Double, E::Float,  E::Float16, E::Int16, E::Int32,
                        E::Int64, E::Int8,       E::String,    E::Uint16, E::Uint32, E::Uint64,  E::Uint8};
const Types kIr4 = kClassic + Types{E::Bfloat16};
const Types kIr9 = kIr4 + Types{E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz};
const Types kIr10 = kIr9 + Types{E::Int4, E::Uint4};
const Types kIr11 = kIr10 + Types{E::Float4e2m1};
const Types kIr12 = kIr11 + Types{E::Float8e8m0};
const Types kIr13 = kIr12 + Types{E::Int2, E::Uint2};

bool has(const Types& ts, E t) {
  for (E x : ts)
    if (x == t) return true;
  return false;
}

// ---- Inputs, attributes, shapes ----

// Shapes in the notation of table_values.h: "[2, batch, ?]", "*".
std::string values_string(const std::optional<std::vector<int64_t>>& v) {
  if (!v) return "none";
  std::string s = "[";
  for (size_t i = 0; i < v->size(); ++i) s += (i ? ", " : "") + std::to_string((*v)[i]);
  return s + "]";
}

ValueInfo T(E type, const std::string& dims) { return parse_shape(type, dims); }
// A 1-D int64 input with known values (axes, or a shape computed earlier).
ValueInfo Values(std::vector<int64_t> values) {
  ValueInfo v = ValueInfo::of_dims(E::Int64, {static_cast<int64_t>(values.size())});
  v.int_values = std::move(values);
  return v;
}
// An int64 scalar with a known value.
ValueInfo Scalar(int64_t value) {
  ValueInfo v = ValueInfo::of_dims(E::Int64, {});
  v.int_values = std::vector<int64_t>{value};
  return v;
}
// An int64 input of known dims with known values.
ValueInfo ValuesOf(const std::string& dims, std::vector<int64_t> values) {
  ValueInfo v = parse_shape(E::Int64, dims);
  v.int_values = std::move(values);
  return v;
}
ValueInfo NoValues(const std::string& dims) { return parse_shape(E::Int64, dims); }
ValueInfo Omitted() { return ValueInfo{}; }

constexpr const char* kRefused = nullptr;
constexpr const char* kNoValues = "none";

struct Row {
  const char* name;
  const char* op;
  int first_opset, last_opset;
  std::vector<Attribute> attrs;
  std::vector<ValueInfo> inputs;
  const char* output;                // expected output shape, or kRefused
  const char* values;                // expected int_values ("[2, 3]"), or kNoValues; ignored when refused
  StatusCode code;                   // when refused
  std::vector<std::string> message;  // substrings of the refusal; "{v}" is the op-version label
};

std::string with_label(std::string s, const std::string& label) {
  const size_t at = s.find("{v}");
  if (at != std::string::npos) s.replace(at, 3, label);
  return s;
}

void check_row(const Row& r) {
  REQUIRE(r.first_opset <= r.last_opset);
  const std::string op = r.op;
  const bool int64_out = op == "Shape" || op == "Size";
  for (int opset = r.first_opset; opset <= r.last_opset; ++opset) {
    const std::string label = label_at(op, opset);
    INFO("row \"" << r.name << "\" at opset " << opset << " (" << label << ")");
    std::vector<ValueInfo> out;
    const Status s = infer_node(op, opset, Attributes(r.attrs), r.inputs, &out);
    INFO("got " << status_code_string(s.code()) << (s.message().empty() ? "" : ": ") << s.message());
    if (r.output != kRefused) {
      CHECK(s.is_ok());
      CHECK(out.size() == 1);
      if (!s.is_ok() || out.size() != 1) continue;
      CHECK(out[0].type == (int64_out ? E::Int64 : r.inputs[0].type));
      CHECK(describe(out[0]) == describe(parse_shape(E::Int64, r.output)));
      CHECK(values_string(out[0].int_values) == r.values);
    } else {
      INFO("expected " << status_code_string(r.code));
      CHECK(s.code() == r.code);
      CHECK(out.empty());
      CHECK(!r.message.empty());
      for (const std::string& m : r.message) CHECK_THAT(s.message(), Catch::Contains(with_label(m, label)));
    }
  }
}

const StatusCode kOk = StatusCode::Ok;
const StatusCode kAttr = StatusCode::Attribute;
const StatusCode kShape = StatusCode::Shape;
const StatusCode kInput = StatusCode::Input;
const E F = E::Float;
const E I64 = E::Int64;
const int N = kMaxOpset;

// ---- Tensors for runs ----

Tensor tensor_of(E type, std::vector<int64_t> dims, const std::vector<int64_t>& int64_values = {}) {
  Tensor t;
  REQUIRE(make_tensor(type, std::move(dims), &t).is_ok());
  if (!int64_values.empty()) std::memcpy(t.buffer->data(), int64_values.data(), int64_values.size() * sizeof(int64_t));
  return t;
}

std::vector<int64_t> int64_data(const Tensor& t) {
  REQUIRE(t.type == E::Int64);
  const int64_t* p = reinterpret_cast<const int64_t*>(t.buffer->data());
  return std::vector<int64_t>(p, p + t.element_count());
}

}  // namespace

TEST_CASE("shape ops: every opset resolves to the version ONNX defines there") {
  for (const auto& [op, versions] : since_versions()) {
    for (int opset = kMinOpset; opset <= kMaxOpset; ++opset) {
      INFO(op << " at opset " << opset);
      const OpVersion* v = nullptr;
      REQUIRE(resolve_op(op, opset, &v).is_ok());
      CHECK(v->since == since_at(op, opset));
      CHECK(v->label() == label_at(op, opset));
      CHECK(std::string(v->spec).find("onnx__" + op + ".html#" + op + "-" + std::to_string(v->since)) !=
            std::string::npos);
    }
    // Every since-version is a row of its own.
    for (int since : versions) {
      const OpVersion* v = nullptr;
      REQUIRE(resolve_op(op, since, &v).is_ok());
      CHECK(v->since == since);
    }
  }
}

TEST_CASE("shape ops: capabilities and inputs of every version") {
  for (const OpVersion& v : op_versions()) {
    const std::string op = v.op;
    if (!since_versions().count(op) || v.domain[0]) continue;
    INFO(v.label());
    const bool view = op == "Identity" || op == "Unsqueeze" || op == "Squeeze";
    CHECK(v.caps.view == view);
    CHECK(v.caps.rows_input == -1);
    const bool axes_input = (op == "Unsqueeze" || op == "Squeeze") && v.since >= 13;
    REQUIRE(v.inputs.size() == (axes_input ? 2u : 1u));
    const size_t required = op == "Squeeze" && v.since >= 13 ? 1 : v.inputs.size();
    CHECK(v.min_inputs() == required);
    CHECK(v.max_inputs() == v.inputs.size());
    if (axes_input) {
      CHECK(std::string(v.inputs[1].name) == "axes");
      CHECK(v.inputs[1].value_needed);
      CHECK(v.inputs[1].optional == (op == "Squeeze"));
    }
    CHECK(std::string(v.inputs[0].constraint) == (op == "Identity" && v.since >= 14 ? "V" : "T"));
  }
}

TEST_CASE("shape ops: element types accepted and refused by every version") {
  struct TypeRow {
    const char* op;
    int since, until;
    Types allowed;
  };
  const TypeRow rows[] = {
      {"Shape", 1, 12, kClassic},         {"Shape", 13, 14, kIr4},        {"Shape", 15, 18, kIr4},
      {"Shape", 19, 20, kIr9},            {"Shape", 21, 22, kIr10},       {"Shape", 23, 23, kIr11},
      {"Shape", 24, 24, kIr12},           {"Shape", 25, N, kIr13},        {"Size", 1, 12, kClassic},
      {"Size", 13, 18, kIr4},             {"Size", 19, 20, kIr9},         {"Size", 21, 22, kIr10},
      {"Size", 23, 23, kIr11},            {"Size", 24, 24, kIr12},        {"Size", 25, N, kIr13},
      {"Identity", 1, 12, kClassic},      {"Identity", 13, 13, kIr4},     {"Identity", 14, 15, kIr4},
      {"Identity", 16, 18, kIr4},         {"Identity", 19, 20, kIr9},     {"Identity", 21, 22, kIr10},
      {"Identity", 23, 23, kIr11},        {"Identity", 24, 24, kIr12},    {"Identity", 25, N, kIr13},
      {"Unsqueeze", 1, 10, kClassic},     {"Unsqueeze", 11, 12, kClassic}, {"Unsqueeze", 13, 20, kIr4},
      {"Unsqueeze", 21, 22, kIr10},       {"Unsqueeze", 23, 23, kIr11},   {"Unsqueeze", 24, 24, kIr12},
      {"Unsqueeze", 25, N, kIr13},        {"Squeeze", 1, 10, kClassic},   {"Squeeze", 11, 12, kClassic},
      {"Squeeze", 13, 20, kIr4},          {"Squeeze", 21, 22, kIr10},     {"Squeeze", 23, 23, kIr11},
      {"Squeeze", 24, 24, kIr12},         {"Squeeze", 25, N, kIr13},
  };
  int accepted = 0, refused = 0;
  for (const TypeRow& r : rows) {
    const std::string op = r.op;
    for (int opset = r.since; opset <= r.until; ++opset) {
      const std::string label = label_at(op, opset);
      REQUIRE(label == op + "-" + std::to_string(r.since));
      for (int id = 0; id <= kMaxElementTypeId; ++id) {
        const E t = static_cast<E>(id);
        INFO(label << " at opset " << opset << ", data type " << type_name(t));
        std::vector<ValueInfo> inputs = {T(t, "[1, 2]")};
        std::vector<Attribute> attrs;
        if (op == "Unsqueeze" && r.since < 13) attrs.push_back(Ints("axes", {0}));
        if (op == "Unsqueeze" && r.since >= 13) inputs.push_back(Values({0}));
        if (op == "Squeeze" && r.since >= 13) inputs.push_back(Values({0}));
        std::vector<ValueInfo> out;
        const Status s = infer_node(op, opset, Attributes(attrs), inputs, &out);
        INFO("got " << status_code_string(s.code()) << ": " << s.message());
        if (has(r.allowed, t)) {
          ++accepted;
          CHECK(s.is_ok());
          REQUIRE(out.size() == (s.is_ok() ? 1u : 0u));
          if (s.is_ok()) CHECK(out[0].type == (op == "Shape" || op == "Size" ? E::Int64 : t));
        } else {
          ++refused;
          CHECK(s.code() == StatusCode::Type);
          CHECK(out.empty());
          CHECK_THAT(s.message(), Catch::Contains(label + ": input 0"));
          CHECK_THAT(s.message(), Catch::Contains("tensor(" + std::string(type_name(t)) + ")"));
          int needs = 0;
          for (const TypeRow& later : rows)
            if (later.op == op && later.since > r.since && has(later.allowed, t)) {
              needs = later.since;
              break;
            }
          if (needs)
            CHECK_THAT(s.message(), Catch::Contains("needs opset " + std::to_string(needs) + " or later"));
          else
            CHECK_THAT(s.message(), !Catch::Contains("needs opset"));
        }
      }
    }
  }
  // Opsets in range times types allowed: 511 for each of Shape, Size and Identity, 503 for each of
  // Unsqueeze and Squeeze.
  CHECK(accepted == 3 * 511 + 2 * 503);
  CHECK(refused > 500);
}

TEST_CASE("shape ops: the axes input of Unsqueeze-13 and Squeeze-13 and later is int64 only") {
  for (const char* op : {"Unsqueeze", "Squeeze"}) {
    for (int opset = 13; opset <= kMaxOpset; ++opset) {
      for (int id = 1; id <= kMaxElementTypeId; ++id) {
        const E t = static_cast<E>(id);
        INFO(op << " at opset " << opset << ", axes type " << type_name(t));
        ValueInfo axes = t == I64 ? Values({0}) : T(t, "[1]");
        std::vector<ValueInfo> out;
        const Status s = infer_node(op, opset, Attributes(), {T(F, "[1, 2]"), axes}, &out);
        INFO("got " << status_code_string(s.code()) << ": " << s.message());
        if (t == I64) {
          CHECK(s.is_ok());
        } else {
          CHECK(s.code() == StatusCode::Type);
          CHECK_THAT(s.message(), Catch::Contains(label_at(op, opset) + ": input 1 ('axes')"));
          CHECK_THAT(s.message(), Catch::Contains("input 'axes' must be tensor(int64)"));
        }
      }
    }
  }
}

TEST_CASE("shape ops: Shape rows") {
  const Row rows[] = {
      {"all dims, with their values", "Shape", 1, N, {}, {T(F, "[2, 3, 4]")}, "[3]", "[2, 3, 4]", kOk, {}},
      {"a symbol: the length, no values", "Shape", 1, N, {}, {T(F, "[batch, 3]")}, "[2]", kNoValues, kOk, {}},
      {"an unknown dim: no values", "Shape", 1, N, {}, {T(F, "[?, 3]")}, "[2]", kNoValues, kOk, {}},
      {"a scalar: an empty shape", "Shape", 1, N, {}, {T(F, "[]")}, "[0]", "[]", kOk, {}},
      {"a zero dim is a value like any other", "Shape", 1, N, {}, {T(F, "[0, 5]")}, "[2]", "[0, 5]", kOk, {}},
      {"unknown rank: the length is unknown", "Shape", 1, N, {}, {T(F, "*")}, "[?]", kNoValues, kOk, {}},
      {"start 1", "Shape", 15, N, {Int("start", 1)}, {T(F, "[2, 3, 4]")}, "[2]", "[3, 4]", kOk, {}},
      {"start -1 counts from the back", "Shape", 15, N, {Int("start", -1)}, {T(F, "[2, 3, 4]")}, "[1]", "[4]", kOk,
       {}},
      {"end -1 counts from the back", "Shape", 15, N, {Int("end", -1)}, {T(F, "[2, 3, 4]")}, "[2]", "[2, 3]", kOk,
       {}},
      {"start 1, end 2", "Shape", 15, N, {Int("start", 1), Int("end", 2)}, {T(F, "[2, 3, 4]")}, "[1]", "[3]", kOk,
       {}},
      {"start 1, end -1", "Shape", 15, N, {Int("start", 1), Int("end", -1)}, {T(F, "[2, 3, 4]")}, "[1]", "[3]", kOk,
       {}},
      {"end 0: empty", "Shape", 15, N, {Int("end", 0)}, {T(F, "[2, 3, 4]")}, "[0]", "[]", kOk, {}},
      {"end beyond r is clamped to r", "Shape", 15, N, {Int("end", 10)}, {T(F, "[2, 3, 4]")}, "[3]", "[2, 3, 4]",
       kOk, {}},
      {"start below -r is clamped to 0", "Shape", 15, N, {Int("start", -10)}, {T(F, "[2, 3, 4]")}, "[3]",
       "[2, 3, 4]", kOk, {}},
      {"start beyond r: empty", "Shape", 15, N, {Int("start", 7)}, {T(F, "[2, 3, 4]")}, "[0]", "[]", kOk, {}},
      {"end below -r: empty", "Shape", 15, N, {Int("end", -7)}, {T(F, "[2, 3, 4]")}, "[0]", "[]", kOk, {}},
      {"start after end: empty", "Shape", 15, N, {Int("start", 2), Int("end", 1)}, {T(F, "[2, 3, 4]")}, "[0]", "[]",
       kOk, {}},
      {"values of the known dims sliced past a symbol", "Shape", 15, N, {Int("start", 1)}, {T(F, "[batch, 3, 4]")},
       "[2]", "[3, 4]", kOk, {}},
      {"a symbol in the slice: no values", "Shape", 15, N, {Int("end", 1)}, {T(F, "[batch, 3, 4]")}, "[1]",
       kNoValues, kOk, {}},
      {"unknown rank with start: the length is unknown", "Shape", 15, N, {Int("start", 1)}, {T(F, "*")}, "[?]",
       kNoValues, kOk, {}},
      {"start refused before 15", "Shape", 1, 14, {Int("start", 1)}, {T(F, "[2, 3]")}, kRefused, kNoValues, kAttr,
       {"{v} has no attribute 'start'; it allows none"}},
      {"end refused before 15", "Shape", 1, 14, {Int("end", 1)}, {T(F, "[2, 3]")}, kRefused, kNoValues, kAttr,
       {"{v} has no attribute 'end'"}},
      {"start given as INTS refused", "Shape", 15, N, {Ints("start", {1})}, {T(F, "[2, 3]")}, kRefused, kNoValues,
       kAttr, {"{v}: attribute 'start' must be INT, got INTS"}},
      {"two inputs refused", "Shape", 1, N, {}, {T(F, "[2, 3]"), T(F, "[2]")}, kRefused, kNoValues, kInput,
       {"{v} takes 1 input, got 2"}},
      {"a negative dim refused", "Shape", 1, N, {}, {T(F, "[2, -3]")}, kRefused, kNoValues, kShape,
       {"{v}: input 0 has shape [2, -3]"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Size rows") {
  const Row rows[] = {
      {"the element count", "Size", 1, N, {}, {T(F, "[2, 3, 4]")}, "[]", "[24]", kOk, {}},
      {"a scalar has 1 element", "Size", 1, N, {}, {T(F, "[]")}, "[]", "[1]", kOk, {}},
      {"a zero dim: 0, even beside a symbol", "Size", 1, N, {}, {T(F, "[batch, 0]")}, "[]", "[0]", kOk, {}},
      {"a symbol: no value", "Size", 1, N, {}, {T(F, "[batch, 3]")}, "[]", kNoValues, kOk, {}},
      {"an unknown dim: no value", "Size", 1, N, {}, {T(F, "[?]")}, "[]", kNoValues, kOk, {}},
      {"unknown rank: a scalar, no value", "Size", 1, N, {}, {T(F, "*")}, "[]", kNoValues, kOk, {}},
      {"a zero dim beats a product that overflows", "Size", 1, N, {}, {T(F, "[4611686018427387904, 4, 0]")}, "[]",
       "[0]", kOk, {}},
      {"an element count overflowing int64 refused", "Size", 1, N, {}, {T(F, "[4611686018427387904, 4]")}, kRefused,
       kNoValues, kShape, {"{v}: the element count of [4611686018427387904, 4] overflows int64"}},
      {"no attributes", "Size", 1, N, {Int("start", 0)}, {T(F, "[2]")}, kRefused, kNoValues, kAttr,
       {"{v} has no attribute 'start'"}},
      {"no input refused", "Size", 1, N, {}, {}, kRefused, kNoValues, kInput, {"{v} takes 1 input, got 0"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Identity rows") {
  const Row rows[] = {
      {"the shape, symbols and unknowns kept", "Identity", 1, N, {}, {T(F, "[2, batch, ?]")}, "[2, batch, ?]",
       kNoValues, kOk, {}},
      {"a scalar", "Identity", 1, N, {}, {T(F, "[]")}, "[]", kNoValues, kOk, {}},
      {"unknown rank", "Identity", 1, N, {}, {T(F, "*")}, "*", kNoValues, kOk, {}},
      {"values pass through", "Identity", 1, N, {}, {Values({4, -1, 7})}, "[3]", "[4, -1, 7]", kOk, {}},
      {"two inputs refused", "Identity", 1, N, {}, {T(F, "[2]"), T(F, "[2]")}, kRefused, kNoValues, kInput,
       {"{v} takes 1 input, got 2"}},
      {"no attributes", "Identity", 1, N, {Int("axis", 0)}, {T(F, "[2]")}, kRefused, kNoValues, kAttr,
       {"{v} has no attribute 'axis'; it allows none"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Unsqueeze-1 and -11 rows (axes as an attribute)") {
  const Row rows[] = {
      {"axis 0", "Unsqueeze", 1, 12, {Ints("axes", {0})}, {T(F, "[3, 4]")}, "[1, 3, 4]", kNoValues, kOk, {}},
      {"axes 0 and 3: both ends", "Unsqueeze", 1, 12, {Ints("axes", {0, 3})}, {T(F, "[3, 4]")}, "[1, 3, 4, 1]",
       kNoValues, kOk, {}},
      {"axes in any order", "Unsqueeze", 1, 12, {Ints("axes", {3, 0})}, {T(F, "[3, 4]")}, "[1, 3, 4, 1]", kNoValues,
       kOk, {}},
      {"axes 1 and 2 next to each other", "Unsqueeze", 1, 12, {Ints("axes", {2, 1})}, {T(F, "[3, 4]")},
       "[3, 1, 1, 4]", kNoValues, kOk, {}},
      {"symbols and unknowns kept", "Unsqueeze", 1, 12, {Ints("axes", {1})}, {T(F, "[batch, ?]")}, "[batch, 1, ?]",
       kNoValues, kOk, {}},
      {"a scalar to [1]", "Unsqueeze", 1, 12, {Ints("axes", {0})}, {T(F, "[]")}, "[1]", kNoValues, kOk, {}},
      {"values pass through", "Unsqueeze", 1, 12, {Ints("axes", {0})}, {Values({5, 6})}, "[1, 2]", "[5, 6]", kOk, {}},
      {"a scalar's value passes through", "Unsqueeze", 1, 12, {Ints("axes", {0})}, {Scalar(9)}, "[1]", "[9]", kOk,
       {}},
      {"unknown rank", "Unsqueeze", 1, 12, {Ints("axes", {0})}, {T(F, "*")}, "*", kNoValues, kOk, {}},
      {"empty axes: the same shape", "Unsqueeze", 1, 12, {Ints("axes", {})}, {T(F, "[3, 4]")}, "[3, 4]", kNoValues,
       kOk, {}},
      {"negative axis refused at 1", "Unsqueeze", 1, 10, {Ints("axes", {-1})}, {T(F, "[3, 4]")}, kRefused,
       kNoValues, kAttr,
       {"{v}: axis -1 is outside [0, 2] for an output of rank 3 (negative axes need opset 11 or later)"}},
      {"negative axis refused at 1 for an unknown rank", "Unsqueeze", 1, 10, {Ints("axes", {-1})}, {T(F, "*")},
       kRefused, kNoValues, kAttr, {"{v}: axis -1 is negative", "opset 11"}},
      {"negative axes from 11", "Unsqueeze", 11, 12, {Ints("axes", {-1})}, {T(F, "[3, 4]")}, "[3, 4, 1]", kNoValues,
       kOk, {}},
      {"-r_out is axis 0", "Unsqueeze", 11, 12, {Ints("axes", {-4, -1})}, {T(F, "[3, 4]")}, "[1, 3, 4, 1]",
       kNoValues, kOk, {}},
      {"axis r_out refused", "Unsqueeze", 1, 10, {Ints("axes", {3})}, {T(F, "[3, 4]")}, kRefused, kNoValues, kAttr,
       {"{v}: axis 3 is outside [0, 2] for an output of rank 3"}},
      {"axis r_out refused at 11", "Unsqueeze", 11, 12, {Ints("axes", {0, 4})}, {T(F, "[3, 4]")}, kRefused,
       kNoValues, kAttr, {"{v}: axis 4 is outside [-4, 3] for an output of rank 4"}},
      {"axis below -r_out refused", "Unsqueeze", 11, 12, {Ints("axes", {-4})}, {T(F, "[3, 4]")}, kRefused,
       kNoValues, kAttr, {"{v}: axis -4 is outside [-3, 2] for an output of rank 3"}},
      {"an axis twice refused", "Unsqueeze", 1, 12, {Ints("axes", {1, 1})}, {T(F, "[3, 4]")}, kRefused, kNoValues,
       kAttr, {"{v}: axes [1, 1] name axis 1 more than once"}},
      {"an axis twice (negative and not) refused", "Unsqueeze", 11, 12, {Ints("axes", {0, -4})}, {T(F, "[3, 4]")},
       kRefused, kNoValues, kAttr, {"{v}: axes [0, -4] name axis 0 more than once"}},
      {"an axis twice refused for an unknown rank", "Unsqueeze", 1, 12, {Ints("axes", {2, 2})}, {T(F, "*")},
       kRefused, kNoValues, kAttr, {"{v}: axes [2, 2] name axis 2 more than once"}},
      {"axes required", "Unsqueeze", 1, 12, {}, {T(F, "[3, 4]")}, kRefused, kNoValues, kAttr,
       {"{v}: attribute 'axes' (INTS) is required"}},
      {"axes as INT refused", "Unsqueeze", 1, 12, {Int("axes", 0)}, {T(F, "[3, 4]")}, kRefused, kNoValues, kAttr,
       {"{v}: attribute 'axes' must be INTS, got INT"}},
      {"axes as an input refused before 13", "Unsqueeze", 1, 12, {Ints("axes", {0})}, {T(F, "[3, 4]"), Values({0})},
       kRefused, kNoValues, kInput, {"{v} takes 1 input, got 2"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Unsqueeze-13 and later rows (axes as an input)") {
  const Row rows[] = {
      {"axes [0, 3]", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Values({0, 3})}, "[1, 3, 4, 1]", kNoValues, kOk, {}},
      {"axes [-1]", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Values({-1})}, "[3, 4, 1]", kNoValues, kOk, {}},
      {"unsorted axes [2, 0, 4]", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Values({2, 0, 4})}, "[1, 3, 1, 4, 1]",
       kNoValues, kOk, {}},
      {"a scalar axes tensor: one axis", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Scalar(1)}, "[3, 1, 4]", kNoValues,
       kOk, {}},
      {"empty axes: the same shape", "Unsqueeze", 13, N, {}, {T(F, "[batch, 4]"), Values({})}, "[batch, 4]",
       kNoValues, kOk, {}},
      {"symbols kept", "Unsqueeze", 13, N, {}, {T(F, "[batch, seq]"), Values({1})}, "[batch, 1, seq]", kNoValues, kOk,
       {}},
      {"values pass through", "Unsqueeze", 13, N, {}, {Values({2, 3}), Values({1})}, "[2, 1]", "[2, 3]", kOk, {}},
      {"a scalar's value passes through", "Unsqueeze", 13, N, {}, {Scalar(4), Values({0})}, "[1]", "[4]", kOk, {}},
      {"unknown axes values of known length: the rank", "Unsqueeze", 13, N, {}, {T(F, "[batch, 4]"), NoValues("[2]")},
       "[?, ?, ?, ?]", kNoValues, kOk, {}},
      {"unknown axes values, scalar axes: rank + 1", "Unsqueeze", 13, N, {}, {T(F, "[4]"), NoValues("[]")},
       "[?, ?]", kNoValues, kOk, {}},
      {"unknown axes length: unknown rank", "Unsqueeze", 13, N, {}, {T(F, "[4]"), NoValues("[?]")}, "*", kNoValues,
       kOk, {}},
      {"axes of unknown rank: unknown rank", "Unsqueeze", 13, N, {}, {T(F, "[4]"), NoValues("*")}, "*", kNoValues,
       kOk, {}},
      {"data of unknown rank: unknown rank", "Unsqueeze", 13, N, {}, {T(F, "*"), Values({0})}, "*", kNoValues, kOk,
       {}},
      {"axis r_out refused", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Values({0, 5})}, kRefused, kNoValues, kShape,
       {"{v}: axis 5 is outside [-4, 3] for an output of rank 4"}},
      {"axis below -r_out refused", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Values({-4})}, kRefused, kNoValues,
       kShape, {"{v}: axis -4 is outside [-3, 2] for an output of rank 3"}},
      {"an axis twice refused", "Unsqueeze", 13, N, {}, {T(F, "[3, 4]"), Values({1, -3})}, kRefused, kNoValues, kShape,
       {"{v}: axes [1, -3] name axis 1 more than once; each axis may appear once"}},
      {"an axis twice refused for an unknown rank", "Unsqueeze", 13, N, {}, {T(F, "*"), Values({-1, -1})}, kRefused,
       kNoValues, kShape, {"{v}: axes [-1, -1] name axis -1 more than once"}},
      {"axes of rank 2 refused", "Unsqueeze", 13, N, {}, {T(F, "[3]"), NoValues("[1, 1]")}, kRefused, kNoValues,
       kShape, {"{v}: input 'axes' must be a 1-D tensor (or a scalar), got shape [1, 1]"}},
      {"axes dims and values disagree", "Unsqueeze", 13, N, {}, {T(F, "[3]"), ValuesOf("[2]", {0})}, kRefused,
       kNoValues, kShape, {"{v}: input 'axes' has dims [2] but 1 values"}},
      {"an output rank over 2^20 refused", "Unsqueeze", 13, N, {}, {T(F, "[3]"), NoValues("[2000000]")}, kRefused,
       kNoValues, kShape, {"{v}: 2000000 axes; an output rank that large is not supported"}},
      {"the axes attribute is gone from 13", "Unsqueeze", 13, N, {Ints("axes", {0})}, {T(F, "[3]"), Values({0})},
       kRefused, kNoValues, kAttr, {"{v} has no attribute 'axes'; it allows none"}},
      {"axes required", "Unsqueeze", 13, N, {}, {T(F, "[3]")}, kRefused, kNoValues, kInput,
       {"{v} takes 2 inputs, got 1"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Squeeze-1 and -11 rows (axes as an attribute)") {
  const Row rows[] = {
      {"no axes: every 1 goes", "Squeeze", 1, 12, {}, {T(F, "[1, 3, 1, 2]")}, "[3, 2]", kNoValues, kOk, {}},
      {"no axes, no 1s: the same shape", "Squeeze", 1, 12, {}, {T(F, "[2, 3]")}, "[2, 3]", kNoValues, kOk, {}},
      {"no axes, all 1s: a scalar", "Squeeze", 1, 12, {}, {T(F, "[1, 1]")}, "[]", kNoValues, kOk, {}},
      {"no axes, a scalar: a scalar", "Squeeze", 1, 12, {}, {T(F, "[]")}, "[]", kNoValues, kOk, {}},
      {"no axes and a symbol (maybe 1): unknown rank", "Squeeze", 1, 12, {}, {T(F, "[1, batch]")}, "*", kNoValues, kOk,
       {}},
      {"no axes and an unknown dim: unknown rank", "Squeeze", 1, 12, {}, {T(F, "[3, ?]")}, "*", kNoValues, kOk, {}},
      {"axes [0, 2]", "Squeeze", 1, 12, {Ints("axes", {0, 2})}, {T(F, "[1, 3, 1]")}, "[3]", kNoValues, kOk, {}},
      {"axes in any order", "Squeeze", 1, 12, {Ints("axes", {2, 0})}, {T(F, "[1, 3, 1]")}, "[3]", kNoValues, kOk, {}},
      {"only the named 1s go", "Squeeze", 1, 12, {Ints("axes", {2})}, {T(F, "[1, 3, 1]")}, "[1, 3]", kNoValues, kOk,
       {}},
      {"a named symbol goes (a run checks it is 1)", "Squeeze", 1, 12, {Ints("axes", {1})}, {T(F, "[2, batch, ?]")},
       "[2, ?]", kNoValues, kOk, {}},
      {"a named unknown dim goes", "Squeeze", 1, 12, {Ints("axes", {2})}, {T(F, "[2, batch, ?]")}, "[2, batch]",
       kNoValues, kOk, {}},
      {"empty axes: nothing goes (ONNX)", "Squeeze", 1, 12, {Ints("axes", {})}, {T(F, "[1, 3]")}, "[1, 3]", kNoValues,
       kOk, {}},
      {"values pass through", "Squeeze", 1, 12, {}, {ValuesOf("[1, 2]", {8, 9})}, "[2]", "[8, 9]", kOk, {}},
      {"unknown rank", "Squeeze", 1, 12, {}, {T(F, "*")}, "*", kNoValues, kOk, {}},
      {"unknown rank with axes", "Squeeze", 1, 12, {Ints("axes", {0})}, {T(F, "*")}, "*", kNoValues, kOk, {}},
      {"negative axes from 11", "Squeeze", 11, 12, {Ints("axes", {-1})}, {T(F, "[3, 1]")}, "[3]", kNoValues, kOk, {}},
      {"-r is axis 0", "Squeeze", 11, 12, {Ints("axes", {-2})}, {T(F, "[1, 3]")}, "[3]", kNoValues, kOk, {}},
      {"negative axis refused at 1", "Squeeze", 1, 10, {Ints("axes", {-1})}, {T(F, "[3, 1]")}, kRefused, kNoValues,
       kAttr, {"{v}: axis -1 is outside [0, 1] for an input of rank 2 (negative axes need opset 11 or later)"}},
      {"negative axis refused at 1 for an unknown rank", "Squeeze", 1, 10, {Ints("axes", {-1})}, {T(F, "*")},
       kRefused, kNoValues, kAttr, {"{v}: axis -1 is negative", "opset 11"}},
      {"axis r refused", "Squeeze", 1, 10, {Ints("axes", {2})}, {T(F, "[1, 3]")}, kRefused, kNoValues, kAttr,
       {"{v}: axis 2 is outside [0, 1] for an input of rank 2"}},
      {"axis r refused at 11", "Squeeze", 11, 12, {Ints("axes", {2})}, {T(F, "[1, 3]")}, kRefused, kNoValues, kAttr,
       {"{v}: axis 2 is outside [-2, 1] for an input of rank 2"}},
      {"axis below -r refused", "Squeeze", 11, 12, {Ints("axes", {-3})}, {T(F, "[1, 3]")}, kRefused, kNoValues, kAttr,
       {"{v}: axis -3 is outside [-2, 1] for an input of rank 2"}},
      {"any axis of a scalar refused", "Squeeze", 11, 12, {Ints("axes", {0})}, {T(F, "[]")}, kRefused, kNoValues,
       kAttr, {"{v}: axis 0 is outside [0, -1] for an input of rank 0"}},
      {"a dim that is not 1 refused", "Squeeze", 1, 12, {Ints("axes", {1})}, {T(F, "[1, 3]")}, kRefused, kNoValues,
       kShape, {"{v}: axis 1 of input [1, 3] has size 3; only a dimension of size 1 can be squeezed"}},
      {"a zero dim refused", "Squeeze", 1, 12, {Ints("axes", {0})}, {T(F, "[0, 1]")}, kRefused, kNoValues, kShape,
       {"{v}: axis 0 of input [0, 1] has size 0"}},
      {"an axis twice refused", "Squeeze", 1, 12, {Ints("axes", {0, 0})}, {T(F, "[1, 3]")}, kRefused, kNoValues, kAttr,
       {"{v}: axes [0, 0] name axis 0 more than once"}},
      {"an axis twice (negative and not) refused", "Squeeze", 11, 12, {Ints("axes", {0, -2})}, {T(F, "[1, 3]")},
       kRefused, kNoValues, kAttr, {"{v}: axes [0, -2] name axis 0 more than once"}},
      {"axes as an input refused before 13", "Squeeze", 1, 12, {}, {T(F, "[1, 3]"), Values({0})}, kRefused, kNoValues,
       kInput, {"{v} takes 1 input, got 2"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Squeeze-13 and later rows (axes as an optional input)") {
  const Row rows[] = {
      {"no axes input: every 1 goes", "Squeeze", 13, N, {}, {T(F, "[1, 3, 1]")}, "[3]", kNoValues, kOk, {}},
      {"axes omitted (''): every 1 goes", "Squeeze", 13, N, {}, {T(F, "[1, 3, 1]"), Omitted()}, "[3]", kNoValues, kOk,
       {}},
      {"no axes and a symbol: unknown rank", "Squeeze", 13, N, {}, {T(F, "[1, n]")}, "*", kNoValues, kOk, {}},
      {"axes [-1]", "Squeeze", 13, N, {}, {T(F, "[3, 1]"), Values({-1})}, "[3]", kNoValues, kOk, {}},
      {"axes [2, 0]", "Squeeze", 13, N, {}, {T(F, "[1, 3, 1]"), Values({2, 0})}, "[3]", kNoValues, kOk, {}},
      {"a scalar axes tensor", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), Scalar(0)}, "[3]", kNoValues, kOk, {}},
      {"empty axes: nothing goes (ONNX)", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), Values({})}, "[1, 3]", kNoValues, kOk,
       {}},
      {"a named symbol goes", "Squeeze", 13, N, {}, {T(F, "[batch, 1, seq]"), Values({0, 1})}, "[seq]", kNoValues, kOk,
       {}},
      {"values pass through", "Squeeze", 13, N, {}, {ValuesOf("[1]", {7}), Values({0})}, "[]", "[7]", kOk, {}},
      {"values pass through, axes omitted", "Squeeze", 13, N, {}, {ValuesOf("[2, 1]", {7, 8})}, "[2]", "[7, 8]", kOk,
       {}},
      {"unknown axes values of known length: the rank", "Squeeze", 13, N, {}, {T(F, "[batch, 1, 3]"), NoValues("[1]")},
       "[?, ?]", kNoValues, kOk, {}},
      {"unknown axes length: unknown rank", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), NoValues("[?]")}, "*", kNoValues,
       kOk, {}},
      {"data of unknown rank: unknown rank", "Squeeze", 13, N, {}, {T(F, "*"), Values({0})}, "*", kNoValues, kOk, {}},
      {"more unknown axes than dims refused", "Squeeze", 13, N, {}, {T(F, "[1, 1, 1]"), NoValues("[4]")}, kRefused,
       kNoValues, kShape, {"{v}: input 'axes' has 4 values but the input [1, 1, 1] has rank 3"}},
      {"axis r refused", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), Values({2})}, kRefused, kNoValues, kShape,
       {"{v}: axis 2 is outside [-2, 1] for an input of rank 2"}},
      {"a dim that is not 1 refused", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), Values({-1})}, kRefused, kNoValues, kShape,
       {"{v}: axis 1 of input [1, 3] has size 3; only a dimension of size 1 can be squeezed"}},
      {"an axis twice refused", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), Values({0, -2})}, kRefused, kNoValues, kShape,
       {"{v}: axes [0, -2] name axis 0 more than once"}},
      {"axes of rank 2 refused", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), NoValues("[1, 1]")}, kRefused, kNoValues,
       kShape, {"{v}: input 'axes' must be a 1-D tensor (or a scalar)"}},
      {"the axes attribute is gone from 13", "Squeeze", 13, N, {Ints("axes", {0})}, {T(F, "[1, 3]")}, kRefused,
       kNoValues, kAttr, {"{v} has no attribute 'axes'"}},
      {"three inputs refused", "Squeeze", 13, N, {}, {T(F, "[1, 3]"), Values({0}), Values({0})}, kRefused, kNoValues,
       kInput, {"{v} takes 1 to 2 inputs, got 3"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape ops: Shape and Size run from the dims of any element type") {
  struct Case {
    E type;
    std::vector<int64_t> dims;
  };
  const Case cases[] = {
      {E::Float, {2, 3, 4}}, {E::String, {2, 3}},   {E::Int4, {3, 5}},   {E::Uint2, {7}},     {E::Float4e2m1, {1, 3}},
      {E::Bool, {}},         {E::Complex128, {0, 4}}, {E::Float8e8m0, {2}}, {E::Int64, {4, 1, 2}},
  };
  for (const Case& c : cases) {
    Tensor data = tensor_of(c.type, c.dims);
    int64_t count = 1;
    for (int64_t d : c.dims) count *= d;
    for (int opset = 1; opset <= kMaxOpset; ++opset) {
      const OpVersion* v = nullptr;
      REQUIRE(resolve_op("Shape", opset, &v).is_ok());
      if (!v->inputs[0].types.contains(c.type)) continue;
      INFO(type_name(c.type) << " at opset " << opset);
      std::vector<Tensor> out;
      REQUIRE(run_node("Shape", opset, Attributes(), {&data}, &out).is_ok());
      REQUIRE(out.size() == 1);
      CHECK(out[0].dims == std::vector<int64_t>{static_cast<int64_t>(c.dims.size())});
      CHECK(int64_data(out[0]) == c.dims);
      CHECK(out[0].buffer != data.buffer);
      out.clear();
      REQUIRE(run_node("Size", opset, Attributes(), {&data}, &out).is_ok());
      REQUIRE(out.size() == 1);
      CHECK(out[0].dims.empty());
      CHECK(int64_data(out[0]) == std::vector<int64_t>{count});
    }
  }
}

TEST_CASE("shape ops: Shape-15 and later run start and end as inference says") {
  Tensor data = tensor_of(E::Float, {2, 3, 4, 5});
  struct Case {
    std::vector<Attribute> attrs;
    std::vector<int64_t> want;
  };
  const Case cases[] = {
      {{}, {2, 3, 4, 5}},
      {{Int("start", 1)}, {3, 4, 5}},
      {{Int("end", -1)}, {2, 3, 4}},
      {{Int("start", -2), Int("end", -1)}, {4}},
      {{Int("start", -100), Int("end", 100)}, {2, 3, 4, 5}},
      {{Int("start", 3), Int("end", 1)}, {}},
      {{Int("start", 4)}, {}},
  };
  for (int opset = 15; opset <= kMaxOpset; ++opset) {
    for (const Case& c : cases) {
      INFO("opset " << opset << ", want " << values_string(c.want));
      std::vector<Tensor> out;
      REQUIRE(run_node("Shape", opset, Attributes(c.attrs), {&data}, &out).is_ok());
      CHECK(out[0].dims == std::vector<int64_t>{static_cast<int64_t>(c.want.size())});
      CHECK(int64_data(out[0]) == c.want);
    }
  }
}

TEST_CASE("shape ops: Identity, Unsqueeze and Squeeze run as views of the input's buffer") {
  struct Case {
    const char* op;
    int first, last;
    std::vector<Attribute> attrs;
    E type;
    std::vector<int64_t> dims;
    std::vector<int64_t> axes;  // input 1 (13 and later), when `axes_input`
    bool axes_input;
    std::vector<int64_t> want;
  };
  const Case cases[] = {
      {"Identity", 1, N, {}, E::Float, {2, 3}, {}, false, {2, 3}},
      {"Identity", 1, N, {}, E::String, {2}, {}, false, {2}},
      {"Identity", 25, N, {}, E::Int2, {5}, {}, false, {5}},
      {"Unsqueeze", 1, 12, {Ints("axes", {0, 3})}, E::Float, {2, 3}, {}, false, {1, 2, 3, 1}},
      {"Unsqueeze", 11, 12, {Ints("axes", {-1})}, E::String, {2, 3}, {}, false, {2, 3, 1}},
      {"Unsqueeze", 13, N, {}, E::Float, {2, 3}, {1}, true, {2, 1, 3}},
      {"Unsqueeze", 21, N, {}, E::Int4, {3}, {-1, 0}, true, {1, 3, 1}},
      {"Squeeze", 1, 12, {}, E::Float, {1, 3, 1}, {}, false, {3}},
      {"Squeeze", 1, 12, {Ints("axes", {0})}, E::Bool, {1, 3, 1}, {}, false, {3, 1}},
      {"Squeeze", 13, N, {}, E::Float, {1, 3, 1}, {}, false, {3}},
      {"Squeeze", 13, N, {}, E::Float, {1, 3, 1}, {-1}, true, {1, 3}},
      {"Squeeze", 25, N, {}, E::Uint2, {1, 1}, {}, false, {}},
  };
  for (const Case& c : cases) {
    Tensor data = tensor_of(c.type, c.dims);
    Tensor axes = tensor_of(E::Int64, {static_cast<int64_t>(c.axes.size())}, c.axes);
    for (int opset = c.first; opset <= c.last; ++opset) {
      INFO(c.op << " at opset " << opset << ", " << type_name(c.type) << ", want " << values_string(c.want));
      std::vector<const Tensor*> in = {&data};
      if (c.axes_input) in.push_back(&axes);
      std::vector<Tensor> out;
      const Status s = run_node(c.op, opset, Attributes(c.attrs), in, &out);
      INFO(s.message());
      REQUIRE(s.is_ok());
      REQUIRE(out.size() == 1);
      CHECK(out[0].type == c.type);
      CHECK(out[0].dims == c.want);
      CHECK(out[0].buffer == data.buffer);
    }
  }
}

TEST_CASE("shape ops: runs refuse what their inference refuses, with nothing output") {
  Tensor data = tensor_of(E::Float, {1, 3});
  Tensor axis1 = tensor_of(E::Int64, {1}, {1});
  Tensor axis9 = tensor_of(E::Int64, {1}, {9});
  std::vector<Tensor> out;
  Status s = run_node("Squeeze", 13, Attributes(), {&data, &axis1}, &out);
  CHECK(s.code() == StatusCode::Shape);
  CHECK(s.message() == "Squeeze-13: axis 1 of input [1, 3] has size 3; only a dimension of size 1 can be squeezed");
  CHECK(out.empty());
  s = run_node("Squeeze", 11, Attributes({Ints("axes", {1})}), {&data}, &out);
  CHECK(s.code() == StatusCode::Shape);
  CHECK(s.message() == "Squeeze-11: axis 1 of input [1, 3] has size 3; only a dimension of size 1 can be squeezed");
  CHECK(out.empty());
  s = run_node("Unsqueeze", 13, Attributes(), {&data, &axis9}, &out);
  CHECK(s.code() == StatusCode::Shape);
  CHECK(s.message() == "Unsqueeze-13: axis 9 is outside [-3, 2] for an output of rank 3");
  CHECK(out.empty());
  s = run_node("Unsqueeze", 11, Attributes({Ints("axes", {1, 1})}), {&data}, &out);
  CHECK(s.code() == StatusCode::Attribute);
  CHECK(s.message() == "Unsqueeze-11: axes [1, 1] name axis 1 more than once; each axis may appear once");
  CHECK(out.empty());
  Tensor strings = tensor_of(E::String, {2});
  s = run_node("Shape", 19, Attributes(), {&strings, &strings}, &out);
  CHECK(s.code() == StatusCode::Input);
  CHECK(s.message() == "Shape-19 takes 1 input, got 2");
  Tensor i2 = tensor_of(E::Int2, {4});
  s = run_node("Size", 24, Attributes(), {&i2}, &out);
  CHECK(s.code() == StatusCode::Type);
  CHECK_THAT(s.message(), Catch::StartsWith("Size-24: input 0 ('data') has type tensor(int2)"));
  CHECK_THAT(s.message(), Catch::EndsWith("(tensor(int2) needs opset 25 or later)"));
  CHECK(out.empty());
}

TEST_CASE("shape ops: a prepared Unsqueeze or Squeeze infers again when its axes' values change") {
  PreparedOp u;
  REQUIRE(PreparedOp::prepare("Unsqueeze", 13, Attributes(), &u).is_ok());
  Tensor data = tensor_of(E::Float, {2, 3});
  struct Step {
    std::vector<int64_t> axes, want;
    const char* error;
  };
  const Step steps[] = {
      {{0}, {1, 2, 3}, nullptr},   {{2}, {2, 3, 1}, nullptr},         {{-1}, {2, 3, 1}, nullptr},
      {{1}, {2, 1, 3}, nullptr},   {{5}, {}, "axis 5 is outside"},     {{1}, {2, 1, 3}, nullptr},
      {{0, 1}, {1, 1, 2, 3}, nullptr},
  };
  for (const Step& st : steps) {
    INFO("axes " << values_string(st.axes));
    Tensor axes = tensor_of(E::Int64, {static_cast<int64_t>(st.axes.size())}, st.axes);
    const Tensor* in[2] = {&data, &axes};
    Tensor out;
    const Status s = u.run(in, 2, &out);
    if (st.error) {
      CHECK_THAT(s.message(), Catch::Contains(st.error));
      CHECK_FALSE(out.buffer);
    } else {
      REQUIRE(s.is_ok());
      CHECK(out.dims == st.want);
      CHECK(out.buffer == data.buffer);
    }
  }

  // Squeeze-13 with its axes omitted (a null input, or no second input), then given.
  PreparedOp q;
  REQUIRE(PreparedOp::prepare("Squeeze", 13, Attributes(), &q).is_ok());
  Tensor ones = tensor_of(E::Float, {1, 3, 1});
  Tensor last = tensor_of(E::Int64, {1}, {2});
  Tensor first = tensor_of(E::Int64, {1}, {0});
  const Tensor* omitted[2] = {&ones, nullptr};
  const Tensor* given_last[2] = {&ones, &last};
  const Tensor* given_first[2] = {&ones, &first};
  Tensor out;
  REQUIRE(q.run(omitted, 2, &out).is_ok());
  CHECK(out.dims == std::vector<int64_t>{3});
  REQUIRE(q.run(omitted, 1, &out).is_ok());
  CHECK(out.dims == std::vector<int64_t>{3});
  REQUIRE(q.run(given_last, 2, &out).is_ok());
  CHECK(out.dims == std::vector<int64_t>{1, 3});
  REQUIRE(q.run(given_first, 2, &out).is_ok());
  CHECK(out.dims == std::vector<int64_t>{3, 1});
  REQUIRE(q.run(omitted, 2, &out).is_ok());
  CHECK(out.dims == std::vector<int64_t>{3});
}
