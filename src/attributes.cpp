#include "attributes.h"

namespace onnxwasm {

const char* attr_kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::Int: return "INT";
    case AttrKind::Ints: return "INTS";
    case AttrKind::Float: return "FLOAT";
    case AttrKind::Floats: return "FLOATS";
    case AttrKind::String: return "STRING";
    case AttrKind::Strings: return "STRINGS";
    case AttrKind::Tensor: return "TENSOR";
  }
  return "?";
}

}  // namespace onnxwasm
