// PreparedOp's kept shapes: a run whose inputs have the types, dims and (Reshape's shape) values
// of the last inferred run reuses that output shape; any change infers again. Each case is a
// sequence of runs on one PreparedOp, each checked for its output type and dims (or its error),
// so that a shape kept when it should not be shows as a wrong output.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "src/runtime.h"

using namespace onnxwasm;

namespace {

Tensor tensor_of(ElementType type, std::vector<int64_t> dims, const std::vector<int64_t>& int64_values = {}) {
  Tensor t;
  REQUIRE(make_tensor(type, std::move(dims), &t).is_ok());
  if (!int64_values.empty()) std::memcpy(t.buffer->data(), int64_values.data(), int64_values.size() * sizeof(int64_t));
  return t;
}

PreparedOp prepared(const char* op, int opset) {
  PreparedOp p;
  REQUIRE(PreparedOp::prepare(op, opset, Attributes(), &p).is_ok());
  return p;
}

struct Step {
  const char* what;
  Tensor a, b;
  ElementType type;             // of the output
  std::vector<int64_t> dims;    // of the output; empty with an error
  const char* error = nullptr;  // a part of the message
};

void run_steps(PreparedOp& op, std::vector<Step>& steps) {
  for (Step& s : steps) {
    INFO(s.what);
    const Tensor* in[2] = {&s.a, &s.b};
    Tensor out;
    const Status st = op.run(in, 2, &out);
    if (s.error) {
      REQUIRE_FALSE(st.is_ok());
      CHECK(st.message().find(s.error) != std::string::npos);
      CHECK_FALSE(out.buffer);
    } else {
      REQUIRE(st.is_ok());
      CHECK(out.type == s.type);
      CHECK(out.dims == s.dims);
    }
  }
}

}  // namespace

TEST_CASE("PreparedOp: a Gather infers again when a type or dims change") {
  using E = ElementType;
  PreparedOp op = prepared("Gather", 13);
  std::vector<Step> steps;
  steps.push_back({"first run", tensor_of(E::Float, {3, 2}), tensor_of(E::Int64, {2}, {0, 2}), E::Float, {2, 2}});
  steps.push_back({"same shapes, other tensors", tensor_of(E::Float, {3, 2}), tensor_of(E::Int64, {2}, {1, 1}), E::Float, {2, 2}});
  steps.push_back({"data dims change", tensor_of(E::Float, {4, 5}), tensor_of(E::Int64, {2}, {3, 0}), E::Float, {2, 5}});
  steps.push_back({"indices dims change", tensor_of(E::Float, {4, 5}), tensor_of(E::Int64, {1, 3}, {0, 1, 2}), E::Float, {1, 3, 5}});
  steps.push_back({"data type changes", tensor_of(E::Int32, {4, 5}), tensor_of(E::Int64, {1, 3}, {0, 1, 2}), E::Int32, {1, 3, 5}});
  steps.push_back({"an index out of range, shapes kept", tensor_of(E::Int32, {4, 5}), tensor_of(E::Int64, {1, 3}, {0, 4, 2}), E::Int32, {}, "index 4 at position 1"});
  steps.push_back({"indices of a type Gather refuses", tensor_of(E::Int32, {4, 5}), tensor_of(E::Float, {1, 3}), E::Int32, {}, "tensor(float)"});
  steps.push_back({"a good run after both errors", tensor_of(E::Int32, {4, 5}), tensor_of(E::Int64, {1, 3}, {3, 3, 3}), E::Int32, {1, 3, 5}});
  run_steps(op, steps);
}

TEST_CASE("PreparedOp: a Reshape infers again when its shape's values change, its dims alike") {
  using E = ElementType;
  PreparedOp op = prepared("Reshape", 14);
  std::vector<Step> steps;
  steps.push_back({"[2, 3]", tensor_of(E::Float, {6}), tensor_of(E::Int64, {2}, {2, 3}), E::Float, {2, 3}});
  steps.push_back({"[3, 2]: the same dims, other values", tensor_of(E::Float, {6}), tensor_of(E::Int64, {2}, {3, 2}), E::Float, {3, 2}});
  steps.push_back({"[-1, 1]", tensor_of(E::Float, {6}), tensor_of(E::Int64, {2}, {-1, 1}), E::Float, {6, 1}});
  steps.push_back({"[4, 2] of 6 elements", tensor_of(E::Float, {6}), tensor_of(E::Int64, {2}, {4, 2}), E::Float, {}, "Reshape-14"});
  steps.push_back({"[-1, 1] again after the error", tensor_of(E::Float, {6}), tensor_of(E::Int64, {2}, {-1, 1}), E::Float, {6, 1}});
  steps.push_back({"[-1, 1] of 8 elements", tensor_of(E::Float, {8}), tensor_of(E::Int64, {2}, {-1, 1}), E::Float, {8, 1}});
  run_steps(op, steps);
}

TEST_CASE("PreparedOp: plan_rows between runs does not leave its table's shapes to the next run") {
  using E = ElementType;
  PreparedOp op = prepared("Gather", 13);
  Tensor data = tensor_of(E::Float, {10, 4}), indices = tensor_of(E::Int64, {2}, {1, 9});
  const Tensor* in[2] = {&data, &indices};
  Tensor out, remapped, rows;
  REQUIRE(op.run(in, 2, &out).is_ok());
  CHECK(out.dims == std::vector<int64_t>{2, 4});
  REQUIRE(op.plan_rows(E::Float, {100, 8}, indices, &remapped, &rows).is_ok());
  Tensor again;
  REQUIRE(op.run(in, 2, &again).is_ok());
  CHECK(again.dims == std::vector<int64_t>{2, 4});
}
