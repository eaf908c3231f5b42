// A tensor's storage (Buffer): on a 64-byte boundary (a cache line) whatever the allocator's own alignment (Emscripten's
// malloc aligns to 8, and the block is a plain malloc with the storage aligned by hand), every
// byte writable, zeroed when asked, and a size beyond wasm32's address space refused, not wrapped.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "src/tensor.h"

using namespace onnxwasm;

TEST_CASE("Buffer: the storage is 64-byte aligned, writable to its last byte, and zeroed when asked") {
  // Sizes around the 16-byte rounding and a few larger ones; blocks kept alive together so that
  // the allocator hands out blocks at different offsets.
  std::vector<BufferRef> held;
  for (int64_t bytes : {0, 1, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 100, 1000, 4096, 65537}) {
    for (int k = 0; k < 4; ++k) {
      INFO(bytes << " bytes, block " << k);
      BufferRef b;
      REQUIRE(Buffer::allocate_bytes(bytes, &b, /*zeroed=*/true).is_ok());
      CHECK(b->bytes() == bytes);
      CHECK(reinterpret_cast<uintptr_t>(b->data()) % 64 == 0);
      bool zero = true;
      for (int64_t i = 0; i < bytes; ++i) zero = zero && b->data()[i] == 0;
      CHECK(zero);
      if (bytes > 0) std::memset(b->data(), 0xab, static_cast<size_t>(bytes));
      held.push_back(b);
    }
  }
  // Each block's bytes are still its own after the others were written.
  for (const BufferRef& b : held) {
    bool mine = true;
    for (int64_t i = 0; i < b->bytes(); ++i) mine = mine && b->data()[i] == 0xab;
    CHECK(mine);
  }
}

TEST_CASE("Buffer: a negative size, or one beyond wasm32's address space, is an out-of-memory error") {
  std::vector<int64_t> sizes = {-1};
  // Beyond a 32-bit size_t these are refused before any allocation. (In a 64-bit build they would
  // reach malloc, which AddressSanitizer, in the native test build, aborts instead of failing.)
  if (sizeof(size_t) == 4)
    for (int64_t bytes : {int64_t{1} << 32, (int64_t{1} << 32) - 16, std::numeric_limits<int64_t>::max() - 15,
                          std::numeric_limits<int64_t>::max()})
      sizes.push_back(bytes);
  for (int64_t bytes : sizes) {
    INFO(bytes);
    BufferRef b;
    const Status s = Buffer::allocate_bytes(bytes, &b, /*zeroed=*/false);
    CHECK(s.code() == StatusCode::OutOfMemory);
    CHECK(!b);
  }
}
