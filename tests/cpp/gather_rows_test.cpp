// PreparedOp::plan_rows (a Gather whose table is kept outside memory): the distinct rows in
// ascending order and the indices remapped to them, such that Gather(the rows, remapped) equals
// Gather(table, indices); and the errors of a run with that table, word for word.
#include <catch2/catch.hpp>

#include <cstring>

#include "src/runtime.h"

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
  Attribute a;
  a.name = "axis";
  a.kind = AttrKind::Int;
  a.ints = {axis};
  Attributes attrs;
  attrs.add(a);
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
