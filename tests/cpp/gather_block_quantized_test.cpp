// com.microsoft GatherBlockQuantized-1 against an oracle written from onnxruntime's CPU kernel
// (contrib_ops/cpu/quantization/gather_block_quantized.cc, CopyDataAndDequantize): every output
// element computed on its own from the flat data index, with its own code extraction. Cases: uint8
// words of 2, 4 and 8-bit codes, int4 and uint4 on either axis, odd block counts, zero points
// packed in odd counts, negative indices, every scale type, then 3,000 random well-formed ones
// (seeded); then the errors. onnx-wasm GatherBlockQuantized (a multiplier after it) against the
// same oracle, then Mul's rounding.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <string>

#include "src/kernels/float16.h"
#include "src/parallel.h"
#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;
using onnxwasm_test::below;

namespace {

struct Case {
  const char* name;
  E data_type;
  std::vector<int64_t> data_dims;  // as stored (uint8: packed along the last dim)
  int64_t bits, block_size, gather_axis, quantize_axis;
  E scale_type;
  bool zero_points;
  E index_type;
  std::vector<int64_t> index_dims;
  std::vector<int64_t> indices;
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

void fill_random(Tensor& t, std::mt19937& rng) {
  for (int64_t i = 0; i < t.buffer->bytes(); ++i) t.buffer->data()[i] = static_cast<uint8_t>(rng());
}

// Oracle: the code at logical index i, written out per case as the ORT kernel's helpers do.
int32_t oracle_code(const uint8_t* p, int64_t i, E type, int64_t bits) {
  if (type == E::Uint8 && bits == 2) return (p[i >> 2] >> ((i & 3) * 2)) & 3;
  if (type == E::Uint8 && bits == 8) return p[i];
  const int32_t nib = (i & 1) ? (p[i >> 1] >> 4) & 0xF : p[i >> 1] & 0xF;
  return type == E::Int4 && nib >= 8 ? nib - 16 : nib;
}

float oracle_scale(const Tensor& s, int64_t i) {
  if (s.type == E::Float) return reinterpret_cast<const float*>(s.buffer->data())[i];
  uint16_t h = reinterpret_cast<const uint16_t*>(s.buffer->data())[i];
  if (s.type == E::Bfloat16) return bits_float(static_cast<uint32_t>(h) << 16);
  return half_to_float(h);
}

std::vector<float> oracle(const Case& c, const Tensor& data, const Tensor& scales, const Tensor* zp) {
  const int64_t rank = static_cast<int64_t>(c.data_dims.size());
  const int64_t g = c.gather_axis < 0 ? c.gather_axis + rank : c.gather_axis;
  const int64_t q = c.quantize_axis < 0 ? c.quantize_axis + rank : c.quantize_axis;
  const int64_t components = c.data_type == E::Uint8 ? 8 / c.bits : 1;
  int64_t gather_block = components, gather_m = 1, quantize_n = 1;
  for (int64_t i = g + 1; i < rank; ++i) gather_block *= c.data_dims[i];
  for (int64_t i = 0; i < g; ++i) gather_m *= c.data_dims[i];
  for (int64_t i = q + 1; i < rank; ++i) quantize_n *= c.data_dims[i];
  const int64_t axis_dim = c.data_dims[g], gather_n = product(c.index_dims);
  const int64_t quantize_dim = c.data_dims[q] * components;
  const int64_t full = quantize_dim * quantize_n;
  const int64_t scale_full = (quantize_dim + c.block_size - 1) / c.block_size * quantize_n;
  std::vector<float> out;
  for (int64_t mn = 0; mn < gather_m * gather_n; ++mn) {
    int64_t idx = c.indices[static_cast<size_t>(mn % gather_n)];
    if (idx < 0) idx += axis_dim;
    const int64_t base = mn / gather_n * axis_dim * gather_block + idx * gather_block;
    for (int64_t k = 0; k < gather_block; ++k) {
      const int64_t d = base + k;
      const int64_t s = d / full * scale_full + d % full / quantize_n / c.block_size * quantize_n + d % quantize_n;
      int32_t z;
      if (c.data_type == E::Uint8) {
        if (!zp) {
          z = 1 << (c.bits - 1);
        } else {
          const int64_t row = s / scale_full, in_row = s % scale_full;
          const uint8_t* zb = zp->buffer->data();
          if (c.bits == 2) z = (zb[row * ((scale_full + 3) / 4) + (in_row >> 2)] >> ((in_row & 3) * 2)) & 3;
          else if (c.bits == 4) z = (in_row & 1) ? (zb[row * ((scale_full + 1) / 2) + (in_row >> 1)] >> 4) & 0xF
                                                 : zb[row * ((scale_full + 1) / 2) + (in_row >> 1)] & 0xF;
          else z = zb[s];
        }
      } else {
        z = zp ? oracle_code(zp->buffer->data(), s, c.data_type, 4) : 0;
      }
      out.push_back(static_cast<float>(oracle_code(data.buffer->data(), d, c.data_type, c.bits) - z) * oracle_scale(scales, s));
    }
  }
  return out;
}

Attributes attributes_of(const Case& c) {
  return Attributes({Int("bits", c.bits), Int("block_size", c.block_size), Int("gather_axis", c.gather_axis),
                     Int("quantize_axis", c.quantize_axis)});
}

// Scales' and zero points' dims for a case, as the kernel requires them.
void quantization_dims(const Case& c, std::vector<int64_t>* scale_dims, std::vector<int64_t>* zp_dims) {
  const size_t rank = c.data_dims.size();
  const size_t q = static_cast<size_t>(c.quantize_axis < 0 ? c.quantize_axis + static_cast<int64_t>(rank) : c.quantize_axis);
  const int64_t components = c.data_type == E::Uint8 ? 8 / c.bits : 1;
  *scale_dims = c.data_dims;
  (*scale_dims)[q] = (c.data_dims[q] * components + c.block_size - 1) / c.block_size;
  *zp_dims = *scale_dims;
  if (components > 1) (*zp_dims)[q] = ((*scale_dims)[q] + components - 1) / components;
}

Tensor indices_of(const Case& c) {
  Tensor t = make(c.index_type, c.index_dims);
  for (size_t i = 0; i < c.indices.size(); ++i) {
    if (c.index_type == E::Int32) reinterpret_cast<int32_t*>(t.buffer->data())[i] = static_cast<int32_t>(c.indices[i]);
    else reinterpret_cast<int64_t*>(t.buffer->data())[i] = c.indices[i];
  }
  return t;
}

const char* kDomain = "com.microsoft";

// Runs one case through run_node and inference, and compares every element with the oracle.
// With a multiplier (its bits in the scales' type), through onnx-wasm GatherBlockQuantized, each
// element then as Mul computes it: widened to float, multiplied, rounded to the scales' type.
void check_case(const Case& c, std::mt19937& rng, const uint32_t* multiplier = nullptr) {
  INFO(c.name << (multiplier ? " times a multiplier" : ""));
  std::vector<int64_t> scale_dims, zp_dims;
  quantization_dims(c, &scale_dims, &zp_dims);
  Tensor data = make(c.data_type, c.data_dims), scales = make(c.scale_type, scale_dims), zp = make(c.data_type, zp_dims);
  fill_random(data, rng);
  fill_random(zp, rng);
  // Finite scales of either sign, of the scale type's precision.
  for (int64_t i = 0; i < scales.element_count(); ++i) {
    const float f = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 977.0f;
    if (c.scale_type == E::Float) reinterpret_cast<float*>(scales.buffer->data())[i] = f;
    else if (c.scale_type == E::Float16) reinterpret_cast<uint16_t*>(scales.buffer->data())[i] = float_to_half(f);
    else reinterpret_cast<uint16_t*>(scales.buffer->data())[i] = float_to_bfloat16(f);
  }
  Tensor idx = indices_of(c);
  std::vector<const Tensor*> in = {&data, &idx, &scales};
  if (c.zero_points || multiplier) in.push_back(c.zero_points ? &zp : nullptr);
  Tensor m = make(c.scale_type, {});
  float mf = 0;
  if (multiplier) {
    std::memcpy(m.buffer->data(), multiplier, c.scale_type == E::Float ? 4 : 2);
    mf = c.scale_type == E::Float ? bits_float(*multiplier)
         : c.scale_type == E::Float16 ? half_to_float(static_cast<uint16_t>(*multiplier))
                                      : bits_float(*multiplier << 16);
    in.push_back(&m);
  }
  const char* domain = multiplier ? "onnx-wasm" : kDomain;
  std::vector<Tensor> out;
  const Status s = run_node(domain, "GatherBlockQuantized", 1, attributes_of(c), in, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  REQUIRE(out.size() == 1);
  CHECK(out[0].type == c.scale_type);
  const std::vector<float> want = oracle(c, data, scales, c.zero_points ? &zp : nullptr);
  REQUIRE(out[0].element_count() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    if (c.scale_type == E::Float) {
      const float w = multiplier ? want[i] * mf : want[i];
      REQUIRE(float_bits(reinterpret_cast<const float*>(out[0].buffer->data())[i]) == float_bits(w));
    } else {
      const uint16_t got = reinterpret_cast<const uint16_t*>(out[0].buffer->data())[i];
      const bool half = c.scale_type == E::Float16;
      uint16_t w = half ? float_to_half(want[i]) : float_to_bfloat16(want[i]);
      if (multiplier) w = half ? float_to_half(half_to_float(w) * mf) : float_to_bfloat16(bits_float(static_cast<uint32_t>(w) << 16) * mf);
      REQUIRE(got == w);
    }
  }
  // Shape inference gives the dims the run made.
  std::vector<ValueInfo> infos = {ValueInfo::of_dims(c.data_type, c.data_dims), ValueInfo::of_dims(c.index_type, c.index_dims),
                                  ValueInfo::of_dims(c.scale_type, scale_dims)};
  if (c.zero_points || multiplier) infos.push_back(c.zero_points ? ValueInfo::of_dims(c.data_type, zp_dims) : ValueInfo{});
  if (multiplier) infos.push_back(ValueInfo::of_dims(c.scale_type, {}));
  std::vector<ValueInfo> inferred;
  REQUIRE(infer_node(domain, "GatherBlockQuantized", 1, attributes_of(c), infos, &inferred).is_ok());
  CHECK(inferred[0].type == c.scale_type);
  CHECK(inferred[0].shape_string() == ValueInfo::of_dims(c.scale_type, out[0].dims).shape_string());
}

}  // namespace

const std::vector<Case>& oracle_cases() {
  static const std::vector<Case> cases = {
      {"uint8 4-bit, 40 codes a row: 3 blocks of 16, zero points in 2 bytes a row", E::Uint8, {7, 20}, 4, 16, 0, 1, E::Float, true, E::Int64, {4}, {0, 6, -1, 3}},
      {"uint8 4-bit, default zero point 8", E::Uint8, {7, 20}, 4, 16, 0, -1, E::Float, false, E::Int32, {2, 2}, {5, -7, 2, 2}},
      {"uint8 2-bit, 36 codes: 3 blocks, zero points in 1 byte a row", E::Uint8, {5, 9}, 2, 16, 0, 1, E::Float16, true, E::Int64, {3}, {4, 0, -2}},
      {"uint8 2-bit, default zero point 2", E::Uint8, {5, 9}, 2, 16, 0, 1, E::Float, false, E::Int64, {1}, {1}},
      {"uint8 8-bit, 33 codes: 3 blocks", E::Uint8, {4, 33}, 8, 16, 0, 1, E::Float, true, E::Int32, {2}, {3, -4}},
      {"uint8 8-bit, default zero point 128, bfloat16 scales", E::Uint8, {4, 33}, 8, 16, 0, 1, E::Bfloat16, false, E::Int64, {2}, {0, 1}},
      {"uint8 4-bit of rank 3", E::Uint8, {3, 2, 24}, 4, 32, 0, 2, E::Float16, true, E::Int64, {2}, {2, -3}},
      {"int4, quantize axis 1 (3 blocks), zero points in one stream", E::Int4, {6, 40}, 4, 16, 0, 1, E::Float, true, E::Int64, {3}, {5, 0, -6}},
      {"int4, no zero points (0), fp16 scales", E::Int4, {6, 40}, 4, 16, 0, 1, E::Float16, false, E::Int32, {2}, {1, 1}},
      {"uint4, gather axis 1, quantize axis 0", E::Uint4, {40, 5}, 4, 16, 1, 0, E::Float, true, E::Int64, {2}, {4, -5}},
      {"uint4 of rank 3, gather axis 1, quantize axis 2 (odd codes)", E::Uint4, {2, 3, 35}, 4, 16, 1, 2, E::Bfloat16, true, E::Int64, {2}, {2, 0}},
      {"int4 of rank 3, quantize axis 0, gather axis 2", E::Int4, {33, 2, 3}, 4, 16, 2, 0, E::Float, true, E::Int32, {2}, {-1, 0}},
      {"no indices", E::Uint8, {7, 20}, 4, 16, 0, 1, E::Float, true, E::Int64, {0}, {}},
      // 4-bit codes to 16-bit outputs through the table kernels (runs of 16 codes or more), and
      // the forms that keep the float path (runs of 1 code).
      {"uint8 4-bit, 48 codes a row (runs of 32 and 16), bfloat16 scales, zero points", E::Uint8, {5, 24}, 4, 32, 0, 1, E::Bfloat16, true, E::Int64, {3}, {4, 0, 2}},
      {"int4 of rank 3, quantize axis 2 (odd codes a row), runs across rows, fp16 scales, zero points", E::Int4, {3, 2, 35}, 4, 16, 0, 2, E::Float16, true, E::Int32, {2}, {2, -3}},
      {"int4, gather axis 1 = quantize axis 1 (blocks of one code), fp16 scales", E::Int4, {3, 40}, 4, 16, 1, 1, E::Float16, true, E::Int64, {3}, {39, 0, 17}},
      {"uint4, quantize axis 0 (runs of one code), bfloat16 scales", E::Uint4, {40, 5}, 4, 16, 0, 0, E::Bfloat16, true, E::Int64, {2}, {33, 1}},
      // Blocks longer than the quantize axis (block_size any power of 2 from 16): one block a row.
      // (2^40 is no size_t of wasm32: the kernels divided by it cut to 0, a trap.)
      {"int4, block_size 2^40, fp16 scales, no zero points (the row kernel)", E::Int4, {6, 40}, 4, int64_t{1} << 40, 0, 1, E::Float16, false, E::Int32, {2}, {1, 5}},
      {"uint8 4-bit, block_size 2^62, zero points", E::Uint8, {7, 20}, 4, int64_t{1} << 62, 0, 1, E::Float, true, E::Int64, {2}, {0, 6}},
      {"uint4, quantize axis 0, block_size 2^40, bfloat16 scales", E::Uint4, {40, 5}, 4, int64_t{1} << 40, 0, 0, E::Bfloat16, true, E::Int64, {2}, {33, 1}},
  };
  return cases;
}

// A multiplier's bits in type t: Gemma's embedding scale 50.6 (as the type holds it), or -0.3125.
uint32_t multiplier_bits(E t, bool gemma) {
  const float f = gemma ? 50.6f : -0.3125f;
  return t == E::Float ? float_bits(f) : t == E::Float16 ? float_to_half(f) : float_to_bfloat16(f);
}

TEST_CASE("GatherBlockQuantized: outputs equal the oracle's, bit for bit") {
  std::mt19937 rng(7);
  for (const Case& c : oracle_cases()) check_case(c, rng);
}

TEST_CASE("onnx-wasm GatherBlockQuantized: the output times a multiplier, as GatherBlockQuantized then Mul, bit for bit") {
  // Every form above (the table kernels, the row kernel, the float path and the float scratch of
  // 16-bit outputs), with two multipliers each.
  std::mt19937 rng(11);
  for (const Case& c : oracle_cases()) {
    for (const bool gemma : {true, false}) {
      const uint32_t m = multiplier_bits(c.scale_type, gemma);
      check_case(c, rng, &m);
    }
  }
  // A row of the embedding form (uint8 4-bit, float16 scales, no zero points: the row kernel).
  const uint32_t gemma = multiplier_bits(E::Float16, true);
  check_case({"uint8 4-bit rows of 256 codes, fp16 scales, blocks of 32", E::Uint8, {9, 128}, 4, 32, 0, 1, E::Float16, false, E::Int64, {1, 5}, {8, 0, -1, 3, 3}}, rng, &gemma);
}

namespace {

// A random well-formed case: uint8 words of 2, 4 or 8-bit codes (gather axis 0, quantized along
// the last), or int4 and uint4 on any pair of axes; ranks 1 to 4 with dims 0 to 5 and the
// quantized axis up to 40 codes; block sizes 16 to 256 and one beyond any axis; each scale and
// index type, with or without zero points; indices anywhere in [-dim, dim - 1], of ranks 0 to 3.
std::string random_case(std::mt19937& rng, Case* c) {
  const int64_t kind = below(rng, 3);
  c->data_type = kind == 0 ? E::Uint8 : kind == 1 ? E::Int4 : E::Uint4;
  c->bits = kind == 0 ? std::vector<int64_t>{2, 4, 8}[static_cast<size_t>(below(rng, 3))] : 4;
  const int64_t rank = (kind == 0 ? 2 : 1) + below(rng, kind == 0 ? 3 : 4);
  c->data_dims.assign(static_cast<size_t>(rank), 0);
  for (int64_t& d : c->data_dims) d = below(rng, 8) == 0 ? 0 : 1 + below(rng, 5);
  if (kind == 0) {
    c->gather_axis = 0;
    c->quantize_axis = below(rng, 2) == 0 ? rank - 1 : -1;
  } else {
    c->gather_axis = below(rng, 2 * rank) - rank;
    c->quantize_axis = below(rng, 2 * rank) - rank;
  }
  const size_t q = static_cast<size_t>(c->quantize_axis < 0 ? c->quantize_axis + rank : c->quantize_axis);
  const size_t g = static_cast<size_t>(c->gather_axis < 0 ? c->gather_axis + rank : c->gather_axis);
  if (below(rng, 2) == 0) c->data_dims[q] = below(rng, kind == 0 ? 41 * c->bits / 8 : 41);   // (uint8: bytes)
  c->block_size = below(rng, 6) == 0 ? int64_t{1} << 40 : int64_t{16} << below(rng, 5);
  c->scale_type = std::vector<E>{E::Float, E::Float16, E::Bfloat16}[static_cast<size_t>(below(rng, 3))];
  c->zero_points = below(rng, 2) == 0;
  c->index_type = below(rng, 2) == 0 ? E::Int32 : E::Int64;
  c->index_dims.assign(static_cast<size_t>(below(rng, 4)), 0);
  for (int64_t& d : c->index_dims) d = c->data_dims[g] == 0 ? 0 : below(rng, 4);
  if (c->data_dims[g] == 0 && c->index_dims.empty()) c->index_dims = {0};
  c->indices.assign(static_cast<size_t>(product(c->index_dims)), 0);
  for (int64_t& i : c->indices) i = below(rng, 2 * c->data_dims[g]) - c->data_dims[g];
  std::string d = std::string("random: ") + onnx_name(c->data_type) + " [";
  for (int64_t x : c->data_dims) d += std::to_string(x) + ",";
  d += "], bits " + std::to_string(c->bits) + ", block_size " + std::to_string(c->block_size) + ", gather_axis " +
       std::to_string(c->gather_axis) + ", quantize_axis " + std::to_string(c->quantize_axis) + ", scales " +
       onnx_name(c->scale_type) + ", zero points " + std::to_string(c->zero_points) + ", indices " +
       onnx_name(c->index_type) + " [";
  for (int64_t x : c->index_dims) d += std::to_string(x) + ",";
  d += "]";
  return d;
}

}  // namespace

TEST_CASE("GatherBlockQuantized: random well-formed cases (3000) equal the oracle's bit for bit, a third times a multiplier") {
  std::mt19937 rng(2026);
  for (int k = 0; k < 3000; ++k) {
    Case c{};
    const std::string name = random_case(rng, &c);
    c.name = name.c_str();
    if (k % 3 == 2) {
      // A finite multiplier of either sign, 0 included, of the scales' precision.
      const float f = static_cast<float>(static_cast<int>(rng() % 2001) - 1000) / 311.0f;
      const uint32_t m = c.scale_type == E::Float ? float_bits(f) : c.scale_type == E::Float16 ? float_to_half(f) : float_to_bfloat16(f);
      check_case(c, rng, &m);
    } else {
      check_case(c, rng);
    }
  }
}

TEST_CASE("GatherBlockQuantized: an output large enough to split over threads equals the oracle's") {
  // 2,048 codes a row, 96 ids: 768 KB of floats, 384 KB of halves (split from 256 KB).
  parallel_enable();
  std::mt19937 rng(3);
  const std::vector<int64_t> ids = [] {
    std::vector<int64_t> v;
    for (int64_t i = 0; i < 96; ++i) v.push_back((i * 37) % 64 - (i % 3 == 0 ? 64 : 0));
    return v;
  }();
  check_case({"uint8 4-bit, float scales", E::Uint8, {64, 1024}, 4, 32, 0, 1, E::Float, true, E::Int64, {96}, ids}, rng);
  check_case({"uint8 4-bit, float16 scales", E::Uint8, {64, 1024}, 4, 32, 0, 1, E::Float16, false, E::Int64, {96}, ids}, rng);
  check_case({"int4, bfloat16 scales", E::Int4, {64, 2048}, 4, 64, 0, 1, E::Bfloat16, true, E::Int32, {96}, ids}, rng);
  for (const E t : {E::Float, E::Float16}) {
    const uint32_t m = multiplier_bits(t, true);
    check_case({"uint8 4-bit, a multiplier", E::Uint8, {64, 1024}, 4, 32, 0, 1, t, false, E::Int64, {96}, ids}, rng, &m);
  }
}

TEST_CASE("GatherBlockQuantized: symbolic dims, an omitted zero point and inference of uint8's code count") {
  ValueInfo data = ValueInfo::of_dims(E::Uint8, {262144, 1280});
  ValueInfo ids;
  ids.type = E::Int64;
  ids.dims = {Dim::named("batch"), Dim::named("seq")};
  ValueInfo scales = ValueInfo::of_dims(E::Float16, {262144, 80});
  std::vector<ValueInfo> out;
  Attribute bs;
  bs.name = "block_size";
  bs.kind = AttrKind::Int;
  bs.ints = {32};
  REQUIRE(infer_node(kDomain, "GatherBlockQuantized", 1, Attributes({bs}), {data, ids, scales, ValueInfo{}}, &out).is_ok());
  CHECK(out[0].type == E::Float16);
  CHECK(out[0].shape_string() == "[batch, seq, 2560]");
}

TEST_CASE("GatherBlockQuantized: refused inputs and attributes, with the rule each breaks") {
  struct Bad {
    const char* what;
    E data_type;
    std::vector<int64_t> data_dims, scale_dims, zp_dims;  // zp_dims empty: none
    E zp_type;
    std::vector<std::pair<const char*, int64_t>> attrs;
    std::vector<int64_t> indices;
    StatusCode code;
    const char* message;
  };
  const std::vector<Bad> cases = {
      {"block_size not a power of 2", E::Uint8, {4, 16}, {4, 1}, {}, E::Uint8, {{"block_size", 24}}, {0}, StatusCode::Attribute,
       "com.microsoft.GatherBlockQuantized-1: block_size 24 must be a power of 2 and at least 16"},
      {"block_size below 16", E::Uint8, {4, 16}, {4, 1}, {}, E::Uint8, {{"block_size", 8}}, {0}, StatusCode::Attribute,
       "block_size 8 must be a power of 2 and at least 16"},
      {"bits 3", E::Uint8, {4, 16}, {4, 1}, {}, E::Uint8, {{"bits", 3}}, {0}, StatusCode::Attribute, "bits 3 must be 2, 4 or 8"},
      {"int4 with bits 2", E::Int4, {4, 32}, {4, 1}, {}, E::Int4, {{"bits", 2}, {"block_size", 32}}, {0}, StatusCode::Attribute,
       "bits 2 is not allowed for int4 data; bits must be 4"},
      {"uint8 gathered along axis 1", E::Uint8, {4, 16}, {4, 1}, {}, E::Uint8, {{"gather_axis", 1}, {"block_size", 32}}, {0},
       StatusCode::Attribute, "gather_axis 1 is not allowed for uint8 data; it must be 0"},
      {"uint8 quantized along axis 0", E::Uint8, {4, 16}, {1, 16}, {}, E::Uint8, {{"quantize_axis", 0}}, {0},
       StatusCode::Attribute, "quantize_axis 0 is not allowed for uint8 data of rank 2"},
      {"scales with one block too many", E::Uint8, {4, 16}, {4, 2}, {}, E::Uint8, {{"block_size", 32}}, {0}, StatusCode::Shape,
       "scales [4, 2] do not match data [4, 16]: dimension 1 must be 1 (blocks of 32 codes along quantize_axis)"},
      {"scales of another rank", E::Uint8, {4, 16}, {4}, {}, E::Uint8, {{"block_size", 32}}, {0}, StatusCode::Shape,
       "scales [4] must have the data's rank (data [4, 16])"},
      {"zero points not packed two a byte", E::Uint8, {4, 48}, {4, 3}, {4, 3}, E::Uint8, {{"block_size", 32}}, {0}, StatusCode::Shape,
       "zero_points [4, 3] do not match scales [4, 3]: dimension 1 must be 2"},
      {"zero points of another type than the data", E::Uint4, {4, 32}, {4, 1}, {4, 1}, E::Int4, {{"block_size", 32}}, {0},
       StatusCode::Type, "input 3 ('zero_points') has type tensor(int4) but input 0 ('data') has tensor(uint4); both are T1, one type"},
      {"an index out of range", E::Uint8, {4, 16}, {4, 1}, {}, E::Uint8, {{"block_size", 32}}, {1, 4}, StatusCode::Index,
       "index 4 at position 1 is outside [-4, 3] for axis 0 of size 4"},
      {"an index below the range", E::Int4, {4, 32}, {4, 1}, {}, E::Int4, {{"block_size", 32}}, {-5}, StatusCode::Index,
       "index -5 at position 0 is outside [-4, 3]"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    Tensor data = make(b.data_type, b.data_dims), scales = make(E::Float, b.scale_dims);
    Tensor zp = make(b.zp_type, b.zp_dims.empty() ? std::vector<int64_t>{1} : b.zp_dims);
    Tensor idx = make(E::Int64, {static_cast<int64_t>(b.indices.size())});
    std::memcpy(idx.buffer->data(), b.indices.data(), b.indices.size() * 8);
    std::vector<Attribute> attrs;
    for (const auto& [name, v] : b.attrs) attrs.push_back(Int(name, v));
    std::vector<const Tensor*> in = {&data, &idx, &scales};
    if (!b.zp_dims.empty()) in.push_back(&zp);
    std::vector<Tensor> out;
    const Status s = run_node(kDomain, "GatherBlockQuantized", 1, Attributes(attrs), in, &out);
    CHECK(s.code() == b.code);
    CHECK(s.message().find(b.message) != std::string::npos);
    INFO(s.message());
    CHECK(out.empty());
  }
}

TEST_CASE("onnx-wasm GatherBlockQuantized: a multiplier that is not one element of the scales' type is refused") {
  Tensor data = make(E::Uint8, {4, 16}), scales = make(E::Float, {4, 1}), idx = make(E::Int64, {1});
  Tensor two = make(E::Float, {2}), half = make(E::Float16, {});
  const Attributes attrs({Int("block_size", 32)});
  struct Bad {
    const char* what;
    const Tensor* multiplier;
    StatusCode code;
    const char* message;
  };
  const Bad cases[] = {
      {"two elements", &two, StatusCode::Shape, "onnx-wasm.GatherBlockQuantized-1: multiplier [2] must hold one element"},
      {"float16 with float scales", &half, StatusCode::Type,
       "input 4 ('multiplier') has type tensor(float16) but input 2 ('scales') has tensor(float); both are T2, one type"},
  };
  for (const Bad& b : cases) {
    INFO(b.what);
    std::vector<Tensor> out;
    const Status s = run_node("onnx-wasm", "GatherBlockQuantized", 1, attrs, {&data, &idx, &scales, nullptr, b.multiplier}, &out);
    INFO(s.message());
    CHECK(s.code() == b.code);
    CHECK(s.message().find(b.message) != std::string::npos);
    CHECK(out.empty());
  }
  std::vector<ValueInfo> inferred;
  const Status s = infer_node("onnx-wasm", "GatherBlockQuantized", 1, attrs,
                              {ValueInfo::of_dims(E::Uint8, {4, 16}), ValueInfo::of_dims(E::Int64, {1}),
                               ValueInfo::of_dims(E::Float, {4, 1}), ValueInfo{}, ValueInfo::of_dims(E::Float, {1, 3})},
                              &inferred);
  CHECK(s.code() == StatusCode::Shape);
  CHECK(s.message() == "onnx-wasm.GatherBlockQuantized-1: multiplier [1, 3] must hold one element");
}

TEST_CASE("float16 and bfloat16 conversions: every half round-trips; ties go to even") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const bool nan = (h & 0x7C00) == 0x7C00 && (h & 0x03FF);
    if (nan) continue;
    REQUIRE(float_to_half(half_to_float(static_cast<uint16_t>(h))) == h);
  }
  CHECK(float_to_half(1.0f + 0x1.0p-11f) == 0x3C00);             // tie: to even (1.0)
  CHECK(float_to_half(1.0f + 3 * 0x1.0p-11f) == 0x3C02);         // tie: to even (up)
  CHECK(float_to_half(65520.0f) == 0x7C00);                      // rounds to infinity
  CHECK(float_to_half(0x1.0p-25f) == 0x0000);                    // tie below the smallest subnormal: to 0
  CHECK(float_to_bfloat16(1.0f + 0x1.0p-8f) == 0x3F80);          // tie: to even
  CHECK(float_to_bfloat16(1.0f + 3 * 0x1.0p-8f) == 0x3F82);
  CHECK(bfloat16_to_float(0xC0A0) == -5.0f);
}
