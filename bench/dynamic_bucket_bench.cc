// dynamic_bucket_bench: the upsert workload of bench/run.sh upsert into a dynamic-bucket
// primary-key table (bucket = -1: bucket assignment through the hash index, HASH files written
// at commit), then into a fixed-bucket table with as many buckets as the dynamic one ended
// with, both written through FileStoreWrite in batches of 65536 rows, committed once, then read
// in full (issue 11).
//
//   dynamic_bucket_bench [--rows N] [--dir DIR]
//
// The last line is "RESULT dynamic_vs_fixed=R": the dynamic table's ingest rows per CPU second
// over the fixed table's (read times are printed too).

#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench_common.h"
#include "sluice/meta/file_paths.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "upsert_workload.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::Now;
using bench::PrintTiming;
using bench::Since;

struct Run {
  Clock ingest;
  Clock read;
  int64_t rows = 0;
  std::set<int32_t> buckets;
};

Run WriteAndRead(const std::string& path, int32_t buckets,
                 const std::vector<std::unique_ptr<ColumnBatch>>& data) {
  Run run;
  auto table = bench::CreatePrimaryKeyTable(path, bench::UpsertFields(),
                                            {{"bucket", std::to_string(buckets)}});
  Clock t0 = Now();
  bench::WriteAndCommitOnce(table, data, "dynamic-bucket-bench");
  run.ingest = Since(t0);
  t0 = Now();
  auto latest = FileStoreTable::Open(LocalFileIO(), path);
  Check(latest.status(), "reopen");
  auto plan = PlanScan(**latest, ScanOptions{});
  Check(plan.status(), "plan");
  for (DataSplit& split : plan->splits) {
    run.buckets.insert(split.bucket);
    auto reader =
        OpenSplitReader(**latest, (*latest)->schema_ptr(), std::move(split), SplitReadOptions{});
    Check(reader.status(), "open split");
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      Check(more.status(), "read");
      if (!*more) break;
      run.rows += batch.num_rows();
    }
  }
  run.read = Since(t0);
  return run;
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "dynamic_bucket_bench", 10000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const DataTypePtr type = DataType::Row(bench::UpsertFields());
  int64_t distinct = 0;
  auto data = bench::MakeUpsertWorkload(args.rows, type, &distinct);
  std::printf("workload: %lld upserts of %lld keys (the upsert benchmark's)\n",
              static_cast<long long>(args.rows), static_cast<long long>(distinct));

  const Run dynamic = WriteAndRead(args.dir + "/db.db/dynamic", -1, data);
  if (dynamic.rows != distinct) Die("the dynamic-bucket table read a wrong count");
  const int32_t buckets = static_cast<int32_t>(dynamic.buckets.size());
  const Run fixed = WriteAndRead(args.dir + "/db.db/fixed", buckets, data);
  if (fixed.rows != distinct) Die("the fixed-bucket table read a wrong count");

  std::printf(
      "dynamic-bucket table: %d buckets (dynamic-bucket.target-row-num 2000000); fixed: %d\n",
      buckets, buckets);
  PrintTiming(16, "ingest dynamic", dynamic.ingest, static_cast<double>(args.rows));
  PrintTiming(16, "ingest fixed", fixed.ingest, static_cast<double>(args.rows));
  PrintTiming(16, "read   dynamic", dynamic.read, static_cast<double>(distinct));
  PrintTiming(16, "read   fixed", fixed.read, static_cast<double>(distinct));
  std::printf("RESULT dynamic_vs_fixed=%.3f\n", fixed.ingest.cpu / dynamic.ingest.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
