// GatherND (versions 11, 12 and 13, the only ones ONNX defines through opset 28): outputs against
// an oracle written here from the operator page (each index tuple, after its batch coordinates,
// names data[batch, tuple, :, ...]; the output lists those slices in the order of the tuples), for
// every type each version allows, every batch_dims from 0 to min(q, r) - 1, tuples of every length
// (whole-element gathers to long slices), negative indices and empty tensors, then 2,000 random
// shapes (seeded); inference with symbols
// and values; and every refusal with its code and message.
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

// ONNX's facts (onnx/defs/tensor/old.cc and defs.cc): all_tensor_types() in 11 and 12, _ir4 in 13;
// indices tensor(int64) in all three; batch_dims from 12.
const std::vector<E> kClassic = {E::Bool,  E::Complex128, E::Complex64, E::Double, E::Float,  E::Float16, E::Int16, E::Int32,
                                 E::Int64, E::Int8,       E::String,    E::Uint16, E::Uint32, E::Uint64,  E::Uint8};
std::vector<E> types_of(int since) {
  std::vector<E> t = kClassic;
  if (since >= 13) t.push_back(E::Bfloat16);
  return t;
}
int since_at(int opset) { return opset >= 13 ? 13 : opset; }

int64_t product(const std::vector<int64_t>& d, size_t begin, size_t end) {
  int64_t p = 1;
  for (size_t i = begin; i < end; ++i) p *= d[i];
  return p;
}

// Indices of `dims` whose tuple entry j is in [-s, s - 1] for s = data_dims[b + j], both signs.
Tensor tuples_of(const std::vector<int64_t>& dims, const std::vector<int64_t>& data_dims, size_t b, uint32_t seed) {
  Tensor t;
  REQUIRE(make_tensor(E::Int64, dims, &t).is_ok());
  const int64_t m = dims.back();
  uint32_t x = seed * 747796405u + 3;
  int64_t* p = reinterpret_cast<int64_t*>(t.buffer->data());
  for (int64_t i = 0; i < t.element_count(); ++i) {
    x = x * 1103515245u + 12345u;
    const int64_t s = data_dims[b + static_cast<size_t>(i % m)];
    p[i] = static_cast<int64_t>((x >> 8) % static_cast<uint32_t>(2 * s)) - s;
  }
  return t;
}

Tensor int64_tensor(std::vector<int64_t> dims, const std::vector<int64_t>& values) {
  Tensor t;
  REQUIRE(make_tensor(E::Int64, std::move(dims), &t).is_ok());
  REQUIRE(static_cast<size_t>(t.element_count()) == values.size());
  if (!values.empty()) std::memcpy(t.buffer->data(), values.data(), values.size() * 8);
  return t;
}

// The spec: for each position p of indices.shape[:-1], its batch coordinates p[:b] and its tuple
// name data's element prefix; the slice under that prefix is copied to output position p.
Tensor oracle(const Tensor& data, const Tensor& idx, size_t b) {
  const size_t r = data.dims.size(), q = idx.dims.size();
  const size_t m = static_cast<size_t>(idx.dims[q - 1]);
  std::vector<int64_t> out_dims(idx.dims.begin(), idx.dims.end() - 1);
  out_dims.insert(out_dims.end(), data.dims.begin() + static_cast<std::ptrdiff_t>(b + m), data.dims.end());
  Tensor out;
  REQUIRE(make_tensor(data.type, out_dims, &out).is_ok());
  const int64_t slice = product(data.dims, b + m, r);
  const int64_t positions = product(idx.dims, 0, q - 1);
  const size_t w = data.is_string() ? 0 : static_cast<size_t>(element_bits(data.type) / 8);
  const int64_t* iv = reinterpret_cast<const int64_t*>(idx.buffer->data());
  for (int64_t pos = 0; pos < positions; ++pos) {
    // pos's coordinates in indices.shape[:-1]; the first b are data's first b.
    std::vector<int64_t> coord(q - 1);
    int64_t rest = pos;
    for (size_t d = q - 1; d-- > 0;) {
      coord[d] = rest % idx.dims[d];
      rest /= idx.dims[d];
    }
    int64_t offset = 0;  // in elements, over data's first b + m dims
    for (size_t d = 0; d < b + m; ++d) {
      int64_t c = d < b ? coord[d] : iv[pos * static_cast<int64_t>(m) + static_cast<int64_t>(d - b)];
      if (c < 0) c += data.dims[d];
      offset = offset * data.dims[d] + c;
    }
    offset *= slice;
    for (int64_t e = 0; e < slice; ++e) {
      if (data.is_string()) out.buffer->strings()[pos * slice + e] = data.buffer->strings()[offset + e];
      else std::memcpy(out.buffer->data() + (pos * slice + e) * static_cast<int64_t>(w),
                       data.buffer->data() + (offset + e) * static_cast<int64_t>(w), w);
    }
  }
  return out;
}

Attributes batch_dims(int64_t b) { return b ? Attributes({Int("batch_dims", b)}) : Attributes(); }

struct Case {
  std::vector<int64_t> data, indices;
  int64_t b;
};

// Every batch_dims 0..min(q, r) - 1 and every tuple length 1..r - b, over ranks 1 to 4.
const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      {{5}, {3, 1}, 0},
      {{5}, {1}, 0},
      {{2, 2}, {2, 2}, 0},
      {{2, 2}, {2, 1}, 0},
      {{3, 4}, {2, 3, 2}, 0},
      {{3, 4}, {3, 1}, 1},
      {{3, 4}, {3, 5, 1}, 1},
      {{2, 2, 2}, {2, 2}, 0},
      {{2, 2, 2}, {2, 1, 2}, 0},
      {{2, 2, 2}, {2, 1}, 1},
      {{3, 4, 5}, {6, 1}, 0},
      {{3, 4, 5}, {6, 2}, 0},
      {{3, 4, 5}, {2, 3, 3}, 0},
      {{3, 4, 5}, {3, 2}, 1},
      {{3, 4, 5}, {3, 7, 1}, 1},
      {{3, 4, 5}, {3, 4, 1}, 2},
      {{3, 4, 5}, {3, 4, 2, 1}, 2},
      {{2, 3, 4, 5}, {2, 3, 7, 2}, 2},
      {{2, 3, 4, 5}, {2, 3, 1}, 2},
      {{2, 3, 4, 5}, {2, 3, 4, 1}, 3},
      {{2, 3, 4, 5}, {2, 6, 3}, 1},
      {{2, 3, 4, 5}, {5, 4}, 0},
      // Slices and runs of elements long enough for the kernels' tiles.
      {{4, 1000}, {9, 1}, 0},
      {{300}, {257, 1}, 0},
      {{2, 200}, {2, 133, 1}, 1},
      {{3, 17, 33}, {3, 70, 1}, 1},
  };
  return c;
}

}  // namespace

TEST_CASE("GatherND: opsets 11..28 resolve to versions 11, 12 and 13; none before 11") {
  for (int opset = kMinOpset; opset <= kMaxOpset; ++opset) {
    INFO("opset " << opset);
    const OpVersion* v = nullptr;
    const Status s = resolve_op("GatherND", opset, &v);
    if (opset < 11) {
      CHECK(s.code() == StatusCode::Opset);
      CHECK(s.message() == "GatherND: no version is defined at opset " + std::to_string(opset));
      continue;
    }
    REQUIRE(s.is_ok());
    CHECK(v->since == since_at(opset));
    CHECK(std::string(v->spec).find("onnx__GatherND.html#GatherND-" + std::to_string(v->since)) != std::string::npos);
  }
}

TEST_CASE("GatherND: every batch_dims and tuple length against the oracle, every type") {
  int runs = 0;
  for (int since : {11, 12, 13}) {
    for (const E type : types_of(since)) {
      for (size_t c = 0; c < cases().size(); ++c) {
        const Case& k = cases()[c];
        if (k.b > 0 && since == 11) continue;  // no batch_dims before 12
        INFO("GatherND-" << since << " " << onnx_name(type) << " case " << c);
        Tensor data = patterned_tensor(type, k.data, static_cast<uint32_t>(c + 1));
        Tensor idx = tuples_of(k.indices, k.data, static_cast<size_t>(k.b), static_cast<uint32_t>(c + 5));
        std::vector<Tensor> out;
        const Status s = run_node("GatherND", since, batch_dims(k.b), {&data, &idx}, &out);
        INFO(s.message());
        REQUIRE(s.is_ok());
        CHECK(same_tensor(out[0], oracle(data, idx, static_cast<size_t>(k.b))));
        ++runs;
      }
    }
  }
  // 26 cases, 13 of them with batch_dims > 0: 13 at version 11.
  CHECK(runs == 13 * 15 + 26 * 15 + 26 * 16);
}

TEST_CASE("GatherND: random shapes (2000) against the oracle, every version and type") {
  // data of rank 1 to 5 (dims 1 to 5, the inner ones now and then up to 40); batch_dims from 0 to
  // min(q, r) - 1; a tuple length from 1 to r - b; the indices' other dims 0 to 4.
  std::mt19937 rng(2026);
  for (int k = 0; k < 2000; ++k) {
    const int since = static_cast<int>(11 + below(rng, 3));
    std::vector<int64_t> data(static_cast<size_t>(1 + below(rng, 5)));
    for (int64_t& d : data) d = below(rng, 6) == 0 ? 1 + below(rng, 40) : 1 + below(rng, 5);
    const int64_t r = static_cast<int64_t>(data.size());
    const int64_t b = since == 11 ? 0 : below(rng, r);
    const int64_t m = 1 + below(rng, r - b);
    std::vector<int64_t> indices(data.begin(), data.begin() + b);
    for (int64_t extra = below(rng, 3); extra > 0; --extra) indices.push_back(below(rng, 5));
    indices.push_back(m);
    const std::vector<E> types = types_of(since);
    const E type = types[static_cast<size_t>(below(rng, static_cast<int64_t>(types.size())))];
    INFO("GatherND-" << since << " " << onnx_name(type) << " data " << onnxwasm_test::describe(ValueInfo::of_dims(type, data))
                     << " indices " << onnxwasm_test::describe(ValueInfo::of_dims(E::Int64, indices)) << " batch_dims " << b);
    Tensor t = patterned_tensor(type, data, static_cast<uint32_t>(k + 1));
    Tensor idx = tuples_of(indices, data, static_cast<size_t>(b), static_cast<uint32_t>(k + 5));
    std::vector<Tensor> out;
    const Status s = run_node("GatherND", since, batch_dims(b), {&t, &idx}, &out);
    INFO(s.message());
    REQUIRE(s.is_ok());
    CHECK(same_tensor(out[0], oracle(t, idx, static_cast<size_t>(b))));
  }
}

TEST_CASE("GatherND: the operator page's examples") {
  struct Example {
    std::vector<int64_t> data_dims, data, idx_dims, idx;
    int64_t b;
    std::vector<int64_t> out_dims, out;
  };
  const std::vector<int64_t> d8 = {0, 1, 2, 3, 4, 5, 6, 7};
  const Example examples[] = {
      {{2, 2}, {0, 1, 2, 3}, {2, 2}, {0, 0, 1, 1}, 0, {2}, {0, 3}},
      {{2, 2}, {0, 1, 2, 3}, {2, 1}, {1, 0}, 0, {2, 2}, {2, 3, 0, 1}},
      {{2, 2, 2}, d8, {2, 2}, {0, 1, 1, 0}, 0, {2, 2}, {2, 3, 4, 5}},
      {{2, 2, 2}, d8, {2, 1, 2}, {0, 1, 1, 0}, 0, {2, 1, 2}, {2, 3, 4, 5}},
      {{2, 2, 2}, d8, {2, 1}, {1, 0}, 1, {2, 2}, {2, 3, 4, 5}},
      // Negative indices: example 3 counted from the back.
      {{2, 2, 2}, d8, {2, 2}, {-2, -1, -1, 0}, 0, {2, 2}, {2, 3, 4, 5}},
  };
  for (const Example& e : examples) {
    Tensor data = int64_tensor(e.data_dims, e.data), idx = int64_tensor(e.idx_dims, e.idx);
    std::vector<Tensor> out;
    REQUIRE(run_node("GatherND", 13, batch_dims(e.b), {&data, &idx}, &out).is_ok());
    CHECK(same_tensor(out[0], int64_tensor(e.out_dims, e.out)));
  }
}

TEST_CASE("GatherND: empty tensors") {
  struct Empty {
    const char* what;
    std::vector<int64_t> data, indices;
    int64_t b;
    std::vector<int64_t> out;
  };
  const Empty cases[] = {
      {"no tuples", {3, 4}, {0, 2}, 0, {0}},
      {"no tuples, slices", {3, 4}, {2, 0, 1}, 0, {2, 0, 4}},
      {"empty slices: the indices are still checked", {3, 0}, {2, 1}, 0, {2, 0}},
      {"an empty batch", {0, 3}, {0, 1}, 1, {0}},
      {"an empty indexed dim, no tuples", {3, 0, 2}, {0, 2}, 0, {0, 2}},
  };
  for (const E type : {E::Float, E::String, E::Complex128, E::Bool}) {
    for (const Empty& k : cases) {
      INFO(k.what << " " << onnx_name(type));
      Tensor data = patterned_tensor(type, k.data, 1);
      Tensor idx = k.data[static_cast<size_t>(k.b)] > 0 ? tuples_of(k.indices, k.data, static_cast<size_t>(k.b), 2)
                                                       : patterned_tensor(E::Int64, k.indices, 2);
      std::vector<Tensor> out;
      const Status s = run_node("GatherND", 13, batch_dims(k.b), {&data, &idx}, &out);
      INFO(s.message());
      REQUIRE(s.is_ok());
      CHECK(out[0].dims == k.out);
      CHECK(out[0].element_count() == 0);
    }
  }
  // An empty slice does not excuse an index out of range.
  Tensor data = patterned_tensor(E::Float, {3, 0}, 1), idx = int64_tensor({2, 1}, {0, 3});
  std::vector<Tensor> out;
  const Status s = run_node("GatherND", 13, Attributes(), {&data, &idx}, &out);
  CHECK(s.code() == StatusCode::Index);
  CHECK(s.message() == "GatherND-13: index 3 at position 1 is outside [-3, 2] for axis 0 of size 3");
}

TEST_CASE("GatherND: the first index out of range is reported with its position and data's axis") {
  struct Bad {
    std::vector<int64_t> data, idx_dims, idx;
    int64_t b;
    const char* message;
  };
  const Bad cases[] = {
      {{3, 4}, {3, 1}, {0, -4, 3}, 0, "{v}: index -4 at position 1 is outside [-3, 2] for axis 0 of size 3"},
      {{3, 4}, {2, 2}, {2, 3, 1, 4}, 0, "{v}: index 4 at position 3 is outside [-4, 3] for axis 1 of size 4"},
      {{3, 4}, {2, 2}, {0, 0, -5, 9}, 0, "{v}: index -5 at position 2 is outside [-3, 2] for axis 0 of size 3"},
      {{3, 4, 5}, {3, 1}, {1, 4, 0}, 1, "{v}: index 4 at position 1 is outside [-4, 3] for axis 1 of size 4"},
      {{3, 4, 5}, {3, 2}, {0, 0, 3, 5, 0, 0}, 1, "{v}: index 5 at position 3 is outside [-5, 4] for axis 2 of size 5"},
      {{3, 4, 5}, {3, 4, 1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6}, 2,
       "{v}: index -6 at position 11 is outside [-5, 4] for axis 2 of size 5"},
  };
  for (int opset : {12, 13, kMaxOpset}) {
    const std::string label = "GatherND-" + std::to_string(since_at(opset));
    for (const Bad& k : cases) {
      Tensor data = patterned_tensor(E::Float, k.data, 1), idx = int64_tensor(k.idx_dims, k.idx);
      std::vector<Tensor> out;
      const Status s = run_node("GatherND", opset, batch_dims(k.b), {&data, &idx}, &out);
      std::string want = k.message;
      want.replace(0, 3, label);
      CHECK(s.code() == StatusCode::Index);
      CHECK(s.message() == want);
      CHECK(out.empty());
    }
  }
}

TEST_CASE("GatherND: inference and its refusals") {
  struct Row {
    const char* what;
    int first_opset;
    int64_t b;
    const char* data;
    const char* indices;
    const char* output;  // or nullptr: refused
    StatusCode code;
    const char* message;  // the whole message; {v} is the label
  };
  const Row rows[] = {
      {"tuples of 1: slices", 11, 0, "[n, 4, 5]", "[k, 1]", "[k, 4, 5]", StatusCode::Ok, ""},
      {"whole tuples: elements", 11, 0, "[n, 4, 5]", "[a, b, 3]", "[a, b]", StatusCode::Ok, ""},
      {"batch dims from whichever is known", 12, 2, "[2, ?, 4, 5]", "[?, m, 7, 1]", "[2, m, 7, 5]", StatusCode::Ok, ""},
      {"batch symbols", 12, 1, "[batch, 4, 5]", "[batch, ?, 2]", "[batch, ?]", StatusCode::Ok, ""},
      {"unknown tuple length: unknown rank", 11, 0, "[3, 4]", "[2, ?]", "*", StatusCode::Ok, ""},
      {"unknown data rank", 11, 0, "*", "[2, 1]", "*", StatusCode::Ok, ""},
      {"unknown indices rank", 11, 0, "[3, 4]", "*", "*", StatusCode::Ok, ""},
      {"tuple longer than data's rank", 11, 0, "[3, 4]", "[2, 3]", nullptr, StatusCode::Shape,
       "{v}: indices has shape [2, 3] and data [3, 4]; the indices' last dim 3 must be in [1, 2] (data's rank 2 minus batch_dims 0)"},
      {"tuple longer than the dims after the batch", 12, 1, "[3, 4]", "[3, 2]", nullptr, StatusCode::Shape,
       "{v}: indices has shape [3, 2] and data [3, 4]; the indices' last dim 2 must be in [1, 1] (data's rank 2 minus batch_dims 1)"},
      {"empty tuples", 11, 0, "[3, 4]", "[2, 0]", nullptr, StatusCode::Shape,
       "{v}: indices has shape [2, 0] and data [3, 4]; the indices' last dim 0 must be in [1, 2] (data's rank 2 minus batch_dims 0)"},
      {"batch dims differ", 12, 2, "[2, 3, 4]", "[2, 4, 1]", nullptr, StatusCode::Shape,
       "{v}: indices has shape [2, 4, 1] and data [2, 3, 4]; dimension 1 of indices (4) and of data (3) must be equal: the first 2 are batch dims (batch_dims 2)"},
      {"batch_dims not below the indices' rank", 12, 2, "[2, 3, 4]", "[2, 3]", nullptr, StatusCode::Attribute,
       "{v}: batch_dims 2 is outside [0, 1] for data of rank 3 and indices of rank 2 (batch_dims < min(r, q))"},
      {"batch_dims not below data's rank", 12, 1, "[3]", "[3, 1]", nullptr, StatusCode::Attribute,
       "{v}: batch_dims 1 is outside [0, 0] for data of rank 1 and indices of rank 2 (batch_dims < min(r, q))"},
      {"negative batch_dims", 12, -1, "[3, 4]", "[3, 1]", nullptr, StatusCode::Attribute,
       "{v}: batch_dims -1 is outside [0, 1] for data of rank 2 and indices of rank 2 (batch_dims < min(r, q))"},
      {"scalar data", 11, 0, "[]", "[1]", nullptr, StatusCode::Shape, "{v}: data must have rank >= 1, got a scalar"},
      {"scalar indices", 11, 0, "[3]", "[]", nullptr, StatusCode::Shape, "{v}: indices must have rank >= 1, got a scalar"},
  };
  for (int opset = 11; opset <= kMaxOpset; ++opset) {
    const std::string label = "GatherND-" + std::to_string(since_at(opset));
    for (const Row& r : rows) {
      if (opset < r.first_opset) continue;
      INFO(r.what << " at opset " << opset);
      std::vector<ValueInfo> out;
      const Status s = infer_node("GatherND", opset, batch_dims(r.b),
                                  {parse_shape(E::Float16, r.data), parse_shape(E::Int64, r.indices)}, &out);
      INFO(s.message());
      if (r.output) {
        REQUIRE(s.is_ok());
        CHECK(out[0].type == E::Float16);
        CHECK(onnxwasm_test::describe(out[0]) == r.output);
      } else {
        CHECK(s.code() == r.code);
        std::string want = r.message;
        want.replace(0, 3, label);
        CHECK(s.message() == want);
      }
    }
  }
  // Version 11 has no batch_dims.
  std::vector<ValueInfo> out;
  const Status s = infer_node("GatherND", 11, batch_dims(1),
                              {ValueInfo::of_dims(E::Float, {2, 2}), ValueInfo::of_dims(E::Int64, {2, 1})}, &out);
  CHECK(s.code() == StatusCode::Attribute);
  CHECK(s.message() == "GatherND-11 has no attribute 'batch_dims'; it allows none");
  // Known values of a 1-D int64 gathered at known 1-tuples are known.
  ValueInfo data = ValueInfo::of_dims(E::Int64, {3}), idx = ValueInfo::of_dims(E::Int64, {2, 1});
  data.int_values = std::vector<int64_t>{5, 6, 7};
  idx.int_values = std::vector<int64_t>{-1, 1};
  REQUIRE(infer_node("GatherND", 13, Attributes(), {data, idx}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{7, 6});
  idx.int_values = std::vector<int64_t>{3, 1};
  REQUIRE(infer_node("GatherND", 13, Attributes(), {data, idx}, &out).is_ok());
  CHECK_FALSE(out[0].int_values);
}

TEST_CASE("GatherND: types accepted and refused by each version; indices int64 only") {
  for (int opset = 11; opset <= kMaxOpset; ++opset) {
    const int since = since_at(opset);
    const std::vector<E> allowed = types_of(since);
    const std::string label = "GatherND-" + std::to_string(since);
    for (int id = 0; id <= kMaxElementTypeId; ++id) {
      const E t = static_cast<E>(id);
      INFO("opset " << opset << " type " << onnx_name(t));
      std::vector<ValueInfo> out;
      Status s = infer_node("GatherND", opset, Attributes(), {ValueInfo::of_dims(t, {2}), ValueInfo::of_dims(E::Int64, {1})}, &out);
      if (std::find(allowed.begin(), allowed.end(), t) != allowed.end()) {
        CHECK(s.is_ok());
      } else {
        CHECK(s.code() == StatusCode::Type);
        CHECK_THAT(s.message(), Catch::Contains(label + ": input 0 ('data')"));
        if (t == E::Bfloat16) CHECK_THAT(s.message(), Catch::Contains("(tensor(bfloat16) needs opset 13 or later)"));
      }
      if (t == E::Int64) continue;
      s = infer_node("GatherND", opset, Attributes(), {ValueInfo::of_dims(E::Float, {2}), ValueInfo::of_dims(t, {1})}, &out);
      CHECK(s.code() == StatusCode::Type);
      CHECK_THAT(s.message(), Catch::Contains(label + ": input 1 ('indices')"));
      CHECK_THAT(s.message(), Catch::Contains("input 'indices' must be tensor(int64)"));
    }
  }
}
