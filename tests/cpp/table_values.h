// The values of the Catch2 tables: shapes in their notation, "[2, batch, ?]" (numbers are known
// dims, "?" unknown, other words symbols; "*" an unknown rank), parsed into a ValueInfo and printed
// back (the tests' own notation, apart from ValueInfo::shape_string, which they check); INT and
// INTS attributes; and tensors of patterned contents, compared element by element.
#pragma once
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "src/attributes.h"
#include "src/shape.h"
#include "src/tensor.h"

namespace onnxwasm_test {

// A random integer in [0, n) for the tables' random cases: rng() % n, with std::mt19937 or
// std::mt19937_64, so that the native and wasm builds draw the same cases (the standard
// distributions and std::shuffle differ between libstdc++ and libc++).
template <class Rng>
int64_t below(Rng& rng, int64_t n) {
  return static_cast<int64_t>(static_cast<uint64_t>(rng()) % static_cast<uint64_t>(n));
}

inline onnxwasm::ValueInfo parse_shape(onnxwasm::ElementType type, const std::string& s) {
  using onnxwasm::Dim;
  onnxwasm::ValueInfo v;
  v.type = type;
  if (s == "*") {
    v.rank_known = false;
    return v;
  }
  REQUIRE(s.size() >= 2);
  REQUIRE(s.front() == '[');
  REQUIRE(s.back() == ']');
  std::string item;
  auto flush = [&] {
    const size_t b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
    const std::string w = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    item.clear();
    if (w.empty()) return;
    if (w == "?")
      v.dims.push_back(Dim::unknown());
    else if ((w[0] >= '0' && w[0] <= '9') || w[0] == '-')
      v.dims.push_back(Dim::known(std::stoll(w)));
    else
      v.dims.push_back(Dim::named(w));
  };
  for (size_t i = 1; i + 1 < s.size(); ++i) {
    if (s[i] == ',')
      flush();
    else
      item += s[i];
  }
  flush();
  return v;
}

inline std::string describe(const onnxwasm::ValueInfo& v) {
  using onnxwasm::Dim;
  if (!v.rank_known) return "*";
  std::string s = "[";
  for (size_t i = 0; i < v.dims.size(); ++i) {
    const Dim& d = v.dims[i];
    s += i ? ", " : "";
    s += d.kind == Dim::Kind::Known ? std::to_string(d.value) : d.kind == Dim::Kind::Symbol ? d.symbol : "?";
  }
  return s + "]";
}

inline onnxwasm::Attribute Int(const std::string& name, int64_t value) {
  onnxwasm::Attribute a;
  a.name = name;
  a.kind = onnxwasm::AttrKind::Int;
  a.ints = {value};
  return a;
}

inline onnxwasm::Attribute Ints(const std::string& name, std::vector<int64_t> values) {
  onnxwasm::Attribute a;
  a.name = name;
  a.kind = onnxwasm::AttrKind::Ints;
  a.ints = std::move(values);
  return a;
}

// A tensor whose every byte (every string) differs with its position and `seed`.
inline onnxwasm::Tensor patterned_tensor(onnxwasm::ElementType type, std::vector<int64_t> dims, uint32_t seed) {
  onnxwasm::Tensor t;
  REQUIRE(onnxwasm::make_tensor(type, std::move(dims), &t).is_ok());
  uint32_t x = seed * 2654435761u + 1;
  if (t.is_string()) {
    for (int64_t i = 0; i < t.element_count(); ++i) t.buffer->strings()[i] = "s" + std::to_string(seed) + "." + std::to_string(i);
  } else {
    for (int64_t i = 0; i < t.buffer->bytes(); ++i) {
      x = x * 1103515245u + 12345u;
      t.buffer->data()[i] = static_cast<uint8_t>(x >> 16);
    }
  }
  return t;
}

// The same type, dims and elements (bytes, or strings).
inline bool same_tensor(const onnxwasm::Tensor& a, const onnxwasm::Tensor& b) {
  if (a.type != b.type || a.dims != b.dims) return false;
  const int64_t n = a.element_count();
  if (a.is_string()) {
    for (int64_t i = 0; i < n; ++i)
      if (a.buffer->strings()[i] != b.buffer->strings()[i]) return false;
    return true;
  }
  const size_t bytes = static_cast<size_t>(n * onnxwasm::element_bits(a.type) / 8);
  return bytes == 0 || std::memcmp(a.buffer->data(), b.buffer->data(), bytes) == 0;
}

}  // namespace onnxwasm_test
