// Shared pieces of the benchmarks: a clock reading wall and process CPU time, the command line;
// for the format benchmarks the dataset of issue 3 (BIGINT id, INT qty, DOUBLE price,
// DECIMAL(18, 2) amount, STRING name of 5-30 characters, TIMESTAMP(6) ts; 5% nulls in the
// nullable ones); for the primary-key benchmarks (upsert, mor, compact) the table they create,
// the five overlapping sorted runs of mor and compact, the checksum both read back, and
// RocksDB's key encoding.
//
// Thread safety: the functions are thread-compatible; the dataset is built once per run.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/format/file_format.h"
#include "sluice/status.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/data_split.h"

namespace sluice::bench {

inline constexpr int64_t kBatchRows = 65536;

// Prints "<program>: <what>" to stderr and exits with status 1.
[[noreturn]] void Die(const std::string& what);
void Check(const Status& st, const char* what);
// The program name Die() prints; set once from main().
void SetProgramName(const char* name);

// Wall-clock and CPU time of the process (all threads; DuckDB runs with one thread). The RESULT
// lines compare CPU time, which other processes on a shared machine do not inflate.
struct Clock {
  double wall;
  double cpu;
};
Clock Now();
Clock Since(const Clock& start);
// The starting point of a best-of-N measurement: slower than any run.
inline constexpr Clock kNoRunYet{1e30, 1e30};
// Keeps in *best the smaller wall and the smaller CPU time of *best and `run`.
void KeepBest(Clock* best, const Clock& run);
// Prints "<what>: cpu S s  R Mrows/s   wall S s  R Mrows/s" with `what` left-aligned in `width`
// characters, followed by two spaces and `extra` when `extra` is not empty.
void PrintTiming(int width, const char* what, const Clock& time, double rows,
                 const std::string& extra = "");

// The command line every benchmark takes: [--rows N] [--dir DIR].
struct Args {
  int64_t rows;
  std::string dir;
};
// Sets the program name, then parses the command line; --dir defaults to
// <temp directory>/sluice_<program>. Dies with the usage line on anything else, or when N is not
// positive.
Args ParseArgs(int argc, char** argv, const char* program, int64_t default_rows);

// A field without description or default value.
DataField Field(int32_t id, std::string name, DataTypePtr type);

DataTypePtr BenchType();
// The dataset in batches of kBatchRows rows, filled directly through the vectors' buffers, from
// a fixed seed (the same rows every run).
std::vector<std::unique_ptr<ColumnBatch>> MakeDataset(int64_t rows);

// Writes the dataset with `format` (zstd level 1, Paimon's defaults); returns the file size.
int64_t Write(const FileFormat& format, const std::string& path,
              const std::vector<std::unique_ptr<ColumnBatch>>& data);
// Decodes every column of the file and folds it into a checksum (the work a min / max query
// does); sets *rows_out to the rows read.
int64_t Scan(const FileFormat& format, const std::string& path, int64_t* rows_out);

// ---- Primary-key tables.

// Creates the primary-key table at `path`: `fields` (the first one, `k`, the key), bucket 1 unless
// `options` say otherwise, `options` over Paimon's defaults; writes its schema and opens it.
std::shared_ptr<const FileStoreTable> CreatePrimaryKeyTable(
    const std::string& path, std::vector<DataField> fields,
    const std::map<std::string, std::string>& options = {});

// Writes `data` through one FileStoreWrite (opened with `options`), commits it as one snapshot
// under `commit_user` and closes the write; dies on any error.
void WriteAndCommitOnce(const std::shared_ptr<const FileStoreTable>& table,
                        const std::vector<std::unique_ptr<ColumnBatch>>& data,
                        const std::string& commit_user, const FileStoreWriteOptions& options = {});
// The same in several commits through the one write: commit c (identifier c + 1) holds the
// batches [commit_ends[c - 1], commit_ends[c]) (from 0 for the first); the last end is
// data.size().
void WriteAndCommit(const std::shared_ptr<const FileStoreTable>& table,
                    const std::vector<std::unique_ptr<ColumnBatch>>& data,
                    const std::string& commit_user, const std::vector<size_t>& commit_ends,
                    const FileStoreWriteOptions& options = {});

// Reads the latest snapshot of the table at `path` in full (merged) and returns its row count;
// `buckets`, when given, gets the buckets read. Dies on any error.
int64_t ReadLatestRows(const std::string& path, std::set<int32_t>* buckets = nullptr);
// Plans the latest snapshot of `table` and reads every split (merged where the split needs
// it), handing `each` every batch and its split. Dies on any error.
void ReadLatest(const FileStoreTable& table,
                const std::function<void(const DataSplit&, const ColumnBatch&)>& each);

// The five overlapping sorted runs of mor_bench and compact_bench over keys [0, keys): run 0
// holds every key, runs 1-4 each update 90% of the keys (later runs win), and run 4 deletes 1%
// of the keys. Columns: k BIGINT primary key, a INT, b DOUBLE, c STRING (8-23 characters).
inline constexpr int kRuns = 5;
std::vector<DataField> RunFields();
// Whether run `r` holds key `k`, and whether as a delete.
bool InRun(int64_t k, int r);
bool DeletedInRun(int64_t k, int r);
// The values of key `k` in run `r`; c into *text.
int32_t RunValueA(int64_t k, int r);
double RunValueB(int64_t k, int r);
void RunValueC(int64_t k, int r, std::string* text);
// Sequence numbers grow with the run, then with the key.
inline int64_t RunSequenceNumber(int64_t k, int r, int64_t keys) {
  return static_cast<int64_t>(r) * keys + k;
}
// Appends the record of key `k` in run `r` to a batch of the key-value layout (_KEY_k,
// _SEQUENCE_NUMBER, _VALUE_KIND, k, a, b, c); `text` is scratch.
void AppendRunRecord(int64_t k, int r, int64_t keys, ColumnBatch* batch, std::string* text);

// What both sides of a comparison read back: count, sum(k), sum(a), sum(strlen(c)).
struct Checksum {
  int64_t rows = 0;
  int64_t sum_k = 0;
  int64_t sum_a = 0;
  int64_t sum_c = 0;
  bool operator==(const Checksum&) const = default;
  std::string ToString() const;
};
// Every row of `split` (of RunFields() rows) through the table's split reader.
Checksum ReadChecksum(const FileStoreTable& table, const DataSplit& split);

// RocksDB keys: big-endian with the sign bit flipped, so that byte order is numeric order.
void EncodeRocksKey(int64_t k, char out[8]);
int64_t DecodeRocksKey(const char key[8]);

}  // namespace sluice::bench
