// parquet_bench: single-threaded Parquet write and full-decode scan throughput of Sluice
// against DuckDB on one synthetic dataset (issue 3).
//
//   parquet_bench [--rows N] [--dir DIR]
//
// Dataset: BIGINT id, INT qty (nullable), DOUBLE price (nullable), DECIMAL(18, 2) amount
// (nullable), STRING name of 5-30 characters (nullable), TIMESTAMP(6) ts.
// Write: Sluice's ParquetWriter (zstd, Paimon's defaults) vs DuckDB's
//   COPY t TO ... (FORMAT parquet, COMPRESSION zstd) with SET threads = 1.
// Scan: both read the file Sluice wrote and decode every column (and fold each into a min / max
// so that DuckDB cannot skip any); best of 3 runs each.
// The last line is "RESULT write_vs_duckdb=R scan_vs_duckdb=R": Sluice's throughput over
// DuckDB's, by process CPU time (wall-clock times are printed too).

#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"
#include "duckdb_session.h"
#include "sluice/column_batch.h"
#include "sluice/format/parquet/parquet_file_format.h"
#include "sluice/fs/file_io.h"

namespace sluice {
namespace {

using bench::BenchType;
using bench::Check;
using bench::Clock;
using bench::Die;
using bench::DuckDbSession;
using bench::kBatchRows;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::MakeDataset;
using bench::Now;
using bench::PrintTiming;
using bench::Scan;
using bench::Since;
using bench::Write;

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "parquet_bench", 10000000);
  const int64_t rows = args.rows;
  const std::string& dir = args.dir;
  std::filesystem::create_directories(dir);
  const std::string ours = dir + "/sluice.parquet";
  const std::string theirs = dir + "/duckdb.parquet";

  std::printf(
      "dataset: %lld rows: id BIGINT, qty INT?, price DOUBLE?, amount DECIMAL(18,2)?, "
      "name STRING(5-30)?, ts TIMESTAMP(6)  (? = 5%% nulls)\n",
      static_cast<long long>(rows));
  auto data = MakeDataset(rows);

  Clock t0 = Now();
  int64_t our_size = Write(*ParquetFormat(), ours, data);
  Clock our_write = Since(t0);
  data.clear();

  DuckDbSession duck;
  duck.RunScalar("CREATE TABLE t AS SELECT * FROM read_parquet('" + ours + "')");
  if (std::stoll(duck.RunScalar("SELECT count(*) FROM t")) != rows)
    Die("DuckDB read a wrong count");
  t0 = Now();
  duck.RunScalar("COPY t TO '" + theirs + "' (FORMAT parquet, COMPRESSION zstd)");
  Clock duck_write = Since(t0);
  int64_t duck_size = static_cast<int64_t>(std::filesystem::file_size(theirs));
  duck.RunScalar("DROP TABLE t");

  // Scans are short: the best of kScanRuns, alternating Sluice and DuckDB, damps the noise of a
  // shared machine.
  constexpr int kScanRuns = 3;
  Clock our_scan = kNoRunYet, duck_scan = kNoRunYet;
  int64_t checksum = 0;
  std::string duck_result;
  for (int run = 0; run < kScanRuns; ++run) {
    int64_t scanned = 0;
    t0 = Now();
    checksum = Scan(*ParquetFormat(), ours, &scanned);
    KeepBest(&our_scan, Since(t0));
    if (scanned != rows) Die("Sluice read a wrong count");

    t0 = Now();
    duck_result = duck.RunScalar(
        "SELECT max(id) + max(qty) + min(price) + max(amount) + sum(strlen(name)) + "
        "epoch_us(max(ts)) FROM read_parquet('" +
        ours + "')");
    KeepBest(&duck_scan, Since(t0));
  }

  auto line = [&](const char* what, const Clock& c, const std::string& extra) {
    PrintTiming(13, what, c, static_cast<double>(rows), extra);
  };
  auto mib = [](int64_t bytes) {
    return "file " + std::to_string(static_cast<double>(bytes) / (1 << 20)).substr(0, 6) + " MiB";
  };
  line("write sluice", our_write, mib(our_size));
  line("write duckdb", duck_write, mib(duck_size));
  line("scan  sluice", our_scan, "checksum " + std::to_string(checksum));
  line("scan  duckdb", duck_scan, "checksum " + duck_result);
  std::printf("RESULT write_vs_duckdb=%.2f scan_vs_duckdb=%.2f\n", duck_write.cpu / our_write.cpu,
              duck_scan.cpu / our_scan.cpu);
  std::filesystem::remove(ours);
  std::filesystem::remove(theirs);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
