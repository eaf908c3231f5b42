// Gather microkernels of src/kernels/gather.h, tested XNNPACK style: every wasm SIMD kernel
// against its scalar twin, and both against a naive reference written here, at the tile edges
// (n below, at and above each vector width and its multiples): element gathers of 1, 2, 4, 8 and
// 16 bytes, slice gathers of 0..4096 bytes, and the s32/s64 index normalizers (the first index out
// of range at every position, valid extremes, out null or not). Every output buffer has canary
// bytes before and after it, and is pre-filled twice with different patterns, so that a write
// out of bounds and an element left unwritten both fail.
// Natively there are no SIMD kernels: those comparisons WARN and only scalar-vs-naive runs. The
// wasm build (-msimd128 defines __wasm_simd128__) REQUIREs the wasmsimd kernels, so that there
// they cannot be skipped.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "src/kernels/gather.h"

using namespace onnxwasm;

namespace {

constexpr size_t kGuard = 64;  // canary bytes on each side of an output (at least)
constexpr size_t kNone = static_cast<size_t>(-1);

uint8_t canary(size_t i) { return static_cast<uint8_t>(0xA5 ^ (i * 37)); }
uint8_t prefill(size_t i, int pattern) {
  const uint8_t b = static_cast<uint8_t>(0x3C + i * 11);
  return pattern == 0 ? b : static_cast<uint8_t>(~b);
}

// `bytes` of output (16-byte aligned) between canary bytes, pre-filled with one of two patterns.
class Guarded {
 public:
  Guarded(size_t bytes, int pattern) : raw_(bytes + 2 * kGuard + 16), bytes_(bytes) {
    for (size_t i = 0; i < raw_.size(); ++i) raw_[i] = canary(i);
    const uintptr_t first = reinterpret_cast<uintptr_t>(raw_.data()) + kGuard;
    off_ = kGuard + static_cast<size_t>((16 - first % 16) % 16);
    for (size_t i = 0; i < bytes; ++i) raw_[off_ + i] = prefill(i, pattern);
  }
  uint8_t* data() { return raw_.data() + off_; }
  const uint8_t* data() const { return raw_.data() + off_; }
  std::vector<uint8_t> body() const { return std::vector<uint8_t>(data(), data() + bytes_); }
  // "" when every canary byte is intact, else where the first changed one is.
  std::string damage() const {
    for (size_t i = 0; i < off_; ++i)
      if (raw_[i] != canary(i)) return "canary byte " + std::to_string(off_ - i) + " before dst changed";
    for (size_t i = off_ + bytes_; i < raw_.size(); ++i)
      if (raw_[i] != canary(i)) return "canary byte " + std::to_string(i - off_ - bytes_) + " past the end changed";
    return "";
  }

 private:
  std::vector<uint8_t> raw_;
  size_t bytes_;
  size_t off_ = 0;
};

size_t first_mismatch(const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  if (got.size() != want.size()) return 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) return i;
  return kNone;
}

// Calls `call(dst)` on an output pre-filled with each of two patterns; checks that the output
// equals `want` and that no canary changed. Returns the output.
template <typename Call>
std::vector<uint8_t> run_guarded(const char* target, const std::vector<uint8_t>& want, Call call) {
  std::vector<uint8_t> first;
  for (int pattern = 0; pattern < 2; ++pattern) {
    Guarded g(want.size(), pattern);
    call(g.data());
    const std::vector<uint8_t> got = g.body();
    const size_t bad = first_mismatch(got, want);
    INFO(target << ", pre-fill " << pattern << ": first wrong byte "
                << (bad == kNone ? std::string("none") : std::to_string(bad)));
    CHECK(bad == kNone);
    CHECK(g.damage() == "");
    if (pattern == 0) first = got;
  }
  return first;
}

// The wasm SIMD kernels, or null natively; never silently absent.
const GatherKernels* simd_kernels() {
  const GatherKernels* simd = gather_kernels_wasmsimd();
#if defined(__wasm_simd128__)
  REQUIRE(simd != nullptr);
  REQUIRE(std::string(simd->target) == "wasmsimd");
#else
  if (!simd) WARN("built without wasm SIMD (native build): SIMD-vs-scalar and SIMD-vs-naive comparisons are "
                  "skipped here; they run in the wasm build (build/*wasm*/unit_tests.js)");
#endif
  return simd;
}

std::vector<const GatherKernels*> kernel_sets(const GatherKernels* simd) {
  std::vector<const GatherKernels*> sets = {&gather_kernels_scalar()};
  if (simd) sets.push_back(simd);
  return sets;
}

// 0 .. max(4 * lanes + 1, 17), then the larger tile edges.
std::vector<size_t> edge_counts(size_t lanes) {
  std::vector<size_t> counts;
  const size_t top = std::max<size_t>(4 * lanes + 1, 17);
  for (size_t n = 0; n <= top; ++n) counts.push_back(n);
  for (size_t n : {31, 32, 33, 63, 64, 65, 127, 128, 129, 1000})
    if (n > top) counts.push_back(n);
  return counts;
}

// Indices in [0, axis_dim): 0 random with 0 first and the last index last and sprinkled,
// 1 alternating 0 and last, 2 all last, 3 descending.
std::vector<uint32_t> make_indices(size_t n, uint32_t axis_dim, int pattern, std::mt19937& rng) {
  std::vector<uint32_t> idx(n);
  const uint32_t last = axis_dim - 1;
  std::uniform_int_distribution<uint32_t> any(0, last);
  for (size_t i = 0; i < n; ++i) {
    switch (pattern) {
      case 0: idx[i] = i % 7 == 3 ? last : i % 11 == 5 ? 0 : any(rng); break;
      case 1: idx[i] = i % 2 ? last : 0; break;
      case 2: idx[i] = last; break;
      default: idx[i] = last - static_cast<uint32_t>(i % axis_dim); break;
    }
  }
  if (pattern == 0 && n > 0) idx[0] = 0;
  if (pattern == 0 && n > 1) idx[n - 1] = last;
  return idx;
}

std::vector<uint8_t> random_bytes(size_t n, std::mt19937& rng) {
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// The reference: slice i of dst is slice idx[i] of src (an element gather is slice_bytes = width).
std::vector<uint8_t> naive_gather(const std::vector<uint32_t>& idx, const std::vector<uint8_t>& src, size_t slice_bytes) {
  std::vector<uint8_t> out(idx.size() * slice_bytes);
  for (size_t i = 0; i < idx.size(); ++i)
    for (size_t b = 0; b < slice_bytes; ++b) out[i * slice_bytes + b] = src[size_t{idx[i]} * slice_bytes + b];
  return out;
}

template <typename T>
struct Norm;
template <>
struct Norm<int32_t> {
  static constexpr const char* name = "s32_normalize";
  static NormalizeS32Fn fn(const GatherKernels& k) { return k.s32_normalize; }
};
template <>
struct Norm<int64_t> {
  static constexpr const char* name = "s64_normalize";
  static NormalizeS64Fn fn(const GatherKernels& k) { return k.s64_normalize; }
};

// The reference normalizer, straight from the contract in gather.h.
template <typename T>
size_t naive_normalize(const std::vector<T>& in, int64_t axis_dim, std::vector<uint32_t>* out) {
  out->assign(in.size(), 0);
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t v = in[i];
    if (v < -axis_dim || v > axis_dim - 1) return i;
    (*out)[i] = static_cast<uint32_t>(v >= 0 ? v : v + axis_dim);
  }
  return in.size();
}

int64_t clamp_to(int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); }

// Random indices valid for axis_dim (>= 1) and representable in T, with the extremes
// -axis_dim, axis_dim - 1, 0, -1 and T's min and max (when valid) at some positions.
template <typename T>
std::vector<T> valid_indices(size_t n, int64_t axis_dim, std::mt19937& rng) {
  const int64_t tmin = std::numeric_limits<T>::min(), tmax = std::numeric_limits<T>::max();
  const int64_t lo = std::max(-axis_dim, tmin), hi = std::min(axis_dim - 1, tmax);
  std::uniform_int_distribution<int64_t> any(lo, hi);
  std::vector<int64_t> extremes = {lo, hi, 0, -1, -axis_dim, axis_dim - 1, tmin, tmax};
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = any(rng);
    if (i % 5 == 2) {
      x = extremes[(i / 5) % extremes.size()];
      if (x < lo || x > hi) x = clamp_to(x, lo, hi);
    }
    v[i] = static_cast<T>(x);
  }
  return v;
}

// Values out of range for axis_dim that T can hold: just past each end, T's extremes, and (for
// 64-bit) values whose low 32 bits would be in range.
template <typename T>
std::vector<T> bad_indices(int64_t axis_dim) {
  const int64_t tmin = std::numeric_limits<T>::min(), tmax = std::numeric_limits<T>::max();
  std::vector<int64_t> c = {tmin, tmax};
  auto add = [&](int64_t a, int64_t b) {
    int64_t r;
    if (!__builtin_add_overflow(a, b, &r)) c.push_back(r);
  };
  add(axis_dim, 0);
  add(-axis_dim, -1);
  add(axis_dim, 1);
  add(-axis_dim, -2);
  add(axis_dim, int64_t{1} << 32);
  add(-axis_dim, -(int64_t{1} << 32));
  add(int64_t{1} << 32, 0);
  add(std::numeric_limits<int64_t>::min(), 3);
  std::vector<T> bad;
  for (int64_t v : c)
    if (v >= tmin && v <= tmax && (v < -axis_dim || v > axis_dim - 1)) bad.push_back(static_cast<T>(v));
  return bad;
}

std::vector<uint8_t> as_bytes(const std::vector<uint32_t>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

const int64_t kTwo31 = int64_t{1} << 31;
const int64_t kTwo32 = int64_t{1} << 32;

// Every index valid: returns n, output equals the reference, input untouched, no stray writes;
// null out gives the same return value. Outputs are compared only while axis_dim <= 2^32 (beyond,
// a normalized index does not fit the uint32 output).
template <typename T>
void check_all_valid(const GatherKernels* simd) {
  std::mt19937 rng(1234);
  const std::vector<int64_t> axis_dims = {1, 2, 3, 7, 1000, 65536, INT32_MAX - 1, INT32_MAX, kTwo31, kTwo31 + 1,
                                          kTwo32 - 1, kTwo32, kTwo32 + 5, INT64_MAX};
  for (int64_t axis_dim : axis_dims) {
    for (size_t n : edge_counts(4)) {
      const std::vector<T> in = valid_indices<T>(n, axis_dim, rng);
      const std::vector<T> in_copy = in;
      std::vector<uint32_t> want;
      REQUIRE(naive_normalize(in, axis_dim, &want) == n);
      const bool compare_out = axis_dim <= kTwo32;
      std::vector<std::vector<uint8_t>> outs;
      for (const GatherKernels* k : kernel_sets(simd)) {
        INFO(Norm<T>::name << " " << k->target << " n " << n << " axis_dim " << axis_dim);
        CHECK(Norm<T>::fn(*k)(n, in.data(), axis_dim, nullptr) == n);
        const std::vector<uint8_t> want_bytes = as_bytes(want);
        for (int pattern = 0; pattern < 2; ++pattern) {
          Guarded g(want_bytes.size(), pattern);
          CHECK(Norm<T>::fn(*k)(n, in.data(), axis_dim, reinterpret_cast<uint32_t*>(g.data())) == n);
          CHECK(g.damage() == "");
          if (compare_out) {
            const size_t bad = first_mismatch(g.body(), want_bytes);
            INFO("pre-fill " << pattern << ": first wrong byte " << (bad == kNone ? std::string("none") : std::to_string(bad)));
            CHECK(bad == kNone);
          }
          if (pattern == 0) outs.push_back(g.body());
        }
        CHECK(in == in_copy);
      }
      if (simd && compare_out) CHECK(outs[1] == outs[0]);  // wasmsimd equals its scalar twin
    }
  }
}

// One index out of range at each position p of each edge count: every kernel returns p, with out
// null or not, and writes nothing outside [0, n). A second bad index after p must not matter.
template <typename T>
void check_first_bad_position(const GatherKernels* simd) {
  std::mt19937 rng(99);
  const std::vector<int64_t> axis_dims = {1, 7, 1000, INT32_MAX, kTwo31, kTwo32};
  int rounds = 0;
  for (int64_t axis_dim : axis_dims) {
    const std::vector<T> bad = bad_indices<T>(axis_dim);
    if (bad.empty()) continue;  // an int32 index is never out of range once axis_dim >= 2^31
    for (size_t n : edge_counts(4)) {
      for (size_t p = 0; p < n; ++p) {
        std::vector<T> in = valid_indices<T>(n, axis_dim, rng);
        in[p] = bad[(p + n) % bad.size()];
        if (p % 2 == 1 && p + 3 < n) in[p + 3] = bad[p % bad.size()];
        std::vector<uint32_t> unused;
        REQUIRE(naive_normalize(in, axis_dim, &unused) == p);
        ++rounds;
        size_t got_scalar = kNone;
        for (const GatherKernels* k : kernel_sets(simd)) {
          INFO(Norm<T>::name << " " << k->target << " n " << n << " bad index " << int64_t{in[p]} << " at " << p
                             << ", axis_dim " << axis_dim);
          const size_t with_null = Norm<T>::fn(*k)(n, in.data(), axis_dim, nullptr);
          Guarded g(n * 4, static_cast<int>(p % 2));
          const size_t with_out = Norm<T>::fn(*k)(n, in.data(), axis_dim, reinterpret_cast<uint32_t*>(g.data()));
          CHECK(with_null == p);
          CHECK(with_out == p);
          CHECK(g.damage() == "");
          if (k == &gather_kernels_scalar()) got_scalar = with_out;
          else CHECK(with_out == got_scalar);  // wasmsimd equals its scalar twin
        }
      }
    }
  }
  CHECK(rounds > 3000);
}

}  // namespace

TEST_CASE("gather kernels: targets, for_width and the best set") {
  const GatherKernels& scalar = gather_kernels_scalar();
  CHECK(std::string(scalar.target) == "scalar");
  const GatherKernels* simd = simd_kernels();
#if defined(__wasm_simd128__)
  CHECK(&gather_kernels_best() == simd);
#else
  CHECK(simd == nullptr);
  CHECK(&gather_kernels_best() == &scalar);
#endif
  for (const GatherKernels* k : kernel_sets(simd)) {
    INFO(k->target);
    CHECK(k->for_width(1) == k->x8);
    CHECK(k->for_width(2) == k->x16);
    CHECK(k->for_width(4) == k->x32);
    CHECK(k->for_width(8) == k->x64);
    CHECK(k->for_width(16) == k->x128);
    for (size_t w : {0, 3, 5, 6, 7, 12, 32})
      CHECK(k->for_width(w) == nullptr);
    CHECK(k->x8 != nullptr);
    CHECK(k->x16 != nullptr);
    CHECK(k->x32 != nullptr);
    CHECK(k->x64 != nullptr);
    CHECK(k->x128 != nullptr);
    CHECK(k->slices != nullptr);
    CHECK(k->s32_normalize != nullptr);
    CHECK(k->s64_normalize != nullptr);
  }
  if (simd) {
    // Distinct functions, not the scalar ones under another name.
    CHECK(simd->x8 != scalar.x8);
    CHECK(simd->x32 != scalar.x32);
    CHECK(simd->s32_normalize != scalar.s32_normalize);
    CHECK(simd->s64_normalize != scalar.s64_normalize);
  }
}

TEST_CASE("gather kernels: element gathers of 1, 2, 4, 8, 16 bytes at the tile edges") {
  const GatherKernels* simd = simd_kernels();
  std::mt19937 rng(20240601);
  for (size_t width : {1, 2, 4, 8, 16}) {
    const size_t lanes = 16 / width;
    // axis_dim 300 passes byte indices > 255; 70000 passes indices > 65535.
    for (uint32_t axis_dim : {1u, 5u, 300u, 70000u}) {
      const std::vector<uint8_t> src = random_bytes(size_t{axis_dim} * width, rng);
      for (size_t n : edge_counts(lanes)) {
        for (int pattern = 0; pattern < 4; ++pattern) {
          const std::vector<uint32_t> idx = make_indices(n, axis_dim, pattern, rng);
          const std::vector<uint8_t> want = naive_gather(idx, src, width);
          INFO("x" << width * 8 << " n " << n << " axis_dim " << axis_dim << " index pattern " << pattern);
          std::vector<std::vector<uint8_t>> outs;
          for (const GatherKernels* k : kernel_sets(simd)) {
            const ElementGatherFn fn = k->for_width(width);
            REQUIRE(fn != nullptr);
            outs.push_back(run_guarded(k->target, want, [&](uint8_t* dst) { fn(n, idx.data(), src.data(), dst); }));
          }
          if (simd) CHECK(outs[1] == outs[0]);  // wasmsimd equals its scalar twin
        }
      }
    }
  }
}

TEST_CASE("gather kernels: slice gathers of 0..4096 bytes") {
  const GatherKernels* simd = simd_kernels();
  std::mt19937 rng(77);
  std::vector<size_t> sizes;
  for (size_t s = 0; s <= 70; ++s) sizes.push_back(s);
  // Around the SIMD path's limits (multiples of 16 up to 256) and larger memory copies.
  for (size_t s : {127, 128, 129, 240, 255, 256, 257, 272, 1023, 1024, 1025, 4096}) sizes.push_back(s);
  for (size_t slice_bytes : sizes) {
    const std::vector<size_t> counts = slice_bytes <= 272 ? std::vector<size_t>{0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33}
                                                          : std::vector<size_t>{0, 1, 2, 3, 5, 17};
    for (uint32_t axis_dim : {1u, 9u}) {
      // (At least one byte: a null src, even for 0-byte slices, is no valid argument.)
      const std::vector<uint8_t> src = random_bytes(std::max<size_t>(size_t{axis_dim} * slice_bytes, 1), rng);
      for (size_t n : counts) {
        for (int pattern : {0, 3}) {
          const std::vector<uint32_t> idx = make_indices(n, axis_dim, pattern, rng);
          const std::vector<uint8_t> want = naive_gather(idx, src, slice_bytes);
          INFO("slices of " << slice_bytes << " bytes, n " << n << " axis_dim " << axis_dim << " index pattern "
                            << pattern);
          std::vector<std::vector<uint8_t>> outs;
          for (const GatherKernels* k : kernel_sets(simd))
            outs.push_back(run_guarded(k->target, want, [&](uint8_t* dst) {
              k->slices(n, idx.data(), src.data(), slice_bytes, dst);
            }));
          if (simd) CHECK(outs[1] == outs[0]);  // wasmsimd equals its scalar twin
        }
      }
    }
  }
}

TEST_CASE("gather kernels: s32_normalize, all indices valid, extremes included") {
  check_all_valid<int32_t>(simd_kernels());
}

TEST_CASE("gather kernels: s64_normalize, all indices valid, extremes included") {
  check_all_valid<int64_t>(simd_kernels());
}

TEST_CASE("gather kernels: s32_normalize returns the first index out of range, at every position") {
  check_first_bad_position<int32_t>(simd_kernels());
}

TEST_CASE("gather kernels: s64_normalize returns the first index out of range, at every position") {
  check_first_bad_position<int64_t>(simd_kernels());
}

TEST_CASE("gather kernels: normalize with axis_dim 0 refuses every index, and n = 0 returns 0") {
  const GatherKernels* simd = simd_kernels();
  for (const GatherKernels* k : kernel_sets(simd)) {
    INFO(k->target);
    for (size_t n : edge_counts(4)) {
      INFO("n " << n);
      const std::vector<int32_t> in32(n, 0);
      const std::vector<int64_t> in64(n, 0);
      Guarded g(n * 4, 0);
      CHECK(k->s32_normalize(n, in32.data(), 0, reinterpret_cast<uint32_t*>(g.data())) == 0);
      CHECK(k->s64_normalize(n, in64.data(), 0, reinterpret_cast<uint32_t*>(g.data())) == 0);
      CHECK(g.damage() == "");
      // Nothing to write: every byte of the output is still its pre-fill.
      CHECK(first_mismatch(g.body(), Guarded(n * 4, 0).body()) == kNone);
    }
    CHECK(k->s32_normalize(0, nullptr, 5, nullptr) == 0);
    CHECK(k->s64_normalize(0, nullptr, 5, nullptr) == 0);
  }
}

TEST_CASE("gather kernels: touch_cache_lines reads one byte per 64-byte line") {
  std::mt19937 rng(5);
  const std::vector<uint8_t> buf = random_bytes(1000, rng);
  for (size_t bytes : {0, 1, 63, 64, 65, 128, 129, 999, 1000}) {
    uint32_t want = 0;
    for (size_t k = 0; k < bytes; k += 64) want += buf[k];
    INFO("bytes " << bytes);
    CHECK(touch_cache_lines(buf.data(), bytes) == want);
  }
}
