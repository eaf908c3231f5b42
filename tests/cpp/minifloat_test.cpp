// src/kernels/minifloat.h, exhaustively: every code of each format decodes to the value its bit
// fields give (written here from the format tables of ONNX's float8 and float4 pages), encoding
// round-trips every code, and encoding a float equals a brute-force oracle (the nearest value
// among all codes, ties to the even code, plus one virtual step past the largest to decide an
// overflow), with saturate and without, on the values between codes, the ties and specials.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "src/kernels/minifloat.h"

using namespace onnxwasm;

namespace {

struct Format {
  const char* name;
  MiniFloat kind;
  int bits, exp_bits, mant_bits, bias;
};

const Format kFormats[] = {
    {"E4M3FN", MiniFloat::E4M3FN, 8, 4, 3, 7},
    {"E4M3FNUZ", MiniFloat::E4M3FNUZ, 8, 4, 3, 8},
    {"E5M2", MiniFloat::E5M2, 8, 5, 2, 15},
    {"E5M2FNUZ", MiniFloat::E5M2FNUZ, 8, 5, 2, 16},
    {"E2M1", MiniFloat::E2M1, 4, 2, 1, 1},
};

enum class Class { Finite, Nan, Inf };

// The value of a code from its fields, and what it is.
Class oracle_decode(const Format& f, unsigned code, double* value) {
  const unsigned sign = code >> (f.bits - 1) & 1;
  const unsigned e = code >> f.mant_bits & ((1u << f.exp_bits) - 1), m = code & ((1u << f.mant_bits) - 1);
  const unsigned all_ones_e = (1u << f.exp_bits) - 1, all_ones_m = (1u << f.mant_bits) - 1;
  if ((f.kind == MiniFloat::E4M3FNUZ || f.kind == MiniFloat::E5M2FNUZ) && code == 0x80) return Class::Nan;
  if (f.kind == MiniFloat::E4M3FN && e == all_ones_e && m == all_ones_m) return Class::Nan;
  if (f.kind == MiniFloat::E5M2 && e == all_ones_e) {
    *value = sign ? -INFINITY : INFINITY;
    return m == 0 ? Class::Inf : Class::Nan;
  }
  const double mag = e == 0 ? m * std::pow(2.0, 1 - f.bias - f.mant_bits)
                            : (1.0 + m * std::pow(2.0, -f.mant_bits)) * std::pow(2.0, static_cast<int>(e) - f.bias);
  *value = sign ? -mag : mag;
  return Class::Finite;
}

struct Candidate {
  double value;
  unsigned code;
};

// Finite codes of one sign (for x >= 0: the positive ones, 0 included), ascending.
std::vector<Candidate> finite_codes(const Format& f) {
  std::vector<Candidate> c;
  for (unsigned code = 0; code < (1u << (f.bits - 1)); ++code) {
    double v = 0;
    if (oracle_decode(f, code, &v) == Class::Finite) c.push_back({v, code});
  }
  return c;
}

// The encoding of x by the spec's rules, found by search.
unsigned oracle_encode(const Format& f, float xf, bool saturate) {
  const bool fnuz = f.kind == MiniFloat::E4M3FNUZ || f.kind == MiniFloat::E5M2FNUZ;
  const unsigned sign = std::signbit(xf) ? 1u << (f.bits - 1) : 0;
  const double x = std::fabs(static_cast<double>(xf));
  if (f.kind == MiniFloat::E2M1) saturate = true;
  const std::vector<Candidate> c = finite_codes(f);
  const Candidate top = c.back();
  const unsigned overflow = saturate ? (sign | top.code) : fnuz ? 0x80u : f.kind == MiniFloat::E5M2 ? (sign | 0x7Cu) : (sign | 0x7Fu);
  if (std::isnan(xf)) return f.kind == MiniFloat::E2M1 ? top.code : fnuz ? 0x80u : (sign | 0x7Fu);
  if (std::isinf(xf)) return overflow;
  const double spacing = top.value - c[c.size() - 2].value;
  if (x > top.value + spacing) return overflow;  // (too far for the distances below to tell apart)
  // One step past the largest, at the largest's spacing: its code's parity decides the tie.
  const double step = top.value - c[c.size() - 2].value;
  std::vector<Candidate> all = c;
  all.push_back({top.value + step, top.code + 1});
  size_t best = 0;
  for (size_t i = 1; i < all.size(); ++i) {
    const double d = std::fabs(all[i].value - x), db = std::fabs(all[best].value - x);
    if (d < db || (d == db && (all[i].code & 1) == 0)) best = i;
  }
  if (best == all.size() - 1) return overflow;
  if (all[best].value == 0) return fnuz ? 0 : sign;
  return sign | all[best].code;
}

}  // namespace

TEST_CASE("minifloat: every code decodes to its fields' value, and encodes back to itself") {
  for (const Format& f : kFormats) {
    for (unsigned code = 0; code < (1u << f.bits); ++code) {
      INFO(f.name << " code " << code);
      double want = 0;
      const Class cls = oracle_decode(f, code, &want);
      const float got = minifloat_to_float(static_cast<uint8_t>(code), f.kind);
      if (cls == Class::Nan) {
        CHECK(std::isnan(got));
        // NaN encodes to the format's NaN (with its sign where the format has one).
        const unsigned back = float_to_minifloat(got, f.kind, true);
        double ignored = 0;
        CHECK(oracle_decode(f, back, &ignored) == Class::Nan);
        continue;
      }
      CHECK(static_cast<double>(got) == want);
      CHECK(std::signbit(got) == ((code >> (f.bits - 1) & 1) != 0));
      CHECK(float_to_minifloat(got, f.kind, true) == (cls == Class::Inf ? (code & 0x80) | 0x7B : code));
      CHECK(float_to_minifloat(got, f.kind, false) == code);
    }
  }
  // Anchors from the ONNX pages: the largest values and the smallest subnormals.
  CHECK(minifloat_to_float(0x7E, MiniFloat::E4M3FN) == 448.0f);
  CHECK(minifloat_to_float(0x7F, MiniFloat::E4M3FNUZ) == 240.0f);
  CHECK(minifloat_to_float(0x7B, MiniFloat::E5M2) == 57344.0f);
  CHECK(minifloat_to_float(0x7F, MiniFloat::E5M2FNUZ) == 57344.0f);
  CHECK(minifloat_to_float(0x01, MiniFloat::E4M3FN) == std::ldexp(1.0f, -9));
  CHECK(minifloat_to_float(0x01, MiniFloat::E4M3FNUZ) == std::ldexp(1.0f, -10));
  CHECK(minifloat_to_float(0x01, MiniFloat::E5M2) == std::ldexp(1.0f, -16));
  CHECK(minifloat_to_float(0x01, MiniFloat::E5M2FNUZ) == std::ldexp(1.0f, -17));
  const float e2m1[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};
  for (unsigned c = 0; c < 8; ++c) {
    CHECK(minifloat_to_float(static_cast<uint8_t>(c), MiniFloat::E2M1) == e2m1[c]);
    CHECK(minifloat_to_float(static_cast<uint8_t>(c | 8), MiniFloat::E2M1) == -e2m1[c]);
  }
}

TEST_CASE("minifloat: encoding equals the nearest-even oracle between codes, at ties, and past the range") {
  std::mt19937 rng(7);
  for (const Format& f : kFormats) {
    std::vector<float> xs = {0.0f, -0.0f, INFINITY, -INFINITY, std::numeric_limits<float>::quiet_NaN(),
                             -std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f, 1e-30f, -1e-30f,
                             std::numeric_limits<float>::denorm_min(), 464.0f, 480.0f, 248.0f, 61440.0f, 65536.0f, 7.0f, 5.0f};
    const std::vector<Candidate> c = finite_codes(f);
    for (size_t i = 0; i + 1 < c.size(); ++i) {
      const double lo = c[i].value, hi = c[i + 1].value, mid = (lo + hi) / 2;
      for (const double v : {lo, mid, std::nextafter(mid, lo), std::nextafter(mid, hi), hi, lo + (hi - lo) / 4})
        for (const double s : {1.0, -1.0}) xs.push_back(static_cast<float>(s * v));
    }
    const double top = c.back().value, step = top - c[c.size() - 2].value;
    for (const double v : {top + step / 2, std::nextafter(top + step / 2, 0.0), std::nextafter(top + step / 2, 1e9), top + step})
      for (const double s : {1.0, -1.0}) xs.push_back(static_cast<float>(s * v));
    for (int i = 0; i < 20000; ++i) {
      // Random floats within and around the format's range.
      const float m = std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
      xs.push_back(std::ldexp(m, std::uniform_int_distribution<int>(-20, 18)(rng)));
    }
    for (const float x : xs)
      for (const bool sat : {true, false}) {
        INFO(f.name << " x " << x << " saturate " << sat);
        CHECK(float_to_minifloat(x, f.kind, sat) == oracle_encode(f, x, sat));
      }
  }
  // The tables of Cast-19: infinities and overflows per format.
  CHECK(float_to_minifloat(INFINITY, MiniFloat::E4M3FN, true) == 0x7E);
  CHECK(float_to_minifloat(-INFINITY, MiniFloat::E4M3FN, false) == 0xFF);
  CHECK(float_to_minifloat(-INFINITY, MiniFloat::E4M3FNUZ, false) == 0x80);
  CHECK(float_to_minifloat(-INFINITY, MiniFloat::E5M2, false) == 0xFC);
  CHECK(float_to_minifloat(1e6f, MiniFloat::E5M2FNUZ, false) == 0x80);
  CHECK(float_to_minifloat(-0.0f, MiniFloat::E4M3FNUZ, false) == 0x00);
  CHECK(float_to_minifloat(-0.0f, MiniFloat::E4M3FN, false) == 0x80);
  CHECK(float_to_minifloat(std::numeric_limits<float>::quiet_NaN(), MiniFloat::E2M1, true) == 0x7);
  CHECK(float_to_minifloat(-INFINITY, MiniFloat::E2M1, false) == 0xF);
}

TEST_CASE("minifloat: E8M0 decodes every code and rounds as onnx.numpy_helper.to_float8e8m0") {
  for (unsigned code = 0; code < 255; ++code) {
    INFO("code " << code);
    CHECK(static_cast<double>(e8m0_to_float(static_cast<uint8_t>(code))) == std::pow(2.0, static_cast<int>(code) - 127));
    // Code 0 (2^-127) is a float subnormal: its fraction field is not zero, so the reference's `up`
    // makes it 1.
    for (const E8m0Round mode : {E8m0Round::Up, E8m0Round::Down, E8m0Round::Nearest})
      CHECK(float_to_e8m0(e8m0_to_float(static_cast<uint8_t>(code)), true, mode) == (code == 0 && mode == E8m0Round::Up ? 1 : code));
  }
  CHECK(std::isnan(e8m0_to_float(0xFF)));
  // The reference's cases (test_cast_e8m0_FLOAT_to_FLOAT8E8M0: 0, 0.124, 0.25, 0.5, 1.1, 2, 4, 8, up).
  CHECK(float_to_e8m0(0.0f, true, E8m0Round::Up) == 0);
  CHECK(float_to_e8m0(0.124f, true, E8m0Round::Up) == 124);  // 0.124 = 1.98 * 2^-4: up to 2^-3
  CHECK(float_to_e8m0(1.1f, true, E8m0Round::Up) == 128);
  CHECK(float_to_e8m0(1.1f, true, E8m0Round::Down) == 127);
  CHECK(float_to_e8m0(1.1f, true, E8m0Round::Nearest) == 127);
  CHECK(float_to_e8m0(1.5f, true, E8m0Round::Nearest) == 128);   // g set, s clear, lsb (exponent > 0): up
  CHECK(float_to_e8m0(1.25f, true, E8m0Round::Nearest) == 127);  // g clear
  CHECK(float_to_e8m0(-8.0f, true, E8m0Round::Up) == 130);       // the sign is ignored
  // Past the largest: saturate keeps 0xFE, otherwise the exponent overflows into NaN.
  const float big = bits_float(0x7F000001u);
  CHECK(float_to_e8m0(big, true, E8m0Round::Up) == 0xFE);
  CHECK(float_to_e8m0(big, false, E8m0Round::Up) == 0xFF);
  CHECK(float_to_e8m0(INFINITY, true, E8m0Round::Up) == 0xFE);
  CHECK(float_to_e8m0(INFINITY, false, E8m0Round::Nearest) == 0xFF);
  CHECK(float_to_e8m0(std::numeric_limits<float>::quiet_NaN(), true, E8m0Round::Up) == 0xFF);
  // A float subnormal has exponent field 0: up gives 1 (2^-126), down 0 (2^-127).
  CHECK(float_to_e8m0(std::numeric_limits<float>::denorm_min(), true, E8m0Round::Up) == 1);
  CHECK(float_to_e8m0(std::numeric_limits<float>::denorm_min(), true, E8m0Round::Down) == 0);
}
