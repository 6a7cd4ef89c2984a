// changelog_bench: the upsert workload of bench/run.sh upsert into a primary-key table with
// `changelog-producer = lookup` (changelog files written at the compaction of level 0, commit
// waiting for it as `lookup-wait` asks), then into the same table with no changelog producer,
// both written through FileStoreWrite in batches of 65536 rows and committed once (issue 12).
// The lookup table's changelog is then read as a streaming read reads it (every snapshot's
// changelog, PlanScan kDelta) and must hold one +I per key.
//
//   changelog_bench [--rows N] [--dir DIR]
//
// The last line is "RESULT lookup_vs_none=R": the lookup table's ingest rows per CPU second over
// the plain table's.

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
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

Clock Ingest(const std::string& path, const std::string& producer,
             const std::vector<std::unique_ptr<ColumnBatch>>& data) {
  auto table =
      bench::CreatePrimaryKeyTable(path, bench::UpsertFields(), {{"changelog-producer", producer}});
  const Clock t0 = Now();
  bench::WriteAndCommitOnce(table, data, "changelog-bench");
  return Since(t0);
}

// Rows of every snapshot's changelog, and how many of them are +I.
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

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "changelog_bench", 10000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const DataTypePtr type = DataType::Row(bench::UpsertFields());
  int64_t distinct = 0;
  auto data = bench::MakeUpsertWorkload(args.rows, type, &distinct);
  std::printf("workload: %lld upserts of %lld keys (the upsert benchmark's)\n",
              static_cast<long long>(args.rows), static_cast<long long>(distinct));

  const std::string lookup_path = args.dir + "/db.db/lookup";
  const Clock lookup = Ingest(lookup_path, "lookup", data);
  const Clock none = Ingest(args.dir + "/db.db/none", "none", data);
  const Clock t0 = Now();
  int64_t changelog_rows = 0;
  int64_t inserts = 0;
  ReadChangelog(lookup_path, &changelog_rows, &inserts);
  const Clock read = Since(t0);
  // One commit: every key's changelog is its one insert.
  if (inserts != distinct || changelog_rows != distinct) {
    Die("the lookup table's changelog holds " + std::to_string(changelog_rows) + " rows, " +
        std::to_string(inserts) + " of them +I, for " + std::to_string(distinct) + " keys");
  }

  PrintTiming(16, "ingest lookup", lookup, static_cast<double>(args.rows));
  PrintTiming(16, "ingest none", none, static_cast<double>(args.rows));
  PrintTiming(16, "read changelog", read, static_cast<double>(changelog_rows));
  std::printf("RESULT lookup_vs_none=%.3f\n", none.cpu / lookup.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
