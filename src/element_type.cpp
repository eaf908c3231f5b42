#include "element_type.h"

#include <algorithm>
#include <vector>

namespace onnxwasm {
namespace {
constexpr ElementTypeInfo kInfos[] = {
#define ONNX_ELEMENT_TYPE(E, js, onnx, id, bits, array) {ElementType::E, js, onnx, bits},
#include "element_types.def"
#undef ONNX_ELEMENT_TYPE
};
constexpr int32_t kInfoCount = static_cast<int32_t>(sizeof kInfos / sizeof kInfos[0]);

// The .def lists the ids 1, 2, 3, ... in order, so an id's entry is kInfos[id - 1]: a run looks
// types up several times (its output's bytes, its data's width), and a search of the table in this
// file, built for size, was a measurable part of a tiny Gather's run (docs/performance.md).
constexpr bool ids_in_order() {
  for (int32_t i = 0; i < kInfoCount; ++i)
    if (static_cast<int32_t>(kInfos[i].type) != i + 1) return false;
  return true;
}
static_assert(ids_in_order(), "element_types.def must list the ids 1, 2, 3, ... in order");
}  // namespace

const ElementTypeInfo* element_type_info(int32_t id) { return id >= 1 && id <= kInfoCount ? &kInfos[id - 1] : nullptr; }

int element_bits(ElementType t) {
  const ElementTypeInfo* info = element_type_info(static_cast<int32_t>(t));
  return info ? info->bits : 0;
}

std::string TypeSet::describe() const {
  std::vector<std::string> names;
  for (const ElementTypeInfo& info : kInfos)
    if (contains(info.type)) names.push_back(std::string("tensor(") + info.onnx_name + ")");
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace onnxwasm
