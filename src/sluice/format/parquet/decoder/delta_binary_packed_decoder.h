// DELTA_BINARY_PACKED (Encodings.md): blocks of zigzag min-delta plus bit-packed miniblocks of
// deltas. Arithmetic wraps as the spec requires (INT32 columns take the low 32 bits).
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/result.h"

namespace sluice::parquet {

class DeltaBinaryPackedDecoder {
 public:
  // Parses the header at `data`.
  Status Init(const uint8_t* data, size_t size);
  // Values the header announces.
  int64_t total_count() const { return total_count_; }
  // Decodes the next `n` values. REQUIRES: values decoded so far + n <= total_count().
  Status Decode(int64_t* out, int64_t n);
  // Bytes from the start of the header to the end of the last miniblock read so far.
  size_t consumed() const { return static_cast<size_t>(pos_ - begin_); }

 private:
  Status StartBlock();
  Status StartMiniblock();

  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  uint64_t block_size_ = 0;
  uint64_t miniblocks_ = 0;
  uint64_t values_per_miniblock_ = 0;
  int64_t total_count_ = 0;
  int64_t returned_ = 0;
  uint64_t last_value_ = 0;
  bool first_pending_ = true;
  // Current block.
  uint64_t min_delta_ = 0;
  const uint8_t* bit_widths_ = nullptr;
  uint64_t miniblock_index_ = 0;
  // Current miniblock, unpacked.
  std::vector<uint64_t> deltas_;
  uint64_t delta_pos_ = 0;
  uint64_t delta_count_ = 0;
};

// Decodes all values of a DELTA_BINARY_PACKED stream (lengths of the byte-array encodings) and
// reports the bytes it took.
Status DecodeDeltaBinaryPackedAll(const uint8_t* data, size_t size, std::vector<int64_t>* out,
                                  size_t* consumed);

}  // namespace sluice::parquet
