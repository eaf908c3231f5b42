// Cast (versions 1, 6, 9, 13, 19, 21, 23, 24, 25) and CastLike (15, 19, 21, 23, 24, 25), against
// facts written here from ONNX's definitions (onnx/defs/tensor/defs.cc and old.cc) and an oracle
// of the conversion rules src/ops/cast.cpp documents (onnxruntime's CPU kernel where it defines
// them, the ONNX pages otherwise):
// - versions and types: every opset resolves to its version; for each version every ONNX type is
//   accepted or refused, as input and as `to`; the attributes each version has;
// - the matrix: every pair of Cast-25's 23 types other than string, on values chosen to cross every
//   rule (rounding ties, ranges, NaN, infinities, wrap-around), each output element against the
//   oracle: an integer's exact value as long double (x86's 64-bit mantissa holds every int64), a
//   float's as the double it is;
// - rules by example: the x86 conversions of out-of-range floats, int64 to float without double
//   rounding, string parsing and printing, sub-byte packing, saturate and round_mode;
// - inference (shapes, values through int64 and int32), the same-type view, and the refusals.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "src/kernels/float16.h"
#include "src/kernels/minifloat.h"
#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;

namespace {

// ---- ONNX facts ----

const std::vector<E> kCast1 = {E::Float16, E::Float, E::Double, E::Int8,   E::Int16,  E::Int32,
                               E::Int64,   E::Uint8, E::Uint16, E::Uint32, E::Uint64, E::Bool};

std::vector<E> types_of(int since) {
  std::vector<E> t = kCast1;
  if (since >= 9) t.push_back(E::String);
  if (since >= 13) t.push_back(E::Bfloat16);
  if (since >= 19) t.insert(t.end(), {E::Float8e4m3fn, E::Float8e4m3fnuz, E::Float8e5m2, E::Float8e5m2fnuz});
  if (since >= 21) t.insert(t.end(), {E::Uint4, E::Int4});
  if (since >= 23) t.push_back(E::Float4e2m1);
  if (since >= 24) t.push_back(E::Float8e8m0);
  if (since >= 25) t.insert(t.end(), {E::Uint2, E::Int2});
  return t;
}

int since_at(const std::vector<int>& versions, int opset) {
  int s = 0;
  for (int v : versions)
    if (v <= opset) s = v;
  return s;
}

const std::vector<int> kCastVersions = {1, 6, 9, 13, 19, 21, 23, 24, 25};
const std::vector<int> kCastLikeVersions = {15, 19, 21, 23, 24, 25};

bool contains(const std::vector<E>& v, E t) {
  for (E x : v)
    if (x == t) return true;
  return false;
}

Attributes to_attr(E t) { return Attributes({Int("to", static_cast<int64_t>(t))}); }

Attribute Str(const std::string& name, const std::string& value) {
  Attribute a;
  a.name = name;
  a.kind = AttrKind::String;
  a.strings = {value};
  return a;
}

// ---- Tensors: element i of any type, read and written through the tested helpers ----

int bits_of(E t) { return element_bits(t); }

bool is_float(E t) {
  return t == E::Float || t == E::Double || t == E::Float16 || t == E::Bfloat16 || t == E::Float8e4m3fn ||
         t == E::Float8e4m3fnuz || t == E::Float8e5m2 || t == E::Float8e5m2fnuz || t == E::Float4e2m1 || t == E::Float8e8m0;
}
bool is_signed_int(E t) {
  return t == E::Int8 || t == E::Int16 || t == E::Int32 || t == E::Int64 || t == E::Int4 || t == E::Int2;
}

MiniFloat mini(E t) {
  return t == E::Float8e4m3fn ? MiniFloat::E4M3FN : t == E::Float8e4m3fnuz ? MiniFloat::E4M3FNUZ
         : t == E::Float8e5m2 ? MiniFloat::E5M2 : t == E::Float8e5m2fnuz ? MiniFloat::E5M2FNUZ : MiniFloat::E2M1;
}

// The raw code of element i (up to 64 bits).
uint64_t code_at(const Tensor& t, size_t i) {
  const int bits = bits_of(t.type);
  const uint8_t* b = t.buffer->data();
  if (bits < 8) return (b[i * bits / 8] >> (i * bits % 8)) & ((1u << bits) - 1);
  uint64_t c = 0;
  std::memcpy(&c, b + i * bits / 8, static_cast<size_t>(bits / 8));
  return c;
}

void set_code(Tensor* t, size_t i, uint64_t c) {
  const int bits = bits_of(t->type);
  uint8_t* b = t->buffer->data();
  if (bits < 8) {
    b[i * bits / 8] = static_cast<uint8_t>(b[i * bits / 8] | (c & ((1u << bits) - 1)) << (i * bits % 8));
    return;
  }
  std::memcpy(b + i * bits / 8, &c, static_cast<size_t>(bits / 8));
}

// A float type's code as a double (the formats' decoders are tested on their own).
double float_value(E t, uint64_t c) {
  switch (t) {
    case E::Float: return bits_float(static_cast<uint32_t>(c));
    case E::Double: { double d; std::memcpy(&d, &c, 8); return d; }
    case E::Float16: return half_to_float(static_cast<uint16_t>(c));
    case E::Bfloat16: return bfloat16_to_float(static_cast<uint16_t>(c));
    case E::Float8e8m0: return e8m0_to_float(static_cast<uint8_t>(c));
    default: return minifloat_to_float(static_cast<uint8_t>(c), mini(t));
  }
}

// An integer type's code as its value (bool: 0 or 1).
long double int_value(E t, uint64_t c) {
  const int bits = bits_of(t);
  if (is_signed_int(t) && bits < 64 && (c >> (bits - 1) & 1)) return static_cast<long double>(static_cast<int64_t>(c) - (int64_t{1} << bits));
  if (t == E::Int64) return static_cast<long double>(static_cast<int64_t>(c));
  return static_cast<long double>(c);
}

// The code of float x in a float type, as onnxruntime converts (through float for the small ones).
uint64_t float_code(E t, double x, bool saturate = true) {
  switch (t) {
    case E::Float: return float_bits(static_cast<float>(x));
    case E::Double: { uint64_t c; std::memcpy(&c, &x, 8); return c; }
    case E::Float16: return float_to_half(static_cast<float>(x));
    case E::Bfloat16: return float_to_bfloat16(static_cast<float>(x));
    case E::Float8e8m0: return float_to_e8m0(static_cast<float>(x), saturate, E8m0Round::Up);
    default: return float_to_minifloat(static_cast<float>(x), mini(t), saturate);
  }
}

// ---- The oracle ----

// x86-64's float to integer conversion (the rule cast.cpp documents), from the long double value.
uint64_t oracle_float_to_int(E to, long double x) {
  const long double t = std::trunc(x);
  auto width = [&](int w) -> uint64_t {  // cvttsd2si of width w: the value, or the lowest one
    const long double lo = -std::ldexp(1.0L, w - 1), hi = std::ldexp(1.0L, w - 1);
    if (!(t >= lo && t < hi)) return uint64_t{1} << (w - 1);
    return static_cast<uint64_t>(static_cast<int64_t>(t));
  };
  switch (to) {
    case E::Uint32: case E::Int64: return width(64);
    case E::Uint64:  // x86-64 compilers' sequence: below 2^63 as int64, else x - 2^63 with the top bit flipped
      if (std::isnan(x)) return 0;
      if (t >= 0 && t < std::ldexp(1.0L, 64)) return static_cast<uint64_t>(t);
      if (t >= std::ldexp(1.0L, 64)) return 0;
      return width(64);
    case E::Int4: case E::Uint4: case E::Int2: case E::Uint2: {
      // Round half to even, then as an int32.
      long double r = std::floor(x);
      const long double diff = x - r;
      if (diff > 0.5L || (diff == 0.5L && std::fmod(r, 2.0L) != 0)) r += 1;
      const long double lo = -std::ldexp(1.0L, 31), hi = std::ldexp(1.0L, 31);
      if (!(r >= lo && r < hi)) return uint64_t{1} << 31;
      return static_cast<uint64_t>(static_cast<int64_t>(r));
    }
    default: return width(32);
  }
}

// The expected code of one element: the source's value (an exact long double for integers, a
// double for floats) into `to`.
uint64_t oracle(E from, uint64_t code, E to) {
  const int to_bits = bits_of(to);
  const uint64_t mask = to_bits == 64 ? ~uint64_t{0} : (uint64_t{1} << to_bits) - 1;
  if (is_float(from)) {
    const double x = float_value(from, code);
    if (to == E::Bool) return x != 0 || std::isnan(x) ? 1 : 0;
    if (is_float(to)) return float_code(to, x);
    return oracle_float_to_int(to, x) & mask;
  }
  const long double v = int_value(from, code);
  if (to == E::Bool) return v != 0;
  if (to == E::Double) return float_code(E::Double, static_cast<double>(v));  // one rounding: long double holds it
  if (to == E::Float) return float_bits(static_cast<float>(v));                // one rounding too
  if (is_float(to)) return float_code(to, static_cast<float>(v));
  // Integers: the low bits of the two's complement.
  const uint64_t twos = v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v)) : static_cast<uint64_t>(v);
  return twos & mask;
}

// Source codes that cross the rules, per type.
std::vector<uint64_t> sample_codes(E t) {
  std::vector<uint64_t> c;
  if (is_float(t)) {
    const double xs[] = {0.0,  -0.0, 1.0,   -1.0,  0.3,   2.5,    -2.5,   3.5,    7.0,     -8.0,    100.7,  -100.7,
                         255,  256,  300.5, -129,  65504, 65520,  70000,  -3e9,   3e9,     5e9,     1e20,   -1e20,
                         1e-8, 448,  500,   57344, 1e6,   0.0625, 6.0,    -6.0,   2147483647.0, 4294967295.0,
                         9.2233720368547758e18, 1.8446744073709552e19, -9.2233720368547758e18,
                         std::numeric_limits<double>::quiet_NaN(), HUGE_VAL, -HUGE_VAL};
    for (double x : xs) c.push_back(float_code(t, x));
    if (t == E::Double) c.push_back(float_code(t, 16777217.0));  // a double that float rounds
    return c;
  }
  const long double vs[] = {0, 1, -1, 2, 7, -8, 100, 127, -128, 200, 255, 300, -300, 65535, 70000, -70000, 2147483647.0L,
                            -2147483648.0L, 4294967295.0L, 1099511627779.0L, 9007199791611905.0L /* 2^53 + 2^29 + 1 */,
                            -9223372036854775807.0L - 1, 9223372036854775807.0L, 18446744073709551615.0L};
  for (long double v : vs) {
    // Only values the type holds.
    const int bits = bits_of(t);
    const long double lo = t == E::Bool ? 0 : is_signed_int(t) ? -std::ldexp(1.0L, bits - 1) : 0;
    const long double hi = t == E::Bool ? 1 : is_signed_int(t) ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
    if (v < lo || v > hi) continue;
    c.push_back(v < 0 ? static_cast<uint64_t>(static_cast<int64_t>(v)) & (bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1)
                      : static_cast<uint64_t>(v));
  }
  return c;
}

bool is_nan_code(E t, uint64_t c) { return is_float(t) && std::isnan(float_value(t, c)); }

Tensor tensor_of(E t, const std::vector<uint64_t>& codes) {
  Tensor x;
  REQUIRE(make_tensor(t, {static_cast<int64_t>(codes.size())}, &x).is_ok());
  for (size_t i = 0; i < codes.size(); ++i) set_code(&x, i, codes[i]);
  return x;
}

Tensor strings(const std::vector<std::string>& s) {
  Tensor x;
  REQUIRE(make_tensor(E::String, {static_cast<int64_t>(s.size())}, &x).is_ok());
  for (size_t i = 0; i < s.size(); ++i) x.buffer->strings()[i] = s[i];
  return x;
}

Tensor cast(const Tensor& x, E to, int opset = 25, Attributes attrs = Attributes()) {
  attrs.add(Int("to", static_cast<int64_t>(to)));
  std::vector<Tensor> out;
  const Status s = run_node("Cast", opset, attrs, {&x}, &out);
  INFO(s.message());
  REQUIRE(s.is_ok());
  REQUIRE(out.size() == 1);
  return out[0];
}

}  // namespace

TEST_CASE("Cast, CastLike: versions, and every type accepted or refused, as input and as `to`") {
  const std::vector<E> all = types_of(25);
  for (int opset = 1; opset <= kMaxOpset; ++opset) {
    const OpVersion* v = nullptr;
    REQUIRE(resolve_op("Cast", opset, &v).is_ok());
    CHECK(v->since == since_at(kCastVersions, opset));
    const std::vector<E> allowed = types_of(v->since);
    for (int id = 1; id <= kMaxElementTypeId; ++id) {
      const E t = static_cast<E>(id);
      INFO("opset " << opset << " type " << onnx_name(t));
      std::vector<ValueInfo> out;
      const Attributes attrs = v->since == 1 ? Attributes({Str("to", "FLOAT")}) : to_attr(E::Float);
      const Status as_input = infer_node("Cast", opset, attrs, {ValueInfo::of_dims(t, {2})}, &out);
      CHECK(as_input.is_ok() == contains(allowed, t));
      if (!as_input.is_ok()) CHECK(as_input.code() == StatusCode::Type);
      if (v->since > 1) {
        const Status as_to = infer_node("Cast", opset, to_attr(t), {ValueInfo::of_dims(E::Float, {2})}, &out);
        CHECK(as_to.is_ok() == contains(allowed, t));
        if (as_to.is_ok()) CHECK(out[0].type == t);
        else CHECK(as_to.code() == StatusCode::Attribute);
      }
    }
    const OpVersion* like = nullptr;
    const Status s = resolve_op("CastLike", opset, &like);
    REQUIRE(s.is_ok() == (opset >= 15));
    if (!like) continue;
    CHECK(like->since == since_at(kCastLikeVersions, opset));
    for (E t : all) {
      std::vector<ValueInfo> out;
      const bool ok = contains(types_of(like->since), t);
      CHECK(infer_node("CastLike", opset, {}, {ValueInfo::of_dims(t, {3}), ValueInfo::of_dims(E::Float, {1})}, &out).is_ok() == ok);
      CHECK(infer_node("CastLike", opset, {}, {ValueInfo::of_dims(E::Float, {3}), ValueInfo::of_dims(t, {1})}, &out).is_ok() == ok);
      if (ok) CHECK(out[0].type == t);
    }
  }
  // Attributes per version: saturate from 19, round_mode from 24; Cast-1's `to` is a name.
  std::vector<ValueInfo> out;
  const std::vector<ValueInfo> f = {ValueInfo::of_dims(E::Float, {2})};
  CHECK(infer_node("Cast", 18, Attributes({Int("to", 7), Int("saturate", 0)}), f, &out).code() == StatusCode::Attribute);
  CHECK(infer_node("Cast", 19, Attributes({Int("to", 7), Int("saturate", 0)}), f, &out).is_ok());
  CHECK(infer_node("Cast", 23, Attributes({Int("to", 24), Str("round_mode", "up")}), f, &out).code() == StatusCode::Attribute);
  CHECK(infer_node("Cast", 24, Attributes({Int("to", 24), Str("round_mode", "nearest")}), f, &out).is_ok());
  CHECK(infer_node("Cast", 1, Attributes({Str("to", "INT64")}), f, &out).is_ok());
  CHECK(out[0].type == E::Int64);
  CHECK(infer_node("Cast", 1, Attributes({Str("to", "float16")}), f, &out).is_ok());
  CHECK(out[0].type == E::Float16);
  CHECK(infer_node("Cast", 1, Attributes({Int("to", 7)}), f, &out).code() == StatusCode::Attribute);
  CHECK(infer_node("Cast", 6, Attributes({Str("to", "INT64")}), f, &out).code() == StatusCode::Attribute);
  CHECK(infer_node("Cast", 13, {}, f, &out).code() == StatusCode::Attribute);  // `to` is required
  CHECK(infer_node("CastLike", 18, Attributes({Int("saturate", 1)}), {f[0], f[0]}, &out).code() == StatusCode::Attribute);
  CHECK(infer_node("CastLike", 24, Attributes({Str("round_mode", "down")}), {f[0], f[0]}, &out).is_ok());
}

TEST_CASE("Cast: the refusals name the version and the value") {
  std::vector<ValueInfo> out;
  const std::vector<ValueInfo> f = {ValueInfo::of_dims(E::Float, {2})};
  Status s = infer_node("Cast", 13, to_attr(E::Float8e4m3fn), f, &out);
  CHECK(s.message() == "Cast-13: attribute 'to' is 17 (float8e4m3fn), which Cast-13 does not allow; T2 must be one of "
                       "tensor(bfloat16), tensor(bool), tensor(double), tensor(float), tensor(float16), tensor(int16), "
                       "tensor(int32), tensor(int64), tensor(int8), tensor(string), tensor(uint16), tensor(uint32), "
                       "tensor(uint64), tensor(uint8)");
  s = infer_node("Cast", 25, Attributes({Int("to", 99)}), f, &out);
  CHECK(s.code() == StatusCode::Attribute);
  CHECK(s.message().rfind("Cast-25: attribute 'to' is 99 (no element type), which Cast-25 does not allow", 0) == 0);
  s = infer_node("Cast", 25, Attributes({Int("to", 14)}), f, &out);  // complex64
  CHECK(s.message().rfind("Cast-25: attribute 'to' is 14 (complex64)", 0) == 0);
  s = infer_node("Cast", 1, Attributes({Str("to", "STRING")}), f, &out);
  CHECK(s.message().rfind("Cast-1: attribute 'to' is 'STRING', which Cast-1 does not allow", 0) == 0);
  s = infer_node("Cast", 19, Attributes({Int("to", 17), Int("saturate", 2)}), f, &out);
  CHECK(s.message() == "Cast-19: attribute 'saturate' is 2; it must be 0 or 1");
  s = infer_node("Cast", 24, Attributes({Int("to", 24), Str("round_mode", "zero")}), f, &out);
  CHECK(s.message() == "Cast-24: attribute 'round_mode' is 'zero'; it must be 'up', 'down' or 'nearest'");
  Tensor bad = strings({"1", "x1"});
  std::vector<Tensor> outs;
  s = run_node("Cast", 13, to_attr(E::Float), {&bad}, &outs);
  CHECK(s.code() == StatusCode::InvalidArgument);
  CHECK(s.message() == "Cast-13: input element 1 ('x1') is not a number; it cannot be cast to tensor(float)");
  CHECK(outs.empty());
  Tensor big = strings({"99999999999999999999"});
  s = run_node("Cast", 13, to_attr(E::Int64), {&big}, &outs);
  CHECK(s.message() == "Cast-13: input element 0 ('99999999999999999999') is beyond the 64-bit integers; it cannot be "
                       "cast to tensor(int64)");
}

TEST_CASE("Cast: every pair of types, each element against the oracle") {
  std::vector<E> all = types_of(25);
  all.erase(std::find(all.begin(), all.end(), E::String));
  size_t pairs = 0;
  for (E from : all) {
    const std::vector<uint64_t> codes = sample_codes(from);
    const Tensor x = tensor_of(from, codes);
    for (E to : all) {
      const Tensor y = cast(x, to);
      REQUIRE(y.type == to);
      REQUIRE(y.dims == x.dims);
      ++pairs;
      for (size_t i = 0; i < codes.size(); ++i) {
        INFO(onnx_name(from) << " -> " << onnx_name(to) << " element " << i << " code " << codes[i]);
        const uint64_t got = code_at(y, i), want = from == to ? codes[i] : oracle(from, codes[i], to);
        if (is_nan_code(to, want)) {
          CHECK(is_nan_code(to, got));  // (NaN payloads are not compared)
        } else {
          CHECK(got == want);
        }
      }
      // Sub-byte outputs: the padding bits of an odd count stay zero.
      const int bits = bits_of(to);
      if (bits < 8 && codes.size() * bits % 8) CHECK((y.buffer->data()[codes.size() * bits / 8] >> (codes.size() * bits % 8)) == 0);
    }
  }
  CHECK(pairs == 23 * 23);
}

TEST_CASE("Cast: the rules by example") {
  auto f32 = [](std::vector<float> v) {
    std::vector<uint64_t> c;
    for (float x : v) c.push_back(float_bits(x));
    return tensor_of(E::Float, c);
  };
  auto i64 = [](std::vector<int64_t> v) {
    std::vector<uint64_t> c;
    for (int64_t x : v) c.push_back(static_cast<uint64_t>(x));
    return tensor_of(E::Int64, c);
  };
  // Floats to integers: truncation, x86's integer indefinite, the low bits.
  Tensor y = cast(f32({300.7f, -1.5f, NAN, 3e9f, -3e9f, 1e20f}), E::Int32);
  const int32_t* i32 = reinterpret_cast<const int32_t*>(y.buffer->data());
  CHECK(std::vector<int32_t>(i32, i32 + 6) == std::vector<int32_t>{300, -1, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN});
  y = cast(f32({300.7f, -1.5f, NAN, 3e9f}), E::Int8);
  const int8_t* i8 = reinterpret_cast<const int8_t*>(y.buffer->data());
  CHECK(std::vector<int>(i8, i8 + 4) == std::vector<int>{44, -1, 0, 0});
  y = cast(f32({-1.0f, 3e9f, 5e9f, NAN}), E::Uint32);
  const uint32_t* u32 = reinterpret_cast<const uint32_t*>(y.buffer->data());
  CHECK(std::vector<uint32_t>(u32, u32 + 4) == std::vector<uint32_t>{4294967295u, 3000000000u, 705032704u, 0u});
  y = cast(f32({-1.0f, 1e19f, 1e20f, NAN}), E::Uint64);
  const uint64_t* u64 = reinterpret_cast<const uint64_t*>(y.buffer->data());
  CHECK(std::vector<uint64_t>(u64, u64 + 4) == std::vector<uint64_t>{~uint64_t{0}, 9999999980506447872u, 0, 0});
  y = cast(f32({INFINITY, -INFINITY, -1e19f}), E::Uint64);
  u64 = reinterpret_cast<const uint64_t*>(y.buffer->data());
  CHECK(std::vector<uint64_t>(u64, u64 + 3) == std::vector<uint64_t>{0, uint64_t{1} << 63, uint64_t{1} << 63});
  // To int4: ties to even, then the low 4 bits (9 is 1001: -7).
  y = cast(f32({2.5f, 3.5f, -2.5f, 9.0f, 7.4f}), E::Int4);
  CHECK(y.buffer->data()[0] == 0x42);  // 2, 4
  CHECK(y.buffer->data()[1] == 0x9E);  // -2 (1110), -7 (1001)
  CHECK(y.buffer->data()[2] == 0x07);  // 7, padding 0
  // int64 to float in one rounding: 2^53 + 2^29 + 1 is above the midpoint of 2^53 and 2^53 + 2^30
  // (through double it would be the midpoint, then 2^53).
  y = cast(i64({(int64_t{1} << 53) + (int64_t{1} << 29) + 1, (int64_t{1} << 53) + 1}), E::Float);
  CHECK(reinterpret_cast<const float*>(y.buffer->data())[0] == 9007200328482816.0f);
  y = cast(i64({(int64_t{1} << 53) + 1, INT64_MAX}), E::Double);
  CHECK(reinterpret_cast<const double*>(y.buffer->data())[0] == 9007199254740992.0);
  CHECK(reinterpret_cast<const double*>(y.buffer->data())[1] == 9223372036854775808.0);
  // Integers wrap: 200 (int16) is -56 as int8 (the spec's example).
  Tensor s16 = tensor_of(E::Int16, {200});
  CHECK(static_cast<int8_t>(cast(s16, E::Int8).buffer->data()[0]) == -56);
  // Bool: NaN and -0.0.
  y = cast(f32({NAN, -0.0f, 0.5f}), E::Bool);
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{1, 0, 1});
  // float8 with saturate and without (Cast-19's tables).
  Tensor big = f32({1000.0f, -INFINITY, NAN});
  y = cast(big, E::Float8e4m3fn, 19);
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{0x7E, 0xFE, 0x7F});
  y = cast(big, E::Float8e4m3fn, 19, Attributes({Int("saturate", 0)}));
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{0x7F, 0xFF, 0x7F});
  y = cast(f32({1e6f, -INFINITY, NAN}), E::Float8e5m2, 19, Attributes({Int("saturate", 0)}));
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{0x7C, 0xFC, 0x7F});
  // E8M0 and its round modes.
  Tensor e = f32({1.1f, 1.5f, 0.25f});
  y = cast(e, E::Float8e8m0, 24);
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{128, 128, 125});
  y = cast(e, E::Float8e8m0, 24, Attributes({Str("round_mode", "down")}));
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{127, 127, 125});
  y = cast(e, E::Float8e8m0, 25, Attributes({Str("round_mode", "nearest")}));
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{127, 128, 125});
}

TEST_CASE("Cast: strings, parsed and printed as onnxruntime does") {
  Tensor s = strings({"3.14", "1e-5", "+INF", "-inf", "NaN", "  7", "100.5", "-1", "1E8"});
  Tensor y = cast(s, E::Float);
  const float* f = reinterpret_cast<const float*>(y.buffer->data());
  CHECK(f[0] == 3.14f);
  CHECK(f[1] == 1e-5f);
  CHECK(f[2] == INFINITY);
  CHECK(f[3] == -INFINITY);
  CHECK(std::isnan(f[4]));
  CHECK(f[5] == 7.0f);
  CHECK(f[8] == 1e8f);
  Tensor ints = strings({"100.5", "-1", "300", " 42"});
  y = cast(ints, E::Int64);
  const int64_t* i = reinterpret_cast<const int64_t*>(y.buffer->data());
  CHECK(std::vector<int64_t>(i, i + 4) == std::vector<int64_t>{100, -1, 300, 42});
  y = cast(ints, E::Uint8);
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 4) == std::vector<int>{100, 255, 44, 42});
  y = cast(strings({"0", "2", "-3"}), E::Bool);
  CHECK(std::vector<int>(y.buffer->data(), y.buffer->data() + 3) == std::vector<int>{0, 1, 1});
  y = cast(strings({"1.5", "-1e10"}), E::Float16);
  CHECK(half_to_float(reinterpret_cast<const uint16_t*>(y.buffer->data())[0]) == 1.5f);
  CHECK(reinterpret_cast<const uint16_t*>(y.buffer->data())[1] == 0xFC00);  // -inf
  y = cast(strings({"9", "-9", "3"}), E::Int4);
  CHECK(y.buffer->data()[0] == 0x79);  // 9 -> 1001, -9 -> 0111
  // Printing: "%.8g" of the value, "NaN", "INF", "-INF"; integers in decimal; bool 0/1.
  const std::vector<uint64_t> fl = {float_bits(0.1f), float_bits(3.14159274f), float_bits(1e10f), float_bits(NAN),
                                    float_bits(-INFINITY), float_bits(-0.0f), float_bits(1.5e-7f)};  // (1.5e-7f is 1.50000005e-07)
  y = cast(tensor_of(E::Float, fl), E::String);
  const std::string* out = y.buffer->strings();
  CHECK(std::vector<std::string>(out, out + 7) ==
        std::vector<std::string>{"0.1", "3.1415927", "1e+10", "NaN", "-INF", "-0", "1.5000001e-07"});
  y = cast(tensor_of(E::Double, {float_code(E::Double, 0.1), float_code(E::Double, 123456789.0)}), E::String);
  CHECK(y.buffer->strings()[0] == "0.1");
  CHECK(y.buffer->strings()[1] == "1.2345679e+08");
  y = cast(tensor_of(E::Int8, {0xFB}), E::String);
  CHECK(y.buffer->strings()[0] == "-5");
  y = cast(tensor_of(E::Uint64, {~uint64_t{0}}), E::String);
  CHECK(y.buffer->strings()[0] == "18446744073709551615");
  y = cast(tensor_of(E::Bool, {1, 0}), E::String, 13);
  CHECK(y.buffer->strings()[0] == "1");
  CHECK(y.buffer->strings()[1] == "0");
  y = cast(tensor_of(E::Int4, {0xF}), E::String, 21);
  CHECK(y.buffer->strings()[0] == "-1");
  y = cast(tensor_of(E::Float16, {0x3E00}), E::String);
  CHECK(y.buffer->strings()[0] == "1.5");
  // Strings to strings: the same tensor.
  Tensor same = strings({"a"});
  CHECK(cast(same, E::String).buffer == same.buffer);
}

TEST_CASE("Cast: to the input's own type the output shares its buffer; CastLike takes input 1's type") {
  Tensor x = tensor_of(E::Float, {float_bits(1.5f), float_bits(-2.0f)});
  Tensor y = cast(x, E::Float);
  CHECK(y.buffer == x.buffer);
  CHECK(y.dims == x.dims);
  Tensor like = tensor_of(E::Float16, {0});
  std::vector<Tensor> out;
  REQUIRE(run_node("CastLike", 15, {}, {&x, &like}, &out).is_ok());
  CHECK(out[0].type == E::Float16);
  CHECK(reinterpret_cast<const uint16_t*>(out[0].buffer->data())[1] == 0xC000);
  Tensor f8 = tensor_of(E::Float8e5m2, {0});
  Tensor huge = tensor_of(E::Float, {float_bits(1e9f)});
  REQUIRE(run_node("CastLike", 19, Attributes({Int("saturate", 0)}), {&huge, &f8}, &out).is_ok());
  CHECK(out[0].buffer->data()[0] == 0x7C);
  REQUIRE(run_node("CastLike", 19, {}, {&huge, &f8}, &out).is_ok());
  CHECK(out[0].buffer->data()[0] == 0x7B);
  // An empty tensor.
  Tensor empty;
  REQUIRE(make_tensor(E::Float, {0, 3}, &empty).is_ok());
  Tensor e = cast(empty, E::Int4);
  CHECK(e.dims == std::vector<int64_t>{0, 3});
}

TEST_CASE("Cast: inference keeps the shape and passes int64 and int32 values through") {
  ValueInfo x = onnxwasm_test::parse_shape(E::Int64, "[3]");
  x.int_values = std::vector<int64_t>{2, -1, int64_t{1} << 33};
  std::vector<ValueInfo> out;
  REQUIRE(infer_node("Cast", 13, to_attr(E::Int64), {x}, &out).is_ok());
  CHECK(out[0].int_values == x.int_values);
  REQUIRE(infer_node("Cast", 13, to_attr(E::Int32), {x}, &out).is_ok());
  REQUIRE(out[0].int_values);
  CHECK(*out[0].int_values == std::vector<int64_t>{2, -1, 0});
  ValueInfo y = out[0];
  REQUIRE(infer_node("Cast", 13, to_attr(E::Int64), {y}, &out).is_ok());
  CHECK(*out[0].int_values == std::vector<int64_t>{2, -1, 0});
  REQUIRE(infer_node("Cast", 13, to_attr(E::Float), {x}, &out).is_ok());
  CHECK_FALSE(out[0].int_values);
  CHECK(out[0].type == E::Float);
  REQUIRE(infer_node("Cast", 9, to_attr(E::String), {onnxwasm_test::parse_shape(E::Float, "[batch, ?, 4]")}, &out).is_ok());
  CHECK(onnxwasm_test::describe(out[0]) == "[batch, ?, 4]");
  REQUIRE(infer_node("CastLike", 21, {}, {onnxwasm_test::parse_shape(E::Float, "*"), onnxwasm_test::parse_shape(E::Int4, "[1]")}, &out).is_ok());
  CHECK(onnxwasm_test::describe(out[0]) == "*");
  CHECK(out[0].type == E::Int4);
  // A prepared Cast runs again on new values and dims.
  PreparedOp op;
  REQUIRE(PreparedOp::prepare("Cast", 13, to_attr(E::Int64), &op).is_ok());
  Tensor a = tensor_of(E::Int32, {5, static_cast<uint32_t>(-6)});
  const Tensor* in[] = {&a};
  Tensor r;
  REQUIRE(op.run(in, 1, &r).is_ok());
  CHECK(reinterpret_cast<const int64_t*>(r.buffer->data())[1] == -6);
}
