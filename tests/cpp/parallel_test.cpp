// Large gathers split across threads (native builds with ONNXWASM_THREADS, as in `npm test`)
// give the same bytes as a naive gather, split by rows and split by indices.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <random>

#include "src/parallel.h"
#include "src/runtime.h"

using namespace onnxwasm;

namespace {

Tensor filled(ElementType t, std::vector<int64_t> dims, uint32_t seed) {
  Tensor x;
  REQUIRE(make_tensor(t, dims, &x).is_ok());
  std::mt19937 rng(seed);
  for (int64_t i = 0; i < x.buffer->bytes(); ++i) x.buffer->data()[i] = static_cast<uint8_t>(rng());
  return x;
}

}  // namespace

TEST_CASE("parallel: split gathers equal a naive gather") {
  parallel_enable();
  INFO("threads: " << parallel_threads());
  struct Case { std::vector<int64_t> dims; int64_t axis; int64_t n; ElementType type; size_t width; };
  const Case cases[] = {
      {{64, 2000}, 1, 3000, ElementType::Float, 4},       // element gather split by rows: outer 64
      {{64, 2000}, 1, 3000, ElementType::Int64, 8},       // the same, 8-byte elements
      {{1, 300000}, 1, 100000, ElementType::Float, 4},    // split by indices: outer 1
      {{3, 90000}, 1, 70001, ElementType::Uint8, 1},      // split by indices: outer < threads * 4
      {{64, 2000, 16}, 1, 300, ElementType::Float, 4},    // slice copies: one thread
      {{50000, 24}, 0, 5000, ElementType::Int64, 8},      // slice copies, outer 1: one thread
  };
  for (const Case& c : cases) {
    Tensor data = filled(c.type, c.dims, 7);
    Tensor idx;
    REQUIRE(make_tensor(ElementType::Int64, {c.n}, &idx).is_ok());
    std::mt19937 rng(3);
    auto* iv = reinterpret_cast<int64_t*>(idx.buffer->data());
    const int64_t axis_dim = c.dims[static_cast<size_t>(c.axis)];
    for (int64_t i = 0; i < c.n; ++i) iv[i] = static_cast<int64_t>(rng() % (2 * axis_dim)) - axis_dim;
    Attribute a;
    a.name = "axis";
    a.kind = AttrKind::Int;
    a.ints = {c.axis};
    std::vector<Tensor> out;
    REQUIRE(run_node("Gather", 13, Attributes({a}), {&data, &idx}, &out).is_ok());
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < c.axis; ++i) outer *= c.dims[static_cast<size_t>(i)];
    for (size_t i = static_cast<size_t>(c.axis) + 1; i < c.dims.size(); ++i) inner *= c.dims[i];
    const size_t slice = static_cast<size_t>(inner) * c.width;
    std::vector<uint8_t> expected;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < c.n; ++i) {
        const int64_t k = iv[i] < 0 ? iv[i] + axis_dim : iv[i];
        const uint8_t* p = data.buffer->data() + (static_cast<size_t>(o * axis_dim + k)) * slice;
        expected.insert(expected.end(), p, p + slice);
      }
    REQUIRE(static_cast<size_t>(out[0].buffer->bytes()) == expected.size());
    CHECK(std::memcmp(out[0].buffer->data(), expected.data(), expected.size()) == 0);
  }
}

TEST_CASE("parallel: every task of every job runs exactly once, jobs in quick succession") {
  parallel_enable();
  struct Job { std::atomic<int> runs[16]; };
  for (int round = 0; round < 5000; ++round) {
    Job job;
    for (auto& r : job.runs) r.store(0);
    const size_t tasks = 2 + static_cast<size_t>(round % 15);
    parallel_for(tasks, [](void* ctx, size_t t) { static_cast<Job*>(ctx)->runs[t].fetch_add(1); }, &job);
    for (size_t t = 0; t < 16; ++t) REQUIRE(job.runs[t].load() == (t < tasks ? 1 : 0));
  }
}
