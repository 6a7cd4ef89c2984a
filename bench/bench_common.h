// Shared pieces of the format benchmarks: the dataset of issue 3 (BIGINT id, INT qty, DOUBLE
// price, DECIMAL(18, 2) amount, STRING name of 5-30 characters, TIMESTAMP(6) ts; 5% nulls in the
// nullable ones) and a clock reading wall and process CPU time.
//
// Thread safety: the functions are thread-compatible; the dataset is built once per run.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/base/status.h"
#include "sluice/batch/column_batch.h"
#include "sluice/format/file_format.h"

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

}  // namespace sluice::bench
