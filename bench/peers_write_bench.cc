// peers_write_bench: Sluice against Java Paimon writing the same primary-key table on the same
// machine in the same run (issue 16), in the shape of Java Paimon's TableWriterBenchmark.
//
//   peers_write_bench [--rows N] [--dir DIR]
//
// Table: k INT primary key and f1..f20 STRING of 10 hex characters (bench/peers_rows.h; the
// keys are random, so a few repeat and merge), bucket 1, Paimon's defaults otherwise (zstd),
// once with file.format parquet and once with orc. Each side generates the N rows (default
// 3,000,000) from the same SplitMix64 seed while writing them, in one writer thread, commits
// them once and closes the write; the generation is inside the timing on both sides, as in
// Java's benchmark.
//
//   sluice  FileStoreWrite in batches of 65536 rows, a fresh table per run, best of 3 runs
//   java    bench/java PeersWrite: the Java table API writing row by row (GenericRow), 4 runs
//           in one JVM, the first 2 dropped as warm-up, best of the other 2
//
// Both sides count process CPU time (Java's includes its JIT and GC threads). After the runs,
// the rows each table holds are read back and must agree (the same keys were written). The
// last line is "RESULT write_vs_java=R write_vs_java_orc=R": Sluice's rows per CPU-second over
// Java's, for Parquet and ORC.

#include <cstdio>
#include <filesystem>
#include <string>

#include "bench_common.h"
#include "peers_rows.h"

namespace sluice {
namespace {

using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::PrintTiming;

constexpr int kSluiceRuns = 3;
constexpr int kJavaRuns = 4;
constexpr int kJavaWarmupRuns = 2;
constexpr int kWidth = 16;

struct JavaResult {
  Clock best = kNoRunYet;
  int64_t rows_held = -1;
};

// Runs PeersWrite in one JVM over the warehouse `warehouse`; its stderr goes to java.log beside.
JavaResult JavaWrite(const std::string& warehouse, const std::string& format, int64_t rows) {
  std::filesystem::remove_all(warehouse);
  std::filesystem::create_directories(warehouse);
  const std::string log = warehouse + "/../java_" + format + ".log";
  const std::string command =
      bench::PeersJavaCommand("PeersWrite",
                              "'" + warehouse + "' " + std::to_string(rows) + " " + format + " " +
                                  std::to_string(kJavaRuns),
                              log);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  JavaResult result;
  char line[512];
  while (std::fgets(line, sizeof(line), out) != nullptr) {
    int run = 0;
    long long n = 0;
    Clock time{};
    if (std::sscanf(line, "java_write run=%d rows=%lld cpu=%lf wall=%lf", &run, &n, &time.cpu,
                    &time.wall) == 4) {
      std::printf("  java run %d: cpu %.2f s  wall %.2f s%s\n", run, time.cpu, time.wall,
                  run < kJavaWarmupRuns ? "  (warm-up, dropped)" : "");
      if (run >= kJavaWarmupRuns) KeepBest(&result.best, time);
    } else if (std::sscanf(line, "java_rows=%lld", &n) == 1) {
      result.rows_held = n;
    }
  }
  if (pclose(out) != 0 || result.rows_held < 0) {
    Die("Java Paimon's write failed (see " + log + ")");
  }
  return result;
}

// Both sides on one format; returns Sluice's rows per CPU-second over Java's.
double Race(const std::string& dir, const std::string& format, int64_t rows) {
  std::printf("%s:\n", format.c_str());
  std::fflush(stdout);
  const std::string sluice_path = dir + "/sluice_" + format;
  Clock sluice = kNoRunYet;
  for (int run = 0; run < kSluiceRuns; ++run)
    KeepBest(&sluice, bench::WritePeersTable(sluice_path, format, rows));
  const int64_t sluice_rows = bench::ReadLatestRows(sluice_path);
  const JavaResult java = JavaWrite(dir + "/java_" + format, format, rows);
  if (sluice_rows != java.rows_held) {
    Die(format + ": Sluice's table holds " + std::to_string(sluice_rows) + " rows, Java Paimon's " +
        std::to_string(java.rows_held));
  }
  std::string held = "(";
  held += std::to_string(sluice_rows);
  held += " rows after merging)";
  PrintTiming(kWidth, ("sluice " + format).c_str(), sluice, static_cast<double>(rows), held);
  PrintTiming(kWidth, ("java " + format).c_str(), java.best, static_cast<double>(rows), held);
  std::fflush(stdout);
  return java.best.cpu / sluice.cpu;
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "peers_write_bench", 3000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  std::printf(
      "table: %lld rows: k INT (primary key, random), f1..f20 STRING(10); bucket 1, zstd;\n"
      "       one writer thread, rows generated while written; sluice best of %d, java best of\n"
      "       %d after %d warm-up runs in one JVM; rows/s per CPU-second\n",
      static_cast<long long>(args.rows), kSluiceRuns, kJavaRuns - kJavaWarmupRuns, kJavaWarmupRuns);
  const double parquet = Race(args.dir, "parquet", args.rows);
  const double orc = Race(args.dir, "orc", args.rows);
  std::printf("RESULT write_vs_java=%.2f write_vs_java_orc=%.2f\n", parquet, orc);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
