// peers_lookup_bench: Sluice against Java Paimon writing upserts into a primary-key table with
// `changelog-producer = lookup` on the same machine in the same run (issue 16).
//
//   peers_lookup_bench [--rows N] [--dir DIR]
//
// Workload: bench/run.sh upsert's (bench/upsert_workload.h): N upserts (default 1,000,000) of
// k BIGINT primary key, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING, v5 DOUBLE, half of them
// updating a key written earlier. Table: bucket 1, changelog-producer = lookup, Paimon's
// defaults otherwise (parquet, zstd). Each side writes every row through one writer thread,
// commits once (the commit waits for the lookup compaction of level 0, which writes the
// changelog) and closes the write. The rows are made before the timing on both sides: Sluice's
// batches in memory, and Java's GenericRows loaded from the file the C++ side dumps them to.
//
//   sluice  FileStoreWrite in batches of 65536 rows, a fresh table per run, best of 3 runs
//   java    bench/java PeersLookupWrite: the Java table API writing row by row, 4 runs in one
//           JVM (the table truncated between runs), the first 2 dropped as warm-up, best of the
//           other 2
//
// Both sides count process CPU time (Java's includes its JIT and GC threads). After the runs,
// each table must hold one row per distinct key, and Sluice's changelog one +I per key. The
// last line is "RESULT lookup_write_vs_java=R": Sluice's rows per CPU-second over Java's.

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "peers_rows.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "upsert_workload.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::Now;
using bench::PrintTiming;
using bench::Since;

constexpr int kSluiceRuns = 3;
constexpr int kJavaRuns = 4;
constexpr int kJavaWarmupRuns = 2;
constexpr int kWidth = 14;

template <typename T>
void Put(std::string* out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // little-endian on the machines Sluice builds for
  out->append(bytes, sizeof(T));
}

// The rows as PeersLookupWrite loads them (see its header).
void DumpRows(const std::vector<std::unique_ptr<ColumnBatch>>& data, const std::string& path) {
  std::string out;
  for (const auto& batch : data) {
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      Put(&out, batch->column(0)->data<int64_t>()[i]);
      Put(&out, batch->column(1)->data<int32_t>()[i]);
      Put(&out, batch->column(2)->data<int64_t>()[i]);
      Put(&out, batch->column(3)->data<double>()[i]);
      const std::string_view text = batch->column(4)->GetBytes(i);
      Put(&out, static_cast<int32_t>(text.size()));
      out.append(text);
      Put(&out, batch->column(5)->data<double>()[i]);
    }
  }
  std::ofstream file(path, std::ios::binary);
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (!file) Die("cannot write " + path);
}

Clock SluiceWrite(const std::string& path, const std::vector<std::unique_ptr<ColumnBatch>>& data) {
  std::filesystem::remove_all(path);
  auto table =
      bench::CreatePrimaryKeyTable(path, bench::UpsertFields(), {{"changelog-producer", "lookup"}});
  const Clock start = Now();
  bench::WriteAndCommitOnce(table, data, "peers-lookup-bench");
  return Since(start);
}

// The rows of every snapshot's changelog (as a streaming read reads them), and how many of them
// are +I.
void ReadChangelog(const std::string& path, int64_t* rows, int64_t* inserts) {
  auto table = FileStoreTable::Open(LocalFileIO(), path);
  Check(table.status(), "reopen");
  auto latest = (*table)->SelectSnapshot(TableVersion::Latest());
  Check(latest.status(), "latest snapshot");
  if (!*latest) Die("the lookup table has no snapshot");
  SplitReadOptions options;
  options.with_row_kind = true;
  for (int64_t id = 1; id <= (**latest).id; ++id) {
    ScanOptions scan;
    scan.version = TableVersion::SnapshotId(id);
    scan.mode = ScanMode::kDelta;
    auto plan = PlanScan(**table, scan);
    Check(plan.status(), "plan");
    for (DataSplit& split : plan->splits) {
      auto reader = OpenSplitReader(**table, (*table)->schema_ptr(), std::move(split), options);
      Check(reader.status(), "open split");
      ColumnBatch batch((*reader)->output_type());
      while (true) {
        auto more = (*reader)->Next(&batch);
        Check(more.status(), "read");
        if (!*more) break;
        *rows += batch.num_rows();
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          *inserts += batch.column(0)->GetBytes(i) == "+I" ? 1 : 0;
        }
      }
    }
  }
}

struct JavaResult {
  Clock best = kNoRunYet;
  int64_t rows_held = -1;
};

JavaResult JavaWrite(const std::string& dir, const std::string& rows_file) {
  const std::string warehouse = dir + "/java";
  std::filesystem::remove_all(warehouse);
  std::filesystem::create_directories(warehouse);
  const std::string log = dir + "/java.log";
  const std::string command = bench::PeersJavaCommand(
      "PeersLookupWrite", "'" + warehouse + "' '" + rows_file + "' " + std::to_string(kJavaRuns),
      log);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  JavaResult result;
  char line[512];
  while (std::fgets(line, sizeof(line), out) != nullptr) {
    int run = 0;
    long long n = 0;
    Clock time{};
    if (std::sscanf(line, "java_lookup_write run=%d rows=%lld cpu=%lf wall=%lf", &run, &n,
                    &time.cpu, &time.wall) == 4) {
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

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "peers_lookup_bench", 1000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  int64_t distinct = 0;
  const auto data =
      bench::MakeUpsertWorkload(args.rows, DataType::Row(bench::UpsertFields()), &distinct);
  const std::string rows_file = args.dir + "/rows.bin";
  DumpRows(data, rows_file);
  std::printf(
      "workload: %lld upserts of %lld keys (the upsert benchmark's); bucket 1,\n"
      "          changelog-producer lookup, one commit; sluice best of %d, java best of %d after\n"
      "          %d warm-up runs in one JVM; rows/s per CPU-second\n",
      static_cast<long long>(args.rows), static_cast<long long>(distinct), kSluiceRuns,
      kJavaRuns - kJavaWarmupRuns, kJavaWarmupRuns);
  std::fflush(stdout);

  const std::string path = args.dir + "/sluice";
  Clock sluice = kNoRunYet;
  for (int run = 0; run < kSluiceRuns; ++run) KeepBest(&sluice, SluiceWrite(path, data));
  const int64_t sluice_rows = bench::ReadLatestRows(path);
  int64_t changelog_rows = 0;
  int64_t inserts = 0;
  ReadChangelog(path, &changelog_rows, &inserts);
  // One commit: every key's changelog is its one insert.
  if (sluice_rows != distinct || changelog_rows != distinct || inserts != distinct) {
    Die("Sluice's table holds " + std::to_string(sluice_rows) + " rows and a changelog of " +
        std::to_string(changelog_rows) + " (" + std::to_string(inserts) + " +I) for " +
        std::to_string(distinct) + " keys");
  }
  const JavaResult java = JavaWrite(args.dir, rows_file);
  if (java.rows_held != distinct) {
    Die("Java Paimon's table holds " + std::to_string(java.rows_held) + " rows for " +
        std::to_string(distinct) + " keys");
  }
  const auto rows = static_cast<double>(args.rows);
  const std::string held = "(" + std::to_string(distinct) + " rows after merging)";
  PrintTiming(kWidth, "sluice lookup", sluice, rows, held);
  PrintTiming(kWidth, "java lookup", java.best, rows, held);
  std::printf("RESULT lookup_write_vs_java=%.2f\n", java.best.cpu / sluice.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
