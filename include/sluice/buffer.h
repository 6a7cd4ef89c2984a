// Buffer: a growable, owned byte region whose growth does not zero-fill, for the codecs' hot
// paths (decoders resize, then write every byte they expose).
//
// A capacity of kLargeBytes or more is an anonymous mapping of its own, aligned and advised for
// transparent huge pages (buffer.cc): a scan's output columns are written once into fresh
// memory, where a 2 MiB page faults once and 4 KiB pages fault 512 times. Such a buffer grows
// by moving its pages, not by copying them.
//
// Thread safety: not thread-safe; one owner at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

namespace sluice {

class Buffer {
 public:
  Buffer() = default;
  ~Buffer() { Deallocate(); }
  Buffer(const Buffer& other) { Append(other.data_, other.size_); }
  Buffer& operator=(const Buffer& other) {
    if (this != &other) {
      size_ = 0;
      Append(other.data_, other.size_);
    }
    return *this;
  }
  Buffer(Buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      Deallocate();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }

  uint8_t* data() { return data_; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  std::string_view view() const {
    return std::string_view(reinterpret_cast<const char*>(data_), size_);
  }

  template <typename T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(data_);
  }

  static constexpr size_t kLargeBytes = size_t{1} << 21;

  // Grows the capacity to a power of two of at least `n`, keeping every byte of the old
  // capacity (written or not).
  void Reserve(size_t n) {
    if (n > capacity_) Grow(n);
  }
  // New bytes are uninitialized.
  void Resize(size_t n) {
    Reserve(n);
    size_ = n;
  }
  // New bytes are zero.
  void ResizeZeroed(size_t n) {
    size_t old = size_;
    Resize(n);
    if (n > old) std::memset(data_ + old, 0, n - old);
  }
  void Clear() { size_ = 0; }
  void Append(const void* p, size_t n) {
    if (n == 0) return;
    Reserve(size_ + n);
    std::memcpy(data_ + size_, p, n);
    size_ += n;
  }
  void Append(std::string_view s) { Append(s.data(), s.size()); }
  template <typename T>
  void AppendValue(const T& v) {
    Append(&v, sizeof(T));
  }

 private:
  void Grow(size_t n);
  static void Unmap(uint8_t* data, size_t capacity);
  void Deallocate() {
    if (capacity_ >= kLargeBytes) {
      Unmap(data_, capacity_);
    } else {
      std::free(data_);
    }
  }

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace sluice
