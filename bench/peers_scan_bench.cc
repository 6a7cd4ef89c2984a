// peers_scan_bench: Sluice against Java Paimon reading the same primary-key table on the same
// machine in the same run (issue 16), in the shape of Java Paimon's TableReadBenchmark.
//
//   peers_scan_bench [--rows N] [--dir DIR]
//
// Table: peers_write_bench's (bench/peers_rows.h: k INT primary key, f1..f20 STRING of 10 hex
// characters, bucket 1, parquet, zstd), N rows (default 3,000,000) written once by Sluice. Both
// sides read its latest snapshot in full (21 columns) and with k, f1, f2, f3 (4 of 21), folding
// every row into count, sum(k) and the bytes of the strings read, which must agree.
//
//   sluice  PlanScan and the split readers, best of 3 runs
//   java    bench/java PeersScan: the Java table API (ReadBuilder, row by row), 5 runs in one
//           JVM, the first 2 dropped as warm-up, best of the other 3
//
// Both sides count process CPU time (Java's includes its JIT and GC threads). The last line is
// "RESULT scan_vs_java=R scan_projected_vs_java=R": Sluice's rows per CPU-second over Java's,
// in full and with 4 columns.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "peers_rows.h"
#include "sluice/fs/file_io.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::Now;
using bench::PeersScanSum;
using bench::PrintTiming;
using bench::Since;

constexpr int kSluiceRuns = 3;
constexpr int kJavaRuns = 5;
constexpr int kJavaWarmupRuns = 2;
constexpr int kWidth = 22;
constexpr int kProjectedColumns = 4;

struct Side {
  Clock best = kNoRunYet;
  PeersScanSum sum;
};

// Java's best full and projected reads; dies when a run's sums differ from `expected`.
void JavaScan(const std::string& table, const std::string& log, const PeersScanSum& full_expected,
              const PeersScanSum& projected_expected, Side* full, Side* projected) {
  const std::string command =
      bench::PeersJavaCommand("PeersScan", "'" + table + "' " + std::to_string(kJavaRuns), log);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  int reads = 0;
  char line[512];
  while (std::fgets(line, sizeof(line), out) != nullptr) {
    int run = 0;
    int columns = 0;
    long long rows = 0, sum_k = 0, bytes = 0;
    Clock time{};
    if (std::sscanf(line,
                    "java_scan run=%d columns=%d rows=%lld sum_k=%lld bytes=%lld cpu=%lf wall=%lf",
                    &run, &columns, &rows, &sum_k, &bytes, &time.cpu, &time.wall) != 7) {
      continue;
    }
    ++reads;
    const PeersScanSum sum{rows, sum_k, bytes};
    const bool is_full = columns != kProjectedColumns;
    if (!(sum == (is_full ? full_expected : projected_expected))) {
      Die("Java Paimon read other rows than Sluice: " + std::string(line));
    }
    std::printf("  java run %d, %2d columns: cpu %.2f s  wall %.2f s%s\n", run, columns, time.cpu,
                time.wall, run < kJavaWarmupRuns ? "  (warm-up, dropped)" : "");
    if (run >= kJavaWarmupRuns) KeepBest(is_full ? &full->best : &projected->best, time);
  }
  if (pclose(out) != 0 || reads != 2 * kJavaRuns) {
    Die("Java Paimon's scan failed (see " + log + ")");
  }
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "peers_scan_bench", 3000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const std::string path = args.dir + "/table";
  std::printf(
      "table: %lld rows: k INT (primary key, random), f1..f20 STRING(10); bucket 1, parquet zstd,\n"
      "       written by Sluice; read in full and as k, f1, f2, f3; sluice best of %d, java best\n"
      "       of %d after %d warm-up runs in one JVM; rows/s per CPU-second\n",
      static_cast<long long>(args.rows), kSluiceRuns, kJavaRuns - kJavaWarmupRuns, kJavaWarmupRuns);
  std::fflush(stdout);
  bench::WritePeersTable(path, "parquet", args.rows);
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  Check(table.status(), "open table");

  const std::vector<std::string> projection = {"k", "f1", "f2", "f3"};
  Side full, projected;
  for (int run = 0; run < kSluiceRuns; ++run) {
    Clock start = Now();
    full.sum = bench::ScanPeersTable(**table, {});
    KeepBest(&full.best, Since(start));
    start = Now();
    projected.sum = bench::ScanPeersTable(**table, projection);
    KeepBest(&projected.best, Since(start));
  }
  Side java_full, java_projected;
  JavaScan(path, args.dir + "/java.log", full.sum, projected.sum, &java_full, &java_projected);

  const auto rows = static_cast<double>(full.sum.rows);
  PrintTiming(kWidth, "sluice 21 columns", full.best, rows);
  PrintTiming(kWidth, "java 21 columns", java_full.best, rows);
  PrintTiming(kWidth, "sluice 4 columns", projected.best, rows);
  PrintTiming(kWidth, "java 4 columns", java_projected.best, rows);
  std::printf("RESULT scan_vs_java=%.2f scan_projected_vs_java=%.2f\n",
              java_full.best.cpu / full.best.cpu, java_projected.best.cpu / projected.best.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
