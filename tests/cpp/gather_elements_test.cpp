// GatherElements (versions 11 and 13, the only ones ONNX defines through opset 28): outputs
// against an oracle written here from the operator page (out[i] = data[i with its axis coordinate
// replaced by indices[i]]), for every type each version allows, every axis of ranks 1 to 4 (and two of rank 20), negative
// indices, indices smaller than data off the axis and larger along it, empty tensors and rows long
// enough for the SIMD kernels' tiles, then 2,000 random shapes (seeded); inference with symbols and values; and every refusal with its
// code and message.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;
using onnxwasm_test::parse_shape;
using onnxwasm_test::patterned_tensor;
using onnxwasm_test::same_tensor;
using onnxwasm_test::below;

namespace {

// ONNX's facts (onnx/defs/tensor/old.cc and defs.cc): all_tensor_types() in 11, _ir4 in 13.
const std::vector<E> kClassic = {E::Bool,  E::Complex128, E::Complex64, E::Double, E::Float,  E::Float16, E::Int16, E::Int32,
                                 E::Int64, E::Int8,       E::String,    E::Uint16, E::Uint32, E::Uint64,  E::Uint8};
std::vector<E> types_of(int since) {
  std::vector<E> t = kClassic;
  if (since >= 13) t.push_back(E::Bfloat16);
  return t;
}
int since_at(int opset) { return opset >= 13 ? 13 : 11; }

std::vector<int64_t> strides_of(const std::vector<int64_t>& dims) {
  std::vector<int64_t> s(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) s[d - 1] = s[d] * dims[d];
  return s;
}

// Indices of `dims` in [-axis_dim, axis_dim - 1], both signs, from a seed.
Tensor indices_of(E type, const std::vector<int64_t>& dims, int64_t axis_dim, uint32_t seed) {
  Tensor t;
  REQUIRE(make_tensor(type, dims, &t).is_ok());
  uint32_t x = seed * 747796405u + 7;
  for (int64_t i = 0; i < t.element_count(); ++i) {
    x = x * 1103515245u + 12345u;
    const int64_t v = static_cast<int64_t>((x >> 8) % static_cast<uint32_t>(2 * axis_dim)) - axis_dim;
    if (type == E::Int32) reinterpret_cast<int32_t*>(t.buffer->data())[i] = static_cast<int32_t>(v);
    else reinterpret_cast<int64_t*>(t.buffer->data())[i] = v;
  }
  return t;
}

int64_t index_at(const Tensor& idx, int64_t i) {
  return idx.type == E::Int32 ? reinterpret_cast<const int32_t*>(idx.buffer->data())[i]
                              : reinterpret_cast<const int64_t*>(idx.buffer->data())[i];
}

// The spec, element by element.
Tensor oracle(const Tensor& data, const Tensor& idx, int64_t axis) {
  const size_t r = data.dims.size();
  if (axis < 0) axis += static_cast<int64_t>(r);
  Tensor out;
  REQUIRE(make_tensor(data.type, idx.dims, &out).is_ok());
  const std::vector<int64_t> ds = strides_of(data.dims), is = strides_of(idx.dims);
  const size_t w = data.is_string() ? 0 : static_cast<size_t>(element_bits(data.type) / 8);
  for (int64_t i = 0; i < idx.element_count(); ++i) {
    int64_t src = 0;
    for (size_t d = 0; d < r; ++d) {
      int64_t c = i / is[d] % idx.dims[d];
      if (static_cast<int64_t>(d) == axis) {
        c = index_at(idx, i);
        if (c < 0) c += data.dims[d];
      }
      src += c * ds[d];
    }
    if (data.is_string()) out.buffer->strings()[i] = data.buffer->strings()[src];
    else std::memcpy(out.buffer->data() + i * w, data.buffer->data() + src * w, w);
  }
  return out;
}

Attributes axis_attr(int64_t a) { return Attributes({Int("axis", a)}); }

}  // namespace

TEST_CASE("GatherElements: opsets 11..28 resolve to versions 11 and 13; none before 11") {
  for (int opset = kMinOpset; opset <= kMaxOpset; ++opset) {
    INFO("opset " << opset);
    const OpVersion* v = nullptr;
    const Status s = resolve_op("GatherElements", opset, &v);
    if (opset < 11) {
      CHECK(s.code() == StatusCode::Opset);
      CHECK(s.message() == "GatherElements: no version is defined at opset " + std::to_string(opset));
      continue;
    }
    REQUIRE(s.is_ok());
    CHECK(v->since == since_at(opset));
    CHECK(std::string(v->spec).find("onnx__GatherElements.html#GatherElements-" + std::to_string(v->since)) !=
          std::string::npos);
  }
}

TEST_CASE("GatherElements: every axis of ranks 1 to 4 against the oracle, every type, int32 and int64 indices") {
  struct Case {
    std::vector<int64_t> data, indices;
    int64_t axis;
  };
  const std::vector<Case> cases = {
      {{5}, {7}, 0},              {{5}, {1}, -1},             {{1}, {3}, 0},
      {{3, 4}, {2, 4}, 0},        {{3, 4}, {5, 2}, -2},       {{3, 4}, {3, 4}, 1},
      {{3, 4}, {2, 9}, -1},       {{3, 4}, {1, 1}, 1},        {{2, 3, 4}, {4, 2, 3}, 0},
      {{2, 3, 4}, {2, 5, 4}, 1},  {{2, 3, 4}, {1, 2, 6}, 2},  {{2, 3, 4}, {2, 3, 4}, -1},
      {{2, 3, 4, 5}, {2, 2, 7, 3}, 2}, {{2, 3, 4, 5}, {1, 3, 4, 2}, 3}, {{2, 3, 4, 5}, {3, 1, 2, 5}, -4},
      // Rows long enough for the kernels' tiles (inner axis) and the loop (outer axis).
      {{3, 70}, {3, 133}, 1},     {{70, 3}, {133, 3}, 0},     {{2, 2, 300}, {2, 1, 257}, -1},
      // Rank 20 (no limit on the rank).
      {{2, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4}, {2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 5}, 19},
      {{2, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4}, {2, 1, 1, 1, 1, 1, 1, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3}, 9},
  };
  int runs = 0;
  for (int since : {11, 13}) {
    for (const E type : types_of(since)) {
      for (const E itype : {E::Int32, E::Int64}) {
        for (size_t c = 0; c < cases.size(); ++c) {
          const Case& k = cases[c];
          const int64_t axis_dim = k.data[static_cast<size_t>(k.axis < 0 ? k.axis + static_cast<int64_t>(k.data.size()) : k.axis)];
          INFO("GatherElements-" << since << " " << onnx_name(type) << " indices " << onnx_name(itype) << " case " << c);
          Tensor data = patterned_tensor(type, k.data, static_cast<uint32_t>(c + 1));
          Tensor idx = indices_of(itype, k.indices, axis_dim, static_cast<uint32_t>(c + 7));
          std::vector<Tensor> out;
          const Status s = run_node("GatherElements", since, axis_attr(k.axis), {&data, &idx}, &out);
          INFO(s.message());
          REQUIRE(s.is_ok());
          CHECK(same_tensor(out[0], oracle(data, idx, k.axis)));
          ++runs;
        }
      }
    }
  }
  CHECK(runs == (15 + 16) * 2 * 20);
}

TEST_CASE("GatherElements: random shapes (2000) against the oracle, every version and type") {
  // data of rank 1 to 5 (dims 1 to 5, now and then up to 40); indices of the same rank, each dim
  // at most data's (0 included) but any length along the axis.
  std::mt19937 rng(2026);
  for (int k = 0; k < 2000; ++k) {
    const int since = below(rng, 2) == 0 ? 11 : 13;
    std::vector<int64_t> data(static_cast<size_t>(1 + below(rng, 5)));
    for (int64_t& d : data) d = below(rng, 6) == 0 ? 1 + below(rng, 40) : 1 + below(rng, 5);
    const int64_t r = static_cast<int64_t>(data.size());
    const int64_t axis = below(rng, 2 * r) - r;
    const size_t a = static_cast<size_t>(axis < 0 ? axis + r : axis);
    std::vector<int64_t> indices(data.size());
    for (size_t i = 0; i < data.size(); ++i) indices[i] = i == a ? below(rng, 45) : below(rng, data[i] + 1);
    const std::vector<E> types = types_of(since);
    const E type = types[static_cast<size_t>(below(rng, static_cast<int64_t>(types.size())))];
    const E itype = below(rng, 2) == 0 ? E::Int32 : E::Int64;
    INFO("GatherElements-" << since << " " << onnx_name(type) << " data " << onnxwasm_test::describe(ValueInfo::of_dims(type, data))
                           << " indices " << onnxwasm_test::describe(ValueInfo::of_dims(itype, indices)) << " axis " << axis);
    Tensor t = patterned_tensor(type, data, static_cast<uint32_t>(k + 1));
    Tensor idx = indices_of(itype, indices, data[a], static_cast<uint32_t>(k + 7));
    std::vector<Tensor> out;
    const Status s = run_node("GatherElements", since, axis_attr(axis), {&t, &idx}, &out);
    INFO(s.message());
    REQUIRE(s.is_ok());
    CHECK(same_tensor(out[0], oracle(t, idx, axis)));
  }
}

TEST_CASE("GatherElements: the operator page's examples, and the default axis 0") {
  Tensor data = patterned_tensor(E::Int64, {2, 2}, 0), idx = patterned_tensor(E::Int64, {2, 2}, 0);
  const int64_t d1[] = {1, 2, 3, 4}, i1[] = {0, 0, 1, 0}, o1[] = {1, 1, 4, 3};
  std::memcpy(data.buffer->data(), d1, sizeof d1);
  std::memcpy(idx.buffer->data(), i1, sizeof i1);
  std::vector<Tensor> out;
  REQUIRE(run_node("GatherElements", 13, axis_attr(1), {&data, &idx}, &out).is_ok());
  CHECK(std::memcmp(out[0].buffer->data(), o1, sizeof o1) == 0);
  Tensor data2 = patterned_tensor(E::Int32, {3, 3}, 0), idx2 = patterned_tensor(E::Int32, {2, 3}, 0);
  const int32_t d2[] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, i2[] = {1, 2, 0, 2, 0, 0}, o2[] = {4, 8, 3, 7, 2, 3};
  std::memcpy(data2.buffer->data(), d2, sizeof d2);
  std::memcpy(idx2.buffer->data(), i2, sizeof i2);
  REQUIRE(run_node("GatherElements", 11, Attributes(), {&data2, &idx2}, &out).is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{2, 3});
  CHECK(std::memcmp(out[0].buffer->data(), o2, sizeof o2) == 0);
  // Negative indices count from the back of the axis.
  const int32_t i3[] = {-2, -1, -3, -1, -3, 0}, o3[] = {4, 8, 3, 7, 2, 3};
  std::memcpy(idx2.buffer->data(), i3, sizeof i3);
  REQUIRE(run_node("GatherElements", 13, axis_attr(-2), {&data2, &idx2}, &out).is_ok());
  CHECK(std::memcmp(out[0].buffer->data(), o3, sizeof o3) == 0);
}

TEST_CASE("GatherElements: empty tensors") {
  struct Case {
    std::vector<int64_t> data, indices;
    int64_t axis;
  };
  // Empty indices make an empty output, whatever data holds (an empty axis included).
  const std::vector<Case> cases = {{{3, 4}, {0, 4}, 0}, {{3, 4}, {3, 0}, 1}, {{3, 0}, {3, 0}, 1},
                                   {{0, 4}, {0, 2}, 0}, {{3, 0}, {3, 0}, 0}, {{0}, {0}, 0}};
  for (const E type : {E::Float, E::String, E::Complex128}) {
    for (const Case& k : cases) {
      Tensor data = patterned_tensor(type, k.data, 1), idx = patterned_tensor(E::Int64, k.indices, 2);
      std::vector<Tensor> out;
      const Status s = run_node("GatherElements", 13, axis_attr(k.axis), {&data, &idx}, &out);
      INFO(s.message());
      REQUIRE(s.is_ok());
      CHECK(out[0].dims == k.indices);
      CHECK(out[0].element_count() == 0);
    }
  }
  // Indices into an empty axis: none is in range.
  Tensor data = patterned_tensor(E::Float, {0, 2}, 1), idx = patterned_tensor(E::Int64, {1, 2}, 2);
  std::memset(idx.buffer->data(), 0, 16);
  std::vector<Tensor> out;
  const Status s = run_node("GatherElements", 13, axis_attr(0), {&data, &idx}, &out);
  CHECK(s.code() == StatusCode::Index);
  CHECK(s.message() == "GatherElements-13: index 0 at position 0 is outside [0, -1] for axis 0 of size 0");
}

TEST_CASE("GatherElements: the first index out of range is reported; nothing is written") {
  for (const E itype : {E::Int32, E::Int64}) {
    for (const int64_t bad : {int64_t{3}, int64_t{-4}, int64_t{1000}}) {
      Tensor data = patterned_tensor(E::Float, {2, 3}, 1), idx = indices_of(itype, {2, 3}, 3, 4);
      // Positions 4 and 5 are bad: 4 is named.
      for (int64_t at : {4, 5}) {
        if (itype == E::Int32) reinterpret_cast<int32_t*>(idx.buffer->data())[at] = static_cast<int32_t>(bad);
        else reinterpret_cast<int64_t*>(idx.buffer->data())[at] = bad;
      }
      for (const int64_t axis : {int64_t{1}, int64_t{-1}}) {
        std::vector<Tensor> out;
        const Status s = run_node("GatherElements", 11, axis_attr(axis), {&data, &idx}, &out);
        CHECK(s.code() == StatusCode::Index);
        CHECK(s.message() == "GatherElements-11: index " + std::to_string(bad) +
                                 " at position 4 is outside [-3, 2] for axis 1 of size 3");
        CHECK(out.empty());
      }
    }
  }
  // Along axis 0 the range is axis 0's.
  Tensor data = patterned_tensor(E::Uint8, {2, 3}, 1), idx = indices_of(E::Int64, {4, 3}, 2, 4);
  reinterpret_cast<int64_t*>(idx.buffer->data())[7] = 2;
  std::vector<Tensor> out;
  const Status s = run_node("GatherElements", 13, axis_attr(0), {&data, &idx}, &out);
  CHECK(s.message() == "GatherElements-13: index 2 at position 7 is outside [-2, 1] for axis 0 of size 2");
}

TEST_CASE("GatherElements: inference and its refusals") {
  struct Row {
    const char* what;
    int64_t axis;
    const char* data;
    const char* indices;
    const char* output;  // or nullptr: refused
    StatusCode code;
    const char* message;  // the whole message; {v} is the label
  };
  const Row rows[] = {
      {"the indices' shape", 0, "[batch, 4]", "[7, n]", "[7, n]", StatusCode::Ok, ""},
      {"larger along the axis", 1, "[3, 4]", "[3, 9]", "[3, 9]", StatusCode::Ok, ""},
      {"unknown data rank", -1, "*", "[2, 3]", "[2, 3]", StatusCode::Ok, ""},
      {"unknown indices rank", 1, "[2, 3]", "*", "*", StatusCode::Ok, ""},
      {"both unknown", 5, "*", "*", "*", StatusCode::Ok, ""},
      {"symbols off the axis are not compared", 0, "[a, b]", "[c, d]", "[c, d]", StatusCode::Ok, ""},
      {"ranks differ", 0, "[3, 4]", "[3]", nullptr, StatusCode::Shape,
       "{v}: indices has shape [3] and data [3, 4]; they must have the same rank"},
      {"larger off the axis", 1, "[3, 4]", "[4, 4]", nullptr, StatusCode::Shape,
       "{v}: indices has shape [4, 4] and data [3, 4]; dimension 0 of indices (4) must not exceed data's (3) off the axis 1"},
      {"axis beyond the rank", 2, "[3, 4]", "[3, 4]", nullptr, StatusCode::Attribute,
       "{v}: axis 2 is outside [-2, 1] for data of rank 2"},
      {"axis beyond the indices' rank", -3, "*", "[3, 4]", nullptr, StatusCode::Attribute,
       "{v}: axis -3 is outside [-2, 1] for data of rank 2"},
      {"scalar data", 0, "[]", "[]", nullptr, StatusCode::Shape, "{v}: data must have rank >= 1, got a scalar"},
  };
  for (int opset = 11; opset <= kMaxOpset; ++opset) {
    const std::string label = "GatherElements-" + std::to_string(since_at(opset));
    for (const Row& r : rows) {
      INFO(r.what << " at opset " << opset);
      std::vector<ValueInfo> out;
      const Status s = infer_node("GatherElements", opset, axis_attr(r.axis),
                                  {parse_shape(E::Float, r.data), parse_shape(E::Int64, r.indices)}, &out);
      INFO(s.message());
      if (r.output) {
        REQUIRE(s.is_ok());
        CHECK(out[0].type == E::Float);
        CHECK(onnxwasm_test::describe(out[0]) == r.output);
        CHECK_FALSE(out[0].int_values);
      } else {
        CHECK(s.code() == r.code);
        std::string want = r.message;
        want.replace(want.find("{v}"), 3, label);
        CHECK(s.message() == want);
      }
    }
  }
  // Known values of a 1-D int64 (a shape) gathered at known indices are known.
  ValueInfo data = ValueInfo::of_dims(E::Int64, {3}), idx = ValueInfo::of_dims(E::Int64, {4});
  data.int_values = std::vector<int64_t>{5, 6, 7};
  idx.int_values = std::vector<int64_t>{2, -3, 0, -1};
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("GatherElements", 13, Attributes(), {data, idx}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{7, 5, 5, 7});
  idx.int_values = std::vector<int64_t>{2, 3, 0, 0};
  REQUIRE(infer_node("GatherElements", 13, Attributes(), {data, idx}, &out).is_ok());
  CHECK_FALSE(out[0].int_values);
}

TEST_CASE("GatherElements: types accepted and refused by each version") {
  for (int opset = 11; opset <= kMaxOpset; ++opset) {
    const int since = since_at(opset);
    const std::vector<E> allowed = types_of(since);
    for (int id = 0; id <= kMaxElementTypeId; ++id) {
      const E t = static_cast<E>(id);
      for (const E itype : {E::Int32, E::Int64, E::Int16, E::Uint32, E::Float}) {
        INFO("opset " << opset << " data " << onnx_name(t) << " indices " << onnx_name(itype));
        std::vector<ValueInfo> out;
        const Status s = infer_node("GatherElements", opset, Attributes(),
                                    {ValueInfo::of_dims(t, {2}), ValueInfo::of_dims(itype, {2})}, &out);
        const bool data_ok = std::find(allowed.begin(), allowed.end(), t) != allowed.end();
        const bool idx_ok = itype == E::Int32 || itype == E::Int64;
        if (data_ok && idx_ok) {
          CHECK(s.is_ok());
        } else {
          CHECK(s.code() == StatusCode::Type);
          const std::string label = "GatherElements-" + std::to_string(since);
          CHECK_THAT(s.message(), Catch::Contains(label + ": input " + (data_ok ? "1 ('indices')" : "0 ('data')")));
          if (!data_ok && t == E::Bfloat16) CHECK_THAT(s.message(), Catch::Contains("(tensor(bfloat16) needs opset 13 or later)"));
        }
      }
    }
  }
}
