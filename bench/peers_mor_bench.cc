// peers_mor_bench: Sluice against Java Paimon merging five overlapping sorted runs of a
// primary-key table on read, on the same machine in the same run (issue 16).
//
//   peers_mor_bench [--rows N] [--dir DIR]
//
// Table: mor_bench's shape (bench_common.h): k BIGINT primary key, a INT, b DOUBLE, c STRING
// (8-23 characters); bucket 1, parquet, zstd, `write-only` (no compaction), N keys (default
// 1,000,000). Sluice writes it in five commits through one FileStoreWrite, each one level-0
// sorted run: run 0 holds every key, runs 1-4 each update 90% of the keys (later runs win), and
// run 4 deletes 1% of the keys (-D rows). Both sides read the latest snapshot in full, merging
// the five runs, and fold every row into count, sum(k), sum(a) and the bytes of c, which must
// agree.
//
//   sluice  PlanScan and the split readers (MergeSplitReader), best of 3 runs
//   java    bench/java PeersMor: the Java table API (ReadBuilder, row by row), 8 runs in one
//           JVM, the first 4 dropped as warm-up, best of the other 4
//
// Both sides count process CPU time (Java's includes its JIT and GC threads). The last line is
// "RESULT mor_vs_java=R": Sluice's merged rows per CPU-second over Java's.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "peers_rows.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Checksum;
using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::kRuns;
using bench::Now;
using bench::PrintTiming;
using bench::Since;

constexpr int kSluiceRuns = 3;
// Java's read still speeds up over its first five runs of a million keys: four are dropped.
constexpr int kJavaRuns = 8;
constexpr int kJavaWarmupRuns = 4;
constexpr int kWidth = 8;

// Writes the five runs, one commit each; returns the records written.
int64_t WriteRuns(const std::string& path, int64_t keys) {
  std::filesystem::remove_all(path);
  std::shared_ptr<const FileStoreTable> table = bench::CreatePrimaryKeyTable(
      path, bench::RunFields(), {{"file.format", "parquet"}, {"write-only", "true"}});
  auto write = FileStoreWrite::Open(table, FileStoreWriteOptions{});
  Check(write.status(), "open write");
  auto commit = FileStoreCommit::Make(table, "peers-mor-bench");
  Check(commit.status(), "commit");
  ColumnBatch batch(DataType::Row(bench::RunFields()));
  std::vector<RowKind> kinds;
  std::string text;
  int64_t records = 0;
  auto flush = [&] {
    if (batch.num_rows() == 0) return;
    Check((*write)->Write(batch, kinds.data()), "write");
    records += batch.num_rows();
    batch.Clear();
    kinds.clear();
  };
  for (int r = 0; r < kRuns; ++r) {
    for (int64_t k = 0; k < keys; ++k) {
      if (!bench::InRun(k, r)) continue;
      batch.column(0)->AppendFixed<int64_t>(k);
      batch.column(1)->AppendFixed<int32_t>(bench::RunValueA(k, r));
      batch.column(2)->AppendFixed<double>(bench::RunValueB(k, r));
      bench::RunValueC(k, r, &text);
      batch.column(3)->AppendBytes(text);
      batch.set_num_rows(batch.num_rows() + 1);
      kinds.push_back(bench::DeletedInRun(k, r) ? RowKind::kDelete : RowKind::kInsert);
      if (batch.num_rows() == bench::kBatchRows) flush();
    }
    flush();
    auto messages = (*write)->PrepareCommit(r + 1);
    Check(messages.status(), "prepare commit");
    ManifestCommittable committable;
    committable.identifier = r + 1;
    committable.messages = std::move(messages).value();
    Check((*commit)->Commit(committable).status(), "commit");
  }
  Check((*write)->Close(), "close");
  return records;
}

Checksum SluiceRead(const FileStoreTable& table, size_t* sorted_runs) {
  auto plan = PlanScan(table, ScanOptions{});
  Check(plan.status(), "plan");
  Checksum sum;
  *sorted_runs = 0;
  for (const DataSplit& split : plan->splits) {
    *sorted_runs += split.data_files.size();
    const Checksum part = bench::ReadChecksum(table, split);
    sum.rows += part.rows;
    sum.sum_k += part.sum_k;
    sum.sum_a += part.sum_a;
    sum.sum_c += part.sum_c;
  }
  return sum;
}

Clock JavaRead(const std::string& path, const std::string& log, const Checksum& expected) {
  const std::string command =
      bench::PeersJavaCommand("PeersMor", "'" + path + "' " + std::to_string(kJavaRuns), log);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  Clock best = kNoRunYet;
  int reads = 0;
  char line[512];
  while (std::fgets(line, sizeof(line), out) != nullptr) {
    int run = 0;
    Checksum sum;
    Clock time{};
    long long rows = 0, sum_k = 0, sum_a = 0, sum_c = 0;
    if (std::sscanf(line,
                    "java_mor run=%d rows=%lld sum_k=%lld sum_a=%lld sum_c=%lld cpu=%lf "
                    "wall=%lf",
                    &run, &rows, &sum_k, &sum_a, &sum_c, &time.cpu, &time.wall) != 7) {
      continue;
    }
    ++reads;
    sum = Checksum{rows, sum_k, sum_a, sum_c};
    if (!(sum == expected)) {
      Die("Java Paimon read " + sum.ToString() + " but Sluice " + expected.ToString());
    }
    std::printf("  java run %d: cpu %.2f s  wall %.2f s%s\n", run, time.cpu, time.wall,
                run < kJavaWarmupRuns ? "  (warm-up, dropped)" : "");
    if (run >= kJavaWarmupRuns) KeepBest(&best, time);
  }
  if (pclose(out) != 0 || reads != kJavaRuns) Die("Java Paimon's read failed (see " + log + ")");
  return best;
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "peers_mor_bench", 1000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const std::string path = args.dir + "/default.db/mor";
  const Clock t0 = Now();
  const int64_t records = WriteRuns(path, args.rows);
  std::printf(
      "table: %lld keys: k BIGINT (primary key), a INT, b DOUBLE, c STRING(8-23); bucket 1,\n"
      "       parquet zstd; %lld records in %d level-0 runs written by Sluice (%.1f s); sluice\n"
      "       best of %d, java best of %d after %d warm-up runs in one JVM; rows/s per "
      "CPU-second\n",
      static_cast<long long>(args.rows), static_cast<long long>(records), kRuns, Since(t0).wall,
      kSluiceRuns, kJavaRuns - kJavaWarmupRuns, kJavaWarmupRuns);
  std::fflush(stdout);
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  Check(table.status(), "open table");

  Clock sluice = kNoRunYet;
  Checksum sum;
  size_t files = 0;
  for (int run = 0; run < kSluiceRuns; ++run) {
    const Clock start = Now();
    sum = SluiceRead(**table, &files);
    KeepBest(&sluice, Since(start));
  }
  if (files != static_cast<size_t>(kRuns)) {
    Die("the plan holds " + std::to_string(files) + " data files, not the " +
        std::to_string(kRuns) + " runs");
  }
  const Clock java = JavaRead(path, args.dir + "/java.log", sum);

  const auto rows = static_cast<double>(sum.rows);
  std::printf("result: %s (the same from Java Paimon)\n", sum.ToString().c_str());
  PrintTiming(kWidth, "sluice", sluice, rows);
  PrintTiming(kWidth, "java", java, rows);
  std::printf("RESULT mor_vs_java=%.2f\n", java.cpu / sluice.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
