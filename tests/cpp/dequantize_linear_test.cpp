// DequantizeLinear-10, -13, -19, -21, -23, -24 and -25 against an oracle written from the spec
// (y = (x - x_zero_point) * x_scale, x_scale broadcast per tensor, per axis or per block along
// `axis`) in onnxruntime's CPU kernel's arithmetic (quantize_linear.cc: the difference in int32,
// the product in float, then the output type's rounding; int32 x minus a zero point wraps). Every output element is computed on its
// own from its multi-index, with its own decoding of the codes: a table of cases, then 3,000
// random well-formed ones (seeded). Then inference (types per version, symbolic dims), and the
// refusals with their messages.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "src/kernels/float16.h"
#include "src/kernels/minifloat.h"
#include "src/parallel.h"
#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;
using onnxwasm_test::parse_shape;

namespace {

constexpr int64_t kNone = INT64_MIN;  // attribute not given

struct Case {
  const char* name;
  int opset;
  E x_type;
  std::vector<int64_t> x_dims;
  E scale_type;
  std::vector<int64_t> scale_dims;
  bool zero_point;
  int64_t axis, block_size, output_dtype;  // kNone: not given
};

int64_t product(const std::vector<int64_t>& d) {
  int64_t p = 1;
  for (int64_t x : d) p *= x;
  return p;
}

Tensor make(E type, const std::vector<int64_t>& dims) {
  Tensor t;
  REQUIRE(make_tensor(type, dims, &t).is_ok());
  return t;
}

// Oracle decoding: element i of a tensor of type t, read as ONNX stores it.
int32_t oracle_code(const uint8_t* p, int64_t i, E t) {
  switch (t) {
    case E::Int8: return static_cast<int8_t>(p[i]);
    case E::Uint8: return p[i];
    case E::Int16: return static_cast<int16_t>(p[2 * i] | p[2 * i + 1] << 8);
    case E::Uint16: return p[2 * i] | p[2 * i + 1] << 8;
    case E::Int32: {
      int32_t v;
      std::memcpy(&v, p + 4 * i, 4);
      return v;
    }
    case E::Int4:
    case E::Uint4: {
      const int32_t nib = (p[i / 2] >> (i % 2 * 4)) & 15;
      return t == E::Int4 && nib > 7 ? nib - 16 : nib;
    }
    case E::Int2:
    case E::Uint2: {
      const int32_t c = (p[i / 4] >> (i % 4 * 2)) & 3;
      return t == E::Int2 && c > 1 ? c - 4 : c;
    }
    default: FAIL("no oracle for this type"); return 0;
  }
}

float oracle_scale(const Tensor& s, int64_t i) {
  if (s.type == E::Float) return reinterpret_cast<const float*>(s.buffer->data())[i];
  const uint16_t h = reinterpret_cast<const uint16_t*>(s.buffer->data())[i];
  return s.type == E::Bfloat16 ? bits_float(static_cast<uint32_t>(h) << 16) : half_to_float(h);
}

// The index into x_scale (and x_zero_point) of x's element e.
int64_t scale_index(const Case& c, int64_t e) {
  const int64_t n = product(c.scale_dims);
  if (n == 1 && (c.block_size == kNone || c.block_size == 0)) return 0;
  const int64_t rank = static_cast<int64_t>(c.x_dims.size());
  const int64_t axis_attr = c.axis == kNone ? 1 : c.axis;
  const int64_t axis = axis_attr < 0 ? axis_attr + rank : axis_attr;
  std::vector<int64_t> idx(c.x_dims.size());
  for (int64_t d = rank - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = e % c.x_dims[static_cast<size_t>(d)];
    e /= c.x_dims[static_cast<size_t>(d)];
  }
  if (c.block_size == kNone || c.block_size == 0) return idx[static_cast<size_t>(axis)];
  int64_t s = 0;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t i = d == axis ? idx[static_cast<size_t>(d)] / c.block_size : idx[static_cast<size_t>(d)];
    s = s * c.scale_dims[static_cast<size_t>(d)] + i;
  }
  return s;
}

E output_type_of(const Case& c) {
  if (c.opset < 19) return E::Float;
  if (c.output_dtype != kNone && c.output_dtype != 0) return static_cast<E>(c.output_dtype);
  return c.scale_type;
}

Attributes attributes_of(const Case& c) {
  std::vector<Attribute> a;
  if (c.axis != kNone) a.push_back(Int("axis", c.axis));
  if (c.block_size != kNone) a.push_back(Int("block_size", c.block_size));
  if (c.output_dtype != kNone) a.push_back(Int("output_dtype", c.output_dtype));
  return Attributes(a);
}

void fill(Tensor& t, std::mt19937& rng) {
  for (int64_t i = 0; i < t.buffer->bytes(); ++i) t.buffer->data()[i] = static_cast<uint8_t>(rng());
}

void check_case(const Case& c, std::mt19937& rng) {
  INFO(c.name << " (opset " << c.opset << ")");
  Tensor x = make(c.x_type, c.x_dims), scale = make(c.scale_type, c.scale_dims), zp = make(c.x_type, c.scale_dims);
  fill(x, rng);
  fill(zp, rng);
  for (int64_t i = 0; i < scale.element_count(); ++i) {
    const float f = static_cast<float>(static_cast<int>(rng() % 4001) - 2000) / 1531.0f;
    if (c.scale_type == E::Float) reinterpret_cast<float*>(scale.buffer->data())[i] = f;
    else if (c.scale_type == E::Float16) reinterpret_cast<uint16_t*>(scale.buffer->data())[i] = float_to_half(f);
    else reinterpret_cast<uint16_t*>(scale.buffer->data())[i] = float_to_bfloat16(f);
  }
  std::vector<const Tensor*> in = {&x, &scale};
  if (c.zero_point) in.push_back(&zp);
  std::vector<Tensor> out;
  const Status s = run_node("DequantizeLinear", c.opset, attributes_of(c), in, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  REQUIRE(out.size() == 1);
  const E out_type = output_type_of(c);
  REQUIRE(out[0].type == out_type);
  REQUIRE(out[0].dims == c.x_dims);
  const int64_t n = product(c.x_dims);
  for (int64_t e = 0; e < n; ++e) {
    const int64_t si = scale_index(c, e);
    const int32_t z = c.zero_point ? oracle_code(zp.buffer->data(), si, c.x_type) : 0;
    // The difference in int32, wrapping (int32 x minus a zero point can leave int32's range).
    const int64_t d = static_cast<int64_t>(oracle_code(x.buffer->data(), e, c.x_type)) - z;
    const float want = static_cast<float>(static_cast<int32_t>(static_cast<uint32_t>(d))) * oracle_scale(scale, si);
    INFO("element " << e);
    if (out_type == E::Float) {
      REQUIRE(float_bits(reinterpret_cast<const float*>(out[0].buffer->data())[e]) == float_bits(want));
    } else {
      const uint16_t got = reinterpret_cast<const uint16_t*>(out[0].buffer->data())[e];
      REQUIRE(got == (out_type == E::Float16 ? float_to_half(want) : float_to_bfloat16(want)));
    }
  }
  std::vector<ValueInfo> infos = {ValueInfo::of_dims(c.x_type, c.x_dims), ValueInfo::of_dims(c.scale_type, c.scale_dims)};
  if (c.zero_point) infos.push_back(ValueInfo::of_dims(c.x_type, c.scale_dims));
  std::vector<ValueInfo> inferred;
  REQUIRE(infer_node("DequantizeLinear", c.opset, attributes_of(c), infos, &inferred).is_ok());
  CHECK(inferred[0].type == out_type);
  CHECK(inferred[0].shape_string() == ValueInfo::of_dims(out_type, c.x_dims).shape_string());
}

}  // namespace

TEST_CASE("DequantizeLinear: outputs equal the oracle's, bit for bit, at every version") {
  const int64_t N = kNone;
  const std::vector<Case> cases = {
      {"10: uint8, scalar scale and zero point", 10, E::Uint8, {3, 37}, E::Float, {}, true, N, N, N},
      {"10: int8, no zero point", 10, E::Int8, {2, 3, 5}, E::Float, {}, false, N, N, N},
      {"10: int32, 1-element scale", 10, E::Int32, {41}, E::Float, {1}, false, N, N, N},
      {"10: int32 with a zero point (subtracted, as onnxruntime does)", 10, E::Int32, {7}, E::Float, {}, true, N, N, N},
      {"13: uint8 per axis 1 (default)", 13, E::Uint8, {2, 5, 19}, E::Float, {5}, true, N, N, N},
      {"13: int8 per axis -1 (last: one element a run)", 13, E::Int8, {4, 6}, E::Float, {6}, true, -1, N, N},
      {"13: int8 per axis 0", 13, E::Int8, {3, 40}, E::Float, {3}, true, 0, N, N},
      {"13: uint8 per tensor, axis ignored", 13, E::Uint8, {5, 7}, E::Float, {}, true, 1, N, N},
      {"19: uint8 per tensor, float16 scale", 19, E::Uint8, {1, 3, 70}, E::Float16, {}, true, N, N, N},
      {"19: int8 per axis, bfloat16 scale", 19, E::Int8, {3, 4, 9}, E::Bfloat16, {4}, true, N, N, N},
      {"19: int32 per axis, float16 scale", 19, E::Int32, {6, 3}, E::Float16, {6}, false, 0, N, N},
      {"21: int16, per tensor", 21, E::Int16, {3, 33}, E::Float, {}, true, N, N, N},
      {"21: uint16, per axis 0", 21, E::Uint16, {4, 17}, E::Float16, {4}, true, 0, N, N},
      {"21: int4 per tensor, odd count", 21, E::Int4, {5, 7}, E::Float, {}, true, N, N, N},
      {"21: uint4 per axis 1, odd inner", 21, E::Uint4, {3, 5, 7}, E::Float, {5}, true, 1, N, N},
      {"21: int4 blocked on the last axis (block 16, 70 codes: 5 blocks)", 21, E::Int4, {3, 70}, E::Float, {3, 5}, true, 1, 16, N},
      {"21: uint4 blocked on axis 0, inner 6 (per element scales)", 21, E::Uint4, {37, 6}, E::Float16, {3, 6}, true, 0, 16, N},
      {"21: uint8 blocked, middle axis, no zero point", 21, E::Uint8, {2, 9, 3}, E::Bfloat16, {2, 3, 3}, false, -2, 4, N},
      {"21: int8 blocked, block larger than the axis", 21, E::Int8, {2, 5}, E::Float, {2, 1}, true, 1, 8, N},
      // (the blocks were counted as axis_dim + block_size - 1 over block_size: an overflow, and
      // every row then read the first row's scale)
      {"21: int8 blocked, block_size 2^63 - 1 (one block a row)", 21, E::Int8, {3, 5}, E::Float, {3, 1}, true, 1,
       std::numeric_limits<int64_t>::max(), N},
      {"21: int4 blocked, block_size 2^63 - 1, float16, no zero point (the row kernel)", 21, E::Int4, {3, 70}, E::Float16,
       {3, 1}, false, 1, std::numeric_limits<int64_t>::max(), N},
      {"21: uint4 blocked on axis 0, block_size 2^62 (the table kernel)", 21, E::Uint4, {5, 6}, E::Bfloat16, {1, 6}, true,
       0, int64_t{1} << 62, N},
      {"21: block_size 0 given: per axis", 21, E::Int8, {3, 4}, E::Float, {4}, true, 1, 0, N},
      {"23: output_dtype float16 from a float scale", 23, E::Uint8, {4, 50}, E::Float, {}, true, N, N, 10},
      {"23: output_dtype bfloat16, blocked int4", 23, E::Int4, {2, 64}, E::Float16, {2, 4}, true, -1, 16, 16},
      {"23: output_dtype float from bfloat16 scales per axis", 23, E::Int16, {5, 3}, E::Bfloat16, {5}, false, 0, N, 1},
      {"23: output_dtype 0: the scale's type", 23, E::Uint16, {9}, E::Float16, {}, true, N, N, 0},
      {"24: uint4 per tensor", 24, E::Uint4, {33}, E::Float, {}, true, N, N, N},
      {"25: int2 per tensor, odd count", 25, E::Int2, {3, 11}, E::Float, {}, true, N, N, N},
      {"25: uint2 blocked, last axis (block 4)", 25, E::Uint2, {2, 22}, E::Float16, {2, 6}, true, 1, 4, N},
      {"25: int2 per axis 0", 25, E::Int2, {3, 13}, E::Float, {3}, true, 0, N, N},
      {"28: int8 per axis", 28, E::Int8, {2, 3}, E::Float, {3}, true, N, N, N},
      {"21: int4 blocked on axis 0, rows longer than a chunk (2,048)", 21, E::Int4, {33, 2100}, E::Float16, {3, 2100}, true, 0, 16, N},
      {"21: uint8 per axis along the last, rows longer than a chunk", 21, E::Uint8, {3, 2500}, E::Float, {2500}, true, -1, N, N},
      {"21: int16 per axis along the last, bfloat16", 21, E::Int16, {3, 7}, E::Bfloat16, {7}, true, 1, N, N},
      {"21: int32 per axis along the last (one element a run)", 21, E::Int32, {3, 7}, E::Float, {7}, true, 1, N, N},
      {"21: int32 blocked on axis 0 (one element a run)", 21, E::Int32, {5, 3}, E::Float16, {2, 3}, true, 0, 4, N},
      // 4-bit x into 16-bit outputs: the table kernel a run of 16 codes or more, the row kernel
      // from a block's start to the row's end without zero points (rows of 37: odd starts).
      {"21: int4 blocked on the last axis, float16, no zero point (row kernel, odd rows)", 21, E::Int4, {5, 37}, E::Float16, {5, 3}, false, 1, 16, N},
      {"21: uint4 blocked on the last axis, bfloat16, no zero point (row kernel)", 21, E::Uint4, {5, 37}, E::Bfloat16, {5, 3}, false, -1, 16, N},
      {"21: uint4 blocked on the last axis, block 64, float16, no zero point", 21, E::Uint4, {2, 200}, E::Float16, {2, 4}, false, 1, 64, N},
      {"21: int4 blocked on the last axis, float16, zero points (table kernel a block)", 21, E::Int4, {5, 37}, E::Float16, {5, 3}, true, 1, 16, N},
      {"23: int4 blocked, float scales into float16 (table kernel, not the row kernel)", 23, E::Int4, {3, 96}, E::Float, {3, 3}, false, 1, 32, 10},
      {"21: uint4 per tensor into float16 (one table)", 21, E::Uint4, {3, 45}, E::Float16, {}, true, N, N, N},
      {"21: int4 per axis 0 into bfloat16 (runs of 45)", 21, E::Int4, {4, 45}, E::Bfloat16, {4}, true, 0, N, N},
      {"empty x", 21, E::Uint8, {0, 4}, E::Float, {4}, true, 1, N, N},
      {"scalar x", 13, E::Int8, {}, E::Float, {}, true, N, N, N},
  };
  std::mt19937 rng(5);
  for (const Case& c : cases) check_case(c, rng);
}

TEST_CASE("DequantizeLinear: an output large enough to split over threads equals the oracle's") {
  // 300,000 elements: 1.2 MB of floats, 600 KB of halves (split from 256 KB).
  parallel_enable();
  std::mt19937 rng(9);
  const int64_t N = kNone;
  check_case({"uint8 per tensor (q8 embeddings)", 21, E::Uint8, {1, 100, 3000}, E::Float, {}, true, N, N, N}, rng);
  check_case({"int4 blocked, float16", 21, E::Int4, {300, 1000}, E::Float16, {300, 32}, true, 1, 32, N}, rng);
  check_case({"int8 per axis 1, bfloat16", 21, E::Int8, {3, 100, 1001}, E::Bfloat16, {100}, true, 1, N, N}, rng);
  // (parts start on multiples of 8 elements, within blocks of 32: the row kernel takes over at the next block)
  check_case({"int4 blocked, float16, no zero point", 21, E::Int4, {300, 1000}, E::Float16, {300, 32}, false, 1, 32, N}, rng);
  check_case({"uint4 blocked, bfloat16, no zero point, odd rows", 21, E::Uint4, {200, 1003}, E::Bfloat16, {200, 32}, false, 1, 32, N}, rng);
}

namespace {

// A random well-formed case: a version, x's type and dims (ranks 0 to 4, dims 0 to 6 and the
// quantized axis up to 70), per tensor, per axis or blocked (block sizes 1 to 64 and one beyond
// any axis), each scale type, with or without a zero point and output_dtype.
std::string random_case(std::mt19937& rng, Case* c) {
  const auto pick = [&rng](auto... xs) {
    const std::vector<std::common_type_t<decltype(xs)...>> v = {xs...};
    return v[rng() % v.size()];
  };
  c->opset = pick(10, 13, 19, 21, 23, 24, 25, 28);
  std::vector<E> types = {E::Int8, E::Uint8, E::Int32};
  if (c->opset >= 21) types.insert(types.end(), {E::Int16, E::Uint16, E::Int4, E::Uint4});
  if (c->opset >= 25) types.insert(types.end(), {E::Int2, E::Uint2});
  c->x_type = types[rng() % types.size()];
  c->scale_type = c->opset < 19 ? E::Float : pick(E::Float, E::Float16, E::Bfloat16);
  const int64_t rank = static_cast<int64_t>(rng() % 5);
  c->x_dims.assign(static_cast<size_t>(rank), 0);
  for (int64_t& d : c->x_dims) d = rng() % 8 == 0 ? 0 : 1 + static_cast<int64_t>(rng() % 6);
  c->zero_point = rng() % 2 == 0;
  c->axis = c->block_size = c->output_dtype = kNone;
  if (c->opset >= 23 && rng() % 2 == 0) c->output_dtype = pick(0, 1, 10, 16);
  const int mode = rank == 0 || c->opset < 13 ? 0 : static_cast<int>(rng() % (c->opset >= 21 ? 3 : 2));
  if (mode == 0) {   // per tensor
    c->scale_dims = rng() % 2 == 0 ? std::vector<int64_t>{} : std::vector<int64_t>{1};
    if (rank > 0 && c->opset >= 13 && rng() % 2 == 0) c->axis = static_cast<int64_t>(rng() % static_cast<uint32_t>(2 * rank)) - rank;
  } else {
    if (rank >= 2 && rng() % 3 == 0) c->axis = kNone;   // the default, 1
    else c->axis = static_cast<int64_t>(rng() % static_cast<uint32_t>(2 * rank)) - rank;
    const size_t a = static_cast<size_t>(c->axis == kNone ? 1 : c->axis < 0 ? c->axis + rank : c->axis);
    if (rng() % 2 == 0) c->x_dims[a] = static_cast<int64_t>(rng() % 71);
    if (mode == 1) {   // per axis
      c->scale_dims = {c->x_dims[a]};
      if (c->opset >= 21 && rng() % 4 == 0) c->block_size = 0;
    } else {   // blocked
      c->block_size = pick(int64_t{1}, int64_t{2}, int64_t{3}, int64_t{4}, int64_t{7}, int64_t{16}, int64_t{32}, int64_t{64}, int64_t{1} << 40);
      c->scale_dims = c->x_dims;
      c->scale_dims[a] = c->x_dims[a] == 0 ? 0 : (c->x_dims[a] - 1) / c->block_size + 1;
    }
  }
  std::string d = "random: opset " + std::to_string(c->opset) + ", x " + std::string(onnx_name(c->x_type)) + " [";
  for (int64_t x : c->x_dims) d += std::to_string(x) + ",";
  d += "], scale " + std::string(onnx_name(c->scale_type)) + " [";
  for (int64_t x : c->scale_dims) d += std::to_string(x) + ",";
  d += "], zero point " + std::to_string(c->zero_point) + ", axis " + std::to_string(c->axis) + ", block_size " +
       std::to_string(c->block_size) + ", output_dtype " + std::to_string(c->output_dtype);
  return d;
}

}  // namespace

TEST_CASE("DequantizeLinear: random well-formed cases (3000) equal the oracle's bit for bit") {
  std::mt19937 rng(2026);
  for (int k = 0; k < 3000; ++k) {
    Case c{};
    const std::string name = random_case(rng, &c);
    c.name = name.c_str();
    check_case(c, rng);
  }
}

TEST_CASE("DequantizeLinear: inference: output types per version, symbolic and unknown shapes") {
  const ValueInfo x = parse_shape(E::Uint8, "[batch, seq, 2560]");
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("DequantizeLinear", 21, Attributes(), {x, parse_shape(E::Float16, "[]"), parse_shape(E::Uint8, "[]")}, &out).is_ok());
  CHECK(out[0].type == E::Float16);
  CHECK(out[0].shape_string() == "[batch, seq, 2560]");
  out.clear();
  REQUIRE(infer_node("DequantizeLinear", 13, Attributes(), {x, parse_shape(E::Float, "[seq]")}, &out).is_ok());
  CHECK(out[0].type == E::Float);
  out.clear();
  REQUIRE(infer_node("DequantizeLinear", 23, Attributes({Int("output_dtype", 16)}), {x, parse_shape(E::Float, "*")}, &out).is_ok());
  CHECK(out[0].type == E::Bfloat16);
  CHECK(out[0].shape_string() == "[batch, seq, 2560]");
  out.clear();
  REQUIRE(infer_node("DequantizeLinear", 21, Attributes({Int("block_size", 32)}),
                     {parse_shape(E::Int4, "[vocab, 2560]"), parse_shape(E::Float, "[vocab, 80]")}, &out).is_ok());
  CHECK(out[0].shape_string() == "[vocab, 2560]");
  out.clear();
  REQUIRE(infer_node("DequantizeLinear", 25, Attributes(), {parse_shape(E::Int2, "*"), parse_shape(E::Float, "[]")}, &out).is_ok());
  CHECK(!out[0].rank_known);
  CHECK(out[0].type == E::Float);
}

TEST_CASE("DequantizeLinear: refused inputs and attributes, with the rule each breaks") {
  struct Bad {
    const char* what;
    int opset;
    E x_type;
    std::vector<int64_t> x_dims;
    E scale_type;
    std::vector<int64_t> scale_dims;
    E zp_type;
    std::vector<int64_t> zp_dims;  // empty with zp_type Undefined: none
    std::vector<std::pair<const char*, int64_t>> attrs;
    StatusCode code;
    const char* message;
  };
  const E U = E::Undefined;
  const std::vector<Bad> cases = {
      {"10: a 1-D scale", 10, E::Uint8, {2, 3}, E::Float, {3}, U, {}, {}, StatusCode::Shape,
       "DequantizeLinear-10: x_scale [3] must be a scalar (per-tensor dequantization only)"},
      {"10: axis", 10, E::Uint8, {2, 3}, E::Float, {}, U, {}, {{"axis", 0}}, StatusCode::Attribute,
       "DequantizeLinear-10 has no attribute 'axis'"},
      {"13: per-axis scales of the wrong count", 13, E::Uint8, {2, 3}, E::Float, {2}, U, {}, {}, StatusCode::Shape,
       "DequantizeLinear-13: x_scale [2] does not match x [2, 3]: per-axis scales must number x's dimension 1 (axis 1), 3"},
      {"13: axis out of range", 13, E::Int8, {2, 3}, E::Float, {3}, U, {}, {{"axis", 2}}, StatusCode::Attribute, "axis 2"},
      {"13: a 2-D scale", 13, E::Int8, {2, 3}, E::Float, {2, 3}, U, {}, {}, StatusCode::Shape,
       "DequantizeLinear-13: x_scale [2, 3] must be a scalar or 1-D (per axis)"},
      {"13: a float16 scale", 13, E::Int8, {2, 3}, E::Float16, {}, U, {}, {}, StatusCode::Type,
       "input 1 ('x_scale') has type tensor(float16), which DequantizeLinear-13 does not allow; input 'x_scale' must be tensor(float)"},
      {"13: int16 x", 13, E::Int16, {2}, E::Float, {}, U, {}, {}, StatusCode::Type, "(tensor(int16) needs opset 21 or later)"},
      {"19: block_size", 19, E::Int8, {2, 32}, E::Float, {2, 1}, U, {}, {{"block_size", 32}}, StatusCode::Attribute,
       "DequantizeLinear-19 has no attribute 'block_size'"},
      {"21: zero point of another type", 21, E::Uint8, {4}, E::Float, {}, E::Int8, {}, {}, StatusCode::Type,
       "input 2 ('x_zero_point') has type tensor(int8) but input 0 ('x') has tensor(uint8); both are T1, one type"},
      {"21: zero point of another shape", 21, E::Uint8, {2, 4}, E::Float, {4}, E::Uint8, {2}, {}, StatusCode::Shape,
       "DequantizeLinear-21: x_zero_point [2] must have x_scale's shape [4]"},
      {"21: negative block_size", 21, E::Int4, {2, 32}, E::Float, {2, 1}, U, {}, {{"block_size", -1}}, StatusCode::Attribute,
       "DequantizeLinear-21: block_size -1 must be 0 (per tensor or per axis) or positive (blocked)"},
      {"21: blocked scale of another rank", 21, E::Int4, {2, 32}, E::Float, {2}, U, {}, {{"block_size", 16}}, StatusCode::Shape,
       "DequantizeLinear-21: x_scale [2] must have x's rank (x [2, 32]) for blocked quantization (block_size 16)"},
      {"21: one block too many", 21, E::Int4, {2, 32}, E::Float, {2, 3}, U, {}, {{"block_size", 16}}, StatusCode::Shape,
       "DequantizeLinear-21: x_scale [2, 3] does not match x [2, 32]: dimension 1 must be 2 (ceil(32 / block_size 16) along axis)"},
      {"21: blocked, another dim differs", 21, E::Int4, {2, 32}, E::Float, {3, 2}, U, {}, {{"block_size", 16}}, StatusCode::Shape,
       "dimension 0 must be 2"},
      {"21: a 2-D scale without block_size", 21, E::Int4, {2, 32}, E::Float, {2, 2}, U, {}, {}, StatusCode::Shape,
       "x_scale [2, 2] must be a scalar or 1-D (per axis), or have x's rank with block_size > 0"},
      {"21: output_dtype", 21, E::Int8, {2}, E::Float, {}, U, {}, {{"output_dtype", 1}}, StatusCode::Attribute,
       "DequantizeLinear-21 has no attribute 'output_dtype'"},
      {"23: output_dtype int8", 23, E::Int8, {2}, E::Float, {}, U, {}, {{"output_dtype", 3}}, StatusCode::Attribute,
       "DequantizeLinear-23: output_dtype 3 (int8) is not allowed; it must be 0 (x_scale's type), 1 (float), 10 (float16) or 16 (bfloat16)"},
      {"23: int2 x", 23, E::Int2, {4}, E::Float, {}, U, {}, {}, StatusCode::Type, "(tensor(int2) needs opset 25 or later)"},
      {"13: a float8 x", 13, E::Float8e4m3fn, {4}, E::Float, {}, U, {}, {}, StatusCode::Type,
       "(tensor(float8e4m3fn) needs opset 19 or later)"},
      {"21: a float4e2m1 x", 21, E::Float4e2m1, {4}, E::Float, {}, U, {}, {}, StatusCode::Type,
       "(tensor(float4e2m1) needs opset 23 or later)"},
      {"23: a float8e8m0 scale", 23, E::Int8, {4}, E::Float8e8m0, {}, U, {}, {}, StatusCode::Type,
       "(tensor(float8e8m0) needs opset 24 or later)"},
      {"24: a float8e8m0 scale without output_dtype", 24, E::Int8, {4}, E::Float8e8m0, {}, U, {}, {}, StatusCode::Attribute,
       "DequantizeLinear-24: x_scale is tensor(float8e8m0), which is no output type: output_dtype (float, float16 or bfloat16) is required"},
      {"9: no version", 9, E::Uint8, {4}, E::Float, {}, U, {}, {}, StatusCode::Opset, "DequantizeLinear: no version is defined at opset 9"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    Tensor x = make(b.x_type, b.x_dims), scale = make(b.scale_type, b.scale_dims);
    Tensor zp = make(b.zp_type == U ? E::Uint8 : b.zp_type, b.zp_dims);
    std::vector<Attribute> attrs;
    for (const auto& [name, v] : b.attrs) attrs.push_back(Int(name, v));
    std::vector<const Tensor*> in = {&x, &scale};
    if (b.zp_type != U) in.push_back(&zp);
    std::vector<Tensor> out;
    const Status s = run_node("DequantizeLinear", b.opset, Attributes(attrs), in, &out);
    INFO(s.message());
    CHECK(s.code() == b.code);
    CHECK(s.message().find(b.message) != std::string::npos);
    CHECK(out.empty());
  }
}

TEST_CASE("DequantizeLinear: float8 (19) and float4e2m1 (23) x, every code times its scale; float8e8m0 scales (24)") {
  // The oracle of a code's value: minifloat_to_float (kernels/minifloat.h, checked on every code
  // against the spec's tables in minifloat_test.cpp); y = value * scale, as onnxruntime computes it.
  struct Form {
    E type;
    MiniFloat kind;
    int bits, opset;
  };
  const Form forms[] = {{E::Float8e4m3fn, MiniFloat::E4M3FN, 8, 19},   {E::Float8e4m3fnuz, MiniFloat::E4M3FNUZ, 8, 19},
                        {E::Float8e5m2, MiniFloat::E5M2, 8, 21},       {E::Float8e5m2fnuz, MiniFloat::E5M2FNUZ, 8, 25},
                        {E::Float4e2m1, MiniFloat::E2M1, 4, 23}};
  const float scales[2] = {0.5f, -3.0f};
  for (const Form& f : forms) {
    INFO(onnx_name(f.type));
    const int codes = 1 << f.bits;
    // Every code in each of 2 rows, one scale a row (per axis 0), then the float16 output of the same.
    Tensor x = make(f.type, {2, codes}), scale = make(E::Float, {2});
    for (int i = 0; i < 2 * codes; ++i) {
      const int code = i % codes;
      if (f.bits == 8) x.buffer->data()[i] = static_cast<uint8_t>(code);
      else x.buffer->data()[i / 2] |= static_cast<uint8_t>(code << (4 * (i % 2)));
    }
    std::memcpy(scale.buffer->data(), scales, sizeof scales);
    std::vector<Tensor> out;
    REQUIRE(run_node("DequantizeLinear", f.opset, Attributes({Int("axis", 0)}), {&x, &scale}, &out).is_ok());
    REQUIRE(out[0].type == E::Float);
    const float* y = reinterpret_cast<const float*>(out[0].buffer->data());
    for (int i = 0; i < 2 * codes; ++i) {
      const float want = minifloat_to_float(static_cast<uint8_t>(i % codes), f.kind) * scales[i / codes];
      INFO("code " << i % codes << " row " << i / codes);
      if (std::isnan(want)) CHECK(std::isnan(y[i]));
      else CHECK(float_bits(y[i]) == float_bits(want));
    }
    // A zero point of 0 is accepted (the same output); one that is not is refused, naming it.
    const std::vector<uint8_t> first(out[0].buffer->data(), out[0].buffer->data() + 4 * 2 * codes);
    Tensor zero = make(f.type, {2});
    out.clear();
    REQUIRE(run_node("DequantizeLinear", f.opset, Attributes({Int("axis", 0)}), {&x, &scale, &zero}, &out).is_ok());
    CHECK(std::memcmp(out[0].buffer->data(), first.data(), first.size()) == 0);
    // Element 1 non-zero: 0x38 (1.0 in E4M3FN, non-zero in the other float8 kinds), or the high
    // nibble 2 (1.0 in E2M1).
    if (f.bits == 8) zero.buffer->data()[1] = 0x38;
    else zero.buffer->data()[0] = 0x20;
    out.clear();
    const Status s = run_node("DequantizeLinear", f.opset, Attributes({Int("axis", 0)}), {&x, &scale, &zero}, &out);
    CHECK(s.code() == StatusCode::InvalidArgument);
    CHECK(s.message().find("x_zero_point element 1 is not 0") != std::string::npos);
    CHECK(out.empty());
  }
  // A float8e8m0 scale: 2^(code - 127), the output type from output_dtype (float16 here).
  Tensor x = make(E::Int8, {3}), scale = make(E::Float8e8m0, {});
  const int8_t xs[3] = {1, -2, 100};
  std::memcpy(x.buffer->data(), xs, 3);
  scale.buffer->data()[0] = 127 + 3;   // 8
  std::vector<Tensor> out;
  REQUIRE(run_node("DequantizeLinear", 24, Attributes({Int("output_dtype", 10)}), {&x, &scale}, &out).is_ok());
  REQUIRE(out[0].type == E::Float16);
  const uint16_t* h = reinterpret_cast<const uint16_t*>(out[0].buffer->data());
  CHECK(half_to_float(h[0]) == 8.0f);
  CHECK(half_to_float(h[1]) == -16.0f);
  CHECK(half_to_float(h[2]) == 800.0f);
}
