#include "tensor.h"

#include "shape.h"
#include "checked_mul.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace onnxwasm {

// The header's size rounded up to 16, and the slack that puts the storage on a cache line (64
// bytes) whatever the block's own alignment (Emscripten's malloc aligns to 8): a gather's rows
// copied into an output that starts on one took less time than into one that starts 16-byte
// aligned only (docs/performance.md, "Figures behind design choices"). A plain malloc with the
// storage aligned by hand: aligned_alloc there goes through dlmalloc's memalign, which carves
// the block out of a larger one and frees the ends, on every tensor a run makes
// (docs/performance.md, "Against the previous commit").
constexpr size_t kHeader = (sizeof(Buffer) + 15) & ~size_t{15};
constexpr size_t kStorageAlign = 64;
constexpr size_t kAlignSlack = kStorageAlign - alignof(std::max_align_t);

namespace {

#if defined(__wasm32__)
// Emscripten's malloc (dlmalloc) asks sbrk for less than 2 GiB at a time (HALF_MAX_SIZE_T), so a
// block above about 2 GiB was refused even where wasm32's 4 GiB memory would hold it. A block
// above 1 GiB (kLarge) therefore first grows the allocator's top chunk in 64 MiB steps, held and
// then freed back in reverse order (each merges into the top chunk), until the steps alone would
// hold the block and 1 MiB more; the block is then carved from the top with no sbrk. Small steps
// matter once any sbrk has failed: dlmalloc then asks for a whole request, not just what its top
// lacks, so a step can overshoot by at most its size. A step that fails ends the steps: out of
// memory.
void* block(size_t bytes) {
  constexpr size_t kLarge = size_t{1} << 30, kStep = size_t{64} << 20, kSlack = size_t{1} << 20;
  if (bytes <= kLarge) return std::malloc(bytes);
  if (bytes > SIZE_MAX - kSlack - kStep) return nullptr;
  void* steps[(SIZE_MAX / kStep) + 2];
  size_t held = 0, count = 0;
  while (held < bytes + kSlack) {
    void* p = std::malloc(kStep);
    if (!p) break;
    steps[count++] = p;
    held += kStep;
  }
  const bool grown = held >= bytes + kSlack;
  while (count > 0) std::free(steps[--count]);
  return grown ? std::malloc(bytes) : nullptr;
}
#else
void* block(size_t bytes) { return std::malloc(bytes); }
#endif

}  // namespace

// One block: the header and `storage_bytes` after it, as a Buffer with one reference; null when
// it cannot be allocated. Sizes beyond the address space are refused rather than wrapped.
Buffer* Buffer::allocate(int64_t storage_bytes) {
  const uint64_t rounded = (static_cast<uint64_t>(storage_bytes) + 15) & ~uint64_t{15};
  if (storage_bytes < 0 || rounded > SIZE_MAX - kHeader - kAlignSlack) return nullptr;
  void* p = block(kHeader + kAlignSlack + static_cast<size_t>(rounded));
  if (!p) return nullptr;
  Buffer* b = new (p) Buffer();
  uint8_t* const after = static_cast<uint8_t*>(p) + kHeader;
  b->data_ = after + (kStorageAlign - reinterpret_cast<uintptr_t>(after) % kStorageAlign) % kStorageAlign;
  return b;
}

void Buffer::release() {
  if (--refs_ > 0) return;
  for (int64_t i = 0; i < string_count_; ++i) strings_[i].~basic_string();
  this->~Buffer();
  std::free(this);
}

Status Buffer::allocate_bytes(int64_t bytes, BufferRef* out, bool zeroed) {
  Buffer* b = allocate(bytes);
  if (!b)
    return ONNXWASM_ERROR(StatusCode::OutOfMemory, "cannot allocate " + std::to_string(bytes) +
                                               " bytes for a tensor: memory is exhausted or the size exceeds what wasm32 memory (4 GiB) can hold");
  if (zeroed) std::memset(b->data_, 0, static_cast<size_t>(bytes));
  b->bytes_ = bytes;
  *out = BufferRef(b);
  return Status::ok();
}

Status Buffer::allocate_strings(int64_t count, BufferRef* out) {
  int64_t bytes = 0;
  if (count < 0 || mul_overflows(count, static_cast<int64_t>(sizeof(std::string)), &bytes))
    bytes = -1;
  Buffer* b = allocate(bytes);
  if (!b)
    return ONNXWASM_ERROR(StatusCode::OutOfMemory, "cannot allocate " + std::to_string(count) +
                                               " strings (" + std::to_string(bytes) + " bytes) for a tensor");
  b->strings_ = reinterpret_cast<std::string*>(b->data_);
  for (int64_t i = 0; i < count; ++i) new (&b->strings_[i]) std::string();
  b->string_count_ = count;
  b->data_ = nullptr;   // string tensors have no raw bytes: data() is null
  *out = BufferRef(b);
  return Status::ok();
}

int64_t Tensor::element_count() const {
  int64_t n = 0;
  // As make_tensor counted (check_dims), so a zero dim makes 0 (0 too for dims it would refuse).
  return checked_product(dims, &n) ? n : 0;
}

static std::string shape_string(const std::vector<int64_t>& dims) {
  std::string shape = "[";
  for (size_t i = 0; i < dims.size(); ++i) shape += (i ? ", " : "") + std::to_string(dims[i]);
  return shape + "]";
}

Status check_dims(ElementType type, const std::vector<int64_t>& dims, int64_t* count, int64_t* bytes) {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0)
      return ONNXWASM_ERROR(StatusCode::Shape, "dimension " + std::to_string(i) + " of shape " + shape_string(dims) +
                                           " is " + std::to_string(dims[i]) + "; dimensions must be >= 0");
  if (!checked_product(dims, count))
    return ONNXWASM_ERROR(StatusCode::Shape, "the element count of shape " + shape_string(dims) + " overflows int64");
  if (type == ElementType::String) {
    *bytes = 0;
    return Status::ok();
  }
  if (!storage_bytes(type, *count, bytes))
    return ONNXWASM_ERROR(StatusCode::OutOfMemory, "the byte size of shape " + shape_string(dims) + " of " +
                                               onnx_name(type) + " overflows int64 (" + std::to_string(*count) +
                                               " elements)");
  return Status::ok();
}

Status make_tensor(ElementType type, std::vector<int64_t> dims, Tensor* out, bool zeroed) {
  if (!element_type_info(static_cast<int32_t>(type)))
    return ONNXWASM_ERROR(StatusCode::Type, "unknown element type id " + std::to_string(static_cast<int>(type)));
  int64_t count = 0, bytes = 0;
  ONNXWASM_RETURN_IF_ERROR(check_dims(type, dims, &count, &bytes));
  Tensor t;
  t.type = type;
  t.dims = std::move(dims);
  if (type == ElementType::String)
    ONNXWASM_RETURN_IF_ERROR(Buffer::allocate_strings(count, &t.buffer));
  else
    ONNXWASM_RETURN_IF_ERROR(Buffer::allocate_bytes(bytes, &t.buffer, zeroed));
  *out = std::move(t);
  return Status::ok();
}

}  // namespace onnxwasm
