// dv_read_bench: a full read of the latest state of a primary-key table with deletion vectors
// (each file read on its own, the replaced rows skipped through its deletion vector, no merge)
// against the same rows in a table read as merge-on-read (issue 12).
//
//   dv_read_bench [--rows N] [--dir DIR]
//
// Workload: the upsert benchmark's N upserts (bench/upsert_workload.h), written through one
// FileStoreWrite into two tables in 1 + kIncrements commits (the first half of the batches as
// the initial load, then the rest in kIncrements commits of about equal size), (bucket 1, parquet
// zstd, Paimon's defaults otherwise):
//   dv   `deletion-vectors.enabled`: each commit's level-0 file is compacted into the levels
//        above (lookup compaction), the rows it replaces in older files marked in deletion
//        vectors; the scan hands over raw-convertible splits of level > 0 files with their
//        deletion files.
//   mor  `write-only`: no compaction, 1 + kIncrements overlapping level-0 runs the reader
//        merges.
// Both are planned and read in full (every column decoded, folded into a checksum of count,
// sum(k), sum(v1), sum(strlen(v4)) that must agree), best of 7 runs (a read takes a quarter of a
// second: fewer runs let one slow run decide). The last line is "RESULT dv_vs_mor=R": the
// deletion-vector table's rows per CPU second over merge-on-read's.

#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "sluice/table/file_store_table.h"
#include "upsert_workload.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Checksum;
using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::Now;
using bench::PrintTiming;
using bench::Since;

constexpr size_t kIncrements = 5;
constexpr int kRepeats = 7;

// What a read of the table saw: the checksum, and its splits and files.
struct ReadStats {
  Checksum sum;
  int64_t splits = 0;
  int64_t raw_splits = 0;  // read file by file, no merge
  int64_t files = 0;
  int64_t deletion_files = 0;
};

ReadStats ReadTable(const FileStoreTable& table) {
  ReadStats stats;
  const DataSplit* last = nullptr;
  bench::ReadLatest(table, [&](const DataSplit& split, const ColumnBatch& batch) {
    if (&split != last) {
      last = &split;
      ++stats.splits;
      stats.raw_splits += split.raw_convertible ? 1 : 0;
      stats.files += static_cast<int64_t>(split.data_files.size());
      for (const auto& file : split.deletion_files) stats.deletion_files += file ? 1 : 0;
    }
    const int64_t n = batch.num_rows();
    const int64_t* k = batch.column(0)->data<int64_t>();
    const ColumnVector& v1 = *batch.column(1);
    const int32_t* v1s = v1.data<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      stats.sum.sum_k += k[i];
      if (!v1.IsNull(i)) stats.sum.sum_a += v1s[i];
    }
    const ColumnVector& v4 = *batch.column(4);
    stats.sum.sum_c += v4.offset_data()[n] - v4.offset_data()[0];
    stats.sum.rows += n;
  });
  return stats;
}

std::shared_ptr<const FileStoreTable> Write(const std::string& path,
                                            const std::map<std::string, std::string>& options,
                                            const std::vector<std::unique_ptr<ColumnBatch>>& data,
                                            Clock* took) {
  std::map<std::string, std::string> all = options;
  all.emplace("file.format", "parquet");
  all.emplace("file.compression", "zstd");
  auto table = bench::CreatePrimaryKeyTable(path, bench::UpsertFields(), all);
  const Clock t0 = Now();
  std::vector<size_t> ends = {data.size() / 2};
  for (size_t i = 1; i <= kIncrements; ++i) {
    ends.push_back(data.size() / 2 + (data.size() - data.size() / 2) * i / kIncrements);
  }
  bench::WriteAndCommit(table, data, "dv-read-bench", ends);
  *took = Since(t0);
  auto latest = FileStoreTable::Open(LocalFileIO(), path);
  Check(latest.status(), "reopen");
  return std::move(latest).value();
}

void PrintLayout(const char* what, const ReadStats& s) {
  std::printf(
      "%-4s %lld splits (%lld read file by file), %lld data files, %lld with a deletion "
      "vector\n",
      what, static_cast<long long>(s.splits), static_cast<long long>(s.raw_splits),
      static_cast<long long>(s.files), static_cast<long long>(s.deletion_files));
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "dv_read_bench", 4000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const DataTypePtr type = DataType::Row(bench::UpsertFields());
  int64_t distinct = 0;
  auto data = bench::MakeUpsertWorkload(args.rows, type, &distinct);
  std::printf(
      "workload: %lld upserts of %lld keys (the upsert benchmark's): half in one commit, "
      "the rest in %zu\n",
      static_cast<long long>(args.rows), static_cast<long long>(distinct), kIncrements);

  Clock write_dv, write_mor;
  auto dv = Write(args.dir + "/db.db/dv", {{"deletion-vectors.enabled", "true"}}, data, &write_dv);
  auto mor = Write(args.dir + "/db.db/mor", {{"write-only", "true"}}, data, &write_mor);
  data.clear();

  Clock dv_best = kNoRunYet, mor_best = kNoRunYet;
  ReadStats dv_stats, mor_stats;
  for (int repeat = 0; repeat < kRepeats; ++repeat) {
    Clock t0 = Now();
    dv_stats = ReadTable(*dv);
    KeepBest(&dv_best, Since(t0));
    t0 = Now();
    mor_stats = ReadTable(*mor);
    KeepBest(&mor_best, Since(t0));
  }
  if (!(dv_stats.sum == mor_stats.sum)) {
    Die("the deletion-vector table read " + dv_stats.sum.ToString() + " but merge-on-read " +
        mor_stats.sum.ToString());
  }
  if (dv_stats.sum.rows != distinct) {
    Die("read " + std::to_string(dv_stats.sum.rows) + " rows for " + std::to_string(distinct) +
        " keys");
  }
  PrintLayout("dv", dv_stats);
  PrintLayout("mor", mor_stats);
  // The comparison means something only when one side merges and the other does not.
  if (dv_stats.raw_splits != dv_stats.splits || dv_stats.deletion_files == 0) {
    Die("the deletion-vector table is not read file by file with deletion vectors");
  }
  if (mor_stats.raw_splits != 0) Die("the merge-on-read table has a raw split");
  std::printf("result: %s (same from both)\n", dv_stats.sum.ToString().c_str());

  const double rows = static_cast<double>(dv_stats.sum.rows);
  PrintTiming(10, "write dv", write_dv, static_cast<double>(args.rows));
  PrintTiming(10, "write mor", write_mor, static_cast<double>(args.rows));
  PrintTiming(10, "read dv", dv_best, rows);
  PrintTiming(10, "read mor", mor_best, rows);
  std::printf("RESULT dv_vs_mor=%.3f\n", mor_best.cpu / dv_best.cpu);
  std::filesystem::remove_all(args.dir);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
