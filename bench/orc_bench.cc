// orc_bench: single-threaded ORC write and full-decode scan throughput of Sluice, next to
// Sluice's own Parquet on the same data (issue 4).
//
//   orc_bench [--rows N] [--dir DIR]
//
// Dataset: the one of parquet_bench (BIGINT id, INT qty, DOUBLE price, DECIMAL(18, 2) amount,
// STRING name of 5-30 characters, TIMESTAMP(6) ts; 5% nulls in the nullable ones), written with
// zstd level 1 (Paimon's defaults) as ORC and as Parquet, then each file scanned decoding every
// column (folded into a checksum).
// The last line is "RESULT orc_write_vs_parquet=R orc_scan_vs_parquet=R": ORC throughput over
// Parquet's, by process CPU time (wall-clock times are printed too).

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
#include "sluice/column_batch.h"
#include "sluice/format/orc/orc_file_format.h"
#include "sluice/format/parquet/parquet_file_format.h"
#include "sluice/fs/file_io.h"

namespace sluice {
namespace {

using bench::BenchType;
using bench::Check;
using bench::Clock;
using bench::Die;
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
  const bench::Args args = bench::ParseArgs(argc, argv, "orc_bench", 10000000);
  const int64_t rows = args.rows;
  const std::string& dir = args.dir;
  std::filesystem::create_directories(dir);
  const std::string orc_path = dir + "/sluice.orc";
  const std::string parquet_path = dir + "/sluice.parquet";

  std::printf(
      "dataset: %lld rows: id BIGINT, qty INT?, price DOUBLE?, amount DECIMAL(18,2)?, "
      "name STRING(5-30)?, ts TIMESTAMP(6)  (? = 5%% nulls)\n",
      static_cast<long long>(rows));
  auto data = MakeDataset(rows);

  Clock t0 = Now();
  int64_t orc_size = Write(*OrcFormat(), orc_path, data);
  Clock orc_write = Since(t0);
  t0 = Now();
  int64_t parquet_size = Write(*ParquetFormat(), parquet_path, data);
  Clock parquet_write = Since(t0);
  data.clear();

  // The best of kScanRuns, alternating formats, damps the noise of a shared machine.
  constexpr int kScanRuns = 3;
  Clock orc_scan = kNoRunYet, parquet_scan = kNoRunYet;
  int64_t orc_sum = 0, parquet_sum = 0;
  for (int run = 0; run < kScanRuns; ++run) {
    int64_t scanned = 0;
    t0 = Now();
    orc_sum = Scan(*OrcFormat(), orc_path, &scanned);
    KeepBest(&orc_scan, Since(t0));
    if (scanned != rows) Die("ORC scan read a wrong count");
    t0 = Now();
    parquet_sum = Scan(*ParquetFormat(), parquet_path, &scanned);
    KeepBest(&parquet_scan, Since(t0));
    if (scanned != rows) Die("Parquet scan read a wrong count");
  }
  if (orc_sum != parquet_sum) Die("ORC and Parquet scans disagree");

  auto line = [&](const char* what, const Clock& c, const std::string& extra) {
    PrintTiming(14, what, c, static_cast<double>(rows), extra);
  };
  auto mib = [](int64_t bytes) {
    return "file " + std::to_string(static_cast<double>(bytes) / (1 << 20)).substr(0, 6) + " MiB";
  };
  line("write orc", orc_write, mib(orc_size));
  line("write parquet", parquet_write, mib(parquet_size));
  line("scan  orc", orc_scan, "checksum " + std::to_string(orc_sum));
  line("scan  parquet", parquet_scan, "checksum " + std::to_string(parquet_sum));
  std::printf("RESULT orc_write_vs_parquet=%.3f orc_scan_vs_parquet=%.3f\n",
              parquet_write.cpu / orc_write.cpu, parquet_scan.cpu / orc_scan.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
