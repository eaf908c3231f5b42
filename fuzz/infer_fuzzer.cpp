// libFuzzer target: shape inference (infer_node) of Gather, Flatten and Reshape half the time,
// else of any op version of the registry (in its domain, mostly at an opset of its range, with the
// inputs whose values inference reads given values more often) or any op name; opset 0..30 (and
// any int), attributes of every kind with huge and negative values, input types including invalid ids,
// dims known (huge, negative, products that overflow), symbolic or unknown, unknown ranks, and
// constant shape values. Checks, besides the sanitizers:
// - an error leaves the outputs empty and has a code and a message;
// - a success names an op version of the registry and valid input types, and gives one output
//   with dims >= 0 whose element count fits int64, using only symbols that the inputs have;
//   the same question again gives the same answer;
// - for Gather, Flatten and Reshape, whose rules this target was written for: the output has the
//   data's type and the rank each op's rule demands, and inference is monotone: knowing less
//   never turns a success into an error, and what it still infers agrees with the more specific
//   answer (nonzero dims made unknown or renamed to fresh symbols, ranks made unknown, constant
//   values dropped). The other ops get the checks above; their rules are their Catch2 tables'.
#include <algorithm>
#include <set>

#include "fuzz_common.h"
#include "src/runtime.h"

using namespace onnxwasm;
using fuzz::interesting_int64;

namespace {

constexpr const char* kFresh = "__fresh";

Dim fuzz_dim(FuzzedDataProvider& in) {
  static const char* const kSymbols[] = {"N", "batch", "M", "", "N"};
  switch (in.ConsumeIntegralInRange<int>(0, 9)) {
    case 9: return Dim::named(in.PickValueInArray(kSymbols));
    case 8: return Dim::unknown();
    case 7: case 6: return Dim::known(interesting_int64(in));
    // Now and then 2^20 + 1: just beyond the limit on Reshape's output rank when only the shape's
    // length is known (at the limit itself, 2^20 unknown dims are too slow to build and compare).
    case 5: return Dim::known(fuzz::one_in(in, 32) ? (1 << 20) + 1 : in.ConsumeIntegralInRange<int64_t>(0, 300));
    default: return Dim::known(in.ConsumeIntegralInRange<int64_t>(0, 6));
  }
}

ValueInfo fuzz_value_info(FuzzedDataProvider& in, bool shape_like) {
  ValueInfo v;
  v.type = shape_like && in.ConsumeBool() ? ElementType::Int64 : fuzz::element_type(in);
  v.rank_known = !fuzz::one_in(in, 8);
  if (v.rank_known) {
    const int rank = shape_like && in.ConsumeBool() ? 1
                     : fuzz::one_in(in, 16) ? in.ConsumeIntegralInRange<int>(0, 40)
                                                                   : in.ConsumeIntegralInRange<int>(0, 5);
    for (int i = 0; i < rank; ++i) v.dims.push_back(fuzz_dim(in));
    // A shape input of length L in (4096, 2^20] and no values gives L unknown output dims: slow
    // to build and compare (a few such inputs would halve the executions), so it is shortened.
    // L beyond 2^20 is refused, which is cheap.
    if (shape_like && rank == 1 && v.dims[0].is_known() && v.dims[0].value > 4096 && v.dims[0].value <= (1 << 20))
      v.dims[0].value %= 4096;
  }
  if (fuzz::one_in(in, 4) || (shape_like && in.ConsumeBool())) {
    std::vector<int64_t> values;
    const int n = v.rank_known && v.dims.size() == 1 && v.dims[0].is_known() && v.dims[0].value >= 0 && v.dims[0].value <= 16 && in.ConsumeBool()
                      ? static_cast<int>(v.dims[0].value)
                      : in.ConsumeIntegralInRange<int>(0, 8);
    for (int i = 0; i < n; ++i)
      values.push_back(in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-2, 8) : interesting_int64(in));
    v.int_values = std::move(values);
  }
  return v;
}

// True when `specific` is an instance of `general`: same rank if general knows it, equal known
// dims and symbols where general has them (fresh symbols stand for any dim).
bool instance_of(const ValueInfo& general, const ValueInfo& specific, std::string* why) {
  if (general.type != specific.type) return *why = "types differ", false;
  if (!general.rank_known) return true;
  if (!specific.rank_known) return *why = "the general answer knows the rank, the specific does not", false;
  if (general.dims.size() != specific.dims.size()) return *why = "ranks differ", false;
  for (size_t i = 0; i < general.dims.size(); ++i) {
    const Dim& g = general.dims[i];
    const Dim& s = specific.dims[i];
    if (g.kind == Dim::Kind::Unknown) continue;
    if (g.kind == Dim::Kind::Symbol && g.symbol.rfind(kFresh, 0) == 0) continue;
    if (!(g == s)) return *why = "dim " + std::to_string(i) + " is " + g.to_string() + " vs " + s.to_string(), false;
  }
  return true;
}

// The node asked about: domain, op, opset, and the version picked from the registry (null for an
// op named by fuzz::op_name).
struct Pick {
  std::string domain, op;
  int opset;
  const OpVersion* version;
};

Pick pick_op(FuzzedDataProvider& in) {
  if (in.ConsumeBool()) return {"", fuzz::op_name(in), fuzz::opset(in), nullptr};
  const Span<OpVersion> all = op_versions();
  const OpVersion& v = all[in.ConsumeIntegralInRange<size_t>(0, all.size() - 1)];
  const int last = std::min(v.until, v.since + 8);
  return {v.domain, v.op, fuzz::one_in(in, 4) ? fuzz::opset(in) : in.ConsumeIntegralInRange<int>(v.since, last), &v};
}

std::string describe(const Pick& p, const std::vector<ValueInfo>& inputs) {
  std::string s = (p.domain.empty() ? "" : p.domain + ".") + p.op + "@" + std::to_string(p.opset) + " inputs:";
  for (const ValueInfo& v : inputs) {
    s += " " + std::to_string(static_cast<int>(v.type)) + v.shape_string();
    if (v.int_values) s += "=" + fuzz::dims_string(*v.int_values);
  }
  return s;
}

bool classic(const std::string& op) { return op == "Gather" || op == "Flatten" || op == "Reshape"; }

void check_success(const Pick& p, const Attributes& attrs, const std::vector<ValueInfo>& inputs,
                   const std::vector<ValueInfo>& outputs) {
  const std::string& op = p.op;
  const std::string ctx = describe(p, inputs);
  const OpVersion* version = nullptr;
  FUZZ_CHECK(resolve_op(p.domain, op, p.opset, &version).is_ok(), ctx);
  FUZZ_CHECK(!p.domain.empty() || (p.opset >= kMinOpset && p.opset <= kMaxOpset), ctx);
  for (const ValueInfo& v : inputs) FUZZ_CHECK(v.type == ElementType::Undefined || fuzz::is_valid_type(v.type), ctx);
  FUZZ_CHECK(outputs.size() == 1, ctx);
  const ValueInfo& out = outputs[0];
  if (p.domain.empty() && classic(op)) {
    for (const Attribute& a : attrs.list())
      FUZZ_CHECK(a.name == "axis" || a.name == "allowzero" || a.name == "shape" || a.name == "consumed_inputs", ctx);
    FUZZ_CHECK(out.type == inputs[0].type, ctx);
  }
  std::set<std::string> symbols;
  for (const ValueInfo& v : inputs)
    for (const Dim& d : v.dims)
      if (d.kind == Dim::Kind::Symbol) symbols.insert(d.symbol);
  if (out.rank_known) {
    for (const Dim& d : out.dims) {
      FUZZ_CHECK(!d.is_known() || d.value >= 0, ctx + " -> " + out.shape_string());
      FUZZ_CHECK(d.kind != Dim::Kind::Symbol || symbols.count(d.symbol), ctx + " -> " + out.shape_string());
    }
    if (out.fully_known()) {  // a tensor of these dims can exist (a zero dim wins over overflow)
      std::vector<int64_t> dims;
      for (const Dim& d : out.dims) dims.push_back(d.value);
      int64_t count = 0;
      FUZZ_CHECK(fuzz::zero_first_product(dims, &count), ctx + " -> " + out.shape_string());
    }
  }
  if (!p.domain.empty()) return;   // (the rules below are the default domain's)
  const int opset = p.opset;
  if (op == "Flatten") FUZZ_CHECK(out.rank_known && out.dims.size() == 2, ctx + " -> " + out.shape_string());
  if (op == "Gather") {
    const bool known = inputs[0].rank_known && inputs[1].rank_known;
    FUZZ_CHECK(out.rank_known == known, ctx + " -> " + out.shape_string());
    if (known) FUZZ_CHECK(out.dims.size() == inputs[0].dims.size() + inputs[1].dims.size() - 1, ctx + " -> " + out.shape_string());
  }
  if (op == "Reshape" && opset >= 5 && inputs[1].int_values)
    FUZZ_CHECK(out.rank_known && out.dims.size() == inputs[1].int_values->size(), ctx + " -> " + out.shape_string());
  if (op == "Reshape" && opset < 5)
    FUZZ_CHECK(out.rank_known && out.dims.size() == attrs.find("shape")->ints.size(), ctx + " -> " + out.shape_string());
}

// A less specific copy of the inputs: some known dims unknown or fresh symbols, some ranks unknown,
// some constant values dropped.
std::vector<ValueInfo> generalize(FuzzedDataProvider& in, std::vector<ValueInfo> inputs) {
  int fresh = 0;
  for (ValueInfo& v : inputs) {
    if (v.rank_known && fuzz::one_in(in, 6)) {
      v.rank_known = false;
      v.dims.clear();
    }
    for (Dim& d : v.dims) {
      // Zero dims stay known: the rules read an unknown dim as a size that may be large, not as
      // a possible 0 (a 0 hidden behind a symbol may legitimately turn "empty" into "overflows").
      if (!d.is_known() || d.value == 0) continue;
      switch (in.ConsumeIntegralInRange<int>(0, 3)) {
        case 0: d = Dim::unknown(); break;
        case 1: d = Dim::named(kFresh + std::to_string(fresh++)); break;
        default: break;
      }
    }
    if (v.int_values && fuzz::one_in(in, 4)) v.int_values.reset();
  }
  return inputs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const Pick p = pick_op(in);
  const std::string& op = p.op;
  // Inputs: as many as the version has (a variadic last one repeated up to 3 more times), now and
  // then any number; shape-like (int64, often with values) where inference reads the values.
  size_t count = p.version ? p.version->inputs.size() : op == "Flatten" || (op == "Reshape" && p.opset < 5) ? 1 : 2;
  if (p.version && !p.version->inputs.empty() && p.version->inputs.back().variadic) count += in.ConsumeIntegralInRange<size_t>(0, 3);
  if (fuzz::one_in(in, 10)) count = in.ConsumeIntegralInRange<size_t>(0, 5);
  std::vector<ValueInfo> inputs;
  for (size_t i = 0; i < count; ++i) {
    const bool reads_values = p.version && i < p.version->inputs.size() && p.version->inputs[i].value_needed;
    inputs.push_back(fuzz_value_info(in, p.version ? reads_values || fuzz::one_in(in, 8) : i == 1));
  }
  const int64_t rank_hint = inputs.empty() || !inputs[0].rank_known ? 4 : static_cast<int64_t>(inputs[0].dims.size());
  const Attributes attrs = fuzz::attributes(in, rank_hint);

  std::vector<ValueInfo> outputs;
  const Status s = infer_node(p.domain, op, p.opset, attrs, inputs, &outputs);
  fuzz::check_status_shape(s);
  if (!s.is_ok()) {
    FUZZ_CHECK(outputs.empty(), describe(p, inputs));
    return 0;
  }
  check_success(p, attrs, inputs, outputs);

  // The same question again gives the same answer.
  std::vector<ValueInfo> again;
  FUZZ_CHECK(infer_node(p.domain, op, p.opset, attrs, inputs, &again).is_ok(), describe(p, inputs));
  std::string why;
  FUZZ_CHECK(again.size() == 1 && instance_of(again[0], outputs[0], &why) && instance_of(outputs[0], again[0], &why),
             describe(p, inputs));
  if (!p.domain.empty() || !classic(op)) return 0;

  // Monotone: knowing less still succeeds, with an answer the specific one is an instance of.
  const std::vector<ValueInfo> general = generalize(in, inputs);
  std::vector<ValueInfo> general_out;
  const Status g = infer_node(op, p.opset, attrs, general, &general_out);
  FUZZ_CHECK(g.is_ok(), describe(p, inputs) + " ok, but less specific " + describe(p, general) + " fails: " + g.message());
  FUZZ_CHECK(instance_of(general_out[0], outputs[0], &why),
             describe(p, inputs) + " -> " + outputs[0].shape_string() + ", but " + describe(p, general) + " -> " +
                 general_out[0].shape_string() + ": " + why);
  return 0;
}
