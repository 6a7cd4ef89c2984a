// The rows of the peer benchmarks (issue 16), in the shape of Java Paimon's TableWriterBenchmark:
// k INT (the primary key) and f1..f20 STRING of 10 hex characters, from a SplitMix64 generator
// that bench/java/.../PeersWrite.java repeats step for step, so that Sluice and Java Paimon
// write the same rows. Per row: k = the top 31 bits of one draw; each string = the low 40 bits
// of one draw, a hex digit per nibble, lowest nibble first. Also Sluice's side of writing and
// reading that table, shared by the peers_*_bench programs, and the commands running the peers.
//
// Thread safety: a PeersRows is thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench_common.h"
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

// The shell command running the bench/java program `main_class` (org.sluice.bench.<name>) with
// `args` (already quoted), its stderr to the file `log`.
std::string PeersJavaCommand(const std::string& main_class, const std::string& args,
                             const std::string& log);

// The shell command running the bench/python script `script` with `args` (already quoted) in
// the pypaimon-rust environment bench/run.sh makes (build/release/pyenv/pypaimon-rust), its
// stderr to the file `log`.
std::string PeersRustCommand(const std::string& script, const std::string& args,
                             const std::string& log);

// One write: a fresh table at `path` (bucket 1, `format`, Paimon's defaults otherwise), `rows`
// rows generated from kPeersSeed and written in batches of kBatchRows through one
// FileStoreWrite, one commit, the write closed. Times from opening the write to closing it.
Clock WritePeersTable(const std::string& path, const std::string& format, int64_t rows);

// What a scan folds the rows into, on both sides: count, sum(k), total bytes of the strings read.
struct PeersScanSum {
  int64_t rows = 0;
  int64_t sum_k = 0;
  int64_t string_bytes = 0;
  bool operator==(const PeersScanSum&) const = default;
  // Folds in a batch of k (INT) first and STRING columns after it.
  void Add(const ColumnBatch& batch);
};
// Reads the latest snapshot of `table` with the columns `projection` (empty: all; k first when
// given), merged where a split needs it.
PeersScanSum ScanPeersTable(const FileStoreTable& table,
                            const std::vector<std::string>& projection);

}  // namespace sluice::bench
