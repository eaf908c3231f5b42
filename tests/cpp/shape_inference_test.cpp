// Shape inference through onnxwasm::infer_node (src/runtime.h) for every version of Gather
// (1, 11, 13), Flatten (1, 9, 11, 13, 21, 23, 24, 25) and Reshape (1, 5, 13, 14, 19, 21, 23, 24, 25),
// table-driven: one named row per case, run at every opset of the row's range.
// - Element types: for every version and every ONNX type, accepted or refused as the ONNX
//   operator pages list them (lists written out here, not read from the registry); a refusal
//   names the version, the type and, when a later version takes it, the opset it needs. Also the
//   index type of Gather and the shape type of Reshape.
// - Rules: Gather keeps symbols (rank q + r - 1), Flatten's products (a symbol survives only
//   among 1s), Reshape with known shape values (0 copies a number or symbol, -1 solved when the
//   rest is known) and without (rank only), axis ranges per version, allowzero from 14, and each
//   refusal by StatusCode and by substrings naming the op-version and the offending value.
// Version ranges and opset resolution themselves are tests/cpp/registry_test.cpp's.
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
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

// ---- The ONNX facts this file checks against (from the operator pages) ----

// Since-versions of each op.
const std::map<std::string, std::vector<int>>& since_versions() {
  static const std::map<std::string, std::vector<int>> m = {
      {"Gather", {1, 11, 13}},
      {"Flatten", {1, 9, 11, 13, 21, 23, 24, 25}},
      {"Reshape", {1, 5, 13, 14, 19, 21, 23, 24, 25}},
  };
  return m;
}

// "Flatten-9": the label of the version that `opset` selects.
std::string label_at(const std::string& op, int opset) {
  int since = 0;
  for (int s : since_versions().at(op))
    if (s <= opset) since = s;
  return op + "-" + std::to_string(since);
}

// ONNX's spelling of each type in a constraint: tensor(<name>).
const char* type_name(E t) {
  switch (t) {
    case E::Float: return "float";
    case E::Uint8: return "uint8";
    case E::Int8: return "int8";
    case E::Uint16: return "uint16";
    case E::Int16: return "int16";
    case E::Int32: return "int32";
    case E::Int64: return "int64";
    case E::String: return "string";
    case E::Bool: return "bool";
    case E::Float16: return "float16";
    case E::Double: return "double";
    case E::Uint32: return "uint32";
    case E::Uint64: return "uint64";
    case E::Complex64: return "complex64";
    case E::Complex128: return "complex128";
    case E::Bfloat16: return "bfloat16";
    case E::Float8e4m3fn: return "float8e4m3fn";
    case E::Float8e4m3fnuz: return "float8e4m3fnuz";
    case E::Float8e5m2: return "float8e5m2";
    case E::Float8e5m2fnuz: return "float8e5m2fnuz";
    case E::Uint4: return "uint4";
    case E::Int4: return "int4";
    case E::Float4e2m1: return "float4e2m1";
    case E::Float8e8m0: return "float8e8m0";
    case E::Uint2: return "uint2";
    case E::Int2: return "int2";
    case E::Undefined: break;
  }
  return "undefined";
}

using Types = std::vector<E>;
Types operator+(Types a, const Types& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
const Types kFloats = {E::Float16, E::Float, E::Double};
const Types kClassic = {E::Bool,   E::Complex128, E::Complex64, E::Double, E::Float,  E::Float16, E::Int16, E::Int32,
                        E::Int64,  E::Int8,       E::String,    E::Uint16, E::Uint32, E::Uint64,  E::Uint8};
const Types kBf16 = kClassic + Types{E::Bfloat16};
const Types kF8 = kBf16 + Types{E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz};
const Types kI4 = kF8 + Types{E::Int4, E::Uint4};
const Types kF4 = kI4 + Types{E::Float4e2m1};
const Types kE8m0 = kF4 + Types{E::Float8e8m0};
const Types kI2 = kE8m0 + Types{E::Int2, E::Uint2};

bool has(const Types& ts, E t) {
  for (E x : ts)
    if (x == t) return true;
  return false;
}

// ---- Building inputs, attributes and expected shapes ----

// Shapes in the notation of table_values.h: "[2, batch, ?]", "*".
ValueInfo T(E type, const std::string& dims) { return parse_shape(type, dims); }
// A constant int64 1-D input with known values (Reshape's shape).
ValueInfo Values(std::vector<int64_t> values) {
  ValueInfo v = ValueInfo::of_dims(E::Int64, {static_cast<int64_t>(values.size())});
  v.int_values = std::move(values);
  return v;
}
// An int64 input whose values are not known.
ValueInfo NoValues(const std::string& dims) { return parse_shape(E::Int64, dims); }

constexpr const char* kRefused = nullptr;

struct Row {
  const char* name;
  const char* op;
  int first_opset, last_opset;  // the row runs at every opset in between
  std::vector<Attribute> attrs;
  std::vector<ValueInfo> inputs;
  const char* output;                // expected output shape, or kRefused
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
  for (int opset = r.first_opset; opset <= r.last_opset; ++opset) {
    const std::string label = label_at(r.op, opset);
    INFO("row \"" << r.name << "\" at opset " << opset << " (" << label << ")");
    std::vector<ValueInfo> out;
    const Status s = infer_node(r.op, opset, Attributes(r.attrs), r.inputs, &out);
    INFO("got " << status_code_string(s.code()) << (s.message().empty() ? "" : ": ") << s.message());
    if (r.output != kRefused) {
      CHECK(s.is_ok());
      CHECK(out.size() == 1);
      if (!s.is_ok() || out.size() != 1) continue;
      CHECK(out[0].type == r.inputs[0].type);
      CHECK(describe(out[0]) == describe(parse_shape(r.inputs[0].type, r.output)));
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
const E I32 = E::Int32;

}  // namespace

TEST_CASE("shape inference: element types accepted and refused by every op version") {
  struct TypeRow {
    const char* name;
    const char* op;
    int since, until;
    Types allowed;
  };
  const TypeRow rows[] = {
      {"Gather-1: the 15 classic types", "Gather", 1, 10, kClassic},
      {"Gather-11: the 15 classic types", "Gather", 11, 12, kClassic},
      {"Gather-13: adds bfloat16", "Gather", 13, kMaxOpset, kBf16},
      {"Flatten-1: float16, float, double only", "Flatten", 1, 8, kFloats},
      {"Flatten-9: the classic types (int32 from here)", "Flatten", 9, 10, kClassic},
      {"Flatten-11: the classic types", "Flatten", 11, 12, kClassic},
      {"Flatten-13: adds bfloat16", "Flatten", 13, 20, kBf16},
      {"Flatten-21: adds the 4 float8 types, int4, uint4", "Flatten", 21, 22, kI4},
      {"Flatten-23: adds float4e2m1", "Flatten", 23, 23, kF4},
      {"Flatten-24: adds float8e8m0", "Flatten", 24, 24, kE8m0},
      {"Flatten-25: adds int2, uint2", "Flatten", 25, kMaxOpset, kI2},
      {"Reshape-1: float16, float, double only", "Reshape", 1, 4, kFloats},
      {"Reshape-5: the classic types", "Reshape", 5, 12, kClassic},
      {"Reshape-13: adds bfloat16", "Reshape", 13, 13, kBf16},
      {"Reshape-14: as 13", "Reshape", 14, 18, kBf16},
      {"Reshape-19: adds the 4 float8 types", "Reshape", 19, 20, kF8},
      {"Reshape-21: adds int4, uint4", "Reshape", 21, 22, kI4},
      {"Reshape-23: adds float4e2m1", "Reshape", 23, 23, kF4},
      {"Reshape-24: adds float8e8m0", "Reshape", 24, 24, kE8m0},
      {"Reshape-25: adds int2, uint2", "Reshape", 25, kMaxOpset, kI2},
  };
  int accepted = 0, refused = 0;
  for (const TypeRow& r : rows) {
    const std::string op = r.op;
    for (int opset = r.since; opset <= r.until; ++opset) {
      const std::string label = label_at(op, opset);
      REQUIRE(label == op + "-" + std::to_string(r.since));
      for (int id = 0; id <= kMaxElementTypeId; ++id) {
        const E t = static_cast<E>(id);
        INFO("row \"" << r.name << "\" at opset " << opset << ", data type " << type_name(t));
        std::vector<ValueInfo> inputs = {T(t, "[3, 2]")};
        std::vector<Attribute> attrs;
        if (op == "Gather") inputs.push_back(T(I64, "[2]"));
        if (op == "Reshape" && r.since == 1) attrs.push_back(Ints("shape", {6}));
        if (op == "Reshape" && r.since > 1) inputs.push_back(Values({6}));
        std::vector<ValueInfo> out;
        const Status s = infer_node(op, opset, Attributes(attrs), inputs, &out);
        INFO("got " << status_code_string(s.code()) << ": " << s.message());
        if (has(r.allowed, t)) {
          ++accepted;
          CHECK(s.is_ok());
          REQUIRE(out.size() == (s.is_ok() ? 1u : 0u));
          if (s.is_ok()) CHECK(out[0].type == t);
        } else {
          ++refused;
          CHECK(s.code() == StatusCode::Type);
          CHECK(out.empty());
          CHECK_THAT(s.message(), Catch::Contains(label + ": input 0"));
          CHECK_THAT(s.message(), Catch::Contains("tensor(" + std::string(type_name(t)) + ")"));
          // The first later version that takes the type, if any, is named.
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
  CHECK(accepted > 500);
  CHECK(refused > 200);

  // Ids that name no ONNX type are refused like a type outside the constraint, never crash.
  for (const TypeRow& r : rows) {
    const std::string op = r.op;
    for (int id : {-1, 27, 63, 64, 1000}) {
      INFO("row \"" << r.name << "\", invalid type id " << id);
      const E t = static_cast<E>(id);
      std::vector<ValueInfo> inputs = {T(t, "[3, 2]")};
      std::vector<Attribute> attrs;
      if (op == "Gather") inputs.push_back(T(I64, "[2]"));
      if (op == "Reshape" && r.since == 1) attrs.push_back(Ints("shape", {6}));
      if (op == "Reshape" && r.since > 1) inputs.push_back(Values({6}));
      std::vector<ValueInfo> out;
      const Status s = infer_node(op, r.since, Attributes(attrs), inputs, &out);
      INFO("got " << status_code_string(s.code()) << ": " << s.message());
      CHECK(s.code() == StatusCode::Type);
      CHECK(out.empty());
      CHECK_THAT(s.message(), Catch::Contains(op + "-" + std::to_string(r.since) + ": input 0"));
    }
  }
}

TEST_CASE("shape inference: Gather's indices and Reshape's shape take only their integer types") {
  for (int opset = 1; opset <= kMaxOpset; ++opset) {
    for (int id = 0; id <= kMaxElementTypeId; ++id) {
      const E t = static_cast<E>(id);
      INFO("opset " << opset << ", type " << type_name(t));
      std::vector<ValueInfo> out;
      const Status g = infer_node("Gather", opset, Attributes(), {T(F, "[3, 2]"), T(t, "[4]")}, &out);
      INFO("Gather: " << status_code_string(g.code()) << ": " << g.message());
      if (t == E::Int32 || t == E::Int64) {
        CHECK(g.is_ok());
      } else {
        CHECK(g.code() == StatusCode::Type);
        CHECK_THAT(g.message(), Catch::Contains(label_at("Gather", opset) + ": input 1 ('indices')"));
        CHECK_THAT(g.message(), Catch::Contains("tensor(" + std::string(type_name(t)) + ")"));
        CHECK_THAT(g.message(), Catch::Contains("Tind must be one of tensor(int32), tensor(int64)"));
      }
      if (opset < 5) continue;  // Reshape-1 has no shape input
      ValueInfo shape = t == E::Int64 ? Values({6}) : T(t, "[1]");
      const Status r = infer_node("Reshape", opset, Attributes(), {T(F, "[3, 2]"), shape}, &out);
      INFO("Reshape: " << status_code_string(r.code()) << ": " << r.message());
      if (t == E::Int64) {
        CHECK(r.is_ok());
      } else {
        CHECK(r.code() == StatusCode::Type);
        CHECK_THAT(r.message(), Catch::Contains(label_at("Reshape", opset) + ": input 1 ('shape')"));
        CHECK_THAT(r.message(), Catch::Contains("tensor(" + std::string(type_name(t)) + ")"));
        CHECK_THAT(r.message(), Catch::Contains("must be tensor(int64)"));
      }
    }
  }
}

TEST_CASE("shape inference: Gather rows") {
  const int N = kMaxOpset;
  const Row rows[] = {
      {"axis 0 (default): the indices' dims replace dim 0", "Gather", 1, N, {},
       {T(F, "[5, 4]"), T(I64, "[2, 3]")}, "[2, 3, 4]", kOk, {}},
      {"symbols kept, rank q + r - 1, axis 1", "Gather", 1, N, {Int("axis", 1)},
       {T(F, "[batch, seq, 8]"), T(I32, "[n, ?]")}, "[batch, n, ?, 8]", kOk, {}},
      {"unknown and symbolic data dims after the axis are kept", "Gather", 1, N, {},
       {T(F, "[?, 7, sym]"), T(I64, "[m]")}, "[m, 7, sym]", kOk, {}},
      {"negative axis -1 counts from the back (every version)", "Gather", 1, N, {Int("axis", -1)},
       {T(F, "[a, b, c]"), T(I64, "[k]")}, "[a, b, k]", kOk, {}},
      {"axis -r is dim 0", "Gather", 1, N, {Int("axis", -3)},
       {T(F, "[a, b, c]"), T(I64, "[2]")}, "[2, b, c]", kOk, {}},
      {"axis r - 1 is the last dim", "Gather", 1, N, {Int("axis", 2)},
       {T(F, "[a, b, c]"), T(I64, "[2, 2]")}, "[a, b, 2, 2]", kOk, {}},
      {"scalar indices drop the axis", "Gather", 1, N, {},
       {T(F, "[5, x]"), T(I64, "[]")}, "[x]", kOk, {}},
      {"scalar indices on rank-1 data give a scalar", "Gather", 1, N, {},
       {T(F, "[5]"), T(I32, "[]")}, "[]", kOk, {}},
      {"empty indices give a zero dim", "Gather", 1, N, {Int("axis", 1)},
       {T(F, "[2, 5]"), T(I64, "[0]")}, "[2, 0]", kOk, {}},
      {"data of unknown rank: output rank unknown", "Gather", 1, N, {},
       {T(F, "*"), T(I64, "[2]")}, "*", kOk, {}},
      {"indices of unknown rank: output rank unknown", "Gather", 1, N, {},
       {T(F, "[3, 4]"), T(I64, "*")}, "*", kOk, {}},
      {"axis r refused", "Gather", 1, N, {Int("axis", 2)},
       {T(F, "[3, 4]"), T(I64, "[2]")}, kRefused, kAttr, {"{v}: axis 2", "[-2, 1]"}},
      {"axis -r - 1 refused", "Gather", 1, N, {Int("axis", -3)},
       {T(F, "[3, 4]"), T(I64, "[2]")}, kRefused, kAttr, {"{v}: axis -3", "[-2, 1]"}},
      {"axis checked against the data even when the indices' rank is unknown", "Gather", 1, N, {Int("axis", 5)},
       {T(F, "[3, 4]"), T(I64, "*")}, kRefused, kAttr, {"{v}: axis 5", "[-2, 1]"}},
      {"scalar data refused", "Gather", 1, N, {},
       {T(F, "[]"), T(I64, "[1]")}, kRefused, kShape, {"{v}: data must have rank >= 1", "scalar"}},
      {"negative data dim refused", "Gather", 1, N, {},
       {T(F, "[3, -2]"), T(I64, "[1]")}, kRefused, kShape, {"{v}: input 0", "[3, -2]"}},
      {"negative indices dim refused", "Gather", 1, N, {},
       {T(F, "[3, 2]"), T(I64, "[-1]")}, kRefused, kShape, {"{v}: input 1", "[-1]"}},
      {"axis given as INTS refused", "Gather", 1, N, {Ints("axis", {0})},
       {T(F, "[3, 4]"), T(I64, "[2]")}, kRefused, kAttr, {"{v}: attribute 'axis'", "INTS"}},
      {"unknown attribute refused", "Gather", 1, N, {Int("axes", 0)},
       {T(F, "[3, 4]"), T(I64, "[2]")}, kRefused, kAttr, {"{v} has no attribute 'axes'", "axis"}},
      {"one input refused", "Gather", 1, N, {},
       {T(F, "[3, 4]")}, kRefused, kInput, {"{v} takes 2 inputs", "got 1"}},
      {"a zero dim beats a product that overflows: an empty output", "Gather", 1, N, {Int("axis", 1)},
       {T(F, "[4611686018427387904, 4, 0]"), T(I64, "[5]")}, "[4611686018427387904, 5, 0]", kOk, {}},
      {"an output element count overflowing int64 refused", "Gather", 1, N, {Int("axis", 1)},
       {T(F, "[4611686018427387904, 1]"), T(I64, "[5]")}, kRefused, kShape,
       {"{v}: the output shape [4611686018427387904, 5]", "overflows int64"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape inference: Flatten rows") {
  const int N = kMaxOpset;
  const Row rows[] = {
      {"axis 1 (default)", "Flatten", 1, N, {}, {T(F, "[2, 3, 4]")}, "[2, 12]", kOk, {}},
      {"axis 0 gives [1, product]", "Flatten", 1, N, {Int("axis", 0)}, {T(F, "[2, 3, 4]")}, "[1, 24]", kOk, {}},
      {"axis r gives [product, 1]", "Flatten", 1, N, {Int("axis", 3)}, {T(F, "[2, 3, 4]")}, "[24, 1]", kOk, {}},
      {"a scalar with axis 0 gives [1, 1]", "Flatten", 1, N, {Int("axis", 0)}, {T(F, "[]")}, "[1, 1]", kOk, {}},
      {"axis r + 1 refused, [0, r] at 1 and 9", "Flatten", 1, 10, {Int("axis", 4)},
       {T(F, "[2, 3, 4]")}, kRefused, kAttr, {"{v}: axis 4", "[0, 3]"}},
      {"axis r + 1 refused, [-r, r] from 11", "Flatten", 11, N, {Int("axis", 4)},
       {T(F, "[2, 3, 4]")}, kRefused, kAttr, {"{v}: axis 4", "[-3, 3]"}},
      {"negative axis refused at Flatten-1 and Flatten-9", "Flatten", 1, 10, {Int("axis", -1)},
       {T(F, "[2, 3, 4]")}, kRefused, kAttr, {"{v}: axis -1", "opset 11"}},
      {"negative axis refused at 1 and 9 also for an unknown rank", "Flatten", 1, 10, {Int("axis", -2)},
       {T(F, "*")}, kRefused, kAttr, {"{v}: axis -2", "opset 11"}},
      {"negative axis -1 from 11", "Flatten", 11, N, {Int("axis", -1)}, {T(F, "[2, 3, 4]")}, "[6, 4]", kOk, {}},
      {"axis -r from 11 gives [1, product]", "Flatten", 11, N, {Int("axis", -3)}, {T(F, "[2, 3, 4]")}, "[1, 24]",
       kOk, {}},
      {"axis -r - 1 refused", "Flatten", 11, N, {Int("axis", -4)},
       {T(F, "[2, 3, 4]")}, kRefused, kAttr, {"{v}: axis -4", "[-3, 3]"}},
      {"a symbol alone in a product stays", "Flatten", 1, N, {}, {T(F, "[batch, 3, 4]")}, "[batch, 12]", kOk, {}},
      {"a symbol times a number is unknown", "Flatten", 1, N, {Int("axis", 2)}, {T(F, "[batch, 3, 4]")}, "[?, 4]",
       kOk, {}},
      {"a symbol times 1s stays", "Flatten", 1, N, {Int("axis", 2)}, {T(F, "[1, batch, 1]")}, "[batch, 1]", kOk, {}},
      {"two symbols multiply to unknown", "Flatten", 1, N, {Int("axis", 0)}, {T(F, "[batch, seq]")}, "[1, ?]", kOk,
       {}},
      {"the same symbol twice is unknown (its square)", "Flatten", 1, N, {Int("axis", 2)},
       {T(F, "[n, n, 3]")}, "[?, 3]", kOk, {}},
      {"a symbol times 0 is 0", "Flatten", 1, N, {Int("axis", 2)}, {T(F, "[batch, 0, seq]")}, "[0, seq]", kOk, {}},
      {"an unknown dim times 1s stays unknown", "Flatten", 1, N, {}, {T(F, "[?, 1]")}, "[?, 1]", kOk, {}},
      {"unknown rank gives [?, ?]", "Flatten", 1, N, {}, {T(F, "*")}, "[?, ?]", kOk, {}},
      {"unknown rank with a negative axis from 11", "Flatten", 11, N, {Int("axis", -1)}, {T(F, "*")}, "[?, ?]", kOk,
       {}},
      {"product overflowing int64 refused", "Flatten", 1, N, {Int("axis", 0)},
       {T(F, "[4611686018427387904, 4]")}, kRefused, kShape, {"{v}", "[4611686018427387904, 4]", "overflows int64"}},
      {"a zero dim beats a product that overflows", "Flatten", 1, N, {},
       {T(F, "[4611686018427387904, 4, 0]")}, "[4611686018427387904, 0]", kOk, {}},
      {"negative dim refused", "Flatten", 1, N, {}, {T(F, "[2, -3]")}, kRefused, kShape, {"{v}: input 0", "[2, -3]"}},
      {"two inputs refused", "Flatten", 1, N, {}, {T(F, "[2, 3]"), T(I64, "[1]")}, kRefused, kInput,
       {"{v} takes 1 input", "got 2"}},
      {"allowzero is not a Flatten attribute", "Flatten", 1, N, {Int("allowzero", 1)}, {T(F, "[2, 3]")}, kRefused,
       kAttr, {"{v} has no attribute 'allowzero'"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape inference: Reshape-1 rows (shape as an attribute)") {
  const Row rows[] = {
      {"-1 solved from the attribute", "Reshape", 1, 4, {Ints("shape", {4, -1})}, {T(F, "[2, 3, 4]")}, "[4, 6]",
       kOk, {}},
      {"0 copies a symbol, -1 solved", "Reshape", 1, 4, {Ints("shape", {0, -1})}, {T(F, "[batch, 3, 4]")},
       "[batch, 12]", kOk, {}},
      {"consumed_inputs is allowed", "Reshape", 1, 4, {Ints("shape", {6}), Ints("consumed_inputs", {0})},
       {T(F, "[2, 3]")}, "[6]", kOk, {}},
      {"shape attribute required", "Reshape", 1, 4, {}, {T(F, "[2, 3]")}, kRefused, kAttr,
       {"{v}: attribute 'shape'", "required"}},
      {"shape given as INT refused", "Reshape", 1, 4, {Int("shape", 6)}, {T(F, "[2, 3]")}, kRefused, kAttr,
       {"{v}: attribute 'shape'", "INTS", "got INT"}},
      {"a second (shape) input refused", "Reshape", 1, 4, {Ints("shape", {6})}, {T(F, "[2, 3]"), Values({6})},
       kRefused, kInput, {"{v} takes 1 input", "got 2"}},
      {"allowzero refused", "Reshape", 1, 4, {Ints("shape", {6}), Int("allowzero", 0)}, {T(F, "[2, 3]")}, kRefused,
       kAttr, {"{v} has no attribute 'allowzero'"}},
      {"element count mismatch refused", "Reshape", 1, 4, {Ints("shape", {4, 2})}, {T(F, "[2, 3]")}, kRefused,
       kShape, {"{v}: cannot reshape [2, 3] to [4, 2]", "6 vs 8"}},
      {"two -1 refused", "Reshape", 1, 4, {Ints("shape", {-1, -1})}, {T(F, "[2, 3]")}, kRefused, kShape,
       {"{v}: shape [-1, -1]", "more than one -1"}},
  };
  for (const Row& r : rows) check_row(r);
}

TEST_CASE("shape inference: Reshape-5 and later rows (shape as an input)") {
  const int N = kMaxOpset;
  const Row rows[] = {
      // Known values.
      {"-1 solved from known dims", "Reshape", 5, N, {}, {T(F, "[2, 3, 4]"), Values({4, -1})}, "[4, 6]", kOk, {}},
      {"0 copies a number", "Reshape", 5, N, {}, {T(F, "[2, 3, 4]"), Values({0, -1})}, "[2, 12]", kOk, {}},
      {"0 copies a symbol", "Reshape", 5, N, {}, {T(F, "[batch, 3, 4]"), Values({0, 12})}, "[batch, 12]", kOk, {}},
      {"0s copy symbols", "Reshape", 5, N, {}, {T(F, "[batch, seq, 8]"), Values({0, 0, 2, 4})}, "[batch, seq, 2, 4]",
       kOk, {}},
      {"0 copies an unknown dim", "Reshape", 5, N, {}, {T(F, "[?, 6]"), Values({0, 2, 3})}, "[?, 2, 3]", kOk, {}},
      {"-1 solved after a copied symbol cancels", "Reshape", 5, N, {}, {T(F, "[batch, 16, 64]"), Values({0, 4, -1})},
       "[batch, 4, 256]", kOk, {}},
      {"-1 unknown when another input symbol remains", "Reshape", 5, N, {},
       {T(F, "[batch, seq, 64]"), Values({0, -1})}, "[batch, ?]", kOk, {}},
      {"-1 unknown when the input has a symbol", "Reshape", 5, N, {}, {T(F, "[batch, 4]"), Values({-1, 2})}, "[?, 2]",
       kOk, {}},
      {"-1 alone flattens", "Reshape", 5, N, {}, {T(F, "[2, 3, 4]"), Values({-1})}, "[24]", kOk, {}},
      {"-1 solved to 0 for a zero-size input", "Reshape", 5, N, {}, {T(F, "[0, 4]"), Values({2, -1})}, "[2, 0]", kOk,
       {}},
      {"empty shape makes a scalar", "Reshape", 5, N, {}, {T(F, "[1, 1]"), Values({})}, "[]", kOk, {}},
      {"a scalar to [1, 1]", "Reshape", 5, N, {}, {T(F, "[]"), Values({1, -1})}, "[1, 1]", kOk, {}},
      {"data of unknown rank: 0 and -1 unknown, numbers kept", "Reshape", 5, N, {},
       {T(F, "*"), Values({0, -1, 4})}, "[?, ?, 4]", kOk, {}},
      // Unknown values: the rank only.
      {"unknown values of known length: rank only", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("[3]")},
       "[?, ?, ?]", kOk, {}},
      {"unknown values, empty shape: a scalar", "Reshape", 5, N, {}, {T(F, "[1]"), NoValues("[0]")}, "[]", kOk, {}},
      {"unknown values of unknown length: unknown rank", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("[?]")}, "*",
       kOk, {}},
      {"unknown values of symbolic length: unknown rank", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("[n]")},
       "*", kOk, {}},
      {"shape of unknown rank: unknown rank", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("*")}, "*", kOk, {}},
      // Refusals.
      {"element count mismatch refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), Values({4, 2})}, kRefused, kShape,
       {"{v}: cannot reshape [2, 3] to [4, 2]", "6 vs 8"}},
      {"empty shape from 2 elements refused", "Reshape", 5, N, {}, {T(F, "[2]"), Values({})}, kRefused, kShape,
       {"{v}: cannot reshape [2] to []", "2 vs 1"}},
      {"count mismatch after a copied symbol cancels refused", "Reshape", 5, N, {},
       {T(F, "[batch, 3, 4]"), Values({0, 5, 2})}, kRefused, kShape, {"{v}: cannot reshape [batch, 3, 4] to [0, 5, 2]",
                                                                       "12", "10"}},
      {"-1 that does not divide refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), Values({4, -1})}, kRefused, kShape,
       {"{v}: cannot reshape [2, 3] to [4, -1]", "6 elements", "4"}},
      {"-1 among dims multiplying to 0 refused", "Reshape", 5, N, {}, {T(F, "[0, 4]"), Values({0, -1})}, kRefused,
       kShape, {"{v}: cannot reshape [0, 4] to [0, -1]", "-1"}},
      {"two -1 refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), Values({-1, 2, -1})}, kRefused, kShape,
       {"{v}: shape [-1, 2, -1]", "more than one -1"}},
      {"two -1 refused even for data of unknown rank", "Reshape", 5, N, {}, {T(F, "*"), Values({-1, -1})}, kRefused,
       kShape, {"{v}: shape [-1, -1]", "more than one -1"}},
      {"a value below -1 refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), Values({2, -3})}, kRefused, kShape,
       {"{v}: shape value -3 at position 1"}},
      {"0 beyond the input's rank refused", "Reshape", 5, N, {}, {T(F, "[6]"), Values({2, 0})}, kRefused, kShape,
       {"{v}: shape value 0 at position 1", "rank 1"}},
      {"a shape of rank 2 refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("[1, 2]")}, kRefused, kShape,
       {"{v}: input 'shape' must be a 1-D tensor", "[1, 2]"}},
      {"a scalar shape refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("[]")}, kRefused, kShape,
       {"{v}: input 'shape' must be a 1-D tensor", "[]"}},
      {"an output rank over 2^20 refused", "Reshape", 5, N, {}, {T(F, "[2, 3]"), NoValues("[2147483648]")}, kRefused,
       kShape, {"{v}: input 'shape' has 2147483648 values; an output rank that large is not supported"}},
      {"element count overflow refused", "Reshape", 5, N, {},
       {T(F, "[4294967296, 4294967296]"), Values({-1})}, kRefused, kShape, {"{v}", "[4294967296, 4294967296]",
                                                                             "overflows int64"}},
      {"an output element count overflowing int64 refused", "Reshape", 5, N, {},
       {T(F, "*"), Values({4611686018427387904, 4})}, kRefused, kShape, {"{v}", "[4611686018427387904, 4]",
                                                                          "overflows int64"}},
      {"a zero dim beats an input product that overflows", "Reshape", 5, N, {},
       {T(F, "[4611686018427387904, 4, 0]"), Values({5, 0, 0})}, "[5, 4, 0]", kOk, {}},
      {"a negative data dim refused", "Reshape", 5, N, {}, {T(F, "[-1, 2]"), Values({2})}, kRefused, kShape,
       {"{v}: input 0", "[-1, 2]"}},
      {"one input refused", "Reshape", 5, N, {}, {T(F, "[2, 3]")}, kRefused, kInput, {"{v} takes 2 inputs", "got 1"}},
      {"the shape attribute is gone from 5", "Reshape", 5, N, {Ints("shape", {6})}, {T(F, "[2, 3]"), Values({6})},
       kRefused, kAttr, {"{v} has no attribute 'shape'"}},
      // allowzero: only from 14.
      {"allowzero refused before 14", "Reshape", 5, 13, {Int("allowzero", 0)}, {T(F, "[2, 3]"), Values({6})},
       kRefused, kAttr, {"{v} has no attribute 'allowzero'"}},
      {"0 copies the input dim without allowzero: counts then differ", "Reshape", 5, N, {},
       {T(F, "[2, 0]"), Values({0, 7})}, kRefused, kShape, {"{v}: cannot reshape [2, 0] to [0, 7]", "0 vs 14"}},
      {"allowzero=0 copies as before", "Reshape", 14, N, {Int("allowzero", 0)}, {T(F, "[batch, 3, 4]"),
       Values({0, -1})}, "[batch, 12]", kOk, {}},
      {"allowzero=1 keeps a 0 as a zero dim", "Reshape", 14, N, {Int("allowzero", 1)}, {T(F, "[2, 0]"),
       Values({0, 7})}, "[0, 7]", kOk, {}},
      {"allowzero=1 with a symbolic input: 0 stays 0", "Reshape", 14, N, {Int("allowzero", 1)},
       {T(F, "[batch, 3]"), Values({0, 3})}, "[0, 3]", kOk, {}},
      {"allowzero=1 with -1 and no 0 is fine", "Reshape", 14, N, {Int("allowzero", 1)}, {T(F, "[2, 3]"),
       Values({3, -1})}, "[3, 2]", kOk, {}},
      {"allowzero=1 with 0 and -1 refused", "Reshape", 14, N, {Int("allowzero", 1)}, {T(F, "[0, 3]"),
       Values({0, -1})}, kRefused, kShape, {"{v}: shape [0, -1]", "allowzero=1"}},
      {"allowzero=1 with 0 and -1 refused for data of unknown rank", "Reshape", 14, N, {Int("allowzero", 1)},
       {T(F, "*"), Values({-1, 4, 0})}, kRefused, kShape, {"{v}: shape [-1, 4, 0]", "allowzero=1"}},
      {"allowzero=1 and a count mismatch refused", "Reshape", 14, N, {Int("allowzero", 1)}, {T(F, "[2, 3]"),
       Values({0, 6})}, kRefused, kShape, {"{v}: cannot reshape [2, 3] to [0, 6]", "6 vs 0"}},
      {"allowzero=1: a zero dim beats a shape product that overflows", "Reshape", 14, N, {Int("allowzero", 1)},
       {T(F, "[0, 2]"), Values({4611686018427387904, 4, 0})}, "[4611686018427387904, 4, 0]", kOk, {}},
      {"allowzero given as INTS refused", "Reshape", 14, N, {Ints("allowzero", {1})}, {T(F, "[2, 3]"), Values({6})},
       kRefused, kAttr, {"{v}: attribute 'allowzero'", "INTS"}},
  };
  for (const Row& r : rows) check_row(r);
}
