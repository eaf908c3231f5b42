// Tensor: element type, concrete dims and a shared buffer in (wasm) memory. Reshape and
// Flatten outputs share their input's Buffer; the Buffer is freed when its last Tensor goes.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "element_type.h"
#include "status.h"

namespace onnxwasm {

// Owns one allocation: raw bytes (16-byte aligned) or an array of std::string.
class Buffer {
 public:
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Fails with ERR_OUT_OF_MEMORY, naming the bytes asked for, when the allocation fails.
  // `zeroed` false leaves the bytes uninitialized, for outputs a kernel writes in full.
  static Status allocate_bytes(int64_t bytes, std::shared_ptr<Buffer>* out, bool zeroed = true);
  static Status allocate_strings(int64_t count, std::shared_ptr<Buffer>* out);

  uint8_t* data() const { return data_; }
  int64_t bytes() const { return bytes_; }
  std::string* strings() const { return strings_; }
  int64_t string_count() const { return string_count_; }

 private:
  Buffer() = default;
  uint8_t* data_ = nullptr;
  int64_t bytes_ = 0;
  std::string* strings_ = nullptr;
  int64_t string_count_ = 0;
};

struct Tensor {
  ElementType type = ElementType::Undefined;
  std::vector<int64_t> dims;
  std::shared_ptr<Buffer> buffer;

  int64_t element_count() const;  // dims were checked at creation: no overflow
  bool is_string() const { return type == ElementType::String; }
};

// A new tensor with zeroed (or empty-string) storage. Checks the type, the dims (non-negative,
// product within int64) and the allocation. `zeroed` false skips zeroing numeric storage.
Status make_tensor(ElementType type, std::vector<int64_t> dims, Tensor* out, bool zeroed = true);

// Dims, element count and byte size, checked: used by make_tensor and by shape inference.
Status check_dims(ElementType type, const std::vector<int64_t>& dims, int64_t* count, int64_t* bytes);

}  // namespace onnxwasm
