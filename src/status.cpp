#include "status.h"

namespace onnxwasm {

const char* status_code_string(StatusCode code) {
  switch (code) {
    case StatusCode::Ok: return "OK";
#define ONNX_STATUS_CODE(E, code, cls) case StatusCode::E: return code;
#include "status_codes.def"
#undef ONNX_STATUS_CODE
  }
  return "ERR_UNKNOWN";
}

}  // namespace onnxwasm
