// Range (versions 11 and 27): outputs against an oracle written from the spec (the count
// max(ceil((limit - start) / delta), 0) from enumerating start, start + delta, ... before limit
// for exact values; each element start + i * delta), the spec's examples, int64 bounds, every type
// of each version (float16 and bfloat16 from 27, in float or double as stash_type says),
// inference with and without the values (and the values of small int64 outputs), a prepared node
// given new values, and the refusals (delta 0, non-scalars, stash_type).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <string>

#include "src/kernels/float16.h"
#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;

namespace {

Tensor scalar(E type, double v) {
  Tensor t;
  REQUIRE(make_tensor(type, {}, &t).is_ok());
  uint8_t* p = t.buffer->data();
  switch (type) {
    case E::Float: { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    case E::Double: std::memcpy(p, &v, 8); break;
    case E::Int16: { const int16_t x = static_cast<int16_t>(v); std::memcpy(p, &x, 2); break; }
    case E::Int32: { const int32_t x = static_cast<int32_t>(v); std::memcpy(p, &x, 4); break; }
    case E::Int64: { const int64_t x = static_cast<int64_t>(v); std::memcpy(p, &x, 8); break; }
    case E::Float16: { const uint16_t h = float_to_half(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
    case E::Bfloat16: { const uint16_t h = float_to_bfloat16(static_cast<float>(v)); std::memcpy(p, &h, 2); break; }
    default: FAIL("type");
  }
  return t;
}

double element(const Tensor& t, int64_t i) {
  const uint8_t* p = t.buffer->data();
  switch (t.type) {
    case E::Float: { float f; std::memcpy(&f, p + i * 4, 4); return f; }
    case E::Double: { double d; std::memcpy(&d, p + i * 8, 8); return d; }
    case E::Int16: { int16_t x; std::memcpy(&x, p + i * 2, 2); return x; }
    case E::Int32: { int32_t x; std::memcpy(&x, p + i * 4, 4); return x; }
    case E::Int64: { int64_t x; std::memcpy(&x, p + i * 8, 8); return static_cast<double>(x); }
    case E::Float16: { uint16_t h; std::memcpy(&h, p + i * 2, 2); return half_to_float(h); }
    case E::Bfloat16: { uint16_t h; std::memcpy(&h, p + i * 2, 2); return bfloat16_to_float(h); }
    default: FAIL("type");
  }
  return 0;
}

// The values the spec gives, for values exactly representable: start, start + delta, ... while
// before limit (beyond it for a negative delta).
std::vector<double> oracle(double start, double limit, double delta) {
  std::vector<double> out;
  for (int64_t i = 0;; ++i) {
    const double x = start + static_cast<double>(i) * delta;
    if (delta > 0 ? x >= limit : x <= limit) break;
    out.push_back(x);
  }
  return out;
}

ValueInfo known_scalar(E type, double v) {
  ValueInfo x = ValueInfo::of_dims(type, {});
  if (type == E::Int64 || type == E::Int32 || type == E::Int16) x.int_values = std::vector<int64_t>{static_cast<int64_t>(v)};
  else x.float_values = std::vector<double>{v};
  return x;
}

}  // namespace

TEST_CASE("Range: every type of each version against the oracle") {
  struct Row {
    double start, limit, delta;
  };
  const Row rows[] = {{3, 9, 3},  {10, 4, -2}, {0, 5, 1},   {1, 5, 2},   {5, 5, 1},   {5, 1, 1},
                      {-3, 4, 2}, {4, -3, -3}, {0, 1, 100}, {-7, -1, 1}, {1, 10, 10}, {2, 2, -1}};
  const E types11[] = {E::Float, E::Double, E::Int16, E::Int32, E::Int64};
  const E types27[] = {E::Float, E::Double, E::Int16, E::Int32, E::Int64, E::Float16, E::Bfloat16};
  int checked = 0;
  for (const int opset : {11, 26, 27, 28}) {
    for (const E type : types27) {
      const bool allowed = opset >= 27 || std::find(std::begin(types11), std::end(types11), type) != std::end(types11);
      for (const Row& r : rows) {
        INFO("opset " << opset << " " << onnx_name(type) << " (" << r.start << ", " << r.limit << ", " << r.delta << ")");
        const Tensor a = scalar(type, r.start), b = scalar(type, r.limit), c = scalar(type, r.delta);
        std::vector<Tensor> out;
        const Status s = run_node("Range", opset, Attributes(), {&a, &b, &c}, &out);
        INFO(s.message());
        if (!allowed) {
          CHECK(s.code() == StatusCode::Type);
          CHECK_THAT(s.message(), Catch::Contains("needs opset 27 or later"));
          continue;
        }
        REQUIRE(s.is_ok());
        const std::vector<double> want = oracle(r.start, r.limit, r.delta);
        REQUIRE(out[0].type == type);
        REQUIRE(out[0].dims == std::vector<int64_t>{static_cast<int64_t>(want.size())});
        for (size_t i = 0; i < want.size(); ++i) CHECK(element(out[0], static_cast<int64_t>(i)) == want[i]);
        ++checked;
      }
    }
  }
  CHECK(checked == 12 * (5 + 5 + 7 + 7));
}

TEST_CASE("Range: int64 bounds, fractional floats and float16 computed in float or double") {
  // The count of an int64 range whose limit - start overflows int64.
  Tensor a, b, c;
  REQUIRE(make_tensor(E::Int64, {}, &a).is_ok());
  REQUIRE(make_tensor(E::Int64, {}, &b).is_ok());
  REQUIRE(make_tensor(E::Int64, {}, &c).is_ok());
  *reinterpret_cast<int64_t*>(a.buffer->data()) = INT64_MIN;
  *reinterpret_cast<int64_t*>(b.buffer->data()) = INT64_MAX;
  *reinterpret_cast<int64_t*>(c.buffer->data()) = int64_t{1} << 62;
  std::vector<Tensor> out;
  REQUIRE(run_node("Range", 11, Attributes(), {&a, &b, &c}, &out).is_ok());
  REQUIRE(out[0].dims == std::vector<int64_t>{4});
  const int64_t* p = reinterpret_cast<const int64_t*>(out[0].buffer->data());
  CHECK(p[0] == INT64_MIN);
  CHECK(p[1] == -(int64_t{1} << 62));
  CHECK(p[2] == 0);
  CHECK(p[3] == int64_t{1} << 62);
  // Float: ceil((1 - 0) / 0.3) = 4 elements, each 0 + i * 0.3f in float.
  const Tensor f0 = scalar(E::Float, 0), f1 = scalar(E::Float, 1), f3 = scalar(E::Float, 0.3);
  REQUIRE(run_node("Range", 11, Attributes(), {&f0, &f1, &f3}, &out).is_ok());
  REQUIRE(out[0].dims == std::vector<int64_t>{4});
  for (int i = 0; i < 4; ++i) CHECK(element(out[0], i) == static_cast<double>(static_cast<float>(i) * 0.3f));
  // float16 from 2048 by 1: in float16 itself 2048 + 1 would round back to 2048; in float (the
  // default stash_type) the elements are 2048, 2049 -> 2048 (nearest even), 2050, ...
  const Tensor h0 = scalar(E::Float16, 2048), h1 = scalar(E::Float16, 2052), h2 = scalar(E::Float16, 1);
  for (const int64_t stash : {int64_t{1}, int64_t{11}}) {
    REQUIRE(run_node("Range", 27, Attributes({Int("stash_type", stash)}), {&h0, &h1, &h2}, &out).is_ok());
    REQUIRE(out[0].dims == std::vector<int64_t>{4});
    const double want[] = {2048, 2048, 2050, 2052};
    for (int i = 0; i < 4; ++i) CHECK(element(out[0], i) == want[i]);
  }
  // stash_type has no effect on the other types (any value is taken).
  CHECK(run_node("Range", 27, Attributes({Int("stash_type", 7)}), {&f0, &f1, &f3}, &out).is_ok());
}

TEST_CASE("Range: inference") {
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Range", 11, Attributes(), {known_scalar(E::Int64, 0), known_scalar(E::Int64, 7), known_scalar(E::Int64, 2)}, &out)
              .is_ok());
  CHECK(out[0].shape_string() == "[4]");
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{0, 2, 4, 6});
  // Floats and int32: the length, no values.
  REQUIRE(infer_node("Range", 11, Attributes(), {known_scalar(E::Float, 0), known_scalar(E::Float, 1), known_scalar(E::Float, 0.25)}, &out)
              .is_ok());
  CHECK(out[0].shape_string() == "[4]");
  CHECK_FALSE(out[0].int_values);
  REQUIRE(infer_node("Range", 11, Attributes(), {known_scalar(E::Int32, 5), known_scalar(E::Int32, 0), known_scalar(E::Int32, -1)}, &out)
              .is_ok());
  CHECK(out[0].shape_string() == "[5]");
  CHECK_FALSE(out[0].int_values);
  // A long int64 range: its length, no values.
  REQUIRE(infer_node("Range", 11, Attributes(), {known_scalar(E::Int64, 0), known_scalar(E::Int64, 1000), known_scalar(E::Int64, 1)}, &out)
              .is_ok());
  CHECK(out[0].shape_string() == "[1000]");
  CHECK_FALSE(out[0].int_values);
  // A value not known: one dim, unknown. (torch's arange(x.size(1)): the limit from Shape -> Gather.)
  ValueInfo limit = ValueInfo::of_dims(E::Int64, {});
  REQUIRE(infer_node("Range", 11, Attributes(), {known_scalar(E::Int64, 0), limit, known_scalar(E::Int64, 1)}, &out).is_ok());
  CHECK(out[0].shape_string() == "[?]");
  std::vector<ValueInfo> shape, size1;
  REQUIRE(infer_node("Shape", 13, Attributes(), {ValueInfo::of_dims(E::Float, {2, 3})}, &shape).is_ok());
  REQUIRE(infer_node("Gather", 13, Attributes(), {shape[0], known_scalar(E::Int64, 1)}, &size1).is_ok());
  REQUIRE(infer_node("Range", 11, Attributes(), {known_scalar(E::Int64, 0), size1[0], known_scalar(E::Int64, 1)}, &out).is_ok());
  CHECK(out[0].shape_string() == "[3]");
  CHECK(*out[0].int_values == std::vector<int64_t>{0, 1, 2});
}

TEST_CASE("Range: refusals, and a prepared node given new values") {
  struct Bad {
    const char* what;
    int opset;
    std::vector<ValueInfo> in;
    std::vector<Attribute> attrs;
    StatusCode code;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"delta 0", 11, {known_scalar(E::Int64, 0), known_scalar(E::Int64, 5), known_scalar(E::Int64, 0)}, {}, StatusCode::Shape,
       "Range-11: delta is 0; the range would never reach its limit (delta must be nonzero)"},
      {"float delta 0", 11, {known_scalar(E::Float, 0), known_scalar(E::Float, 5), known_scalar(E::Float, 0)}, {}, StatusCode::Shape,
       "Range-11: delta is 0"},
      {"limit not a scalar", 11, {known_scalar(E::Int64, 0), ValueInfo::of_dims(E::Int64, {1}), known_scalar(E::Int64, 1)}, {},
       StatusCode::Shape, "Range-11: input 'limit' must be a scalar (shape []), got shape [1]"},
      {"types differ", 11, {known_scalar(E::Int64, 0), known_scalar(E::Int32, 5), known_scalar(E::Int64, 1)}, {}, StatusCode::Type,
       "Range-11: input 1 ('limit') has type tensor(int32) but input 0 ('start') has tensor(int64); both are T, one type"},
      {"uint8", 27, {ValueInfo::of_dims(E::Uint8, {}), ValueInfo::of_dims(E::Uint8, {}), ValueInfo::of_dims(E::Uint8, {})}, {},
       StatusCode::Type, "Range-27: input 0 ('start') has type tensor(uint8)"},
      {"stash_type at 11", 11, {known_scalar(E::Float, 0), known_scalar(E::Float, 5), known_scalar(E::Float, 1)},
       {Int("stash_type", 1)}, StatusCode::Attribute, "Range-11 has no attribute 'stash_type'"},
      {"stash_type 10 for float16", 27, {known_scalar(E::Float16, 0), known_scalar(E::Float16, 5), known_scalar(E::Float16, 1)},
       {Int("stash_type", 10)}, StatusCode::Attribute,
       "Range-27: stash_type 10 is not one of 1 (float) and 11 (double), the types Range computes float16 in"},
      {"NaN", 11, {known_scalar(E::Float, 0), known_scalar(E::Float, NAN), known_scalar(E::Float, 1)}, {}, StatusCode::Shape,
       "is NaN"},
      {"infinite", 11, {known_scalar(E::Float, 0), known_scalar(E::Float, INFINITY), known_scalar(E::Float, 1)}, {}, StatusCode::Shape,
       "do not fit in a tensor"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    std::vector<ValueInfo> out;
    const Status s = infer_node("Range", b.opset, Attributes(b.attrs), b.in, &out);
    INFO(s.message());
    CHECK(s.code() == b.code);
    CHECK_THAT(s.message(), Catch::Contains(b.message));
    CHECK(out.empty());
  }
  // Before its first version: no Range (nor ConstantOfShape before 9).
  const OpVersion* v = nullptr;
  Status s = resolve_op("Range", 10, &v);
  CHECK(s.code() == StatusCode::Opset);
  CHECK(s.message() == "Range: no version is defined at opset 10");
  s = resolve_op("ConstantOfShape", 8, &v);
  CHECK(s.message() == "ConstantOfShape: no version is defined at opset 8");
  // A prepared float Range reads new values each run (float values in its cache).
  PreparedOp p;
  REQUIRE(PreparedOp::prepare("Range", 11, Attributes(), &p).is_ok());
  const Tensor zero = scalar(E::Float, 0), half = scalar(E::Float, 0.5);
  for (const double limit : {1.0, 3.0, 3.0, 0.75, -1.0}) {
    const Tensor l = scalar(E::Float, limit);
    const Tensor* in[] = {&zero, &l, &half};
    Tensor out;
    REQUIRE(p.run(in, 3, &out).is_ok());
    CHECK(out.dims == std::vector<int64_t>{static_cast<int64_t>(oracle(0, limit, 0.5).size())});
  }
  const Tensor* bad[] = {&zero, &half, &zero};
  Tensor out;
  CHECK(p.run(bad, 3, &out).code() == StatusCode::Shape);
  CHECK(out.type == E::Undefined);
}
