// ONNX element types: enum, names and sizes, all from element_types.def.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "checked_mul.h"

namespace onnxwasm {

enum class ElementType : int32_t {
  Undefined = 0,
// NOLINTNEXTLINE(bugprone-macro-parentheses): E names an enumerator, which cannot be parenthesized
#define ONNX_ELEMENT_TYPE(E, js, onnx, id, bits, array) E = id,
#include "element_types.def"
#undef ONNX_ELEMENT_TYPE
};

constexpr int kMaxElementTypeId = 26;

struct ElementTypeInfo {
  ElementType type;
  const char* js_name;    // 'float32', as the JS API spells it
  const char* onnx_name;  // 'float', as ONNX's type constraints spell it: tensor(float)
  int bits;               // 0 for string
};

// Null for an unknown id.
const ElementTypeInfo* element_type_info(int32_t id);
// Bits an element takes (4 for int4, 2 for int2: packed); 0 for string and unknown types. Widths
// in bytes come from this, where a sub-byte type must be refused, never read as 0 bytes.
int element_bits(ElementType t);
inline const char* onnx_name(ElementType t) {
  const ElementTypeInfo* info = element_type_info(static_cast<int32_t>(t));
  return info ? info->onnx_name : "undefined";
}

// Bytes that `count` elements take, packed as ONNX packs sub-byte types (rounded up).
// False on overflow. Not meaningful for strings. (Inline: every tensor a run makes is sized with
// it.)
inline bool storage_bytes(ElementType t, int64_t count, int64_t* bytes) {
  const ElementTypeInfo* info = element_type_info(static_cast<int32_t>(t));
  if (!info || count < 0) return false;
  int64_t bits = 0;
  if (mul_overflows(count, static_cast<int64_t>(info->bits), &bits)) return false;
  *bytes = bits / 8 + (bits % 8 != 0);
  return true;
}

// A set of element types, one bit per ONNX id.
class TypeSet {
 public:
  constexpr TypeSet() = default;
  constexpr TypeSet(std::initializer_list<ElementType> types) {
    for (ElementType t : types) bits_ |= bit(t);
  }
  constexpr TypeSet operator|(TypeSet o) const { TypeSet r; r.bits_ = bits_ | o.bits_; return r; }
  constexpr bool contains(ElementType t) const { return (bits_ & bit(t)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  // "tensor(double), tensor(float), ..." in ONNX's order (alphabetical).
  std::string describe() const;

 private:
  // Ids outside [0, 63] (an invalid type from a caller) belong to no set.
  static constexpr uint64_t bit(ElementType t) {
    return static_cast<int>(t) >= 0 && static_cast<int>(t) < 64 ? uint64_t{1} << static_cast<int>(t) : 0;
  }
  uint64_t bits_ = 0;
};

}  // namespace onnxwasm
