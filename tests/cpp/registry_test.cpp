// The registry table: every op's versions cover its domain's opsets (1..kMaxOpset in the default
// domain, from the opset that introduced the op) with no overlap and no gap, each version resolves from every opset in its range, and
// the type lists only grow.
#include <catch2/catch.hpp>

#include <map>

#include "src/registry.h"

using namespace onnxwasm;

TEST_CASE("registry: version ranges of each op tile its domain's opsets without overlap or gap") {
  std::map<std::string, std::vector<const OpVersion*>> by_op;
  for (const OpVersion& v : op_versions()) by_op[std::string(v.domain) + "/" + v.op].push_back(&v);
  REQUIRE(by_op.size() >= 4);
  for (auto& [op, versions] : by_op) {
    INFO(op);
    const DomainInfo* domain = nullptr;
    for (const DomainInfo& d : domains())
      if (op.rfind(std::string(d.domain) + "/", 0) == 0) domain = &d;
    REQUIRE(domain);
    // Ops ONNX introduced after opset 1 start there; the others at the domain's first opset.
    const std::map<std::string, int> introduced = {{"/DequantizeLinear", 10}};
    int next = introduced.count(op) ? introduced.at(op) : domain->min_opset;
    for (const OpVersion* v : versions) {
      INFO(v->label());
      CHECK(v->since == next);
      CHECK(v->until >= v->since);
      next = v->until + 1;
    }
    CHECK(next == domain->max_opset + 1);
  }
}

TEST_CASE("registry: every opset resolves to the newest version whose since is not above it") {
  for (const std::string op : {"Gather", "Flatten", "Reshape"}) {
    for (int opset = kMinOpset; opset <= kMaxOpset; ++opset) {
      const OpVersion* v = nullptr;
      REQUIRE(resolve_op(op, opset, &v).is_ok());
      int newest = 0;
      for (const OpVersion& c : op_versions())
        if (c.op == op && c.since <= opset && c.since > newest) newest = c.since;
      CHECK(v->since == newest);
    }
  }
}

TEST_CASE("registry: opsets outside [1, 28] and unknown ops are refused with their codes") {
  const OpVersion* v = nullptr;
  Status s = resolve_op("Gather", 0, &v);
  CHECK(s.code() == StatusCode::Opset);
  CHECK(s.message() == "Gather: opset 0 is outside the supported range [1, 28]");
  CHECK(resolve_op("Gather", 29, &v).code() == StatusCode::Opset);
  s = resolve_op("Conv", 13, &v);
  CHECK(s.code() == StatusCode::UnsupportedOp);
  std::string ops;
  for (const std::string& op : supported_ops("")) ops += (ops.empty() ? "" : ", ") + op;
  CHECK(s.message() == "op 'Conv' is not supported; onnx-wasm runs " + ops);
  CHECK(ops.rfind("Gather, Flatten, Reshape", 0) == 0);
}

TEST_CASE("registry: each later version of an op allows every type the earlier one did") {
  const OpVersion* prev = nullptr;
  for (const OpVersion& v : op_versions()) {
    if (prev && std::string(prev->op) == v.op && std::string(prev->domain) == v.domain) {
      for (int id = 1; id <= kMaxElementTypeId; ++id) {
        const ElementType t = static_cast<ElementType>(id);
        INFO(v.label() << " type " << id);
        if (prev->inputs[0].types.contains(t)) CHECK(v.inputs[0].types.contains(t));
      }
    }
    prev = &v;
  }
}
