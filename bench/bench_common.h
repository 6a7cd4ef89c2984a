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
