// PreparedOp::plan_rows (a Gather whose table is kept outside memory): the distinct rows in
// ascending order and the indices remapped to them, such that Gather(the rows, remapped) equals
// Gather(table, indices); and the errors of a run with that table, word for word.
#include <catch2/catch.hpp>

#include <cstring>

#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;

namespace {

Tensor int64_tensor(const std::vector<int64_t>& values, std::vector<int64_t> dims) {
  Tensor t;
  REQUIRE(make_tensor(ElementType::Int64, std::move(dims), &t).is_ok());
  if (!values.empty()) std::memcpy(t.buffer->data(), values.data(), values.size() * sizeof(int64_t));
  return t;
}

std::vector<int64_t> values_of(const Tensor& t) {
  const int64_t* p = reinterpret_cast<const int64_t*>(t.buffer->data());
  return std::vector<int64_t>(p, p + t.element_count());
}

PreparedOp gather(int64_t axis) {
  Attributes attrs;
  attrs.add(onnxwasm_test::Int("axis", axis));
  PreparedOp op;
  REQUIRE(PreparedOp::prepare("Gather", 13, attrs, &op).is_ok());
  return op;
}

}  // namespace

TEST_CASE("plan_rows: distinct rows ascending, indices remapped to them") {
  struct Case {
    const char* name;
    std::vector<int64_t> indices, index_dims, rows, remapped;
  };
  const std::vector<Case> cases = {
      {"sorted, adjacent", {3, 4, 5}, {3}, {3, 4, 5}, {0, 1, 2}},
      {"reversed, repeated, negative", {9, -1, 0, 9, -10}, {5}, {0, 9}, {1, 1, 0, 1, 0}},
      {"a matrix of indices", {7, 2, 2, 7}, {2, 2}, {2, 7}, {1, 0, 0, 1}},
      {"a scalar index", {6}, {}, {6}, {0}},
      {"no indices", {}, {0}, {}, {}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    PreparedOp op = gather(0);
    Tensor indices = int64_tensor(c.indices, c.index_dims), remapped, rows;
    REQUIRE(op.plan_rows(ElementType::Float, {10, 4}, indices, &remapped, &rows).is_ok());
    CHECK(values_of(rows) == c.rows);
    CHECK(values_of(remapped) == c.remapped);
    CHECK(remapped.dims == c.index_dims);
  }
}

TEST_CASE("plan_rows: the errors of a run with the same table") {
  Tensor table;
  REQUIRE(make_tensor(ElementType::Float, {10, 4}, &table).is_ok());
  struct Case {
    const char* name;
    int64_t axis;
    std::vector<int64_t> indices;
  };
  for (const Case& c : std::vector<Case>{{"index above", 0, {1, 10}}, {"index below", 0, {-11}}, {"axis out of range", 2, {0}}}) {
    INFO(c.name);
    PreparedOp lazy = gather(c.axis), memory = gather(c.axis);
    Tensor indices = int64_tensor(c.indices, {static_cast<int64_t>(c.indices.size())}), remapped, rows, out;
    const Status planned = lazy.plan_rows(ElementType::Float, {10, 4}, indices, &remapped, &rows);
    const Tensor* in[2] = {&table, &indices};
    const Status ran = memory.run(in, 2, &out);
    REQUIRE_FALSE(ran.is_ok());
    CHECK(planned.code() == ran.code());
    CHECK(planned.message() == ran.message());
  }
  SECTION("a table read along another axis is refused") {
    PreparedOp op = gather(1);
    Tensor indices = int64_tensor({0}, {1}), remapped, rows;
    const Status s = op.plan_rows(ElementType::Float, {10, 4}, indices, &remapped, &rows);
    CHECK(s.code() == StatusCode::Shape);
    CHECK(s.message() == "Gather-13: a table kept outside memory is read by rows (axis 0), not along axis 1");
  }
}

TEST_CASE("plan_rows with scales kept outside memory too (GatherBlockQuantized): the checks of a run by their dims alone") {
  Attributes attrs;
  attrs.add(onnxwasm_test::Int("block_size", 16));
  const ElementType u4 = ElementType::Uint4, f32 = ElementType::Float;
  Tensor indices = int64_tensor({7, -1, 7}, {3});
  SECTION("the same rows as with the scales in memory") {
    PreparedOp a, b;
    REQUIRE(PreparedOp::prepare("com.microsoft", "GatherBlockQuantized", 1, attrs, &a).is_ok());
    REQUIRE(PreparedOp::prepare("com.microsoft", "GatherBlockQuantized", 1, attrs, &b).is_ok());
    Tensor scales;
    REQUIRE(make_tensor(f32, {10, 2}, &scales).is_ok());
    const Tensor* in_memory[3] = {nullptr, &indices, &scales};
    const Tensor* outside[3] = {nullptr, &indices, nullptr};
    Tensor remapped_a, rows_a, remapped_b, rows_b;
    REQUIRE(a.plan_rows(u4, {10, 32}, in_memory, 3, &remapped_a, &rows_a).is_ok());
    REQUIRE(b.plan_rows(u4, {10, 32}, outside, 3, &remapped_b, &rows_b, {{2, f32, {10, 2}}}).is_ok());
    CHECK(values_of(rows_b) == values_of(rows_a));
    CHECK(values_of(rows_b) == std::vector<int64_t>{7, 9});
    CHECK(values_of(remapped_b) == values_of(remapped_a));
  }
  SECTION("scales of the wrong shape or type: the run's error") {
    struct Case {
      const char* name;
      ElementType type;
      std::vector<int64_t> dims;
    };
    for (const Case& c : std::vector<Case>{{"one block too few", f32, {10, 1}}, {"another row count", f32, {9, 2}}, {"int32 scales", ElementType::Int32, {10, 2}}}) {
      INFO(c.name);
      PreparedOp lazy, memory;
      REQUIRE(PreparedOp::prepare("com.microsoft", "GatherBlockQuantized", 1, attrs, &lazy).is_ok());
      REQUIRE(PreparedOp::prepare("com.microsoft", "GatherBlockQuantized", 1, attrs, &memory).is_ok());
      Tensor table, scales, remapped, rows, out;
      REQUIRE(make_tensor(u4, {10, 32}, &table).is_ok());
      REQUIRE(make_tensor(c.type, c.dims, &scales).is_ok());
      const Tensor* outside[3] = {nullptr, &indices, nullptr};
      const Status planned = lazy.plan_rows(u4, {10, 32}, outside, 3, &remapped, &rows, {{2, c.type, c.dims}});
      const Tensor* in[3] = {&table, &indices, &scales};
      const Status ran = memory.run(in, 3, &out);
      REQUIRE_FALSE(ran.is_ok());
      CHECK(planned.code() == ran.code());
      CHECK(planned.message() == ran.message());
    }
  }
  SECTION("an input the op does not read with the table's rows cannot be outside memory") {
    PreparedOp op;
    REQUIRE(PreparedOp::prepare("com.microsoft", "GatherBlockQuantized", 1, attrs, &op).is_ok());
    const Tensor* outside[3] = {nullptr, &indices, nullptr};
    Tensor remapped, rows;
    const Status s = op.plan_rows(u4, {10, 32}, outside, 3, &remapped, &rows, {{1, ElementType::Int64, {3}}});
    CHECK(s.code() == StatusCode::Input);
    CHECK(s.message() == "com.microsoft.GatherBlockQuantized-1: input 1 is not one read with the table's rows, so it cannot be outside memory");
    const Status g = gather(0).plan_rows(f32, {10, 4}, outside, 3, &remapped, &rows, {{2, f32, {10, 1}}});
    CHECK(g.code() == StatusCode::Input);
  }
}
