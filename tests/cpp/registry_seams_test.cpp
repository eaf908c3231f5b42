// The registry's seams: domains, capabilities declared per row (and true of what the row's run
// does), attributes parsed once at prepare, the input-count rules (optional, variadic), the
// one-type rule of a shared constraint letter. (Sub-byte gathers: gather_sub_byte_test.cpp.)
#include <catch2/catch.hpp>

#include <cstring>
#include <set>
#include <string>

#include "src/ops/ops.h"
#include "src/runtime.h"
#include "tests/cpp/table_values.h"

using namespace onnxwasm;
using E = ElementType;
using onnxwasm_test::Int;

namespace {

Tensor tensor_of(E type, std::vector<int64_t> dims) {
  Tensor t;
  REQUIRE(make_tensor(type, std::move(dims), &t).is_ok());
  return t;
}


}  // namespace

TEST_CASE("registry: every row's domain is in domains(), stored canonical") {
  std::set<std::string> known;
  for (const DomainInfo& d : domains()) known.insert(d.domain);
  for (const OpVersion& v : op_versions()) {
    INFO(v.label());
    CHECK(known.count(v.domain) == 1);
    CHECK(std::string(v.domain) != "ai.onnx");   // (stored canonical: '')
  }
}

TEST_CASE("registry: 'ai.onnx' is the default domain; other domains are refused by name") {
  const OpVersion* a = nullptr;
  const OpVersion* b = nullptr;
  REQUIRE(resolve_op("ai.onnx", "Gather", 13, &a).is_ok());
  REQUIRE(resolve_op("", "Gather", 13, &b).is_ok());
  CHECK(a == b);
  CHECK(a->label() == "Gather-13");
  const Status s = resolve_op("com.example", "Gather", 1, &a);
  CHECK(s.code() == StatusCode::UnsupportedOp);
  CHECK(s.message().rfind("op 'Gather' of domain 'com.example' is not supported; onnx-wasm runs the domains '' (ai.onnx)", 0) == 0);
  CHECK(canonical_domain("ai.onnx").empty());
  CHECK(canonical_domain("com.microsoft") == "com.microsoft");
}

TEST_CASE("registry: capabilities are declared, and true of the row's run") {
  for (const OpVersion& v : op_versions()) {
    INFO(v.label());
    CHECK((v.caps.rows_input >= 0) == (v.caps.plan_rows != nullptr));
    CHECK((v.caps.rows_input >= 0) == (v.caps.rows_axis != nullptr));
    if (v.caps.rows_input >= 0) {
      // The axis attribute is one the version takes.
      bool named = false;
      for (const AttrSpec& a : v.attributes) named |= std::string(a.name) == v.caps.rows_axis;
      CHECK(named);
    }
    if (!v.caps.view) continue;
    // A view's output is its input's buffer. Input 1 is Reshape's shape [6] or (Un)squeeze's
    // axes [0], and so are the attributes of the versions that take them as attributes.
    const E type = E::Float;
    Tensor data = tensor_of(type, {1, 6});
    Tensor shape = tensor_of(E::Int64, {1});
    const bool axes_in = v.inputs.size() > 1 && std::string(v.inputs[1].name) == "axes";
    reinterpret_cast<int64_t*>(shape.buffer->data())[0] = axes_in ? 0 : 6;
    std::vector<Attribute> attrs;
    for (const AttrSpec& spec : v.attributes) {
      const std::string name = spec.name;
      if (name != "shape" && name != "axes") continue;
      Attribute s;
      s.name = name;
      s.kind = AttrKind::Ints;
      s.ints = {name == "shape" ? 6 : 0};
      attrs.push_back(s);
    }
    PreparedOp p;
    if (!v.inputs[0].types.contains(type)) continue;
    REQUIRE(PreparedOp::prepare(v.op, v.since, Attributes(attrs), &p).is_ok());
    const Tensor* in[2] = {&data, &shape};
    Tensor out;
    REQUIRE(p.run(in, v.inputs.size(), &out).is_ok());
    CHECK(out.buffer == data.buffer);
  }
}

TEST_CASE("registry: the versions of an op read a table by rows alike (the binding's registryIndex lists each op once)") {
  for (const OpVersion& v : op_versions())
    for (const OpVersion& w : op_versions()) {
      if (std::string(v.domain) != w.domain || std::string(v.op) != w.op) continue;
      INFO(v.label() << " and " << w.label());
      CHECK(v.caps.rows_input == w.caps.rows_input);
      CHECK(std::string(v.caps.rows_axis ? v.caps.rows_axis : "") == (w.caps.rows_axis ? w.caps.rows_axis : ""));
    }
}

TEST_CASE("PreparedOp: attributes are parsed once, and their error comes after the input types'") {
  PreparedOp p;
  REQUIRE(PreparedOp::prepare("Gather", 13, Attributes({Int("axis", 5)}), &p).is_ok());
  Tensor data = tensor_of(E::Float, {2, 3});
  Tensor idx = tensor_of(E::Int64, {1});
  Tensor bad = tensor_of(E::Float, {1});
  const Tensor* wrong_type[2] = {&data, &bad};
  Tensor out;
  CHECK(p.run(wrong_type, 2, &out).code() == StatusCode::Type);
  const Tensor* in[2] = {&data, &idx};
  const Status s = p.run(in, 2, &out);
  CHECK(s.code() == StatusCode::Attribute);
  CHECK(s.message() == "Gather-13: axis 5 is outside [-2, 1] for data of rank 2");

  // An attribute of the wrong kind fails at prepare's check and is reported by every run.
  Attribute f;
  f.name = "axis";
  f.kind = AttrKind::Float;
  f.floats = {0.5};
  PreparedOp q;
  REQUIRE(PreparedOp::prepare("Gather", 13, Attributes({f}), &q).is_ok());
  for (int k = 0; k < 2; ++k) CHECK(q.run(in, 2, &out).message() == "Gather-13: attribute 'axis' must be INT, got FLOAT");
}

TEST_CASE("Input counts: the messages name the count or the range") {
  std::vector<ValueInfo> out;
  Status s = infer_node("Gather", 13, Attributes(), {ValueInfo::of_dims(E::Float, {2})}, &out);
  CHECK(s.code() == StatusCode::Input);
  CHECK(s.message() == "Gather-13 takes 2 inputs, got 1");
  // A required input given as omitted (type Undefined) is refused as a type the version does not
  // allow, and the message says it was omitted.
  s = infer_node("Gather", 13, Attributes(), {ValueInfo::of_dims(E::Float, {2}), ValueInfo{}}, &out);
  CHECK(s.code() == StatusCode::Type);
  CHECK(s.message() == "Gather-13: input 1 ('indices') has type tensor(undefined) (it was omitted), which Gather-13 does not allow; Tind must be one of tensor(int32), tensor(int64)");
}

