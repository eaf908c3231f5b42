// Slice (versions 1, 10, 11, 13): outputs against an oracle written from the spec's text (each
// axis's indices enumerated one by one after the spec's adjusting and clamping, then every output
// element read at its input position), over bounds torch exports (INT64_MAX, INT64_MIN), negative
// and out-of-range bounds, negative and large steps, empty dims, every element width and strings;
// int32 and int64 index inputs; 3,000 random cases (seeded), inferred from the same values too; inference with symbols, unknown values and Shape's values; the
// versions' rules (types, negative axes from 11) and the refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::describe;
using onnxwasm_test::Ints;
using onnxwasm_test::parse_shape;
using onnxwasm_test::below;

namespace {

constexpr int64_t kMax = INT64_MAX, kMin = INT64_MIN;

// The indices one axis of size `dim` reads, from the spec: negative start and end plus dim; start
// clamped to [0, dim] stepping forward, [0, dim - 1] backward; end to [0, dim] forward,
// [-1, dim - 1] backward; then start, start + step, ... while before end.
std::vector<int64_t> oracle_indices(int64_t dim, int64_t start, int64_t end, int64_t step) {
  std::vector<int64_t> out;
  if (dim == 0) return out;
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = std::max<int64_t>(0, std::min(start, dim));
    end = std::max<int64_t>(0, std::min(end, dim));
    for (int64_t i = start; i < end; i = i > kMax - step ? kMax : i + step) out.push_back(i);
  } else {
    start = std::max<int64_t>(0, std::min(start, dim - 1));
    end = std::max<int64_t>(-1, std::min(end, dim - 1));
    for (int64_t i = start; i > end; i = i < kMin - step ? kMin : i + step) out.push_back(i);
  }
  return out;
}

struct Case {
  const char* what;
  std::vector<int64_t> dims, starts, ends, axes, steps;  // axes/steps empty: omitted
};

// The expected output: dims and, for each output element, its input position (row-major).
void oracle(const Case& c, std::vector<int64_t>* dims, std::vector<int64_t>* positions) {
  const size_t r = c.dims.size();
  std::vector<std::vector<int64_t>> idx(r);
  for (size_t a = 0; a < r; ++a)
    for (int64_t i = 0; i < c.dims[a]; ++i) idx[a].push_back(i);
  for (size_t k = 0; k < c.starts.size(); ++k) {
    int64_t a = c.axes.empty() ? static_cast<int64_t>(k) : c.axes[k];
    if (a < 0) a += static_cast<int64_t>(r);
    idx[static_cast<size_t>(a)] =
        oracle_indices(c.dims[static_cast<size_t>(a)], c.starts[k], c.ends[k], c.steps.empty() ? 1 : c.steps[k]);
  }
  dims->clear();
  for (const auto& v : idx) dims->push_back(static_cast<int64_t>(v.size()));
  positions->clear();
  std::vector<size_t> at(r, 0);
  int64_t total = 1;
  for (int64_t d : *dims) total *= d;
  for (int64_t n = 0; n < total; ++n) {
    int64_t pos = 0;
    for (size_t a = 0; a < r; ++a) pos = pos * c.dims[a] + idx[a][at[a]];
    positions->push_back(pos);
    for (size_t a = r; a-- > 0;) {
      if (++at[a] < idx[a].size()) break;
      at[a] = 0;
    }
  }
}

Tensor list_tensor(E type, const std::vector<int64_t>& v) {
  Tensor t;
  REQUIRE(make_tensor(type, {static_cast<int64_t>(v.size())}, &t).is_ok());
  for (size_t i = 0; i < v.size(); ++i) {
    if (type == E::Int64) reinterpret_cast<int64_t*>(t.buffer->data())[i] = v[i];
    else reinterpret_cast<int32_t*>(t.buffer->data())[i] = static_cast<int32_t>(v[i]);
  }
  return t;
}

// Element i holds bytes (i * 7 + b) for a width of w bytes; strings "e<i>".
Tensor numbered(E type, const std::vector<int64_t>& dims) {
  Tensor t;
  REQUIRE(make_tensor(type, dims, &t).is_ok());
  if (type == E::String) {
    for (int64_t i = 0; i < t.element_count(); ++i) t.buffer->strings()[i] = "e" + std::to_string(i);
    return t;
  }
  const int64_t w = element_bits(type) / 8;
  for (int64_t i = 0; i < t.element_count(); ++i)
    for (int64_t b = 0; b < w; ++b) t.buffer->data()[i * w + b] = static_cast<uint8_t>(i * 7 + b + (i >> 8));
  return t;
}

void check_against_oracle(const Case& c, const Tensor& data, const Tensor& out) {
  std::vector<int64_t> dims, positions;
  oracle(c, &dims, &positions);
  REQUIRE(out.dims == dims);
  REQUIRE(out.type == data.type);
  if (data.is_string()) {
    for (size_t i = 0; i < positions.size(); ++i) CHECK(out.buffer->strings()[i] == data.buffer->strings()[positions[i]]);
    return;
  }
  const size_t w = static_cast<size_t>(element_bits(data.type) / 8);
  size_t wrong = 0;
  for (size_t i = 0; i < positions.size(); ++i)
    wrong += std::memcmp(out.buffer->data() + i * w, data.buffer->data() + static_cast<size_t>(positions[i]) * w, w) != 0;
  CHECK(wrong == 0);
}

const std::vector<Case>& cases() {
  static const std::vector<Case> table = {
      {"spec example 1", {2, 4}, {1, 0}, {2, 3}, {0, 1}, {1, 2}},
      {"spec example 2", {2, 4}, {0, 1}, {-1, 1000}, {}, {}},
      {"x[:, 0] of [batch, seq, hidden]", {2, 5, 6}, {0}, {1}, {1}, {}},
      {"x[:, -1]", {2, 5, 6}, {-1}, {kMax}, {1}, {}},
      {"x[:, 1:] with INT64_MAX", {2, 5, 6}, {1}, {kMax}, {1}, {1}},
      {"x[..., ::2]", {2, 3, 7}, {0}, {kMax}, {2}, {2}},
      {"x[::-1] with INT64_MIN", {5, 3}, {-1}, {kMin}, {0}, {-1}},
      {"x[::-1] from INT64_MAX", {5, 3}, {kMax}, {kMin}, {0}, {-1}},
      {"backward to -1 (clamped to dim - 1, ends -1 + dim)", {6}, {4}, {-1}, {}, {-1}},
      {"backward with step -2, axes out of order", {4, 6}, {5, 3}, {0, 0}, {1, 0}, {-2, -1}},
      {"step larger than the dim", {3, 4}, {1}, {4}, {1}, {kMax}},
      {"step INT64_MIN", {3, 4}, {3}, {kMin}, {1}, {kMin}},
      {"start past end: empty", {3, 4}, {3}, {1}, {1}, {}},
      {"start past the dim backward", {3, 4}, {100}, {-100}, {1}, {-1}},
      {"bounds far outside", {3, 4}, {-100, -100}, {100, 100}, {}, {}},
      {"INT64_MIN start forward", {3, 4}, {kMin}, {2}, {1}, {1}},
      {"empty dim", {0, 4}, {0}, {1}, {0}, {}},
      {"slice of an empty dim leaves others", {2, 0, 3}, {1}, {3}, {2}, {}},
      {"no axes listed: a copy", {2, 3}, {}, {}, {}, {}},
      {"scalar data, no axes", {}, {}, {}, {}, {}},
      {"inner step with outer slice", {3, 4, 5}, {1, 4, 0}, {3, 0, 5}, {0, 1, 2}, {1, -2, 3}},
      {"middle strided, inner whole", {4, 6, 3}, {1}, {6}, {1}, {2}},
      {"every axis strided", {5, 5, 5}, {0, 4, 1}, {5, kMin, 5}, {2, 1, 0}, {2, -3, 3}},
  };
  return table;
}

std::vector<const Tensor*> slice_inputs(const Tensor& data, const Tensor& s, const Tensor& e, const Tensor* axes,
                                        const Tensor* steps) {
  std::vector<const Tensor*> in = {&data, &s, &e};
  if (axes || steps) in.push_back(axes);
  if (steps) in.push_back(steps);
  return in;
}

bool negative_axes(const Case& c) {
  for (const int64_t a : c.axes)
    if (a < 0) return true;
  return false;
}

ValueInfo known(E type, const std::vector<int64_t>& values) {
  ValueInfo v = ValueInfo::of_dims(type, {static_cast<int64_t>(values.size())});
  v.int_values = values;
  return v;
}

}  // namespace

TEST_CASE("Slice-10, -11 and -13 against the oracle: every element width, int32 and int64 indices") {
  for (const Case& c : cases()) {
    for (const E type : {E::Uint8, E::Float16, E::Float, E::Int64, E::Complex128, E::String, E::Bool}) {
      for (const E tind : {E::Int64, E::Int32}) {
        // (int32 cannot hold the int64 bounds: those cases run with int64 only)
        bool fits = true;
        for (const auto* list : {&c.starts, &c.ends, &c.steps})
          for (const int64_t x : *list) fits = fits && x >= INT32_MIN && x <= INT32_MAX;
        if (tind == E::Int32 && !fits) continue;
        for (const int opset : {10, 11, 13}) {
          if (opset == 10 && negative_axes(c)) continue;
          INFO(c.what << ", type " << onnx_name(type) << ", indices " << onnx_name(tind) << ", opset " << opset);
          const Tensor data = numbered(type, c.dims);
          const Tensor s = list_tensor(tind, c.starts), e = list_tensor(tind, c.ends);
          const Tensor axes = list_tensor(tind, c.axes), steps = list_tensor(tind, c.steps);
          std::vector<Tensor> out;
          const Status st = run_node("Slice", opset, Attributes(),
                                     slice_inputs(data, s, e, c.axes.empty() ? nullptr : &axes,
                                                  c.steps.empty() ? nullptr : &steps),
                                     &out);
          INFO(st.message());
          REQUIRE(st.is_ok());
          check_against_oracle(c, data, out[0]);
        }
      }
    }
  }
}

namespace {

// A random case: ranks 0 to 5 with dims 0 to 6, some axes in any order (negative ones too),
// bounds near and far outside each dim (INT64_MAX and INT64_MIN included), steps of either sign,
// small and huge; axes and steps omitted now and then.
Case random_case(std::mt19937& rng, std::string* what) {
  const auto bound = [&](int64_t dim) {
    switch (below(rng, 6)) {
      case 0: return below(rng, 2) == 0 ? kMax : kMin;
      case 1: return below(rng, 201) - 100;
      default: return below(rng, 2 * dim + 5) - dim - 2;
    }
  };
  Case c{};
  const int64_t rank = below(rng, 6);
  for (int64_t a = 0; a < rank; ++a) c.dims.push_back(below(rng, 8) == 0 ? 0 : 1 + below(rng, 6));
  std::vector<int64_t> order(static_cast<size_t>(rank));
  for (int64_t a = 0; a < rank; ++a) order[static_cast<size_t>(a)] = a;
  for (int64_t a = rank - 1; a > 0; --a) std::swap(order[static_cast<size_t>(a)], order[static_cast<size_t>(below(rng, a + 1))]);
  const size_t n = static_cast<size_t>(rank == 0 ? 0 : below(rng, rank + 1));
  const bool axes = below(rng, 4) != 0;
  const bool steps = below(rng, 3) != 0;
  for (size_t k = 0; k < n; ++k) {
    const int64_t a = axes ? order[k] : static_cast<int64_t>(k);
    const int64_t dim = c.dims[static_cast<size_t>(a)];
    c.starts.push_back(bound(dim));
    c.ends.push_back(bound(dim));
    if (axes) c.axes.push_back(below(rng, 2) == 0 ? a - rank : a);
    if (steps) {
      const int64_t m = below(rng, 8), sign = below(rng, 2) == 0 ? 1 : -1;
      c.steps.push_back(m == 0 ? kMax : m == 1 ? kMin : m == 2 ? 1000 * sign : (1 + below(rng, 4)) * sign);
    }
  }
  const auto list = [](const std::vector<int64_t>& v) {
    std::string t = "[";
    for (const int64_t x : v) t += (t.size() > 1 ? "," : "") + std::to_string(x);
    return t + "]";
  };
  *what = "random: dims " + list(c.dims) + ", starts " + list(c.starts) + ", ends " + list(c.ends) + ", axes " + list(c.axes) +
          ", steps " + list(c.steps);
  return c;
}

}  // namespace

TEST_CASE("Slice-13: random cases (3000) against the oracle, with inference from the same values") {
  std::mt19937 rng(2026);
  const E types[] = {E::Uint8, E::Float16, E::Float, E::Int64, E::Complex128, E::String, E::Bool};
  for (int k = 0; k < 3000; ++k) {
    std::string what;
    const Case c = random_case(rng, &what);
    const E type = types[rng() % 7];
    INFO(what << ", type " << onnx_name(type));
    const Tensor data = numbered(type, c.dims);
    const Tensor s = list_tensor(E::Int64, c.starts), e = list_tensor(E::Int64, c.ends);
    const Tensor axes = list_tensor(E::Int64, c.axes), steps = list_tensor(E::Int64, c.steps);
    std::vector<Tensor> out;
    const Status st = run_node("Slice", 13, Attributes(),
                               slice_inputs(data, s, e, c.axes.empty() ? nullptr : &axes, c.steps.empty() ? nullptr : &steps), &out);
    INFO(st.message());
    REQUIRE(st.is_ok());
    check_against_oracle(c, data, out[0]);
    std::vector<ValueInfo> in = {ValueInfo::of_dims(type, c.dims), known(E::Int64, c.starts), known(E::Int64, c.ends)};
    if (!c.axes.empty() || !c.steps.empty()) in.push_back(c.axes.empty() ? ValueInfo{} : known(E::Int64, c.axes));
    if (!c.steps.empty()) in.push_back(known(E::Int64, c.steps));
    std::vector<ValueInfo> inferred;
    REQUIRE(infer_node("Slice", 13, Attributes(), in, &inferred).is_ok());
    CHECK(inferred[0].shape_string() == ValueInfo::of_dims(type, out[0].dims).shape_string());
  }
}

TEST_CASE("Slice-1 (attributes, step 1) against the oracle") {
  for (const Case& c : cases()) {
    if (!c.steps.empty() || negative_axes(c)) continue;
    INFO(c.what);
    const Tensor data = numbered(E::Float, c.dims);
    std::vector<Attribute> attrs = {Ints("starts", c.starts), Ints("ends", c.ends)};
    if (!c.axes.empty()) attrs.push_back(Ints("axes", c.axes));
    std::vector<Tensor> out;
    const Status st = run_node("Slice", 1, Attributes(attrs), {&data}, &out);
    INFO(st.message());
    REQUIRE(st.is_ok());
    check_against_oracle(c, data, out[0]);
  }
}

TEST_CASE("Slice: an omitted axes input before steps, and ONNX's example values") {
  // data [[1, 2, 3, 4], [5, 6, 7, 8]] (int64): example 1 gives [[5, 7]], example 2 [[2, 3, 4]].
  Tensor data = list_tensor(E::Int64, {1, 2, 3, 4, 5, 6, 7, 8});
  data.dims = {2, 4};
  const Tensor s = list_tensor(E::Int64, {1, 0}), e = list_tensor(E::Int64, {2, 3}), st = list_tensor(E::Int64, {1, 2});
  std::vector<Tensor> out;
  REQUIRE(run_node("Slice", 13, Attributes(), {&data, &s, &e, nullptr, &st}, &out).is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{1, 2});
  CHECK(reinterpret_cast<const int64_t*>(out[0].buffer->data())[0] == 5);
  CHECK(reinterpret_cast<const int64_t*>(out[0].buffer->data())[1] == 7);
  const Tensor s2 = list_tensor(E::Int64, {0, 1}), e2 = list_tensor(E::Int64, {-1, 1000});
  REQUIRE(run_node("Slice", 11, Attributes(), {&data, &s2, &e2}, &out).is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{1, 3});
  const int64_t* p = reinterpret_cast<const int64_t*>(out[0].buffer->data());
  CHECK((p[0] == 2 && p[1] == 3 && p[2] == 4));
  // Slice-1's doc example 1 (no steps): [[5, 6, 7]].
  REQUIRE(run_node("Slice", 1, Attributes({Ints("starts", {1, 0}), Ints("ends", {2, 3}), Ints("axes", {0, 1})}), {&data}, &out)
              .is_ok());
  CHECK(out[0].dims == std::vector<int64_t>{1, 3});
  p = reinterpret_cast<const int64_t*>(out[0].buffer->data());
  CHECK((p[0] == 5 && p[1] == 6 && p[2] == 7));
}

TEST_CASE("Slice: inference with known values, symbols, unknown values and unknown rank") {
  struct Row {
    const char* data;
    std::vector<int64_t> starts, ends, axes, steps;
    const char* want;
  };
  const std::vector<Row> rows = {
      {"[batch, 5, 6]", {1}, {kMax}, {1}, {}, "[batch, 4, 6]"},
      {"[batch, 5, 6]", {0}, {1}, {-2}, {}, "[batch, 1, 6]"},
      {"[batch, seq, 6]", {1}, {kMax}, {1}, {}, "[batch, ?, 6]"},
      {"[batch, seq, 6]", {kMax}, {kMin}, {-1}, {-2}, "[batch, seq, 3]"},
      {"[batch, seq, 6]", {0}, {kMax}, {-1}, {-2}, "[batch, seq, 0]"},
      {"[4, ?]", {kMax}, {kMin}, {0}, {-1}, "[4, ?]"},
      {"[0, 3]", {1}, {2}, {0}, {}, "[0, 3]"},
      {"*", {1}, {2}, {0}, {}, "*"},
  };
  for (const Row& r : rows) {
    INFO(r.data << " -> " << r.want);
    std::vector<ValueInfo> in = {parse_shape(E::Float, r.data), known(E::Int64, r.starts), known(E::Int64, r.ends)};
    if (!r.axes.empty() || !r.steps.empty()) in.push_back(known(E::Int64, r.axes));
    if (!r.steps.empty()) in.push_back(known(E::Int64, r.steps));
    std::vector<ValueInfo> out;
    const Status s = infer_node("Slice", 13, Attributes(), in, &out);
    INFO(s.message());
    REQUIRE(s.is_ok());
    CHECK(describe(out[0]) == r.want);
  }
  // A value not known: the rank only (ONNX's rule), whichever list it is.
  for (size_t unknown = 1; unknown < 5; ++unknown) {
    std::vector<ValueInfo> in = {parse_shape(E::Float, "[2, 3, 4]"), known(E::Int32, {0}), known(E::Int32, {1}),
                                 known(E::Int32, {1}), known(E::Int32, {1})};
    in[unknown].int_values.reset();
    std::vector<ValueInfo> out;
    REQUIRE(infer_node("Slice", 11, Attributes(), in, &out).is_ok());
    CHECK(describe(out[0]) == "[?, ?, ?]");
    in[0] = parse_shape(E::Float, "*");
    REQUIRE(infer_node("Slice", 11, Attributes(), in, &out).is_ok());
    CHECK(describe(out[0]) == "*");
  }
  // Slice-1: from the attributes.
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Slice", 1, Attributes({Ints("starts", {-3}), Ints("ends", {kMax}), Ints("axes", {1})}),
                     {parse_shape(E::Float, "[n, 5]")}, &out)
              .is_ok());
  CHECK(describe(out[0]) == "[n, 3]");
}

TEST_CASE("Slice: values flow from Shape (torch's flatten: Shape -> Slice -> Concat -> Reshape)") {
  std::vector<ValueInfo> shape, head, tail, out;
  REQUIRE(infer_node("Shape", 13, Attributes(), {ValueInfo::of_dims(E::Float, {2, 3, 4, 5})}, &shape).is_ok());
  REQUIRE(infer_node("Slice", 13, Attributes(), {shape[0], known(E::Int64, {0}), known(E::Int64, {1})}, &head).is_ok());
  REQUIRE(head[0].int_values);
  CHECK(*head[0].int_values == std::vector<int64_t>{2});
  REQUIRE(infer_node("Slice", 13, Attributes(), {shape[0], known(E::Int64, {-1}), known(E::Int64, {kMin}), known(E::Int64, {0}),
                                                 known(E::Int64, {-2})},
                     &tail)
              .is_ok());
  REQUIRE(tail[0].int_values);
  CHECK(*tail[0].int_values == std::vector<int64_t>{5, 3});
  // No axes listed: the values pass whole.
  REQUIRE(infer_node("Slice", 13, Attributes(), {shape[0], known(E::Int64, {}), known(E::Int64, {})}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{2, 3, 4, 5});
  // Unknown values of the data: none out.
  ValueInfo dims = ValueInfo::of_dims(E::Int64, {4});
  REQUIRE(infer_node("Slice", 13, Attributes(), {dims, known(E::Int64, {0}), known(E::Int64, {1})}, &out).is_ok());
  CHECK_FALSE(out[0].int_values);
  CHECK(describe(out[0]) == "[1]");
}

TEST_CASE("Slice: the versions' rules and refusals") {
  struct Bad {
    const char* what;
    int opset;
    std::vector<ValueInfo> in;
    std::vector<Attribute> attrs;
    StatusCode code;
    const char* message;
  };
  const ValueInfo x = ValueInfo::of_dims(E::Float, {3, 4});
  const ValueInfo i0 = known(E::Int64, {0}), i1 = known(E::Int64, {1});
  const std::vector<Bad> cases = {
      {"step 0", 13, {x, i0, i1, i0, known(E::Int64, {0})}, {}, StatusCode::Shape,
       "Slice-13: steps [0] has a 0 at position 0; a step cannot be 0"},
      {"axis twice", 13, {x, known(E::Int64, {0, 0}), known(E::Int64, {1, 1}), known(E::Int64, {1, -1})}, {},
       StatusCode::Shape, "Slice-13: axes [1, -1] name axis 1 more than once; each axis may appear once"},
      {"axis beyond the rank", 11, {x, i0, i1, known(E::Int64, {2})}, {}, StatusCode::Shape,
       "Slice-11: axis 2 is outside [-2, 1] for data of rank 2"},
      {"negative axis at 10", 10, {x, i0, i1, known(E::Int64, {-1})}, {}, StatusCode::Shape,
       "Slice-10: axis -1 is outside [0, 1] for data of rank 2 (negative axes need opset 11 or later)"},
      {"negative axis at 1", 1, {x}, {Ints("starts", {0}), Ints("ends", {1}), Ints("axes", {-1})}, StatusCode::Attribute,
       "Slice-1: axis -1 is outside [0, 1] for data of rank 2 (negative axes need opset 11 or later)"},
      {"more starts than the rank (default axes)", 13, {x, known(E::Int64, {0, 0, 0}), known(E::Int64, {1, 1, 1})}, {},
       StatusCode::Shape, "Slice-13: axis (the default of starts' position) 2 is outside [-2, 1] for data of rank 2"},
      {"ends shorter", 13, {x, known(E::Int64, {0, 0}), i1}, {}, StatusCode::Shape,
       "Slice-13: ends [1] has 1 values but starts has 2; they must have one per sliced axis"},
      {"steps shorter", 13, {x, i0, i1, i0, known(E::Int64, {})}, {}, StatusCode::Shape, "steps [] has 0 values but starts has 1"},
      {"starts not 1-D", 13, {x, ValueInfo::of_dims(E::Int64, {}), i1}, {}, StatusCode::Shape,
       "Slice-13: input 'starts' must be a 1-D tensor, got shape []"},
      {"Tind mixed", 13, {x, i0, known(E::Int32, {1})}, {}, StatusCode::Type,
       "Slice-13: input 2 ('ends') has type tensor(int32) but input 1 ('starts') has tensor(int64); both are Tind, one type"},
      {"float indices", 13, {x, known(E::Float, {0}), i1}, {}, StatusCode::Type, "Tind must be one of tensor(int32), tensor(int64)"},
      {"bfloat16 before 13", 11, {ValueInfo::of_dims(E::Bfloat16, {2}), i0, i1}, {}, StatusCode::Type,
       "(tensor(bfloat16) needs opset 13 or later)"},
      {"int4 at 13", 13, {ValueInfo::of_dims(E::Int4, {2}), i0, i1}, {}, StatusCode::Type, "Slice-13: input 0 ('data') has type tensor(int4)"},
      {"starts required at 1", 1, {x}, {Ints("ends", {1})}, StatusCode::Attribute, "Slice-1: attribute 'starts' (INTS) is required"},
      {"no steps attribute at 1", 1, {x}, {Ints("starts", {0}), Ints("ends", {1}), Ints("steps", {1})}, StatusCode::Attribute,
       "Slice-1 has no attribute 'steps'"},
      {"two inputs at 10", 10, {x, i0}, {}, StatusCode::Input, "Slice-10 takes 3 to 5 inputs, got 2"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    std::vector<ValueInfo> out;
    const Status s = infer_node("Slice", b.opset, Attributes(b.attrs), b.in, &out);
    INFO(s.message());
    CHECK(s.code() == b.code);
    CHECK_THAT(s.message(), Catch::Contains(b.message));
    CHECK(out.empty());
  }
  // Version per opset, and bfloat16 from 13.
  const std::pair<int, int> since[] = {{1, 1}, {9, 1}, {10, 10}, {11, 11}, {12, 11}, {13, 13}, {28, 13}};
  for (const auto& [opset, want] : since) {
    const OpVersion* v = nullptr;
    REQUIRE(resolve_op("Slice", opset, &v).is_ok());
    CHECK(v->since == want);
  }
  std::vector<ValueInfo> out;
  CHECK(infer_node("Slice", 13, Attributes(), {ValueInfo::of_dims(E::Bfloat16, {2}), i0, i1}, &out).is_ok());
}

TEST_CASE("Slice: a prepared node infers again when the values change (int32 and int64), and refuses with nothing out") {
  PreparedOp p;
  REQUIRE(PreparedOp::prepare("Slice", 13, Attributes(), &p).is_ok());
  const Tensor data = numbered(E::Float, {4, 3});
  for (const E tind : {E::Int32, E::Int64}) {
    for (int64_t start = 0; start < 4; ++start) {
      const Tensor s = list_tensor(tind, {start}), e = list_tensor(tind, {tind == E::Int32 ? int64_t{INT32_MAX} : kMax});
      const Tensor* in[] = {&data, &s, &e};
      Tensor out;
      REQUIRE(p.run(in, 3, &out).is_ok());
      CHECK(out.dims == std::vector<int64_t>{4 - start, 3});
      CHECK(std::memcmp(out.buffer->data(), data.buffer->data() + start * 12, static_cast<size_t>(out.buffer->bytes())) == 0);
    }
  }
  const Tensor s = list_tensor(E::Int64, {0}), e = list_tensor(E::Int64, {1}), axes = list_tensor(E::Int64, {0}),
               zero = list_tensor(E::Int64, {0});
  const Tensor* bad[] = {&data, &s, &e, &axes, &zero};
  Tensor out;
  const Status st = p.run(bad, 5, &out);
  CHECK(st.code() == StatusCode::Shape);
  CHECK(out.type == E::Undefined);
}
