// Tensor: element type, concrete dims and a shared buffer in (wasm) memory. The outputs of views
// (the ops whose capabilities say `view`: Reshape, Flatten, Identity, Squeeze, Unsqueeze) share
// their input's Buffer; the Buffer is freed when its last Tensor goes.
#pragma once
#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "element_type.h"
#include "status.h"

namespace onnxwasm {

class BufferRef;

// One allocation: this header, then the tensor's storage (on a 64-byte boundary): raw bytes or
// an array of std::string. Tensors share it through BufferRef (views' outputs share their
// input's); it is freed with the last one. The count is not atomic: tensors are made, copied and
// freed on the calling thread only (pool workers only read and write the bytes of a gather).
class Buffer {
 public:
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // Fails with ERR_OUT_OF_MEMORY, naming the bytes asked for, when the allocation fails.
  // `zeroed` false leaves the bytes uninitialized, for outputs a kernel writes in full.
  static Status allocate_bytes(int64_t bytes, BufferRef* out, bool zeroed = true);
  static Status allocate_strings(int64_t count, BufferRef* out);

  uint8_t* data() const { return data_; }
  int64_t bytes() const { return bytes_; }
  std::string* strings() const { return strings_; }
  int64_t string_count() const { return string_count_; }

 private:
  friend class BufferRef;
  Buffer() = default;
  ~Buffer() = default;
  static Buffer* allocate(int64_t storage_bytes);
  void release();  // drops one reference; the last frees the allocation

  int64_t refs_ = 1;
  uint8_t* data_ = nullptr;
  int64_t bytes_ = 0;
  std::string* strings_ = nullptr;
  int64_t string_count_ = 0;
};

// A counted reference to a Buffer, used as std::shared_ptr<Buffer> would be.
class BufferRef {
 public:
  BufferRef() = default;
  BufferRef(const BufferRef& o) : p_(o.p_) {
    if (p_) ++p_->refs_;
  }
  BufferRef(BufferRef&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  BufferRef& operator=(BufferRef o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~BufferRef() {
    if (p_) p_->release();
  }
  Buffer* operator->() const { return p_; }
  Buffer* get() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  friend bool operator==(const BufferRef& a, const BufferRef& b) { return a.p_ == b.p_; }
  friend bool operator!=(const BufferRef& a, const BufferRef& b) { return a.p_ != b.p_; }

 private:
  friend class Buffer;
  explicit BufferRef(Buffer* p) : p_(p) {}
  Buffer* p_ = nullptr;
};

struct Tensor {
  ElementType type = ElementType::Undefined;
  std::vector<int64_t> dims;
  BufferRef buffer;

  // The product of dims (checked_product: 0 when a dim is 0); dims were checked at creation, so
  // it does not overflow.
  int64_t element_count() const;
  bool is_string() const { return type == ElementType::String; }
};

// A new tensor with zeroed (or empty-string) storage. Checks the type, the dims (non-negative,
// product within int64) and the allocation. `zeroed` false skips zeroing numeric storage.
Status make_tensor(ElementType type, std::vector<int64_t> dims, Tensor* out, bool zeroed = true);

// Dims, element count and byte size, checked: used by make_tensor and by shape inference.
Status check_dims(ElementType type, const std::vector<int64_t>& dims, int64_t* count, int64_t* bytes);

}  // namespace onnxwasm
