// Status: how every fallible function in src/ reports failure. The message states the broken
// rule with the offending value and the allowed range; the code (status_codes.def) is stable.
#pragma once
#include <string>
#include <utility>

namespace onnxwasm {

enum class StatusCode {
  Ok = 0,
#define ONNX_STATUS_CODE(E, code, cls) E,
#include "status_codes.def"
#undef ONNX_STATUS_CODE
};

const char* status_code_string(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return Status(); }
  bool is_ok() const { return code_ == StatusCode::Ok; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::Ok;
  std::string message_;
};

// `return ONNXWASM_ERROR(code, message);` builds the error Status, message included, in a
// function of its own that is never inlined: the functions that run on success stay small. V8
// compiles a wasm function on its first call, all of it, so a first result waits for less code,
// and an error path is compiled only when it is taken (see CMakeLists.txt, binaryen's inlining).
#define ONNXWASM_ERROR(code, ...) \
  ([&]() __attribute__((noinline, cold)) { return ::onnxwasm::Status((code), __VA_ARGS__); }())
// For a function that builds an error message in several steps.
#define ONNXWASM_COLD __attribute__((noinline, cold))

#define ONNXWASM_RETURN_IF_ERROR(expr)   \
  do {                                   \
    ::onnxwasm::Status _s = (expr);      \
    if (!_s.is_ok()) return _s;          \
  } while (0)

}  // namespace onnxwasm
