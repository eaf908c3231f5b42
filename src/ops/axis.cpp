// The axis rule shared by the ops that take one: an axis in [-r, r - 1], or [0, r - 1] in the
// versions that allow no negative axis, normalized to [0, r - 1] (ops.h).
#include "ops.h"

namespace onnxwasm {

Status axis_range_error(const OpVersion& v, StatusCode code, const char* name, int64_t axis, int64_t rank,
                        bool negative_ok, const char* of) {
  return Status(code, v.label() + ": " + name + " " + std::to_string(axis) + " is outside [" +
                          std::to_string(negative_ok ? -rank : 0) + ", " + std::to_string(rank - 1) + "] for " + of +
                          " of rank " + std::to_string(rank) +
                          (!negative_ok && axis < 0 ? " (negative axes need opset 11 or later)" : ""));
}

Status normalize_axis(const OpVersion& v, const char* name, int64_t axis, int64_t rank, bool negative_ok, const char* of,
                      size_t* out) {
  if (axis < (negative_ok ? -rank : 0) || axis > rank - 1)
    return axis_range_error(v, StatusCode::Attribute, name, axis, rank, negative_ok, of);
  *out = static_cast<size_t>(axis < 0 ? axis + rank : axis);
  return Status::ok();
}

}  // namespace onnxwasm
