// ConstantOfShape (versions 9, 20, 21, 23, 24, 25): the value's types each version allows (T2,
// listed here from each version's page) and refuses, outputs compared element by element with
// the value (packed sub-byte codes unpacked here; their padding bits 0), the float 0 default, a
// scalar from an empty shape, inference with and without the shape's values (and the values of a
// small int64 output), and the refusals.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;

namespace {

Attribute value_attr(E type, uint64_t bits, std::vector<int64_t> dims = {1}) {
  Attribute a;
  a.name = "value";
  a.kind = AttrKind::Tensor;
  REQUIRE(make_tensor(type, std::move(dims), &a.tensor).is_ok());
  if (!a.tensor.is_string() && a.tensor.buffer->bytes() > 0)
    std::memcpy(a.tensor.buffer->data(), &bits, static_cast<size_t>(std::min<int64_t>(8, a.tensor.buffer->bytes())));
  return a;
}

Tensor shape_tensor(const std::vector<int64_t>& v) {
  Tensor t;
  REQUIRE(make_tensor(E::Int64, {static_cast<int64_t>(v.size())}, &t).is_ok());
  for (size_t i = 0; i < v.size(); ++i) reinterpret_cast<int64_t*>(t.buffer->data())[i] = v[i];
  return t;
}

ValueInfo known(const std::vector<int64_t>& v) {
  ValueInfo x = ValueInfo::of_dims(E::Int64, {static_cast<int64_t>(v.size())});
  x.int_values = v;
  return x;
}

// Element i's code (its bits), read from the packed or whole-byte storage.
uint64_t code_at(const Tensor& t, int64_t i) {
  const int bits = element_bits(t.type);
  if (bits < 8) {
    const int64_t bit = i * bits;
    return (t.buffer->data()[bit / 8] >> (bit % 8)) & ((1u << bits) - 1u);
  }
  uint64_t x = 0;
  std::memcpy(&x, t.buffer->data() + i * (bits / 8), static_cast<size_t>(std::min(8, bits / 8)));
  return x;
}

}  // namespace

TEST_CASE("ConstantOfShape: the value's types of each version, and outputs holding it everywhere") {
  using Types = std::vector<E>;
  const Types t9 = {E::Float16, E::Float, E::Double, E::Int8, E::Int16, E::Int32, E::Int64, E::Uint8, E::Uint16, E::Uint32, E::Uint64, E::Bool};
  Types t20 = t9;
  t20.insert(t20.end(), {E::Bfloat16, E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz});
  Types t21 = t20;
  t21.insert(t21.end(), {E::Uint4, E::Int4});
  Types t23 = t21;
  t23.push_back(E::Float4e2m1);
  Types t24 = t23;
  t24.push_back(E::Float8e8m0);
  Types t25 = t24;
  t25.insert(t25.end(), {E::Uint2, E::Int2});
  const std::vector<std::pair<int, const Types*>> versions = {{9, &t9}, {20, &t20}, {21, &t21}, {23, &t23}, {24, &t24}, {25, &t25}};
  const std::pair<int, int> opsets[] = {{9, 9}, {19, 9}, {20, 20}, {21, 21}, {22, 21}, {23, 23}, {24, 24}, {25, 25}, {28, 25}};
  int accepted = 0;
  for (const auto& [opset, since] : opsets) {
    const Types* allowed = nullptr;
    for (const auto& [s, types] : versions)
      if (s == since) allowed = types;
    for (int id = 1; id <= kMaxElementTypeId; ++id) {
      const E type = static_cast<E>(id);
      INFO("opset " << opset << ", value of type " << onnx_name(type));
      // A code with every bit of the element set in a pattern: 0xA5... truncated to its width.
      const uint64_t bits = 0xA5C3E1F00F1E3C5Aull;
      const Tensor shape = shape_tensor({3, 5});
      std::vector<Tensor> out;
      const Status s = run_node("ConstantOfShape", opset, Attributes({value_attr(type, bits)}), {&shape}, &out);
      INFO(s.message());
      if (std::find(allowed->begin(), allowed->end(), type) == allowed->end()) {
        CHECK(s.code() == StatusCode::Type);
        CHECK_THAT(s.message(), Catch::Contains("ConstantOfShape-" + std::to_string(since) + ": attribute 'value' has type tensor(" +
                                                onnx_name(type) + ")"));
        int needs = 0;
        for (const auto& [later, types] : versions)
          if (!needs && later > since && std::find(types->begin(), types->end(), type) != types->end()) needs = later;
        if (needs) CHECK_THAT(s.message(), Catch::Contains("needs opset " + std::to_string(needs) + " or later"));
        else CHECK_THAT(s.message(), !Catch::Contains("needs opset"));
        continue;
      }
      REQUIRE(s.is_ok());
      ++accepted;
      REQUIRE(out[0].type == type);
      REQUIRE(out[0].dims == std::vector<int64_t>{3, 5});
      const int w = element_bits(type);
      const uint64_t want = w >= 64 ? bits : bits & ((uint64_t{1} << w) - 1);
      int wrong = 0;
      for (int64_t i = 0; i < 15; ++i) wrong += code_at(out[0], i) != want;
      CHECK(wrong == 0);
      if (w < 8 && 15 * w % 8) {
        // The padding bits of the last byte are 0.
        const uint8_t last = out[0].buffer->data()[15 * w / 8];
        CHECK((last >> (15 * w % 8)) == 0);
      }
    }
  }
  CHECK(accepted == 2 * 12 + 17 + 2 * 19 + 20 + 21 + 2 * 23);
}

TEST_CASE("ConstantOfShape: the default float 0, a scalar, empty outputs, and inference") {
  const Tensor shape = shape_tensor({2, 3});
  std::vector<Tensor> out;
  REQUIRE(run_node("ConstantOfShape", 9, Attributes(), {&shape}, &out).is_ok());
  CHECK(out[0].type == E::Float);
  CHECK(out[0].dims == std::vector<int64_t>{2, 3});
  for (int i = 0; i < 6; ++i) CHECK(reinterpret_cast<const float*>(out[0].buffer->data())[i] == 0.0f);
  const Tensor empty = shape_tensor({});
  REQUIRE(run_node("ConstantOfShape", 25, Attributes({value_attr(E::Int32, 7)}), {&empty}, &out).is_ok());
  CHECK(out[0].dims.empty());
  CHECK(*reinterpret_cast<const int32_t*>(out[0].buffer->data()) == 7);
  const Tensor zero = shape_tensor({4, 0});
  REQUIRE(run_node("ConstantOfShape", 25, Attributes({value_attr(E::Int4, 3)}), {&zero}, &out).is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{4, 0});
  // A value given as a 1-element tensor of any rank ([] or [1, 1]).
  REQUIRE(run_node("ConstantOfShape", 9, Attributes({value_attr(E::Double, 0x3FF0000000000000ull, {})}), {&shape}, &out).is_ok());
  CHECK(reinterpret_cast<const double*>(out[0].buffer->data())[5] == 1.0);
  REQUIRE(run_node("ConstantOfShape", 9, Attributes({value_attr(E::Int8, 0xFF, {1, 1})}), {&shape}, &out).is_ok());
  CHECK(reinterpret_cast<const int8_t*>(out[0].buffer->data())[5] == -1);

  std::vector<ValueInfo> info;
  REQUIRE(infer_node("ConstantOfShape", 20, Attributes({value_attr(E::Int64, 5)}), {known({3})}, &info).is_ok());
  CHECK(info[0].shape_string() == "[3]");
  REQUIRE(info[0].int_values);
  CHECK(*info[0].int_values == std::vector<int64_t>{5, 5, 5});
  REQUIRE(infer_node("ConstantOfShape", 20, Attributes({value_attr(E::Int64, 5)}), {known({100})}, &info).is_ok());
  CHECK_FALSE(info[0].int_values);
  REQUIRE(infer_node("ConstantOfShape", 20, Attributes(), {known({2, 3})}, &info).is_ok());
  CHECK(info[0].type == E::Float);
  CHECK(info[0].shape_string() == "[2, 3]");
  CHECK_FALSE(info[0].int_values);
  REQUIRE(infer_node("ConstantOfShape", 20, Attributes(), {ValueInfo::of_dims(E::Int64, {3})}, &info).is_ok());
  CHECK(info[0].shape_string() == "[?, ?, ?]");
  ValueInfo any = ValueInfo::of_dims(E::Int64, {});
  any.rank_known = false;
  REQUIRE(infer_node("ConstantOfShape", 20, Attributes(), {any}, &info).is_ok());
  CHECK_FALSE(info[0].rank_known);
  ValueInfo n = ValueInfo::of_dims(E::Int64, {});
  n.dims = {Dim::named("n")};
  REQUIRE(infer_node("ConstantOfShape", 20, Attributes(), {n}, &info).is_ok());
  CHECK_FALSE(info[0].rank_known);
}

TEST_CASE("ConstantOfShape: refusals") {
  struct Bad {
    const char* what;
    int opset;
    ValueInfo in;
    std::vector<Attribute> attrs;
    StatusCode code;
    const char* message;
  };
  Attribute as_int = onnxwasm_test::Int("value", 1);
  const std::vector<Bad> cases = {
      {"negative dim", 25, known({2, -1}), {}, StatusCode::Shape,
       "ConstantOfShape-25: the shape's value -1 at position 1 is negative; every dimension must be >= 0"},
      {"shape not 1-D", 25, ValueInfo::of_dims(E::Int64, {1, 2}), {}, StatusCode::Shape,
       "ConstantOfShape-25: input 'input' (the shape) must be a 1-D tensor, got shape [1, 2]"},
      {"int32 shape", 25, ValueInfo::of_dims(E::Int32, {2}), {}, StatusCode::Type,
       "ConstantOfShape-25: input 0 ('input') has type tensor(int32), which ConstantOfShape-25 does not allow; T1 must be one of "
       "tensor(int64)"},
      {"two elements", 25, known({2}), {value_attr(E::Float, 0, {2})}, StatusCode::Attribute,
       "ConstantOfShape-25: attribute 'value' has 2 elements; it must be a one-element tensor"},
      {"no element", 25, known({2}), {value_attr(E::Float, 0, {0})}, StatusCode::Attribute, "has 0 elements"},
      {"string value", 25, known({2}), {value_attr(E::String, 0)}, StatusCode::Type,
       "attribute 'value' has type tensor(string), which ConstantOfShape-25 does not allow"},
      {"value as an INT", 25, known({2}), {as_int}, StatusCode::Attribute,
       "ConstantOfShape-25: attribute 'value' must be TENSOR, got INT"},
      // (a model fuzzer's finding: the module aborted allocating 2^31 dims)
      {"a shape declared with 2^31 values", 9, ValueInfo::of_dims(E::Int64, {int64_t{1} << 31}), {}, StatusCode::Shape,
       "ConstantOfShape-9: input 'input' (the shape) has 2147483648 values; an output rank that large is not supported"},
      {"a shape declared with 2^20 + 1 values", 25, ValueInfo::of_dims(E::Int64, {kMaxRank + 1}), {}, StatusCode::Shape,
       "has 1048577 values; an output rank that large is not supported"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    std::vector<ValueInfo> out;
    const Status s = infer_node("ConstantOfShape", b.opset, Attributes(b.attrs), {b.in}, &out);
    INFO(s.message());
    CHECK(s.code() == b.code);
    CHECK_THAT(s.message(), Catch::Contains(b.message));
    CHECK(out.empty());
  }
}
