// Buffer's allocation: small capacities from malloc, large ones as mappings of their own.

#include "sluice/buffer.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace sluice {

namespace {

// A fresh anonymous mapping of `bytes` (a multiple of kLargeBytes) starting at a kLargeBytes
// boundary, so that every 2 MiB of it can be one huge page; null when the kernel refuses it.
uint8_t* MapAligned(size_t bytes) {
  const size_t span = bytes + Buffer::kLargeBytes;
  void* mapped = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const auto begin = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = (begin + Buffer::kLargeBytes - 1) & ~(Buffer::kLargeBytes - 1);
  if (aligned > begin) munmap(mapped, aligned - begin);
  const uintptr_t end = aligned + bytes;
  if (begin + span > end) munmap(reinterpret_cast<void*>(end), begin + span - end);
#ifdef MADV_HUGEPAGE
  // Advice only: where transparent huge pages are off, the mapping works with small pages. A
  // huge page is faulted in whole, so a buffer may hold up to 2 MiB of memory past the bytes it
  // touches (advising only the bytes a caller asked for tripled a scan's page faults: decoders
  // grow their columns a page at a time).
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<uint8_t*>(aligned);
}

}  // namespace

void Buffer::Grow(size_t n) {
  size_t cap = capacity_ < 64 ? 64 : capacity_;
  while (cap < n) cap *= 2;
  if (cap < kLargeBytes) {
    void* p = std::realloc(data_, cap);
    if (p == nullptr) throw std::bad_alloc();
    data_ = static_cast<uint8_t*>(p);
    capacity_ = cap;
    return;
  }
  uint8_t* p = MapAligned(cap);
  if (p == nullptr) throw std::bad_alloc();
  if (capacity_ >= kLargeBytes) {
    // The old mapping's pages move to the start of the new one, replacing what is there:
    // nothing is copied, and the old range is gone.
    if (mremap(data_, capacity_, capacity_, MREMAP_MAYMOVE | MREMAP_FIXED, p) == MAP_FAILED) {
      std::memcpy(p, data_, capacity_);
      Unmap(data_, capacity_);
    }
  } else if (data_ != nullptr) {
    std::memcpy(p, data_, capacity_);
    std::free(data_);
  }
  data_ = p;
  capacity_ = cap;
}

void Buffer::Unmap(uint8_t* data, size_t capacity) { munmap(data, capacity); }

}  // namespace sluice
