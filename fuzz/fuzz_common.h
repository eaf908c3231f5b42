// Shared helpers of the libFuzzer targets (fuzz/*_fuzzer.cpp): turning fuzz bytes into ops,
// opsets, attributes and the integers most likely to break arithmetic. Native only (clang
// -fsanitize=fuzzer); scripts/fuzz-native.sh builds and runs the targets.
#pragma once
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "src/attributes.h"
#include "src/element_type.h"
#include "src/registry.h"
#include "src/status.h"

namespace fuzz {

using onnxwasm::AttrKind;
using onnxwasm::Attribute;
using onnxwasm::Attributes;
using onnxwasm::ElementType;

// Reports a broken invariant and aborts, so that libFuzzer saves the input as a crash.
[[noreturn]] inline void fail(const char* what, const std::string& detail = "") {
  std::fprintf(stderr, "\nFUZZ INVARIANT BROKEN: %s %s\n", what, detail.c_str());
  std::abort();
}
#define FUZZ_CHECK(cond, detail)                                          \
  do {                                                                    \
    if (!(cond)) ::fuzz::fail("(" #cond ") at " __FILE__ ":" FUZZ_LINE_STR, detail); \
  } while (0)
#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)
#define FUZZ_LINE_STR FUZZ_STR(__LINE__)

// True with probability 1/n. An exhausted input (FuzzedDataProvider then returns the low end of
// every range) takes the common branch, so short inputs reach the ops rather than the oddities.
inline bool one_in(FuzzedDataProvider& in, int n) { return in.ConsumeIntegralInRange<int>(1, n) == n; }

constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

// Values at the edges of int32, uint32, int64 and of products of small dims.
inline int64_t interesting_int64(FuzzedDataProvider& in) {
  static const int64_t kTable[] = {
      0, 1, -1, 2, -2, 3, 4, -3, 7, 8, 16, 64, 255, 256, 1024, 65535, 65536,
      (int64_t{1} << 20), (int64_t{1} << 30), INT32_MAX, int64_t{INT32_MAX} + 1, INT32_MIN,
      int64_t{INT32_MIN} - 1, UINT32_MAX, int64_t{UINT32_MAX} + 1, (int64_t{1} << 31) * 4,
      (int64_t{1} << 32) + 1, (int64_t{1} << 40), (int64_t{1} << 62), -(int64_t{1} << 62),
      (int64_t{1} << 62) + 1, kI64Max, kI64Max - 1, kI64Min, kI64Min + 1, kI64Max / 2, kI64Max / 3,
      3037000499, 3037000500,  // floor/ceil of sqrt(INT64_MAX)
      6074001000, 2097152, 4611686018427387904 / 3,
  };
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0: return in.PickValueInArray(kTable);
    case 1: return in.ConsumeIntegral<int64_t>();
    case 2: return -(in.PickValueInArray(kTable) / 2);
    default: return in.ConsumeIntegralInRange<int64_t>(-4, 8);
  }
}

// One of the three ops, and one time in eight a name that is not one of them.
inline std::string op_name(FuzzedDataProvider& in) {
  static const char* const kOps[] = {"Gather", "Flatten", "Reshape"};
  static const char* const kOthers[] = {"gather", "", "Constant", "Reshape "};
  if (!fuzz::one_in(in, 8)) return in.PickValueInArray(kOps);
  return in.ConsumeBool() ? in.ConsumeRandomLengthString(12) : in.PickValueInArray(kOthers);
}

// Opsets 0..30 (1..28 are valid), and now and then anything an int holds. An exhausted input
// gives 13, a valid opset.
inline int opset(FuzzedDataProvider& in) {
  if (fuzz::one_in(in, 32)) return in.ConsumeIntegral<int>();
  return (in.ConsumeIntegralInRange<int>(0, 30) + 13) % 31;
}

inline double interesting_double(FuzzedDataProvider& in) {
  static const double kTable[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e300, -1e300,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN(), 9.2233720368547758e18};
  return in.ConsumeBool() ? in.PickValueInArray(kTable) : in.ConsumeFloatingPoint<double>();
}

// One attribute of any kind: usually a name these ops know, with any values.
inline Attribute attribute(FuzzedDataProvider& in, int64_t likely_axis_bound) {
  static const char* const kNames[] = {"axis",   "axis", "allowzero", "shape",      "consumed_inputs", "axes",
                                       "starts", "ends", "value",     "stash_type", ""};
  Attribute a;
  a.name = fuzz::one_in(in, 10) ? in.ConsumeRandomLengthString(8) : in.PickValueInArray(kNames);
  a.kind = static_cast<AttrKind>(in.ConsumeIntegralInRange<int>(0, 6));
  if (!fuzz::one_in(in, 4)) a.kind = a.name == "shape" || a.name == "consumed_inputs" ? AttrKind::Ints : AttrKind::Int;
  switch (a.kind) {
    case AttrKind::Int:
      // Int attributes may still carry no value or several (the binding never makes them; the
      // C++ API allows it).
      if (!fuzz::one_in(in, 16))
        a.ints.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-likely_axis_bound - 1, likely_axis_bound + 1)
                                          : interesting_int64(in));
      if (fuzz::one_in(in, 16)) a.ints.push_back(interesting_int64(in));
      break;
    case AttrKind::Ints: {
      const int n = in.ConsumeIntegralInRange<int>(0, 7);
      for (int i = 0; i < n; ++i)
        a.ints.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-1, 6) : interesting_int64(in));
      break;
    }
    case AttrKind::Float:
      a.floats.push_back(interesting_double(in));
      break;
    case AttrKind::Floats: {
      const int n = in.ConsumeIntegralInRange<int>(0, 4);
      for (int i = 0; i < n; ++i) a.floats.push_back(interesting_double(in));
      break;
    }
    case AttrKind::String:
      a.strings.push_back(in.ConsumeRandomLengthString(8));
      break;
    case AttrKind::Strings: {
      const int n = in.ConsumeIntegralInRange<int>(0, 3);
      for (int i = 0; i < n; ++i) a.strings.push_back(in.ConsumeRandomLengthString(8));
      break;
    }
    case AttrKind::Tensor: {
      // Mostly one element (ConstantOfShape's value), of any valid type; its bytes random.
      std::vector<int64_t> dims;
      const int rank = in.ConsumeIntegralInRange<int>(0, 2);
      for (int i = 0; i < rank; ++i) dims.push_back(in.ConsumeIntegralInRange<int64_t>(0, 2));
      if (make_tensor(static_cast<ElementType>(in.ConsumeIntegralInRange<int>(1, 26)), dims, &a.tensor).is_ok() &&
          !a.tensor.is_string())
        for (int64_t i = 0; i < a.tensor.buffer->bytes(); ++i) a.tensor.buffer->data()[i] = in.ConsumeIntegral<uint8_t>();
      break;
    }
  }
  return a;
}

inline Attributes attributes(FuzzedDataProvider& in, int64_t likely_axis_bound) {
  Attributes attrs;
  const int n = in.ConsumeIntegralInRange<int>(0, 7) < 5 ? in.ConsumeIntegralInRange<int>(0, 2) : in.ConsumeIntegralInRange<int>(0, 5);
  for (int i = 0; i < n; ++i) attrs.add(attribute(in, likely_axis_bound));
  return attrs;
}

// A valid element type id (1..26) most of the time; else anything, invalid ids included.
inline ElementType element_type(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 15: return static_cast<ElementType>(in.ConsumeIntegral<int32_t>());
    case 14: return static_cast<ElementType>(in.ConsumeIntegralInRange<int32_t>(-2, 80));
    default: return static_cast<ElementType>(in.ConsumeIntegralInRange<int32_t>(1, onnxwasm::kMaxElementTypeId));
  }
}

inline bool is_valid_type(ElementType t) { return onnxwasm::element_type_info(static_cast<int32_t>(t)) != nullptr; }

// Product of dims where a zero dim wins over an overflow of the others (as make_tensor counts);
// false when some dim is negative or the product of nonzero dims overflows.
inline bool zero_first_product(const std::vector<int64_t>& dims, int64_t* out) {
  for (int64_t d : dims)
    if (d < 0) return false;
  for (int64_t d : dims)
    if (d == 0) {
      *out = 0;
      return true;
    }
  int64_t p = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(p, d, &p)) return false;
  *out = p;
  return true;
}

inline std::string dims_string(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

inline void check_status_shape(const onnxwasm::Status& s) {
  if (s.is_ok()) return;
  const std::string code = onnxwasm::status_code_string(s.code());
  FUZZ_CHECK(code != "OK" && code != "ERR_UNKNOWN", code);
  FUZZ_CHECK(!s.message().empty(), code);
}

}  // namespace fuzz
