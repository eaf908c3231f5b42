// Add, Sub, Mul, Div: https://onnx.ai/onnx/operators/onnx__Add.html (and onnx__Sub, onnx__Mul,
// onnx__Div), versions 1, 6, 7, 13 and 14. A op B elementwise, one type T, output T.
// - 1 and 6: no implicit broadcasting; with broadcast=1, B is one element, or B's shape is a
//   contiguous run of A's dims starting at `axis` (a suffix when axis is not set); the output has
//   A's shape. The spec says a dim of 1 in B does not expand ("1-dim expansion doesn't work
//   yet"), but PyTorch's exports at opset 6 rely on it (ONNX's test_operator_add_size1_broadcast:
//   A [2, 3], B [2, 1], axis 0), so B's dims may each equal A's or be 1. 1 also takes
//   consumed_inputs (a legacy hint, ignored).
// - 7 and later: numpy multidirectional broadcasting.
// Integers wrap (computed in unsigned); integer Div truncates toward zero. An integer Div by zero
// is an InvalidArgumentError naming the element (onnxruntime's CPU kernel returns an error too:
// "Integer division by zero"). So is INT_MIN / -1 in int32 and int64, where C++ and wasm's div
// trap (onnxruntime-node 1.30's process dies of SIGFPE there, measured); int8 and int16 compute
// in int, as onnxruntime does, so -128 / -1 wraps to -128. Floats follow IEEE (x / 0 is inf or
// nan); float16 and bfloat16 are computed in float and rounded to nearest even.
// Small int64 tensors of known values (Shape -> Gather -> Mul -> Concat -> Reshape) give the
// output's values to shape inference.
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "../checked_mul.h"
#include "../kernels/binary.h"
#include "../kernels/float16.h"
#include "ops.h"

namespace onnxwasm {
namespace {

struct ArithParams : OpParams {
  int op = kBinaryAdd;
  bool broadcast = false;   // versions 1 and 6
  bool axis_set = false;
  int64_t axis = 0;
};

const ArithParams& arith(const OpParams& p) { return static_cast<const ArithParams&>(p); }

constexpr size_t kOk = SIZE_MAX;
// Values are propagated for outputs this small (a shape's pieces; JS gives inference the values of
// int64 constants of up to 64 elements).
constexpr int64_t kMaxValues = 64;

ONNXWASM_COLD Status legacy_mismatch(const OpVersion& v, const ValueInfo& a, const ValueInfo& b, const std::string& why) {
  return Status(StatusCode::Shape, v.label() + ": input 0 ('A') has shape " + a.shape_string() + " and input 1 ('B') " +
                                       b.shape_string() + "; " + why);
}

// Versions 1 and 6: where B's dims sit in A's (*axis), or *all_ones when B is one element.
Status legacy_place(const OpVersion& v, const ArithParams& p, const ValueInfo& a, const ValueInfo& b, size_t* axis,
                    bool* all_ones) {
  const size_t ra = a.dims.size(), rb = b.dims.size();
  *all_ones = false;
  *axis = 0;
  if (!p.broadcast) {
    if (ra != rb) return legacy_mismatch(v, a, b, "without broadcast=1 they must have the same shape");
    for (size_t d = 0; d < ra; ++d)
      if (a.dims[d].is_known() && b.dims[d].is_known() && a.dims[d].value != b.dims[d].value)
        return legacy_mismatch(v, a, b, "without broadcast=1 they must have the same shape");
    return Status::ok();
  }
  bool ones = rb <= ra;
  for (const Dim& d : b.dims) ones = ones && d.is_known() && d.value == 1;
  if (ones) {
    *all_ones = true;
    return Status::ok();
  }
  if (rb > ra) return legacy_mismatch(v, a, b, "with broadcast=1, B's rank must not exceed A's");
  const int64_t most = static_cast<int64_t>(ra - rb);
  const int64_t at = p.axis_set ? p.axis : most;
  if (at < 0 || at > most)
    return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute 'axis' is " + std::to_string(at) +
                                                     "; B's dims start there in A's, so it must be in [0, " +
                                                     std::to_string(most) + "] (A " + a.shape_string() + ", B " +
                                                     b.shape_string() + ")");
  for (size_t d = 0; d < rb; ++d) {
    const Dim& x = a.dims[static_cast<size_t>(at) + d];
    if (x.is_known() && b.dims[d].is_known() && x.value != b.dims[d].value && b.dims[d].value != 1)
      return legacy_mismatch(v, a, b, "with broadcast=1 and axis " + std::to_string(at) +
                                          ", each of B's dims must equal A's from there or be 1");
  }
  *axis = static_cast<size_t>(at);
  return Status::ok();
}

// B's dims as numpy broadcasting reads them: padded with 1s to A's rank around where they sit.
std::vector<int64_t> legacy_b_dims(size_t rank_a, const std::vector<int64_t>& b, size_t axis, bool all_ones) {
  std::vector<int64_t> d(rank_a, 1);
  if (!all_ones)
    for (size_t i = 0; i < b.size(); ++i) d[axis + i] = b[i];
  return d;
}

ONNXWASM_COLD Status broadcast_error(const OpVersion& v, const ValueInfo& a, const ValueInfo& b, size_t d, int64_t x,
                                     int64_t y) {
  return Status(StatusCode::Shape, v.label() + ": input 0 ('A') has shape " + a.shape_string() + " and input 1 ('B') " +
                                       b.shape_string() + "; they do not broadcast: output dimension " +
                                       std::to_string(d) + " would take " + std::to_string(x) + " and " +
                                       std::to_string(y) + " (aligned from the last dim, each pair must be equal or one of them 1)");
}

Dim dim_at(const ValueInfo& v, size_t rank, size_t d) {
  const size_t pad = rank - v.dims.size();
  return d < pad ? Dim::known(1) : v.dims[d - pad];
}

// Wrapping int64 arithmetic of known values; false for a Div that has no value (by zero, or
// INT64_MIN / -1): run reports it.
bool int64_apply(int op, int64_t x, int64_t y, int64_t* out) {
  const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
    case kBinaryAdd: *out = static_cast<int64_t>(ux + uy); return true;
    case kBinarySub: *out = static_cast<int64_t>(ux - uy); return true;
    case kBinaryMul: *out = static_cast<int64_t>(ux * uy); return true;
    default:
      if (y == 0 || (y == -1 && x == INT64_MIN)) return false;
      *out = x / y;
      return true;
  }
}

// The output's values from both inputs' (int64 with known values and dims); b_dims as numpy
// broadcasting reads them.
void propagate_values(int op, const ValueInfo& a, const std::vector<int64_t>& b_dims, const std::vector<int64_t>& b_values,
                      ValueInfo* out) {
  const size_t rank = out->dims.size();
  std::vector<int64_t> od(rank), ad(rank, 1), bd(rank, 1);
  for (size_t d = 0; d < rank; ++d) od[d] = out->dims[d].value;
  for (size_t d = 0; d < a.dims.size(); ++d) ad[rank - a.dims.size() + d] = a.dims[d].value;
  for (size_t d = 0; d < b_dims.size(); ++d) bd[rank - b_dims.size() + d] = b_dims[d];
  DimProduct product;   // (dims of another input may be huge beside a 0: no overflow there)
  for (int64_t d : od) product.mul(d);
  if (product.overflows() || product.value() > kMaxValues) return;
  const int64_t count = product.value();
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    int64_t rest = i, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t d = rank; d-- > 0;) {
      const int64_t k = rest % od[d];
      rest /= od[d];
      if (ad[d] != 1) ia += k * sa;
      if (bd[d] != 1) ib += k * sb;
      sa *= ad[d];
      sb *= bd[d];
    }
    if (!int64_apply(op, (*a.int_values)[static_cast<size_t>(ia)], b_values[static_cast<size_t>(ib)],
                     &values[static_cast<size_t>(i)]))
      return;
  }
  out->int_values = std::move(values);
}

bool has_values(const ValueInfo& x) {
  if (x.type != ElementType::Int64 || !x.int_values || !x.fully_known()) return false;
  DimProduct n;   // (dims of a fuzzed or hand-made ValueInfo may overflow int64)
  for (const Dim& d : x.dims) n.mul(d.value);
  return !n.overflows() && static_cast<size_t>(n.value()) == x.int_values->size();
}

// The collapsed iteration of a broadcast: dims of the output (outermost first) in which each
// input either walks or stays (stride 0), adjacent dims merged where both inputs do the same.
struct LoopDim {
  int64_t n;
  int64_t sa, sb;   // strides in elements
};

std::vector<LoopDim> plan_loops(const std::vector<int64_t>& out, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t rank = out.size();
  struct Raw {
    int64_t n;
    bool ka, kb;   // the input walks this dim
  };
  std::vector<Raw> raw;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t n = out[d];
    if (n == 1) continue;
    const bool ka = d + a.size() >= rank && a[d + a.size() - rank] != 1;
    const bool kb = d + b.size() >= rank && b[d + b.size() - rank] != 1;
    if (!raw.empty() && raw.back().ka == ka && raw.back().kb == kb) raw.back().n *= n;
    else raw.push_back({n, ka, kb});
  }
  std::vector<LoopDim> loops(raw.size());
  int64_t acc_a = 1, acc_b = 1;
  for (size_t i = raw.size(); i-- > 0;) {
    loops[i] = {raw[i].n, raw[i].ka ? acc_a : 0, raw[i].kb ? acc_b : 0};
    if (raw[i].ka) acc_a *= raw[i].n;
    if (raw[i].kb) acc_b *= raw[i].n;
  }
  // One element (every dim 1): both inputs walk it. Otherwise the innermost dim has a walking
  // input (a dim above 1 comes from one of them), so its strides are (1, 1), (1, 0) or (0, 1).
  if (loops.empty()) loops.push_back({1, 1, 1});
  return loops;
}

// The inner loop of one type and op: n elements, each input's stride 0 or 1. Returns kOk, or the
// position of the first element an integer Div cannot compute.
using InnerFn = size_t (*)(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out);

int kernel_form(size_t sa, size_t sb) { return sa && sb ? kTensorTensor : sa ? kTensorScalar : kScalarTensor; }

template <int kOp>
size_t f32_inner(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  binary_kernels_best().f32[kOp][kernel_form(sa, sb)](n, static_cast<const float*>(a), static_cast<const float*>(b),
                                                       static_cast<float*>(out));
  return kOk;
}

template <int kOp>
size_t f16_inner(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  binary_kernels_best().f16[kOp][kernel_form(sa, sb)](n, static_cast<const uint16_t*>(a), static_cast<const uint16_t*>(b),
                                                       static_cast<uint16_t*>(out));
  return kOk;
}

template <int kOp, typename T>
inline T real_apply(T x, T y) {
  if (kOp == kBinaryAdd) return x + y;
  if (kOp == kBinarySub) return x - y;
  if (kOp == kBinaryMul) return x * y;
  return x / y;
}

template <typename T, int kOp>
size_t real_inner(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  T* o = static_cast<T*>(out);
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < n; ++i) o[i] = real_apply<kOp>(x[i * sa], y[i * sb]);
  return kOk;
}

template <int kOp>
size_t bf16_inner(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  const uint16_t* x = static_cast<const uint16_t*>(a);
  const uint16_t* y = static_cast<const uint16_t*>(b);
  uint16_t* o = static_cast<uint16_t*>(out);
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < n; ++i)
    o[i] = float_to_bfloat16(real_apply<kOp>(bfloat16_to_float(x[i * sa]), bfloat16_to_float(y[i * sb])));
  return kOk;
}

// Add, Sub and Mul of integers of either sign: the same bits modulo 2^width, computed in an
// unsigned type of at least 32 bits (narrower ones would promote to int, where overflow is UB).
template <typename U, int kOp>
size_t wrap_inner(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  using W = std::conditional_t<(sizeof(U) < 4), uint32_t, U>;
  const U* x = static_cast<const U*>(a);
  const U* y = static_cast<const U*>(b);
  U* o = static_cast<U*>(out);
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < n; ++i) {
    const W p = x[i * sa], q = y[i * sb];
    o[i] = static_cast<U>(kOp == kBinaryAdd ? p + q : kOp == kBinarySub ? p - q : p * q);
  }
  return kOk;
}

template <typename T>
size_t div_inner(size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  const T* x = static_cast<const T*>(a);
  const T* y = static_cast<const T*>(b);
  T* o = static_cast<T*>(out);
  ONNXWASM_PLAIN_LOOP
  for (size_t i = 0; i < n; ++i) {
    const T p = x[i * sa], q = y[i * sb];
    if (q == 0) return i;
    // int8 and int16 divide as int (no overflow there; the cast back wraps -128 / -1 to -128).
    if (std::is_signed<T>::value && sizeof(T) >= 4 && q == static_cast<T>(-1) && p == std::numeric_limits<T>::min())
      return i;
    o[i] = static_cast<T>(p / q);
  }
  return kOk;
}

// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments name templates and types
#define ONNXWASM_OPS(fn) {fn<kBinaryAdd>, fn<kBinarySub>, fn<kBinaryMul>, fn<kBinaryDiv>}
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments name templates and types
#define ONNXWASM_OPS_T(fn, T) {fn<T, kBinaryAdd>, fn<T, kBinarySub>, fn<T, kBinaryMul>, fn<T, kBinaryDiv>}
// NOLINTNEXTLINE(bugprone-macro-parentheses): the arguments name templates and types
#define ONNXWASM_INT_OPS(U, D) {wrap_inner<U, kBinaryAdd>, wrap_inner<U, kBinarySub>, wrap_inner<U, kBinaryMul>, div_inner<D>}

InnerFn inner_fn(ElementType t, int op) {
  using E = ElementType;
  static constexpr InnerFn f32[] = ONNXWASM_OPS(f32_inner), f16[] = ONNXWASM_OPS(f16_inner),
                           bf16[] = ONNXWASM_OPS(bf16_inner), f64[] = ONNXWASM_OPS_T(real_inner, double),
                           i8[] = ONNXWASM_INT_OPS(uint8_t, int8_t), u8[] = ONNXWASM_INT_OPS(uint8_t, uint8_t),
                           i16[] = ONNXWASM_INT_OPS(uint16_t, int16_t), u16[] = ONNXWASM_INT_OPS(uint16_t, uint16_t),
                           i32[] = ONNXWASM_INT_OPS(uint32_t, int32_t), u32[] = ONNXWASM_INT_OPS(uint32_t, uint32_t),
                           i64[] = ONNXWASM_INT_OPS(uint64_t, int64_t), u64[] = ONNXWASM_INT_OPS(uint64_t, uint64_t);
  switch (t) {
    case E::Float: return f32[op];
    case E::Float16: return f16[op];
    case E::Bfloat16: return bf16[op];
    case E::Double: return f64[op];
    case E::Int8: return i8[op];
    case E::Uint8: return u8[op];
    case E::Int16: return i16[op];
    case E::Uint16: return u16[op];
    case E::Int32: return i32[op];
    case E::Uint32: return u32[op];
    case E::Int64: return i64[op];
    case E::Uint64: return u64[op];
    default: return nullptr;
  }
}
#undef ONNXWASM_OPS
#undef ONNXWASM_OPS_T
#undef ONNXWASM_INT_OPS

// An integer element as text, for the Div error: its bytes (little-endian), sign-extended for the
// signed types.
std::string element_text(ElementType t, const uint8_t* p) {
  using E = ElementType;
  const int bits = element_bits(t);
  uint64_t u = 0;
  std::memcpy(&u, p, static_cast<size_t>(bits / 8));
  if (t == E::Int8 || t == E::Int16 || t == E::Int32 || t == E::Int64) {
    const int64_t s = bits == 64 ? static_cast<int64_t>(u) : static_cast<int64_t>(u << (64 - bits)) >> (64 - bits);
    return std::to_string(s);
  }
  return std::to_string(u);
}

ONNXWASM_COLD Status div_error(const OpVersion& v, const Tensor& a, int64_t ia, const Tensor& b, int64_t ib) {
  const size_t w = static_cast<size_t>(element_bits(a.type) / 8);
  const std::string y = element_text(b.type, b.buffer->data() + static_cast<size_t>(ib) * w);
  const std::string type = std::string("tensor(") + onnx_name(a.type) + ")";
  if (y == "0")
    return Status(StatusCode::InvalidArgument, v.label() + ": input 1 ('B') element " + std::to_string(ib) +
                                                   " is 0: integer division by zero (" + type + ")");
  const std::string x = element_text(a.type, a.buffer->data() + static_cast<size_t>(ia) * w);
  return Status(StatusCode::InvalidArgument, v.label() + ": input 0 ('A') element " + std::to_string(ia) + " is " + x +
                                                 " and input 1 ('B') element " + std::to_string(ib) +
                                                 " is -1: the quotient, " + x.substr(1) + ", does not fit " + type);
}

// out = a op b over the output's dims, each input read through its (broadcast) dims.
Status compute(const OpVersion& v, int op, const Tensor& a, const std::vector<int64_t>& a_dims, const Tensor& b,
               const std::vector<int64_t>& b_dims, Tensor* result) {
  const InnerFn inner = inner_fn(a.type, op);
  if (!inner)
    return ONNXWASM_ERROR(StatusCode::Type, v.label() + ": no kernel for tensor(" + onnx_name(a.type) + ")");
  const std::vector<LoopDim> loops = plan_loops(result->dims, a_dims, b_dims);
  const size_t w = static_cast<size_t>(element_bits(a.type) / 8);
  const LoopDim& in = loops.back();
  const size_t outer_rank = loops.size() - 1;
  int64_t outer = 1;
  for (size_t k = 0; k < outer_rank; ++k) outer *= loops[k].n;
  std::vector<int64_t> idx(outer_rank, 0);
  const uint8_t* pa = a.buffer->data();
  const uint8_t* pb = b.buffer->data();
  uint8_t* po = result->buffer->data();
  int64_t oa = 0, ob = 0, oo = 0;
  for (int64_t t = 0; t < outer; ++t) {
    const size_t bad = inner(static_cast<size_t>(in.n), pa + static_cast<size_t>(oa) * w, static_cast<size_t>(in.sa),
                             pb + static_cast<size_t>(ob) * w, static_cast<size_t>(in.sb), po + static_cast<size_t>(oo) * w);
    if (bad != kOk)
      return div_error(v, a, oa + static_cast<int64_t>(bad) * in.sa, b, ob + static_cast<int64_t>(bad) * in.sb);
    oo += in.n;
    for (size_t k = outer_rank; k-- > 0;) {   // the odometer
      oa += loops[k].sa;
      ob += loops[k].sb;
      if (++idx[k] < loops[k].n) break;
      oa -= loops[k].sa * loops[k].n;
      ob -= loops[k].sb * loops[k].n;
      idx[k] = 0;
    }
  }
  return Status::ok();
}

}  // namespace

void arith_mul(ElementType t, size_t n, const void* a, size_t sa, const void* b, size_t sb, void* out) {
  inner_fn(t, kBinaryMul)(n, a, sa, b, sb, out);
}

Status parse_arith(const OpVersion& v, const Attributes& attrs, std::unique_ptr<OpParams>* out) {
  auto p = std::make_unique<ArithParams>();
  const std::string op = v.op;
  p->op = op == "Add" ? kBinaryAdd : op == "Sub" ? kBinarySub : op == "Mul" ? kBinaryMul : kBinaryDiv;
  if (v.since < 7) {
    const int64_t broadcast = attrs.get_int("broadcast", 0);
    if (broadcast != 0 && broadcast != 1)
      return ONNXWASM_ERROR(StatusCode::Attribute, v.label() + ": attribute 'broadcast' is " + std::to_string(broadcast) +
                                                       "; it must be 0 or 1");
    p->broadcast = broadcast == 1;
    p->axis_set = attrs.find("axis") != nullptr;
    p->axis = attrs.get_int("axis", 0);
  }
  *out = std::move(p);
  return Status::ok();
}

Status infer_arith_1(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  const ValueInfo& a = in[0];
  const ValueInfo& b = in[1];
  ValueInfo result;
  result.type = a.type;
  result.rank_known = a.rank_known;
  result.dims = a.dims;
  if (a.rank_known && b.rank_known) {
    size_t axis = 0;
    bool all_ones = false;
    ONNXWASM_RETURN_IF_ERROR(legacy_place(v, arith(p), a, b, &axis, &all_ones));
    if (has_values(a) && has_values(b)) {
      std::vector<int64_t> bd;
      for (const Dim& d : b.dims) bd.push_back(d.value);
      propagate_values(arith(p).op, a, legacy_b_dims(a.dims.size(), bd, axis, all_ones), *b.int_values, &result);
    }
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status infer_arith_7(const OpVersion& v, const OpParams& p, const std::vector<ValueInfo>& in, std::vector<ValueInfo>* out) {
  const ValueInfo& a = in[0];
  const ValueInfo& b = in[1];
  ValueInfo result;
  result.type = a.type;
  if (!a.rank_known || !b.rank_known) {
    result.rank_known = false;
    out->push_back(std::move(result));
    return Status::ok();
  }
  const size_t rank = std::max(a.dims.size(), b.dims.size());
  for (size_t d = 0; d < rank; ++d) {
    const Dim x = dim_at(a, rank, d), y = dim_at(b, rank, d);
    if (x.is_known() && y.is_known()) {
      if (x.value != y.value && x.value != 1 && y.value != 1) return broadcast_error(v, a, b, d, x.value, y.value);
      result.dims.push_back(x.value == 1 ? y : x);
    } else if (x.is_known()) {
      // A known dim other than 1 is the output's (the other must be 1 or equal to it).
      result.dims.push_back(x.value == 1 ? y : x);
    } else if (y.is_known()) {
      result.dims.push_back(y.value == 1 ? x : y);
    } else {
      result.dims.push_back(x == y ? x : Dim::unknown());
    }
  }
  if (has_values(a) && has_values(b)) {
    std::vector<int64_t> bd;
    for (const Dim& d : b.dims) bd.push_back(d.value);
    propagate_values(arith(p).op, a, bd, *b.int_values, &result);
  }
  out->push_back(std::move(result));
  return Status::ok();
}

Status run_arith(const OpVersion& v, const OpParams& p, const std::vector<const Tensor*>& in,
                 const std::vector<ValueInfo>& inferred, std::vector<Tensor>* out) {
  const Tensor& a = *in[0];
  const Tensor& b = *in[1];
  std::vector<int64_t> out_dims;
  for (const Dim& d : inferred[0].dims) out_dims.push_back(d.value);
  std::vector<int64_t> b_dims = b.dims;
  if (v.since < 7) {
    // Inference (which runs before every run with new shapes) checked the placement: read it again.
    const ArithParams& q = arith(p);
    bool ones = b.dims.size() <= a.dims.size();
    for (const int64_t d : b.dims) ones = ones && d == 1;
    const size_t axis = q.axis_set ? static_cast<size_t>(q.axis) : a.dims.size() - b.dims.size();
    if (q.broadcast) b_dims = legacy_b_dims(a.dims.size(), b.dims, axis, ones);
  }
  Tensor result;
  ONNXWASM_RETURN_IF_ERROR(make_tensor(a.type, out_dims, &result, /*zeroed=*/false));
  if (result.element_count() > 0) ONNXWASM_RETURN_IF_ERROR(compute(v, arith(p).op, a, a.dims, b, b_dims, &result));
  out->push_back(std::move(result));
  return Status::ok();
}

}  // namespace onnxwasm
