// Buffer (sluice/buffer.h) across the line between malloc'd and mapped capacities: every byte of
// the old capacity survives each growth, mapped regions start at a huge-page boundary, and
// copies, moves and frees work on both kinds.
#include "sluice/buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace sluice {
namespace {

uint8_t Pattern(size_t i) { return static_cast<uint8_t>(i * 131 + (i >> 12)); }

// Fills [from, to) of the buffer's capacity with the pattern.
void Fill(Buffer* buffer, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) buffer->data()[i] = Pattern(i);
}

void ExpectPattern(const Buffer& buffer, size_t to) {
  for (size_t i = 0; i < to; ++i) {
    ASSERT_EQ(buffer.data()[i], Pattern(i)) << "byte " << i << " of " << to;
  }
}

bool HugeAligned(const Buffer& buffer) {
  return reinterpret_cast<uintptr_t>(buffer.data()) % Buffer::kLargeBytes == 0;
}

TEST(BufferTest, GrowthKeepsEveryByteOfTheCapacityAcrossTheMappedLine) {
  Buffer buffer;
  size_t filled = 0;
  // Bytes are written to the whole capacity, not only up to size(): Reserve keeps them all
  // (decoders write past size() into reserved room before they resize).
  for (size_t want : {size_t{100}, size_t{5000}, Buffer::kLargeBytes - 1, Buffer::kLargeBytes,
                      Buffer::kLargeBytes + 1, 3 * Buffer::kLargeBytes, 9 * Buffer::kLargeBytes}) {
    buffer.Reserve(want);
    ASSERT_GE(buffer.capacity(), want);
    ASSERT_EQ(buffer.size(), 0u);
    ExpectPattern(buffer, filled);
    Fill(&buffer, filled, buffer.capacity());
    filled = buffer.capacity();
    if (buffer.capacity() >= Buffer::kLargeBytes) {
      EXPECT_TRUE(HugeAligned(buffer)) << buffer.capacity();
    }
  }
  ExpectPattern(buffer, filled);
  EXPECT_EQ(filled, 16 * Buffer::kLargeBytes);
}

TEST(BufferTest, CopiesMovesAndAppendsOfMappedBuffers) {
  Buffer large;
  large.Resize(Buffer::kLargeBytes + 10);
  Fill(&large, 0, large.size());
  Buffer copy(large);
  EXPECT_EQ(copy.size(), large.size());
  ExpectPattern(copy, copy.size());
  EXPECT_NE(copy.data(), large.data());

  Buffer moved(std::move(large));
  EXPECT_EQ(large.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(large.capacity(), 0u);
  ExpectPattern(moved, moved.size());

  Buffer small;
  small.Append("abc", 3);
  small = std::move(moved);  // frees the small region, takes the mapped one
  ExpectPattern(small, small.size());
  moved = copy;  // a moved-from buffer takes a copy
  ExpectPattern(moved, moved.size());

  // Appends that cross the line one value at a time.
  Buffer appended;
  const size_t n = Buffer::kLargeBytes / sizeof(uint64_t) + 1000;
  for (size_t i = 0; i < n; ++i) appended.AppendValue<uint64_t>(i * 7);
  ASSERT_EQ(appended.size(), n * sizeof(uint64_t));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(appended.as<uint64_t>()[i], i * 7) << i;
  appended.ResizeZeroed(appended.size() + Buffer::kLargeBytes);
  EXPECT_EQ(appended.as<uint64_t>()[n + 5], 0u);
  EXPECT_EQ(appended.as<uint64_t>()[n - 1], (n - 1) * 7);
}

}  // namespace
}  // namespace sluice
