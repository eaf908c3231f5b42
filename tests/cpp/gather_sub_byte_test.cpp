// onnx-wasm's Gather-1 (ONNX Gather-13 for every element type): sub-byte data gathered along any
// axis, checked against an oracle that reads and writes one code at a time. Slices of whole bytes
// take the byte copy, others the code-by-code path; both must leave the output's padding bits 0.
// ONNX's Gather-13 row still refuses those types (its constraint), by the registry's check.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;

namespace {

struct Case {
  E type;
  std::vector<int64_t> dims;
  int64_t axis;
  std::vector<int64_t> indices;
  std::vector<int64_t> index_dims;
};

unsigned code_at(const uint8_t* p, size_t i, int bits) {
  const size_t per = static_cast<size_t>(8 / bits);
  return (p[i / per] >> (i % per * static_cast<size_t>(bits))) & ((1u << bits) - 1);
}

// Gather, one code at a time: output element (o, i, j) is data's (o, norm(indices[i]), j).
std::vector<uint8_t> oracle(const Case& c, const uint8_t* data, int bits) {
  const size_t rank = c.dims.size(), axis = static_cast<size_t>(c.axis < 0 ? c.axis + static_cast<int64_t>(rank) : c.axis);
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= static_cast<size_t>(c.dims[i]);
  for (size_t i = axis + 1; i < rank; ++i) inner *= static_cast<size_t>(c.dims[i]);
  const int64_t n_axis = c.dims[axis];
  const size_t count = outer * c.indices.size() * inner;
  std::vector<uint8_t> out((count * static_cast<size_t>(bits) + 7) / 8, 0);
  size_t to = 0;
  const size_t per = static_cast<size_t>(8 / bits);
  for (size_t o = 0; o < outer; ++o)
    for (const int64_t index : c.indices) {
      const size_t row = static_cast<size_t>(index < 0 ? index + n_axis : index);
      for (size_t j = 0; j < inner; ++j, ++to)
        out[to / per] = static_cast<uint8_t>(out[to / per] | (code_at(data, (o * static_cast<size_t>(n_axis) + row) * inner + j, bits)
                                                             << (to % per * static_cast<size_t>(bits))));
    }
  return out;
}

Attributes axis_attribute(int64_t axis) {
  Attributes attrs;
  attrs.add(onnxwasm_test::Int("axis", axis));
  return attrs;
}

}  // namespace

TEST_CASE("onnx-wasm Gather-1 gathers sub-byte elements along any axis, byte for byte as a code-by-code oracle") {
  const std::vector<Case> cases = {
      {E::Int4, {5, 3}, 0, {4, -5, 2, 2}, {4}},            // rows of 12 bits: code by code
      {E::Uint4, {5, 4}, 0, {-1, 0, 3}, {3}},              // rows of 2 bytes: byte copies
      {E::Int2, {7, 5}, 0, {6, -7, 1}, {3}},               // rows of 10 bits
      {E::Uint2, {3, 8}, 0, {2, 0}, {2, 1}},               // rows of 2 bytes, indices of rank 2
      {E::Float4e2m1, {3, 5, 2}, 1, {4, -1, 0}, {3}},      // slices of 8 bits inside rows of 40
      {E::Int4, {4, 3}, -1, {2, 0, -3, 1, 1}, {5}},        // along the last axis: one code a slice
      {E::Uint2, {2, 3, 3}, 1, {1}, {}},                   // a scalar index
      {E::Uint4, {9}, 0, {8, 0, -9, 3, 5}, {5}},           // rank 1: single codes
      {E::Int2, {6, 4}, 0, {5, 5, 0}, {3}},                // rows of exactly one byte
  };
  const OpVersion* v = nullptr;
  REQUIRE(resolve_op("onnx-wasm", "Gather", 1, &v).is_ok());
  CHECK(v->label() == "onnx-wasm.Gather-1");
  for (const Case& c : cases) {
    const int bits = element_bits(c.type);
    INFO(onnx_name(c.type) << " dims " << c.dims.size() << " axis " << c.axis);
    PreparedOp op;
    REQUIRE(PreparedOp::prepare("onnx-wasm", "Gather", 1, axis_attribute(c.axis), &op).is_ok());
    Tensor data;
    REQUIRE(make_tensor(c.type, c.dims, &data).is_ok());
    const size_t data_bytes = static_cast<size_t>((data.element_count() * bits + 7) / 8);
    for (size_t i = 0; i < data_bytes; ++i) data.buffer->data()[i] = static_cast<uint8_t>(i * 37 + 11);
    // Zero the data's padding bits, as a tensor of that type has them.
    const size_t used = static_cast<size_t>(data.element_count() * bits) % 8;
    if (used) data.buffer->data()[data_bytes - 1] &= static_cast<uint8_t>((1u << used) - 1);
    Tensor indices;
    REQUIRE(make_tensor(E::Int64, c.index_dims, &indices).is_ok());
    std::memcpy(indices.buffer->data(), c.indices.data(), c.indices.size() * sizeof(int64_t));
    const Tensor* in[2] = {&data, &indices};
    Tensor out;
    REQUIRE(op.run(in, 2, &out).is_ok());
    const std::vector<uint8_t> want = oracle(c, data.buffer->data(), bits);
    REQUIRE(static_cast<size_t>((out.element_count() * bits + 7) / 8) == want.size());
    const std::vector<uint8_t> got(out.buffer->data(), out.buffer->data() + want.size());
    CHECK(got == want);
    CHECK(out.type == c.type);
  }
}

TEST_CASE("onnx-wasm Gather-1: an index out of range is refused before any write; ONNX's Gather-13 refuses sub-byte data") {
  PreparedOp op;
  REQUIRE(PreparedOp::prepare("onnx-wasm", "Gather", 1, Attributes(), &op).is_ok());
  Tensor data, indices;
  REQUIRE(make_tensor(E::Int4, {4, 3}, &data).is_ok());
  REQUIRE(make_tensor(E::Int64, {2}, &indices).is_ok());
  const int64_t bad[] = {1, 4};
  std::memcpy(indices.buffer->data(), bad, sizeof bad);
  const Tensor* in[2] = {&data, &indices};
  Tensor out;
  const Status s = op.run(in, 2, &out);
  CHECK(s.code() == StatusCode::Index);
  CHECK(s.message() == "onnx-wasm.Gather-1: index 4 at position 1 is outside [-4, 3] for axis 0 of size 4");
  CHECK(!out.buffer);

  PreparedOp onnx;
  const Status refused = PreparedOp::prepare("Gather", 13, Attributes(), &onnx);
  REQUIRE(refused.is_ok());
  const Status t = onnx.run(in, 2, &out);
  CHECK(t.code() == StatusCode::Type);
  CHECK(!out.buffer);
}
