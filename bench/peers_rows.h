// The rows of the peer benchmarks (issue 16), in the shape of Java Paimon's TableWriterBenchmark:
// k INT (the primary key) and f1..f20 STRING of 10 hex characters, from a SplitMix64 generator
// that bench/java/.../PeersWrite.java repeats step for step, so that Sluice and Java Paimon
// write the same rows. Per row: k = the top 31 bits of one draw; each string = the low 40 bits
// of one draw, a hex digit per nibble, lowest nibble first.
//
// Thread safety: a PeersRows is thread-compatible.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/column_batch.h"

namespace sluice::bench {

inline constexpr int kPeersValueColumns = 20;
inline constexpr uint64_t kPeersSeed = 42;

// k INT NOT NULL, f1 .. f20 STRING.
std::vector<DataField> PeersFields();

class PeersRows {
 public:
  explicit PeersRows(uint64_t seed = kPeersSeed) : state_(seed) {}
  // Clears `batch` (of PeersFields()) and fills it with the next `n` rows.
  void Next(int64_t n, ColumnBatch* batch);

 private:
  uint64_t Draw();
  uint64_t state_;
};

}  // namespace sluice::bench
