// Concat (versions 1, 4, 11, 13): a variadic input of one type. Output bytes against a reference
// built here, inference with symbols and values, the version rules (axis optional in 1, negative
// from 11, types per version) and the refusals.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;

namespace {

Tensor iota(E type, std::vector<int64_t> dims, int start) {
  Tensor t;
  REQUIRE(make_tensor(type, std::move(dims), &t).is_ok());
  if (type == E::String) {
    for (int64_t i = 0; i < t.element_count(); ++i) t.buffer->strings()[i] = "s" + std::to_string(start + i);
  } else {
    for (int64_t i = 0; i < t.buffer->bytes(); ++i) t.buffer->data()[i] = static_cast<uint8_t>(start + i);
  }
  return t;
}

Attributes axis(int64_t a) { return Attributes({Int("axis", a)}); }

}  // namespace

TEST_CASE("Concat: three inputs along each axis, bytes in order") {
  // a [2, 1, 3], b [2, 2, 3], c [2, 1, 3] along axis 1 (or -2): out[o][k] walks a, b, c.
  for (const E type : {E::Float, E::Uint8, E::Int64, E::Float16, E::Bool}) {
    for (const int64_t ax : {int64_t{1}, int64_t{-2}}) {
      INFO(static_cast<int>(type) << " axis " << ax);
      Tensor a = iota(type, {2, 1, 3}, 0), b = iota(type, {2, 2, 3}, 100), c = iota(type, {2, 1, 3}, 200);
      std::vector<Tensor> out;
      REQUIRE(run_node("Concat", 13, axis(ax), {&a, &b, &c}, &out).is_ok());
      CHECK(out[0].dims == std::vector<int64_t>{2, 4, 3});
      const size_t w = static_cast<size_t>(element_bits(type) / 8);
      std::vector<uint8_t> want;
      for (int o = 0; o < 2; ++o)
        for (const Tensor* t : {&a, &b, &c}) {
          const size_t block = static_cast<size_t>(t->dims[1] * 3) * w;
          want.insert(want.end(), t->buffer->data() + o * block, t->buffer->data() + (o + 1) * block);
        }
      REQUIRE(static_cast<size_t>(out[0].buffer->bytes()) >= want.size());
      CHECK(std::memcmp(out[0].buffer->data(), want.data(), want.size()) == 0);
    }
  }
  Tensor s1 = iota(E::String, {1, 2}, 0), s2 = iota(E::String, {1, 1}, 5);
  std::vector<Tensor> out;
  REQUIRE(run_node("Concat", 11, axis(-1), {&s1, &s2}, &out).is_ok());
  CHECK(out[0].buffer->strings()[2] == "s5");
  // One input: a copy. Empty inputs take no room.
  Tensor e = iota(E::Float, {2, 0}, 0), f = iota(E::Float, {2, 2}, 9);
  REQUIRE(run_node("Concat", 4, axis(1), {&e, &f, &e}, &out).is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{2, 2});
  CHECK(std::memcmp(out[0].buffer->data(), f.buffer->data(), 16) == 0);
  CHECK(out[0].buffer != f.buffer);
}

TEST_CASE("Concat: inference merges dims, sums the axis, and concatenates known values") {
  ValueInfo a, b;
  a.type = b.type = E::Float;
  a.dims = {Dim::named("batch"), Dim::known(2)};
  b.dims = {Dim::unknown(), Dim::known(5)};
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Concat", 13, axis(1), {a, b}, &out).is_ok());
  CHECK(out[0].shape_string() == "[batch, 7]");
  b.dims[1] = Dim::named("n");
  REQUIRE(infer_node("Concat", 13, axis(1), {a, b}, &out).is_ok());
  CHECK(out[0].shape_string() == "[batch, ?]");
  ValueInfo x = ValueInfo::of_dims(E::Int64, {1}), y = ValueInfo::of_dims(E::Int64, {2});
  x.int_values = std::vector<int64_t>{4};
  y.int_values = std::vector<int64_t>{-1, 8};
  REQUIRE(infer_node("Concat", 13, axis(0), {x, y}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{4, -1, 8});
  y.int_values.reset();
  REQUIRE(infer_node("Concat", 13, axis(0), {x, y}, &out).is_ok());
  CHECK_FALSE(out[0].int_values);
}

TEST_CASE("Concat: the versions' rules and refusals") {
  struct Bad {
    const char* what;
    int opset;
    std::vector<std::vector<int64_t>> dims;
    std::vector<E> types;
    std::vector<Attribute> attrs;
    StatusCode code;
    const char* message;
  };
  const Attribute neg = Int("axis", -1);
  const std::vector<Bad> cases = {
      {"no input", 13, {}, {}, {axis(0).list()[0]}, StatusCode::Input, "Concat-13 takes at least 1 input, got 0"},
      {"axis required from 4", 4, {{2}}, {E::Float}, {}, StatusCode::Attribute, "Concat-4: attribute 'axis' (INT) is required"},
      {"negative axis before 11", 4, {{2}}, {E::Float}, {neg}, StatusCode::Attribute,
       "Concat-4: axis -1 is outside [0, 0] for inputs of rank 1 (negative axes need opset 11 or later)"},
      {"axis beyond the rank", 13, {{2, 2}}, {E::Float}, {axis(2).list()[0]}, StatusCode::Attribute,
       "Concat-13: axis 2 is outside [-2, 1] for inputs of rank 2"},
      {"ranks differ", 13, {{2, 2}, {2}}, {E::Float, E::Float}, {axis(0).list()[0]}, StatusCode::Shape,
       "Concat-13: input 1 has shape [2] and input 0 [2, 2]; every input must have the same rank"},
      {"another dim differs", 13, {{2, 2}, {2, 3}}, {E::Float, E::Float}, {axis(0).list()[0]}, StatusCode::Shape,
       "dimension 1 must be equal (only axis 0 may differ)"},
      {"types differ", 13, {{2}, {2}}, {E::Float, E::Int64}, {axis(0).list()[0]}, StatusCode::Type,
       "Concat-13: input 1 ('inputs') has type tensor(int64) but input 0 ('inputs') has tensor(float); both are T, one type"},
      {"int64 before 4", 1, {{2}}, {E::Int64}, {}, StatusCode::Type, "(tensor(int64) needs opset 4 or later)"},
      {"bfloat16 before 13", 11, {{2}}, {E::Bfloat16}, {axis(0).list()[0]}, StatusCode::Type, "(tensor(bfloat16) needs opset 13 or later)"},
      {"scalars", 13, {{}}, {E::Float}, {axis(0).list()[0]}, StatusCode::Shape, "Concat-13: inputs must have rank >= 1, got scalars"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    std::vector<ValueInfo> in;
    for (size_t i = 0; i < b.dims.size(); ++i) in.push_back(ValueInfo::of_dims(b.types[i], b.dims[i]));
    std::vector<ValueInfo> out;
    const Status s = infer_node("Concat", b.opset, Attributes(b.attrs), in, &out);
    INFO(s.message());
    CHECK(s.code() == b.code);
    CHECK(s.message().find(b.message) != std::string::npos);
  }
  // Version 1's axis defaults to 1.
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Concat", 1, Attributes(), {ValueInfo::of_dims(E::Float, {2, 3}), ValueInfo::of_dims(E::Float, {2, 1})}, &out).is_ok());
  CHECK(out[0].shape_string() == "[2, 4]");
}

TEST_CASE("Values flow through inference: Shape -> Gather -> Unsqueeze -> Concat -> Reshape (x.view(x.size(0), -1))") {
  ValueInfo x = ValueInfo::of_dims(E::Float, {4, 3, 8});
  std::vector<ValueInfo> shape, first, unsq, cat, out;
  REQUIRE(infer_node("Shape", 13, Attributes(), {x}, &shape).is_ok());
  REQUIRE(shape[0].int_values);
  ValueInfo zero = ValueInfo::of_dims(E::Int64, {});
  zero.int_values = std::vector<int64_t>{0};
  REQUIRE(infer_node("Gather", 13, Attributes(), {shape[0], zero}, &first).is_ok());
  REQUIRE(first[0].int_values);
  CHECK(*first[0].int_values == std::vector<int64_t>{4});
  ValueInfo axes0 = ValueInfo::of_dims(E::Int64, {1});
  axes0.int_values = std::vector<int64_t>{0};
  REQUIRE(infer_node("Unsqueeze", 13, Attributes(), {first[0], axes0}, &unsq).is_ok());
  ValueInfo minus1 = ValueInfo::of_dims(E::Int64, {1});
  minus1.int_values = std::vector<int64_t>{-1};
  REQUIRE(infer_node("Concat", 13, axis(0), {unsq[0], minus1}, &cat).is_ok());
  REQUIRE(cat[0].int_values);
  CHECK(*cat[0].int_values == std::vector<int64_t>{4, -1});
  REQUIRE(infer_node("Reshape", 14, Attributes(), {x, cat[0]}, &out).is_ok());
  CHECK(out[0].shape_string() == "[4, 24]");
  // An index outside the known values gives no values (the run reports the index).
  zero.int_values = std::vector<int64_t>{3};
  REQUIRE(infer_node("Gather", 13, Attributes(), {shape[0], zero}, &first).is_ok());
  CHECK_FALSE(first[0].int_values);
}

TEST_CASE("Symbolic values flow through inference: x.view(x.size(0), -1) on ['batch', 3, 8] infers ['batch', 24]") {
  const ValueInfo x = onnxwasm_test::parse_shape(E::Float, "[batch, 3, 8]");
  std::vector<ValueInfo> shape, first, unsq, cat, out;
  REQUIRE(infer_node("Shape", 13, Attributes(), {x}, &shape).is_ok());
  CHECK_FALSE(shape[0].int_values);
  REQUIRE(shape[0].dim_values);
  CHECK(ValueInfo{E::Int64, true, *shape[0].dim_values, {}, {}}.shape_string() == "[batch, 3, 8]");  // (the values printed as a shape)
  ValueInfo zero = ValueInfo::of_dims(E::Int64, {});
  zero.int_values = std::vector<int64_t>{0};
  REQUIRE(infer_node("Gather", 13, Attributes(), {shape[0], zero}, &first).is_ok());
  REQUIRE(first[0].dim_values);
  CHECK(first[0].dim_values->at(0) == Dim::named("batch"));
  ValueInfo axes0 = ValueInfo::of_dims(E::Int64, {1});
  axes0.int_values = std::vector<int64_t>{0};
  REQUIRE(infer_node("Unsqueeze", 13, Attributes(), {first[0], axes0}, &unsq).is_ok());
  REQUIRE(unsq[0].dim_values);
  ValueInfo minus1 = ValueInfo::of_dims(E::Int64, {1});
  minus1.int_values = std::vector<int64_t>{-1};
  REQUIRE(infer_node("Concat", 13, axis(0), {unsq[0], minus1}, &cat).is_ok());
  REQUIRE(cat[0].dim_values);
  CHECK(ValueInfo{E::Int64, true, *cat[0].dim_values, {}, {}}.shape_string() == "[batch, -1]");
  // The -1 is solved with 'batch' cancelled on both sides.
  REQUIRE(infer_node("Reshape", 14, Attributes(), {x, cat[0]}, &out).is_ok());
  CHECK(out[0].shape_string() == "[batch, 24]");
  // A Gather of the known entry gives a number: Shape(x)[2] = 8.
  zero.int_values = std::vector<int64_t>{-1};
  REQUIRE(infer_node("Gather", 13, Attributes(), {shape[0], zero}, &first).is_ok());
  REQUIRE(first[0].int_values);
  CHECK(*first[0].int_values == std::vector<int64_t>{8});
  // An entry that is unknown stays unknown: Reshape to [?, 8] of [batch, seq, 8] gives [?, 8].
  const ValueInfo y = onnxwasm_test::parse_shape(E::Float, "[batch, seq, 8]");
  ValueInfo partial = ValueInfo::of_dims(E::Int64, {2});
  partial.set_values({Dim::unknown(), Dim::known(8)});
  REQUIRE(partial.dim_values);
  REQUIRE(infer_node("Reshape", 14, Attributes(), {y, partial}, &out).is_ok());
  CHECK(out[0].shape_string() == "[?, 8]");
  // ['batch', -1] on [batch, seq, 8]: the -1 is seq*8, which no single dim names: unknown.
  REQUIRE(infer_node("Reshape", 14, Attributes(), {y, cat[0]}, &out).is_ok());
  CHECK(out[0].shape_string() == "[batch, ?]");
  // Every entry unknown: no values at all.
  partial.set_values({Dim::unknown(), Dim::unknown()});
  CHECK_FALSE(partial.dim_values);
  CHECK_FALSE(partial.int_values);
}
