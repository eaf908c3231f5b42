// Cast: https://onnx.ai/onnx/operators/onnx__Cast.html (versions 1, 6, 9, 13, 19, 21, 23, 24, 25).
// CastLike: https://onnx.ai/onnx/operators/onnx__CastLike.html (versions 15, 19, 21, 23, 24, 25).
// The output has the input's shape and the type of `to` (Cast; a STRING such as "FLOAT" at
// version 1, the TensorProto id from 6) or of the second input (CastLike). saturate (19 and
// later, default 1) applies to the float8 targets (and E8M0); round_mode (24 and later: up, down,
// nearest) to E8M0 only.
//
// Every conversion goes through one of two paths: the input decoded to double (the float types)
// or to a 64-bit integer (the integer types and bool; uint64 kept unsigned), then encoded into the
// output type; strings are parsed into whichever the output needs. The rules are onnxruntime's
// CPU kernel's (cast_op.cc) where it defines them, the ONNX pages' otherwise:
// - to a float type: rounding to nearest even; int64 to float directly (never through double),
//   int64 to double directly; a double to float16, bfloat16, float8, float4 or E8M0 through float
//   (onnxruntime's conversions take a float); the float8/float4/E8M0 rules are kernels/minifloat.h's.
// - a float to an integer type (static_cast in onnxruntime: undefined in C++ when out of range)
//   is defined here as x86-64 computes it: truncation toward zero, then to int8, int16, int32,
//   uint8 and uint16 through a 32-bit conversion, to uint32 and int64 through a 64-bit one (NaN and
//   values out of that range give the lowest value of that width, x86's "integer indefinite"),
//   keeping the low bits; to uint64, x < 2^63 as int64 (then its two's complement), else
//   x - 2^63 as int64 with the top bit flipped: [0, 2^64) exactly, NaN, +inf and 2^64 or more 0,
//   below -2^63 2^63 (what onnxruntime gives on x86-64: +inf from float16 is 0).
// - a float to int4, uint4, int2 or uint2: rounded to the nearest integer, ties to even (the
//   int4/int2 pages; onnxruntime rounds ties away from zero), then the low bits.
// - an integer to a narrower integer (4 and 2-bit ones included): the low bits, two's complement.
// - to bool: zero is false, anything else (NaN too) true; from bool: 0 and 1.
// - to string: integers in decimal, floats as onnxruntime prints them ("%.8g", "NaN", "INF",
//   "-INF"; float16, bfloat16 and the small floats through float), bool as "0" and "1".
// - from string: to a float type, strtod (decimal, scientific, "INF", "-INF", "NaN" in any case;
//   beyond double's range: the infinity); to a signed integer type, strtoll, to an unsigned one
//   (and bool), strtoull: the leading integer ("100.5" is 100), then the rules above. A string with
//   no number, or an integer beyond 64 bits, is an InvalidArgumentError (onnxruntime throws there).
// A cast to the input's own type shares the input's buffer (as a view does); the registry does
// not declare `view`, since every other cast writes a new tensor.
// Shape inference passes the values of small integer tensors through (int_values): Shape ->
// Cast(int64 or int32) -> Range or Reshape in torch exports keeps known values.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>

#include "../kernels/convert.h"
#include "../kernels/dequantize.h"
#include "../kernels/float16.h"
#include "../kernels/minifloat.h"
#include "ops.h"

namespace onnxwasm {
namespace {

using E = ElementType;

struct CastParams : OpParams {
  E to = E::Undefined;  // Cast; CastLike takes its second input's type
  bool saturate = true;
  E8m0Round round = E8m0Round::Up;
};

// What an element is decoded to: a double, or 64 bits of an integer, signed or not.
enum class Domain { Float, Signed, Unsigned };

bool is_float_type(E t) {
  switch (t) {
    case E::Float: case E::Double: case E::Float16: case E::Bfloat16: case E::Float8e4m3fn: case E::Float8e4m3fnuz:
    case E::Float8e5m2: case E::Float8e5m2fnuz: case E::Float4e2m1: case E::Float8e8m0:
      return true;
    default:
      return false;
  }
}

bool is_unsigned_type(E t) {
  return t == E::Uint8 || t == E::Uint16 || t == E::Uint32 || t == E::Uint64 || t == E::Uint4 || t == E::Uint2 || t == E::Bool;
}

MiniFloat minifloat_of(E t) {
  switch (t) {
    case E::Float8e4m3fnuz: return MiniFloat::E4M3FNUZ;
    case E::Float8e5m2: return MiniFloat::E5M2;
    case E::Float8e5m2fnuz: return MiniFloat::E5M2FNUZ;
    case E::Float4e2m1: return MiniFloat::E2M1;
    default: return MiniFloat::E4M3FN;
  }
}

// The decoded domain of a source type; strings take the target's.
Domain domain_of(E source, E target) {
  if (source == E::String) return is_float_type(target) ? Domain::Float : is_unsigned_type(target) ? Domain::Unsigned : Domain::Signed;
  if (is_float_type(source)) return Domain::Float;
  return source == E::Uint64 ? Domain::Unsigned : Domain::Signed;
}

// Float to integer, as x86-64 converts (see the header): NaN fails every comparison.
int64_t trunc_i32(double x) { return x > -2147483649.0 && x < 2147483648.0 ? static_cast<int32_t>(x) : INT32_MIN; }
int64_t trunc_i64(double x) {
  return x >= -9223372036854775808.0 && x < 9223372036854775808.0 ? static_cast<int64_t>(x) : INT64_MIN;
}
// To uint64 x86-64 has no instruction: compilers emit x < 2^63 ? cvttsd2si(x) : cvttsd2si(x - 2^63) ^ 2^63.
uint64_t trunc_u64(double x) {
  if (x < 9223372036854775808.0) return static_cast<uint64_t>(trunc_i64(x));
  return static_cast<uint64_t>(trunc_i64(x - 9223372036854775808.0)) ^ (uint64_t{1} << 63);
}

ONNXWASM_COLD std::string float_string(double x) {
  if (x != x) return "NaN";
  if (x == HUGE_VAL) return "INF";
  if (x == -HUGE_VAL) return "-INF";
  char buf[32];
  const int n = std::snprintf(buf, sizeof buf, "%.8g", x);
  return std::string(buf, static_cast<size_t>(n));
}

ONNXWASM_COLD Status parse_error(const OpVersion& v, int64_t i, const std::string& s, E target, bool range) {
  return Status(StatusCode::InvalidArgument, v.label() + ": input element " + std::to_string(i) + " ('" + s + "') " +
                                                 (range ? "is beyond the 64-bit integers" : "is not a number") +
                                                 "; it cannot be cast to tensor(" + onnx_name(target) + ")");
}

// One run's source: its data and, for the small float types, their 256 values.
struct Source {
  E type;
  const uint8_t* bytes;
  const std::string* strings;
  float table[256];
};

constexpr size_t kChunk = 256;

// Typed access to a tensor's bytes (16-byte aligned storage, elements at their natural alignment).
template <typename T>
T* at(std::conditional_t<std::is_const_v<T>, const void*, void*> p) { return static_cast<T*>(p); }

// Decodes elements [first, first + n) of the source into f (Domain::Float) or u (the integers'
// 64 bits).
Status decode(const OpVersion& v, const Source& s, Domain d, E target, int64_t first, size_t n, double* f, uint64_t* u) {
  const uint8_t* b = s.bytes;
  const size_t i0 = static_cast<size_t>(first);
  auto ints = [&](auto* p) {
    for (size_t i = 0; i < n; ++i) u[i] = static_cast<uint64_t>(static_cast<int64_t>(p[i0 + i]));
  };
  switch (s.type) {
    case E::Float: for (size_t i = 0; i < n; ++i) f[i] = at<const float>(b)[i0 + i]; break;
    case E::Double: for (size_t i = 0; i < n; ++i) f[i] = at<const double>(b)[i0 + i]; break;
    case E::Float16: for (size_t i = 0; i < n; ++i) f[i] = half_to_float(at<const uint16_t>(b)[i0 + i]); break;
    case E::Bfloat16: for (size_t i = 0; i < n; ++i) f[i] = bfloat16_to_float(at<const uint16_t>(b)[i0 + i]); break;
    case E::Float8e4m3fn: case E::Float8e4m3fnuz: case E::Float8e5m2: case E::Float8e5m2fnuz: case E::Float8e8m0:
      for (size_t i = 0; i < n; ++i) f[i] = s.table[b[i0 + i]];
      break;
    case E::Float4e2m1:
      for (size_t i = 0; i < n; ++i) f[i] = s.table[packed_code(b, i0 + i, 4, false)];
      break;
    case E::Int8: ints(at<const int8_t>(b)); break;
    case E::Int16: ints(at<const int16_t>(b)); break;
    case E::Int32: ints(at<const int32_t>(b)); break;
    case E::Int64: ints(at<const int64_t>(b)); break;
    case E::Uint8: ints(b); break;
    case E::Bool: for (size_t i = 0; i < n; ++i) u[i] = b[i0 + i] != 0; break;
    case E::Uint16: ints(at<const uint16_t>(b)); break;
    case E::Uint32: ints(at<const uint32_t>(b)); break;
    case E::Uint64: for (size_t i = 0; i < n; ++i) u[i] = at<const uint64_t>(b)[i0 + i]; break;
    case E::Int4: case E::Uint4: case E::Int2: case E::Uint2: {
      const int bits = element_bits(s.type);
      const bool is_signed = s.type == E::Int4 || s.type == E::Int2;
      for (size_t i = 0; i < n; ++i) u[i] = static_cast<uint64_t>(static_cast<int64_t>(packed_code(b, i0 + i, bits, is_signed)));
      break;
    }
    case E::String:
      for (size_t i = 0; i < n; ++i) {
        const std::string& str = s.strings[i0 + i];
        const char* c = str.c_str();
        char* end = nullptr;
        errno = 0;
        if (d == Domain::Float)
          f[i] = std::strtod(c, &end);
        else if (d == Domain::Unsigned)
          u[i] = std::strtoull(c, &end, 10);
        else
          u[i] = static_cast<uint64_t>(std::strtoll(c, &end, 10));
        if (end == c) return parse_error(v, first + static_cast<int64_t>(i), str, target, false);
        if (d != Domain::Float && errno == ERANGE) return parse_error(v, first + static_cast<int64_t>(i), str, target, true);
      }
      break;
    default:
      break;
  }
  return Status::ok();
}

// The float that a decoded element gives the float16/bfloat16/float8 encoders.
inline float as_float(Domain d, double f, uint64_t u) {
  return d == Domain::Float ? static_cast<float>(f)
         : d == Domain::Signed ? static_cast<float>(static_cast<int64_t>(u))
                               : static_cast<float>(u);
}

// The integer bits of a decoded element for an integer target of `bits` bits (the low bits are kept).
inline uint64_t as_int(Domain d, E target, double f, uint64_t u) {
  if (d != Domain::Float) return u;
  switch (target) {
    case E::Uint32: case E::Int64: return static_cast<uint64_t>(trunc_i64(f));
    case E::Uint64: return trunc_u64(f);
    case E::Int4: case E::Uint4: case E::Int2: case E::Uint2: return static_cast<uint64_t>(trunc_i32(std::nearbyint(f)));
    default: return static_cast<uint64_t>(trunc_i32(f));
  }
}

// Encodes n decoded elements into elements [first, first + n) of the output.
void encode(const CastParams& p, Domain d, E to, const double* f, const uint64_t* u, int64_t first, size_t n, Tensor* out) {
  uint8_t* b = out->buffer->data();
  const size_t i0 = static_cast<size_t>(first);
  auto store_ints = [&](auto* dst) {
    using T = std::remove_pointer_t<decltype(dst)>;
    for (size_t i = 0; i < n; ++i) dst[i0 + i] = static_cast<T>(as_int(d, to, f[i], u[i]));
  };
  switch (to) {
    case E::Float: {
      float* dst = at<float>(b);
      for (size_t i = 0; i < n; ++i) dst[i0 + i] = as_float(d, f[i], u[i]);
      break;
    }
    case E::Double: {
      double* dst = at<double>(b);
      for (size_t i = 0; i < n; ++i)
        dst[i0 + i] = d == Domain::Float ? f[i] : d == Domain::Signed ? static_cast<double>(static_cast<int64_t>(u[i])) : static_cast<double>(u[i]);
      break;
    }
    case E::Float16: {
      uint16_t* dst = at<uint16_t>(b);
      for (size_t i = 0; i < n; ++i) dst[i0 + i] = float_to_half(as_float(d, f[i], u[i]));
      break;
    }
    case E::Bfloat16: {
      uint16_t* dst = at<uint16_t>(b);
      for (size_t i = 0; i < n; ++i) dst[i0 + i] = float_to_bfloat16(as_float(d, f[i], u[i]));
      break;
    }
    case E::Float8e4m3fn: case E::Float8e4m3fnuz: case E::Float8e5m2: case E::Float8e5m2fnuz: {
      const MiniFloat k = minifloat_of(to);
      for (size_t i = 0; i < n; ++i) b[i0 + i] = float_to_minifloat(as_float(d, f[i], u[i]), k, p.saturate);
      break;
    }
    case E::Float8e8m0:
      for (size_t i = 0; i < n; ++i) b[i0 + i] = float_to_e8m0(as_float(d, f[i], u[i]), p.saturate, p.round);
      break;
    case E::Float4e2m1:
      for (size_t i = 0; i < n; ++i) {
        const size_t k = i0 + i;
        b[k / 2] = static_cast<uint8_t>(b[k / 2] | float_to_minifloat(as_float(d, f[i], u[i]), MiniFloat::E2M1, true) << (k % 2 * 4));
      }
      break;
    case E::Int4: case E::Uint4: case E::Int2: case E::Uint2: {
      const unsigned bits = static_cast<unsigned>(element_bits(to)), per_byte = 8 / bits, mask = (1u << bits) - 1;
      for (size_t i = 0; i < n; ++i) {
        const size_t k = i0 + i;
        const unsigned code = static_cast<unsigned>(as_int(d, to, f[i], u[i])) & mask;
        b[k / per_byte] = static_cast<uint8_t>(b[k / per_byte] | code << (k % per_byte * bits));
      }
      break;
    }
    case E::Bool:
      for (size_t i = 0; i < n; ++i) b[i0 + i] = d == Domain::Float ? f[i] != 0 : u[i] != 0;
      break;
    case E::Int8: store_ints(at<int8_t>(b)); break;
    case E::Uint8: store_ints(b); break;
    case E::Int16: store_ints(at<int16_t>(b)); break;
    case E::Uint16: store_ints(at<uint16_t>(b)); break;
    case E::Int32: store_ints(at<int32_t>(b)); break;
    case E::Uint32: store_ints(at<uint32_t>(b)); break;
    case E::Int64: store_ints(at<int64_t>(b)); break;
    case E::Uint64: store_ints(at<uint64_t>(b)); break;
    case E::String: {
      std::string* dst = out->buffer->strings();
      for (size_t i = 0; i < n; ++i)
        dst[i0 + i] = d == Domain::Float ? float_string(f[i])
                      : d == Domain::Signed ? std::to_string(static_cast<int64_t>(u[i]))
                                            : std::to_string(u[i]);
      break;
    }
    default:
      break;
  }
}

// The conversions with a loop of their own (the same results as the two paths, faster): halves
// and bfloat16s to and from float (kernels/convert.h, kernels/dequantize.h), and the integer
// and float widenings torch exports make of shapes.
bool fast_path(E from, E to, const uint8_t* in, uint8_t* out, size_t n) {
  if (from == E::Float16 && to == E::Float) {
    convert_kernels_best().half_to_float(n, at<const uint16_t>(in), at<float>(out));
  } else if (from == E::Float && to == E::Float16) {
    dequantize_kernels_best().to_half(n, at<const float>(in), at<uint16_t>(out));
  } else if (from == E::Float && to == E::Bfloat16) {
    dequantize_kernels_best().to_bfloat16(n, at<const float>(in), at<uint16_t>(out));
  } else if (from == E::Bfloat16 && to == E::Float) {
    const uint16_t* s = at<const uint16_t>(in);
    float* d = at<float>(out);
    for (size_t i = 0; i < n; ++i) d[i] = bfloat16_to_float(s[i]);
  } else if (from == E::Int32 && to == E::Int64) {
    const int32_t* s = at<const int32_t>(in);
    int64_t* d = at<int64_t>(out);
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  } else if (from == E::Int64 && to == E::Int32) {
    const int64_t* s = at<const int64_t>(in);
    int32_t* d = at<int32_t>(out);
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<int32_t>(static_cast<uint32_t>(s[i]));
  } else if (from == E::Int64 && to == E::Float) {
    const int64_t* s = at<const int64_t>(in);
    float* d = at<float>(out);
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
  } else if (from == E::Float && to == E::Double) {
    const float* s = at<const float>(in);
    double* d = at<double>(out);
    for (size_t i = 0; i < n; ++i) d[i] = s[i];
  } else if (from == E::Double && to == E::Float) {
    const double* s = at<const double>(in);
    float* d = at<float>(out);
    for (size_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
  } else {
    return false;
  }
  return true;
}

Status cast_tensor(const OpVersion& v, const CastParams& p, const Tensor& in, E to, const ValueInfo& inferred,
                   std::vector<Tensor>* out) {
  Tensor t;
  if (in.type == to) {  // the same type: the input's buffer, as a view
    t.type = to;
    t.buffer = in.buffer;
    t.dims = in.dims;
    out->push_back(std::move(t));
    return Status::ok();
  }
  std::vector<int64_t> dims;
  dims.reserve(inferred.dims.size());
  for (const Dim& dim : inferred.dims) dims.push_back(dim.value);
  const bool packed = element_bits(to) < 8 && to != E::String;  // sub-byte codes are ORed into zeroed bytes
  ONNXWASM_RETURN_IF_ERROR(make_tensor(to, std::move(dims), &t, packed));
  const int64_t count = t.element_count();
  if (count > 0 && !fast_path(in.type, to, in.is_string() ? nullptr : in.buffer->data(), to == E::String ? nullptr : t.buffer->data(),
                              static_cast<size_t>(count))) {
    auto source = std::make_unique<Source>();
    source->type = in.type;
    source->bytes = in.is_string() ? nullptr : in.buffer->data();
    source->strings = in.is_string() ? in.buffer->strings() : nullptr;
    const bool small_float = in.type == E::Float8e4m3fn || in.type == E::Float8e4m3fnuz || in.type == E::Float8e5m2 ||
                             in.type == E::Float8e5m2fnuz || in.type == E::Float4e2m1;
    if (small_float || in.type == E::Float8e8m0)
      for (unsigned c = 0; c < 256; ++c)
        source->table[c] = small_float ? minifloat_to_float(static_cast<uint8_t>(c), minifloat_of(in.type))
                                       : e8m0_to_float(static_cast<uint8_t>(c));
    const Domain d = domain_of(in.type, to);
    double f[kChunk] = {};  // (the encoders read both arrays' element; one is meaningful)
    uint64_t u[kChunk] = {};
    for (int64_t first = 0; first < count; first += static_cast<int64_t>(kChunk)) {
      const size_t n = static_cast<size_t>(std::min<int64_t>(count - first, static_cast<int64_t>(kChunk)));
      ONNXWASM_RETURN_IF_ERROR(decode(v, *source, d, to, first, n, f, u));
      encode(p, d, to, f, u, first, n, &t);
    }
  }
  out->push_back(std::move(t));
  return Status::ok();
}

// The output of a cast to `to`: the input's shape, and the values inference knows when both are
// integer types that carry them (int64 and int32).
void infer_cast_to(const ValueInfo& in, E to, std::vector<ValueInfo>* out) {
  ValueInfo result;
  result.type = to;
  result.rank_known = in.rank_known;
  result.dims = in.dims;
  if (in.int_values && (in.type == E::Int64 || in.type == E::Int32) && (to == E::Int64 || to == E::Int32)) {
    std::vector<int64_t> values = *in.int_values;
    if (to == E::Int32)
      for (int64_t& x : values) x = static_cast<int32_t>(static_cast<uint32_t>(x));
    result.int_values = std::move(values);
  }
  out->push_back(std::move(result));
}

// The element type a Cast-1 `to` names: a TensorProto.DataType name ("FLOAT", "INT64"), in any case.
E type_named(const std::string& name) {
  for (int id = 1; id <= kMaxElementTypeId; ++id) {
    const ElementTypeInfo* info = element_type_info(id);
    if (!info) continue;
    const char* a = info->onnx_name;
    size_t i = 0;
    for (; i < name.size() && a[i]; ++i)
      if (a[i] != (name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i])) break;
    if (!a[i] && i == name.size()) return info->type;
  }
  return E::Undefined;
}

ONNXWASM_COLD Status to_error(const OpVersion& v, const std::string& given) {
  return Status(StatusCode::Attribute, v.label() + ": attribute 'to' is " + given + ", which " + v.label() +
                                           " does not allow; T2 must be one of " + v.inputs[0].types.describe());
}

Status parse_common(const OpVersion& v, const Attributes& attrs, CastParams* p) {
  const int64_t saturate = attrs.get_int("saturate", 1);
  if (saturate != 0 && saturate != 1)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute 'saturate' is " + std::to_string(saturate) +
                                                     "; it must be 0 or 1");
  p->saturate = saturate == 1;
  if (const Attribute* a = attrs.find("round_mode")) {
    const std::string m = a->strings.empty() ? std::string() : a->strings[0];
    if (m == "up") p->round = E8m0Round::Up;
    else if (m == "down") p->round = E8m0Round::Down;
    else if (m == "nearest") p->round = E8m0Round::Nearest;
    else
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute 'round_mode' is '" + m +
                                                       "'; it must be 'up', 'down' or 'nearest'");
  }
  return Status::ok();
}

}  // namespace

Status parse_cast(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<CastParams>();
  const Attribute* to = attrs.find("to");
  if (to->kind == AttrKind::String) {  // Cast-1
    const std::string name = to->strings.empty() ? std::string() : to->strings[0];
    p->to = type_named(name);
    if (p->to == E::Undefined || !v.inputs[0].types.contains(p->to)) return to_error(v, "'" + name + "'");
  } else {
    const int64_t id = to->ints.empty() ? 0 : to->ints[0];
    p->to = id >= 1 && id <= kMaxElementTypeId && element_type_info(static_cast<int32_t>(id)) ? static_cast<E>(id) : E::Undefined;
    if (p->to == E::Undefined || !v.inputs[0].types.contains(p->to))
      return to_error(v, std::to_string(id) + (p->to == E::Undefined ? std::string(" (no element type)")
                                                                     : std::string(" (") + onnx_name(p->to) + ")"));
  }
  ONNXWASM_RETURN_IF_ERROR(parse_common(v, attrs, p.get()));
  *out = std::move(p);
  return Status::ok();
}

Status parse_cast_like(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<CastParams>();
  ONNXWASM_RETURN_IF_ERROR(parse_common(v, attrs, p.get()));
  *out = std::move(p);
  return Status::ok();
}

Status infer_cast(const OpVersion&, const OpParams& p, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  infer_cast_to(in[0], static_cast<const CastParams&>(p).to, out);
  return Status::ok();
}

Status infer_cast_like(const OpVersion&, const OpParams&, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  infer_cast_to(in[0], in[1].type, out);
  return Status::ok();
}

Status run_cast(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const CastParams& cp = static_cast<const CastParams&>(p);
  return cast_tensor(v, cp, *in[0], cp.to, inferred[0], out);
}

Status run_cast_like(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                     const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  return cast_tensor(v, static_cast<const CastParams&>(p), *in[0], in[1]->type, inferred[0], out);
}

}  // namespace onnxwasm
