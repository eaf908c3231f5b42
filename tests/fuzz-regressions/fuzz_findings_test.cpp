// The findings of the libFuzzer targets (fuzz/), each as a direct test of the C++ API, so that
// they stay covered whatever the fuzzers' input encoding becomes. The crashing fuzz inputs
// themselves are next to this file (tests/fuzz-regressions/<target>/, named like the sections
// below); scripts/fuzz-native.sh builds this file with the sanitizers and runs it before fuzzing.
// Catch2 v2, no main: fuzz/catch_main.cpp or tests/cpp/main.cpp provides it.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>

#include "src/runtime.h"
#include "src/tensor.h"

using namespace onnxwasm;

namespace {

constexpr int64_t kHuge = int64_t{1} << 62;
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

Tensor tensor(ElementType type, const std::vector<int64_t>& dims) {
  Tensor t;
  const Status s = make_tensor(type, dims, &t);
  INFO(s.message());
  REQUIRE(s.is_ok());
  return t;
}

Tensor int64s(const std::vector<int64_t>& values) {
  Tensor t = tensor(ElementType::Int64, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) reinterpret_cast<int64_t*>(t.buffer->data())[i] = values[i];
  return t;
}

Attributes axis(int64_t a) {
  Attributes attrs;
  attrs.add(Attribute{"axis", AttrKind::Int, {a}, {}, {}});
  return attrs;
}

// run_node, checked against infer_node on the same concrete shapes: both succeed with `dims`.
void expect_run(const std::string& op, const Attributes& attrs, const std::vector<const Tensor*>& in,
                const std::vector<int64_t>& dims) {
  std::vector<Tensor> out;
  const Status s = run_node(op, 13, attrs, in, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  REQUIRE(out.size() == 1);
  CHECK(out[0].dims == dims);
  CHECK(out[0].element_count() == 0);
  std::vector<ValueInfo> infos;
  for (const Tensor* t : in) infos.push_back(ValueInfo::of_dims(t->type, t->dims));
  if (op == "Reshape") infos[1].int_values = std::vector<int64_t>(
      reinterpret_cast<const int64_t*>(in[1]->buffer->data()),
      reinterpret_cast<const int64_t*>(in[1]->buffer->data()) + in[1]->element_count());
  std::vector<ValueInfo> inferred;
  const Status is = infer_node(op, 13, attrs, infos, &inferred);
  INFO(is.message());
  REQUIRE(is.is_ok());
  CHECK(inferred[0].shape_string() == ValueInfo::of_dims(in[0]->type, dims).shape_string());
}

}  // namespace

// infer_fuzzer/typeset-contains-invalid-type-id: TypeSet::contains shifted 1 by the type id, UB
// for an id outside [0, 63] (infer_node takes the type ids the caller gives).
TEST_CASE("fuzz finding: an invalid element type id is refused, not shifted by") {
  const TypeSet set = {ElementType::Float, ElementType::Int64};
  for (int32_t id : {-2, -1, 64, 80, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()})
    CHECK_FALSE(set.contains(static_cast<ElementType>(id)));
  ValueInfo data;
  data.type = static_cast<ElementType>(-2);
  data.dims = {Dim::known(2)};
  std::vector<ValueInfo> out;
  const Status s = infer_node("Gather", 13, {}, {data, ValueInfo::of_dims(ElementType::Int64, {1})}, &out);
  CHECK(s.code() == StatusCode::Type);
  CHECK(out.empty());
}

// run_fuzzer/element-count-overflow-beside-zero-dim: Tensor::element_count multiplied the dims
// in order, overflowing int64 (UB) before reaching the 0 of a tensor make_tensor had accepted.
TEST_CASE("fuzz finding: an empty tensor with huge dims counts 0 elements") {
  const Tensor t = tensor(ElementType::Float, {5, kHuge, 0, 0});
  CHECK(t.element_count() == 0);
  const Tensor data = tensor(ElementType::Float, {3, 2});
  const Tensor indices = tensor(ElementType::Int64, {kHuge, 4, 0});
  expect_run("Gather", axis(0), {&data, &indices}, {kHuge, 4, 0, 2});
}

// run_fuzzer/gather-empty-output-with-huge-dims: an empty output whose other dims multiply past
// int64 was refused ("overflows int64"), though make_tensor accepts such a tensor.
TEST_CASE("fuzz finding: Gather to an empty output with huge dims succeeds") {
  const Tensor data = tensor(ElementType::Uint32, {3, 6, kI64Max - 250, 0});
  Tensor index = tensor(ElementType::Int32, {});
  *reinterpret_cast<int32_t*>(index.buffer->data()) = -3;
  expect_run("Gather", axis(0), {&data, &index}, {6, kI64Max - 250, 0});
}

// run_fuzzer/gather-outer-product-overflow: run_gather multiplied the dims before the axis
// (signed overflow, UB) even when the output is empty and nothing is copied.
TEST_CASE("fuzz finding: Gather past huge leading dims of an empty tensor") {
  const Tensor data = tensor(ElementType::Float, {kHuge, 4, 0});
  const Tensor indices = tensor(ElementType::Int64, {0});
  expect_run("Gather", axis(2), {&data, &indices}, {kHuge, 4, 0});
}

// run_fuzzer/reshape-empty-tensor-with-huge-dims: Reshape counted the elements of an empty input
// (or shape) without letting its 0 win over the overflow of the other dims.
TEST_CASE("fuzz finding: Reshape of an empty tensor with huge dims") {
  const Tensor data = tensor(ElementType::Complex64, {kHuge, 3, 0, 3});
  const Tensor same = int64s({kHuge, 3, 0, 3});
  expect_run("Reshape", {}, {&data, &same}, {kHuge, 3, 0, 3});
  const Tensor flat = tensor(ElementType::Float16, {1, 4294967295, kHuge, 0});
  const Tensor minus_one = int64s({-1});
  expect_run("Reshape", {}, {&flat, &minus_one}, {0});
}

// (the harness's finding: it held every op it named to Reshape's rules; Div of two empty tensors
// is an empty tensor, as numpy's broadcasting gives)
TEST_CASE("fuzz finding: Div of two empty float tensors is an empty tensor") {
  const Tensor a = tensor(ElementType::Float, {0});
  const Tensor b = tensor(ElementType::Float, {0});
  expect_run("Div", {}, {&a, &b}, {0});
}

// infer_fuzzer/arith-values-dims-overflow: the inference of Add, Sub, Mul and Div, which passes
// small int64 values on (Shape -> Mul -> Reshape), counted a ValueInfo's elements with an int64
// product that overflowed (UB) for dims given with values; a count that overflows now means the
// values are not used (the output's count overflows too: a ShapeError, as without values).
TEST_CASE("fuzz finding: Div inference of int64 values whose dims overflow int64") {
  ValueInfo a = ValueInfo::of_dims(ElementType::Int64, {kHuge, 8});
  a.int_values = std::vector<int64_t>{6};
  ValueInfo b = ValueInfo::of_dims(ElementType::Int64, {1});
  b.int_values = std::vector<int64_t>{3};
  std::vector<ValueInfo> out;
  const Status s = infer_node("Div", 14, {}, {a, b}, &out);
  CHECK(s.code() == StatusCode::Shape);
  CHECK(s.message() == "Div-14: the output shape [4611686018427387904, 8] has an element count that overflows int64");
  // huge dims beside a 0 in the broadcast output: no values, no overflow
  ValueInfo c = ValueInfo::of_dims(ElementType::Int64, {kHuge, kHuge, 0});
  c.int_values = std::vector<int64_t>{};
  ValueInfo d = ValueInfo::of_dims(ElementType::Int64, {1, 1, 1});
  d.int_values = std::vector<int64_t>{2};
  out.clear();
  const Status s2 = infer_node("Mul", 14, {}, {c, d}, &out);
  INFO(s2.message());
  REQUIRE(s2.is_ok());
  CHECK(out[0].shape_string() == "[4611686018427387904, 4611686018427387904, 0]");
}

// run_fuzzer/castlike-other-output-type: the harness's finding (its check of a prepared run with
// other inputs wanted input 0's type); CastLike's output takes input 1's type and dims of input 0.
TEST_CASE("fuzz finding: CastLike of an empty uint8 tensor like an empty float8 one") {
  const Tensor x = tensor(ElementType::Uint8, {4, 0});
  const Tensor like = tensor(ElementType::Float8e4m3fnuz, {0, 0});
  std::vector<Tensor> out;
  const Status s = run_node("CastLike", 19, {}, {&x, &like}, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  CHECK(out[0].type == ElementType::Float8e4m3fnuz);
  CHECK(out[0].dims == std::vector<int64_t>{4, 0});
}

// run_fuzzer/castlike-unparsable-string-at-run: the harness's finding (it wanted every run error
// but an index's or memory's at inference too); a string that does not parse as a number is an
// InvalidArgumentError of the run, which inference, seeing no values, cannot give.
TEST_CASE("fuzz finding: CastLike of a string that is not a number fails at run, not at inference") {
  Tensor x;
  REQUIRE(make_tensor(ElementType::String, {1}, &x).is_ok());
  x.buffer->strings()[0] = "\xdc\xdct";
  const Tensor like = tensor(ElementType::Float, {0});
  std::vector<Tensor> out;
  const Status s = run_node("CastLike", 25, {}, {&x, &like}, &out);
  CHECK(s.code() == StatusCode::InvalidArgument);
  CHECK(out.empty());
  std::vector<ValueInfo> inferred;
  CHECK(infer_node("CastLike", 25, {}, {ValueInfo::of_dims(ElementType::String, {1}), ValueInfo::of_dims(ElementType::Float, {0})}, &inferred).is_ok());
}

// infer_fuzzer/constant-of-shape-values-of-unknown-rank: ConstantOfShape's inference read the
// shape input's dims[0] (to compare it with the values' count) when the rank was unknown and the
// dims empty (inferShapes takes { value } without dims; in wasm it read address 0 and gave a wrong
// ShapeError). Values alone give the output's dims.
TEST_CASE("fuzz finding: ConstantOfShape inference from a shape's values whose rank is unknown") {
  ValueInfo shape = ValueInfo::of_dims(ElementType::Int64, {});
  shape.rank_known = false;
  shape.int_values = std::vector<int64_t>{2, 3};
  std::vector<ValueInfo> out;
  const Status s = infer_node("ConstantOfShape", 20, {}, {shape}, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  CHECK(out[0].shape_string() == "[2, 3]");
}

// run_fuzzer/slice-empty-input-with-huge-dims: Slice's copy computed the input's strides before
// looking at its element count, and an empty input whose other dims are huge overflowed them (UB).
// An empty input has an empty output: nothing is copied.
TEST_CASE("fuzz finding: Slice of an empty tensor with huge dims") {
  const Tensor x = tensor(ElementType::Float, {0, 2, kHuge});
  const Tensor starts = int64s({1}), ends = int64s({2}), axes = int64s({1});
  std::vector<Tensor> out;
  const Status s = run_node("Slice", 13, {}, {&x, &starts, &ends, &axes}, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{0, 1, kHuge});
}

// run_fuzzer/gather-nd-huge-dim-beside-an-empty-one: GatherND refused data [2^32 + 1, 0, 2] for
// having more than 2^32 slices a batch (a Shape error inference does not give), though a batch of
// it holds none: its indices are out of range, an Index error as for any empty indexed dim.
TEST_CASE("fuzz finding: GatherND into an empty indexed dim beside a huge one") {
  const Tensor data = tensor(ElementType::Bool, {(int64_t{1} << 32) + 1, 0, 2});
  const Tensor indices = int64s({3, 0});
  Tensor idx = tensor(ElementType::Int64, {1, 2});
  std::memcpy(idx.buffer->data(), indices.buffer->data(), 16);
  std::vector<Tensor> out;
  const Status s = run_node("GatherND", 12, {}, {&data, &idx}, &out);
  CHECK(s.code() == StatusCode::Index);
  CHECK(out.empty());
  std::vector<ValueInfo> inferred;
  CHECK(infer_node("GatherND", 12, {}, {ValueInfo::of_dims(ElementType::Bool, data.dims), ValueInfo::of_dims(ElementType::Int64, {1, 2})}, &inferred).is_ok());
}

// run_fuzzer (its input not kept): DequantizeLinear multiplied the dims after the axis before
// looking at the element count, and an empty x with huge dims overflowed the product (UB).
TEST_CASE("fuzz finding: DequantizeLinear of an empty tensor with huge dims after the axis") {
  const Tensor x = tensor(ElementType::Int8, {0, 3, kHuge});
  const Tensor scale = tensor(ElementType::Float, {0});
  Attributes attrs;
  attrs.add(Attribute{"axis", AttrKind::Int, {0}, {}, {}});
  std::vector<Tensor> out;
  const Status s = run_node("DequantizeLinear", 13, attrs, {&x, &scale}, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{0, 3, kHuge});
}
