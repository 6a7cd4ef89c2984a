// peers_scan_bench: Sluice against Java Paimon and paimon-rust reading the same primary-key
// table on the same machine in the same run (issue 16), in the shape of Java Paimon's
// TableReadBenchmark.
//
//   peers_scan_bench [--rows N] [--dir DIR]
//
// Table: peers_write_bench's (bench/peers_rows.h: k INT primary key, f1..f20 STRING of 10 hex
// characters, bucket 1, parquet, zstd), N rows (default 3,000,000) written once by Sluice as
// DIR/default.db/peers (a filesystem catalog's layout, which pypaimon-rust's catalog opens). The
// three read its latest snapshot in full (21 columns) and with k, f1, f2, f3 (4 of 21), folding
// every row into count, sum(k) and the bytes of the strings read, which must agree.
//
//   sluice  PlanScan and the split readers, best of 3 runs
//   java    bench/java PeersScan: the Java table API (ReadBuilder, row by row), 5 runs in one
//           JVM, the first 2 dropped as warm-up, best of the other 3
//   rust    bench/python/peers_scan_rust.py: pypaimon-rust 0.4.0's table API (ReadBuilder,
//           Arrow batches of up to 65536 rows, folded with pyarrow.compute), 4 runs in one
//           process, the first dropped, best of the other 3
//
// Every side counts process CPU time (Java's includes its JIT and GC threads, paimon-rust's its
// runtime's threads). The last line is "RESULT scan_vs_java=R scan_projected_vs_java=R
// scan_vs_rust=R scan_projected_vs_rust=R": Sluice's rows per CPU-second over each peer's, in
// full and with 4 columns.

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
constexpr int kRustRuns = 4;
constexpr int kRustWarmupRuns = 1;
constexpr int kWidth = 22;
constexpr int kProjectedColumns = 4;

struct Side {
  Clock best = kNoRunYet;
  PeersScanSum sum;
};

// A peer's best full and projected reads: `command` prints one line per read,
// "<prefix> run=I columns=C rows=N sum_k=S bytes=B cpu=S wall=S", `runs` runs of two reads
// each, the first `warmup_runs` dropped. Dies when a read's sums differ from Sluice's.
void PeerScan(const std::string& name, const std::string& command, const std::string& prefix,
              int runs, int warmup_runs, const PeersScanSum& full_expected,
              const PeersScanSum& projected_expected, Side* full, Side* projected) {
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  const std::string format =
      prefix + " run=%d columns=%d rows=%lld sum_k=%lld bytes=%lld cpu=%lf wall=%lf";
  int reads = 0;
  char line[512];
  while (std::fgets(line, sizeof(line), out) != nullptr) {
    int run = 0;
    int columns = 0;
    long long rows = 0, sum_k = 0, bytes = 0;
    Clock time{};
    if (std::sscanf(line, format.c_str(), &run, &columns, &rows, &sum_k, &bytes, &time.cpu,
                    &time.wall) != 7) {
      continue;
    }
    ++reads;
    const PeersScanSum sum{rows, sum_k, bytes};
    const bool is_full = columns != kProjectedColumns;
    if (!(sum == (is_full ? full_expected : projected_expected))) {
      Die(name + " read other rows than Sluice: " + std::string(line));
    }
    std::printf("  %s run %d, %2d columns: cpu %.2f s  wall %.2f s%s\n", name.c_str(), run, columns,
                time.cpu, time.wall, run < warmup_runs ? "  (warm-up, dropped)" : "");
    if (run >= warmup_runs) KeepBest(is_full ? &full->best : &projected->best, time);
  }
  if (pclose(out) != 0 || reads != 2 * runs) Die(name + "'s scan failed: " + command);
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "peers_scan_bench", 3000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const std::string path = args.dir + "/default.db/peers";
  std::printf(
      "table: %lld rows: k INT (primary key, random), f1..f20 STRING(10); bucket 1, parquet zstd,\n"
      "       written by Sluice; read in full and as k, f1, f2, f3; sluice best of %d, java best\n"
      "       of %d after %d warm-up runs in one JVM, rust best of %d after %d; rows/s per\n"
      "       CPU-second\n",
      static_cast<long long>(args.rows), kSluiceRuns, kJavaRuns - kJavaWarmupRuns, kJavaWarmupRuns,
      kRustRuns - kRustWarmupRuns, kRustWarmupRuns);
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
  PeerScan("java",
           bench::PeersJavaCommand("PeersScan", "'" + path + "' " + std::to_string(kJavaRuns),
                                   args.dir + "/java.log"),
           "java_scan", kJavaRuns, kJavaWarmupRuns, full.sum, projected.sum, &java_full,
           &java_projected);
  Side rust_full, rust_projected;
  PeerScan("rust",
           bench::PeersRustCommand("peers_scan_rust.py",
                                   "'" + args.dir + "' default peers " + std::to_string(kRustRuns),
                                   args.dir + "/rust.log"),
           "rust_scan", kRustRuns, kRustWarmupRuns, full.sum, projected.sum, &rust_full,
           &rust_projected);

  const auto rows = static_cast<double>(full.sum.rows);
  PrintTiming(kWidth, "sluice 21 columns", full.best, rows);
  PrintTiming(kWidth, "java 21 columns", java_full.best, rows);
  PrintTiming(kWidth, "rust 21 columns", rust_full.best, rows);
  PrintTiming(kWidth, "sluice 4 columns", projected.best, rows);
  PrintTiming(kWidth, "java 4 columns", java_projected.best, rows);
  PrintTiming(kWidth, "rust 4 columns", rust_projected.best, rows);
  std::printf(
      "RESULT scan_vs_java=%.2f scan_projected_vs_java=%.2f scan_vs_rust=%.2f "
      "scan_projected_vs_rust=%.2f\n",
      java_full.best.cpu / full.best.cpu, java_projected.best.cpu / projected.best.cpu,
      rust_full.best.cpu / full.best.cpu, rust_projected.best.cpu / projected.best.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
