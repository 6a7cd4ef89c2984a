// Byte ranges of a file and how a store where every request costs a round trip reads several at
// once: ranges close together are merged into one request (the bytes between them are read and
// dropped), as Arrow's io::internal::CoalesceReadRanges and Hadoop's vectored reads do.
//
// Thread safety: pure functions on values.
#pragma once

#include <cstdint>
#include <vector>

namespace sluice {

struct ReadRange {
  int64_t offset = 0;
  int64_t length = 0;

  int64_t end() const { return offset + length; }
  bool operator==(const ReadRange&) const = default;
};

// How CoalesceReadRanges merges.
struct CoalesceOptions {
  // Two ranges with at most this many bytes between them become one request.
  int64_t max_gap = int64_t{1} << 20;
  // No request is larger than this: merging stops short of it, and a range larger than it is
  // cut into pieces, so that a large read is several requests that can run in parallel.
  int64_t max_size = int64_t{8} << 20;
};

// The requests that cover `ranges`: sorted by offset, disjoint, each (part of) the union of one
// or more of `ranges` and the gaps between them. Empty ranges are dropped; overlapping and
// duplicate ranges are fine.
std::vector<ReadRange> CoalesceReadRanges(std::vector<ReadRange> ranges,
                                          const CoalesceOptions& options);

}  // namespace sluice
