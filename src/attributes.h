// Node attributes as plain values: what the JS wrapper parsed from a node or NodeProto.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensor.h"

namespace onnxwasm {

enum class AttrKind { Int, Ints, Float, Floats, String, Strings, Tensor };
const char* attr_kind_name(AttrKind k);  // "INT", "INTS", ... as ONNX names them

struct Attribute {
  std::string name;
  AttrKind kind = AttrKind::Int;
  std::vector<int64_t> ints;       // Int (one value) and Ints
  std::vector<double> floats;      // Float (one value) and Floats
  std::vector<std::string> strings;
  Tensor tensor;                   // Tensor (ConstantOfShape's value)
};

class Attributes {
 public:
  Attributes() = default;
  explicit Attributes(std::vector<Attribute> list) : list_(std::move(list)) {}
  void add(Attribute a) { list_.push_back(std::move(a)); }
  const Attribute* find(std::string_view name) const {
    for (const Attribute& a : list_)
      if (a.name == name) return &a;
    return nullptr;
  }
  int64_t get_int(std::string_view name, int64_t fallback) const {
    const Attribute* a = find(name);
    return a && a->kind == AttrKind::Int && !a->ints.empty() ? a->ints[0] : fallback;
  }
  const std::vector<Attribute>& list() const { return list_; }

 private:
  std::vector<Attribute> list_;
};

}  // namespace onnxwasm
