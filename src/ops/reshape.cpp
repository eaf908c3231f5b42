// Reshape: https://onnx.ai/onnx/operators/onnx__Reshape.html (versions 1, 5, 13, 14, 19, 21, 23, 24, 25).
// Version 1 takes the shape as an attribute; 5 and later as an int64 input; 14 adds allowzero.
// A 0 copies the input dimension (unless allowzero=1), at most one -1 is solved from the element
// count, an empty shape makes a scalar, and the element counts must match.
#include "ops.h"
#include "../checked_mul.h"

namespace onnxwasm {
namespace {

// Version 1's shape attribute; allowzero (14 and later; 0 before).
struct ReshapeParams : OpParams {
  std::vector<int64_t> shape;
  bool allowzero = false;
};

std::string list_string(const std::vector<Dim>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i].to_string();
  return s + "]";
}

std::vector<Dim> known_dims(const std::vector<int64_t>& values) {
  std::vector<Dim> dims;
  dims.reserve(values.size());
  for (int64_t x : values) dims.push_back(Dim::known(x));
  return dims;
}

// The shape's entries are numbers, or (a shape computed from symbolic dims: Concat of Shape's
// entries) symbols or unknown: a symbol stands for that dim, an unknown entry gives an unknown dim.
Status reshape_with_values(const OpVersion& v, const ValueInfo& input, const std::vector<Dim>& shape,
                           bool allowzero, std::vector<ValueInfo>* out) {
  const std::string label = v.label();
  int minus_one = -1;
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!shape[i].is_known()) continue;
    const int64_t value = shape[i].value;
    if (value == -1) {
      if (minus_one >= 0)
        return ONNXWASM_ERROR(StatusCode::Shape, label + ": shape " + list_string(shape) +
                                             " has more than one -1; at most one dimension can be inferred");
      minus_one = static_cast<int>(i);
    } else if (value < -1) {
      return ONNXWASM_ERROR(StatusCode::Shape, label + ": shape value " + std::to_string(value) + " at position " +
                                           std::to_string(i) + " is invalid; values must be >= -1");
    } else if (value == 0) {
      has_zero = true;
    }
  }
  if (allowzero && has_zero && minus_one >= 0)
    return ONNXWASM_ERROR(StatusCode::Shape, label + ": shape " + list_string(shape) +
                                         " has both 0 and -1, which allowzero=1 forbids (the -1 could not be determined)");

  ValueInfo result;
  result.type = input.type;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!shape[i].is_known()) {
      result.dims.push_back(shape[i]);
    } else if (shape[i].value == 0 && !allowzero) {
      if (!input.rank_known) {
        result.dims.push_back(Dim::unknown());
      } else if (i >= input.dims.size()) {
        return ONNXWASM_ERROR(StatusCode::Shape, label + ": shape value 0 at position " + std::to_string(i) +
                                             " copies input dimension " + std::to_string(i) + ", but the input " +
                                             input.shape_string() + " has rank " + std::to_string(input.dims.size()));
      } else {
        result.dims.push_back(input.dims[i]);
      }
    } else {
      result.dims.push_back(shape[i].value == -1 ? Dim::unknown() : shape[i]);
    }
  }

  if (input.rank_known) {
    // Cancel symbols that stand on both sides, then compare (or solve with) the numeric rest.
    std::vector<bool> used(input.dims.size(), false);
    // A known 0 makes a side's product 0 even when its other dims overflow (as make_tensor counts).
    bool output_numeric = true;
    DimProduct out_side;
    for (size_t i = 0; i < result.dims.size(); ++i) {
      if (static_cast<int>(i) == minus_one) continue;
      const Dim& d = result.dims[i];
      if (d.is_known()) {
        out_side.mul(d.value);
        continue;
      }
      bool matched = false;
      if (d.kind == Dim::Kind::Symbol)
        for (size_t j = 0; j < input.dims.size() && !matched; ++j)
          if (!used[j] && input.dims[j] == d) used[j] = matched = true;
      if (!matched) output_numeric = false;
    }
    bool input_numeric = true, cancelled = false;
    DimProduct in_side;
    for (size_t j = 0; j < input.dims.size(); ++j) {
      if (used[j]) {
        cancelled = true;
        continue;
      }
      if (input.dims[j].is_known()) {
        in_side.mul(input.dims[j].value);
      } else {
        input_numeric = false;
      }
    }
    if (out_side.overflows() || in_side.overflows())
      return ONNXWASM_ERROR(StatusCode::Shape, label + ": the element count of " + input.shape_string() + " or of shape " +
                                           list_string(shape) + " overflows int64");
    const int64_t out_product = out_side.value(), in_product = in_side.value();
    if (input_numeric && output_numeric) {
      const std::string counts = label + ": cannot reshape " + input.shape_string() + " to " + list_string(shape);
      if (minus_one >= 0) {
        if (out_product == 0) {
          if (!cancelled)
            return ONNXWASM_ERROR(StatusCode::Shape, counts + ": the -1 cannot be inferred when the other dimensions multiply to 0");
        } else if (in_product % out_product != 0) {
          return ONNXWASM_ERROR(StatusCode::Shape, counts + ": " + std::to_string(in_product) +
                                               " elements do not divide into the known dimensions' product " +
                                               std::to_string(out_product));
        } else {
          result.dims[static_cast<size_t>(minus_one)] = Dim::known(in_product / out_product);
        }
      } else if (in_product != out_product) {
        return ONNXWASM_ERROR(StatusCode::Shape, counts + ": the element counts differ (" + std::to_string(in_product) +
                                             (cancelled ? " times the shared symbols" : "") + " vs " +
                                             std::to_string(out_product) + ")");
      }
    }
  }
  out->push_back(result);
  return Status::ok();
}

}  // namespace

Status parse_reshape(const OpVersion&, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<ReshapeParams>();
  if (const Attribute* shape = attrs.find("shape")) p->shape = shape->ints;
  p->allowzero = attrs.get_int("allowzero", 0) != 0;
  *out = std::move(p);
  return Status::ok();
}

Status infer_reshape_1(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                       std::vector<ValueInfo>* out) {
  return reshape_with_values(v, in[0], known_dims(static_cast<const ReshapeParams&>(p).shape), false, out);
}

Status infer_reshape_5(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in,
                       std::vector<ValueInfo>* out) {
  const ValueInfo& shape = in[1];
  const bool allowzero = static_cast<const ReshapeParams&>(p).allowzero;
  if (shape.rank_known && shape.dims.size() != 1)
    return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'shape' must be a 1-D tensor, got shape " +
                                         shape.shape_string());
  if (const std::optional<std::vector<Dim>> values = shape.values_as_dims()) {
    if (shape.rank_known && shape.dims[0].is_known() && shape.dims[0].value != static_cast<int64_t>(values->size()))
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'shape' has dims " + shape.shape_string() + " but " +
                                           std::to_string(values->size()) + " values");
    return reshape_with_values(v, in[0], *values, allowzero, out);
  }
  ValueInfo result;
  result.type = in[0].type;
  if (shape.rank_known && shape.dims[0].is_known()) {
    if (shape.dims[0].value > kMaxRank)
      return ONNXWASM_ERROR(StatusCode::Shape, v.label() + ": input 'shape' has " + std::to_string(shape.dims[0].value) +
                                           " values; an output rank that large is not supported");
    result.dims.assign(static_cast<size_t>(shape.dims[0].value), Dim::unknown());
  } else {
    result.rank_known = false;
  }
  out->push_back(result);
  return Status::ok();
}

}  // namespace onnxwasm
