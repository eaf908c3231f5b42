// libFuzzer target: the gather microkernels (src/kernels/gather.h) against a naive reference.
// - element gathers x8/x16/x32/x64/x128 and the slice gather: dst equals a memcpy loop, with
//   source and destination allocated to their exact sizes so that ASan sees any read or write
//   outside them;
// - s32/s64 normalize: the position of the first index outside [-axis_dim, axis_dim - 1], the
//   normalized values before it, for any int32/int64 values and axis_dim up to INT64_MAX,
//   with and without an output array;
// - touch_cache_lines reads only within [p, p + bytes).
// Each kernel set is checked: scalar, and the "best" set (wasm SIMD where built with it;
// natively that is the scalar set again, and gather_kernels_wasmsimd() is null).
#include <cstring>
#include <memory>

#include "fuzz_common.h"
#include "src/kernels/gather.h"

using namespace onnxwasm;
using fuzz::interesting_int64;

namespace {

struct Free {
  void operator()(void* p) const { std::free(p); }
};
using Bytes = std::unique_ptr<uint8_t, Free>;

// An exactly sized heap block (at least 1 byte so that malloc(0) is not a special case).
Bytes block(size_t n) { return Bytes(static_cast<uint8_t*>(std::malloc(n ? n : 1))); }

void check_gathers(const GatherKernels& k, FuzzedDataProvider& in) {
  static const size_t kWidths[] = {1, 2, 4, 8, 16};
  const bool slices = fuzz::one_in(in, 6);
  const size_t width = slices ? in.ConsumeIntegralInRange<size_t>(0, 80) : in.PickValueInArray(kWidths);
  const size_t axis_dim = in.ConsumeIntegralInRange<size_t>(1, 300);
  const size_t n = in.ConsumeIntegralInRange<size_t>(0, 300);
  std::vector<uint32_t> idx(n);
  for (uint32_t& i : idx)
    i = in.ConsumeBool() ? static_cast<uint32_t>(axis_dim - 1) - in.ConsumeIntegralInRange<uint32_t>(0, 2) % static_cast<uint32_t>(axis_dim)
                         : in.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(axis_dim - 1));
  Bytes src = block(axis_dim * width), dst = block(n * width);
  const std::vector<uint8_t> head = in.ConsumeBytes<uint8_t>(64);
  for (size_t b = 0; b < axis_dim * width; ++b) src.get()[b] = b < head.size() ? head[b] : static_cast<uint8_t>(b * 167 + 3);
  std::memset(dst.get(), 0xA5, n * width);
  if (slices) {
    k.slices(n, idx.data(), src.get(), width, dst.get());
  } else {
    const ElementGatherFn fn = k.for_width(width);
    FUZZ_CHECK(fn != nullptr, k.target);
    fn(n, idx.data(), src.get(), dst.get());
  }
  for (size_t i = 0; i < n; ++i)
    FUZZ_CHECK(std::memcmp(dst.get() + i * width, src.get() + size_t{idx[i]} * width, width) == 0,
               std::string(k.target) + (slices ? " slices" : " x") + std::to_string(width * 8) + " element " +
                   std::to_string(i) + " of " + std::to_string(n));
  FUZZ_CHECK(k.for_width(0) == nullptr && k.for_width(3) == nullptr && k.for_width(32) == nullptr, k.target);
}

template <typename T>
void check_normalize(size_t (*normalize)(size_t, const T*, int64_t, uint32_t*), const char* target,
                     FuzzedDataProvider& in) {
  static const int64_t kAxisDims[] = {0, 1, 2, 3, 7, 64, 65535, INT32_MAX, int64_t{INT32_MAX} + 1, UINT32_MAX,
                                      int64_t{UINT32_MAX} + 1, fuzz::kI64Max, fuzz::kI64Max - 1};
  const int64_t axis_dim = in.ConsumeBool() ? in.PickValueInArray(kAxisDims) : in.ConsumeIntegralInRange<int64_t>(0, 40);
  const size_t n = in.ConsumeIntegralInRange<size_t>(0, 200);
  std::vector<T> values(n);
  for (T& v : values) {
    const int64_t small = std::min<int64_t>(axis_dim, 1 << 20);
    const int64_t x = fuzz::one_in(in, 5) ? interesting_int64(in)
                                                                  : in.ConsumeIntegralInRange<int64_t>(-small, small ? small - 1 : 0);
    v = static_cast<T>(x);  // int32: the low bits of extremes
  }
  size_t expected = n;
  for (size_t i = 0; i < n; ++i)
    if (int64_t{values[i]} < -axis_dim || int64_t{values[i]} >= axis_dim) {
      expected = i;
      break;
    }
  const std::string ctx = std::string(target) + (sizeof(T) == 4 ? " s32" : " s64") + " normalize, axis_dim " +
                          std::to_string(axis_dim) + ", n " + std::to_string(n);
  // Values must fit uint32 once normalized: the runtime only normalizes into [0, axis_dim) when
  // axis_dim <= 2^32 (a larger axis holds more than wasm32 memory can).
  const bool writes = axis_dim <= (int64_t{1} << 32) && in.ConsumeBool();
  Bytes out = block(n * sizeof(uint32_t));
  uint32_t* o = writes ? reinterpret_cast<uint32_t*>(out.get()) : nullptr;
  // The input array is copied to an exact-size block so that ASan sees reads past n.
  Bytes copy = block(n * sizeof(T));
  if (n) std::memcpy(copy.get(), values.data(), n * sizeof(T));
  const size_t got = normalize(n, reinterpret_cast<const T*>(copy.get()), axis_dim, o);
  FUZZ_CHECK(got == expected, ctx + ": returned " + std::to_string(got) + ", expected " + std::to_string(expected));
  FUZZ_CHECK(n == 0 || std::memcmp(copy.get(), values.data(), n * sizeof(T)) == 0, ctx + ": input changed");
  if (o)
    for (size_t i = 0; i < got; ++i) {
      const int64_t v = values[i];
      FUZZ_CHECK(o[i] == static_cast<uint32_t>(v < 0 ? v + axis_dim : v), ctx + " at " + std::to_string(i));
    }
}

void check_touch(FuzzedDataProvider& in) {
  const size_t bytes = in.ConsumeIntegralInRange<size_t>(0, 1000);
  Bytes b = block(bytes);
  if (bytes) std::memset(b.get(), 1, bytes);
  const uint32_t sum = touch_cache_lines(b.get(), bytes);
  FUZZ_CHECK(sum == (bytes + 63) / 64, "touch_cache_lines reads one byte per 64");
}

void check_set(const GatherKernels& k, FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: case 1: check_gathers(k, in); break;
    case 2: check_normalize<int32_t>(k.s32_normalize, k.target, in); break;
    case 3: check_normalize<int64_t>(k.s64_normalize, k.target, in); break;
    default: check_touch(in); break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const GatherKernels& scalar = gather_kernels_scalar();
  const GatherKernels& best = gather_kernels_best();
  FUZZ_CHECK(std::strcmp(scalar.target, "scalar") == 0, scalar.target);
  if (const GatherKernels* simd = gather_kernels_wasmsimd()) FUZZ_CHECK(&best == simd, "best is not the SIMD set");
  // The same bytes drive the scalar set and the best set: they must agree with the reference alike.
  FuzzedDataProvider again(data, size);
  check_set(scalar, in);
  check_set(best, again);
  return 0;
}
