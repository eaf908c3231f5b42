// mul_overflows against the compiler's checked multiply on both sides of its fast path's
// bound (2^31) and of int64's range, with negative operands (which take the checked path).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <vector>

#include "src/checked_mul.h"

using namespace onnxwasm;

TEST_CASE("mul_overflows agrees with __builtin_mul_overflow at every edge") {
  const int64_t k31 = int64_t{1} << 31, k32 = int64_t{1} << 32, max = std::numeric_limits<int64_t>::max(),
                min = std::numeric_limits<int64_t>::min();
  const std::vector<int64_t> values = {0, 1, 2, 3, 1000, k31 - 1, k31, k31 + 1, k32 - 1, k32, k32 + 1,
                                       (int64_t{1} << 62), max / 2, max - 1, max, -1, -2, -k31, -k31 - 1,
                                       -k32, min / 2, min + 1, min};
  for (int64_t a : values)
    for (int64_t b : values) {
      INFO(a << " * " << b);
      int64_t expected = 0, got = 0;
      const bool expected_overflow = __builtin_mul_overflow(a, b, &expected);
      CHECK(mul_overflows(a, b, &got) == expected_overflow);
      CHECK(got == expected);  // the wrapped product too, as the builtin stores it
    }
}

TEST_CASE("mul_overflows: the largest products below and above 2^63") {
  int64_t p = 0;
  CHECK_FALSE(mul_overflows((int64_t{1} << 31) - 1, (int64_t{1} << 31) - 1, &p));
  CHECK(p == ((int64_t{1} << 62) - (int64_t{1} << 32) + 1));
  CHECK_FALSE(mul_overflows(int64_t{1} << 31, int64_t{1} << 31, &p));
  CHECK(p == (int64_t{1} << 62));
  CHECK(mul_overflows(int64_t{1} << 32, int64_t{1} << 31, &p));
  CHECK(mul_overflows(3037000500, 3037000500, &p));   // just above sqrt(2^63)
  CHECK_FALSE(mul_overflows(3037000499, 3037000499, &p));
}
