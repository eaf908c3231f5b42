#include "element_type.h"

#include "checked_mul.h"

#include <algorithm>
#include <vector>

namespace onnxwasm {
namespace {
constexpr ElementTypeInfo kInfos[] = {
#define ONNX_ELEMENT_TYPE(E, js, onnx, id, bits, array) {ElementType::E, js, onnx, bits},
#include "element_types.def"
#undef ONNX_ELEMENT_TYPE
};
}  // namespace

const ElementTypeInfo* element_type_info(int32_t id) {
  for (const ElementTypeInfo& info : kInfos)
    if (static_cast<int32_t>(info.type) == id) return &info;
  return nullptr;
}

int element_bits(ElementType t) {
  const ElementTypeInfo* info = element_type_info(static_cast<int32_t>(t));
  return info ? info->bits : 0;
}

bool storage_bytes(ElementType t, int64_t count, int64_t* bytes) {
  const ElementTypeInfo* info = element_type_info(static_cast<int32_t>(t));
  if (!info || count < 0) return false;
  int64_t bits = 0;
  if (mul_overflows(count, static_cast<int64_t>(info->bits), &bits)) return false;
  *bytes = bits / 8 + (bits % 8 != 0);
  return true;
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
