// bench/run.sh service (#33): 3 writer processes at full speed into 10 primary-key tables
// (each writer its own tables: t0, t3, t6, t9 / t1, t4, t7 / t2, t5, t8), twice in one run:
//   service  the writers with `write-only=true` while `sluice serve` compacts every table
//            (compact_database, continuous, one compaction thread: on 2 cores beside 3 writers a
//            second thread takes the writers' CPU): Java's dedicated compaction;
//   inline   the same writers with `write-only=false`, compacting in their own processes (and
//            stalling at `num-sorted-run.stop-trigger`), no service.
// Each writer commits batches of 20 K upserts (keys drawn from 1 M per table) to the tables in
// turn. ingest_rows_per_s is all writers' rows over the wall time until the last writer is
// done; max_sorted_runs the most sorted runs of any bucket seen while they write (sampled);
// compaction_cpu_share the service's CPU over the service's and the writers'; rss_mb the
// service's peak; vs_inline the service run's ingest rate over the inline run's.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "bench_common.h"
#include "cdc_bench_util.h"
#include "sluice/catalog.h"
#include "sluice/system_tables.h"
#include "sluice/table_commit.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"

namespace sluice::bench {
namespace {

constexpr int kTables = 10;
constexpr int kWriters = 3;
constexpr int kBuckets = 2;
constexpr int64_t kRowsPerCommit = 20000;
constexpr int64_t kKeysPerTable = 1000000;

std::string TableName(int t) { return "bench.t" + std::to_string(t); }

void CreateTables(const std::string& warehouse) {
  Catalog catalog = Catalog::Filesystem(warehouse);
  Check(catalog.CreateDatabase("bench"), "create database");
  for (int t = 0; t < kTables; ++t) {
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "qty", DataType::BigInt()),
                    Field(2, "name", DataType::String())};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", std::to_string(kBuckets)}};
    Check(catalog.CreateTable(TableName(t), spec), "create table");
  }
}

// A writer process: `rows` upserts over the tables in turn, a commit per kRowsPerCommit.
[[noreturn]] void Writer(const std::string& warehouse, int writer, int64_t rows, bool write_only) {
  Catalog catalog = Catalog::Filesystem(warehouse);
  std::mt19937_64 random(writer + 1);
  struct Open {
    std::unique_ptr<WriteBuilder> builder;
    std::unique_ptr<TableWrite> write;
    std::unique_ptr<TableCommit> commit;
  };
  std::vector<Open> open(kTables);
  for (int t = 0; t < kTables; ++t) {
    Result<Table> table = catalog.GetTable(TableName(t));
    Check(table.status(), "open table");
    open[t].builder = std::make_unique<WriteBuilder>(table->NewWriteBuilder());
    open[t].builder->WithOption("write-only", write_only ? "true" : "false");
    Result<std::unique_ptr<TableWrite>> write = open[t].builder->NewWrite();
    Check(write.status(), "new write");
    open[t].write = std::move(*write);
    Result<std::unique_ptr<TableCommit>> commit = open[t].builder->NewCommit();
    Check(commit.status(), "new commit");
    open[t].commit = std::move(*commit);
  }
  int64_t written = 0;
  // A writer owns the tables t with t % kWriters == writer: inline compaction is one writer's
  // per bucket (two writers compacting one bucket would conflict, in Java as here).
  for (int t = writer; written < rows; t = t + kWriters < kTables ? t + kWriters : writer) {
    TableWrite& write = *open[t].write;
    ColumnBatch batch(write.input_type());
    const int64_t n = std::min(kRowsPerCommit, rows - written);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t id = static_cast<int64_t>(random() % kKeysPerTable);
      Check(batch.AppendRow({Value::Int64(id), Value::Int64(written + i),
                             Value::String("name-" + std::to_string(id % 9973))}),
            "append");
    }
    Check(write.Write(batch), "write");
    Result<std::vector<CommitMessage>> messages = write.PrepareCommit();
    Check(messages.status(), "prepare commit");
    Check(open[t].commit->Commit(std::move(*messages)).status(), "commit");
    written += n;
  }
  for (Open& o : open) Check(o.write->Close(), "close");
  std::_Exit(0);
}

// The most sorted runs of any bucket of any table (level-0 files each a run, every other
// non-empty level one run).
int MaxSortedRuns(const Catalog& catalog) {
  int most = 0;
  for (int t = 0; t < kTables; ++t) {
    Result<ColumnBatch> files = ReadSystemTable(catalog, TableName(t) + "$files");
    if (!files.ok()) continue;
    int bucket_col = -1, level_col = -1;
    const auto& fields = files->schema()->fields();
    for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
      if (fields[i].name == "bucket") bucket_col = i;
      if (fields[i].name == "level") level_col = i;
    }
    std::map<int64_t, std::pair<int, std::set<int64_t>>> runs;
    for (int64_t r = 0; r < files->num_rows(); ++r) {
      Value row = files->GetRow(r);
      const int64_t bucket = row.list()[bucket_col].AsInt64();
      const int64_t level = row.list()[level_col].AsInt64();
      if (level == 0) {
        ++runs[bucket].first;
      } else {
        runs[bucket].second.insert(level);
      }
    }
    for (const auto& [bucket, r] : runs) {
      most = std::max(most, r.first + static_cast<int>(r.second.size()));
    }
  }
  return most;
}

struct Phase {
  double ingest_rows_per_s = 0;
  double writers_cpu_s = 0;
  int max_sorted_runs = 0;
};

// Runs the writers (fork) until each wrote `rows_per_writer` rows, sampling the sorted runs.
Phase RunWriters(const std::string& warehouse, int64_t rows_per_writer, bool write_only) {
  Catalog catalog = Catalog::Filesystem(warehouse);
  const double start = SteadySeconds();
  std::vector<pid_t> pids;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = ::fork();
    if (pid < 0) Die("fork");
    if (pid == 0) Writer(warehouse, w, rows_per_writer, write_only);
    pids.push_back(pid);
  }
  Phase phase;
  std::atomic<bool> done{false};
  std::thread sampler([&] {
    while (!done.load()) {
      phase.max_sorted_runs = std::max(phase.max_sorted_runs, MaxSortedRuns(catalog));
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
  });
  double end = start;
  for (pid_t pid : pids) {
    ChildUsage usage = WaitChild(pid, start);
    if (!WIFEXITED(usage.status) || WEXITSTATUS(usage.status) != 0) Die("a writer failed");
    phase.writers_cpu_s += usage.cpu_s();
    end = std::max(end, start + usage.wall_s);
  }
  done.store(true);
  sampler.join();
  phase.max_sorted_runs = std::max(phase.max_sorted_runs, MaxSortedRuns(catalog));
  phase.ingest_rows_per_s = static_cast<double>(rows_per_writer * kWriters) / (end - start);
  return phase;
}

}  // namespace
}  // namespace sluice::bench

int main(int argc, char** argv) {
  using namespace sluice::bench;
  Args args = ParseArgs(argc, argv, "service_bench", 30000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const int64_t rows_per_writer = args.rows / kWriters;

  // The service run.
  const std::string service_warehouse = args.dir + "/service";
  CreateTables(service_warehouse);
  const std::string config = args.dir + "/sluice.yaml";
  std::ofstream(config) << "metrics: {enabled: false}\n"
                           "jobs:\n"
                           "  - name: compact\n"
                           "    action: compact_database\n"
                           "    args: [--warehouse, '"
                        << service_warehouse
                        << "', --including_databases, bench,\n"
                           "           --table_conf, continuous.discovery-interval=1 s,\n"
                           "           --compaction_threads, 1]\n"
                           "    mode: continuous\n";
  const std::string log = args.dir + "/serve.log";
  const double serve_start = SteadySeconds();
  const pid_t serve = Spawn({SLUICE_BENCH_SLUICE, "serve", "--config", config}, log);
  Phase service = RunWriters(service_warehouse, rows_per_writer, true);
  ::kill(serve, SIGTERM);
  ChildUsage serve_usage = WaitChild(serve, serve_start);
  if (!WIFEXITED(serve_usage.status) || WEXITSTATUS(serve_usage.status) != 0) {
    DieWithLog("sluice serve failed", log);
  }
  std::printf(
      "service: %.0f rows/s, writers %.2f s CPU, service %.2f s CPU, peak RSS %lld MB, "
      "max sorted runs %d\n",
      service.ingest_rows_per_s, service.writers_cpu_s, serve_usage.cpu_s(),
      static_cast<long long>(serve_usage.max_rss_mb), service.max_sorted_runs);

  // The inline run.
  const std::string inline_warehouse = args.dir + "/inline";
  CreateTables(inline_warehouse);
  Phase inline_run = RunWriters(inline_warehouse, rows_per_writer, false);
  std::printf("inline: %.0f rows/s, writers %.2f s CPU, max sorted runs %d\n",
              inline_run.ingest_rows_per_s, inline_run.writers_cpu_s, inline_run.max_sorted_runs);

  std::printf(
      "RESULT ingest_rows_per_s=%.0f max_sorted_runs=%d compaction_cpu_share=%.2f rss_mb=%lld "
      "vs_inline=%.2f\n",
      service.ingest_rows_per_s, service.max_sorted_runs,
      serve_usage.cpu_s() / (serve_usage.cpu_s() + service.writers_cpu_s),
      static_cast<long long>(serve_usage.max_rss_mb),
      service.ingest_rows_per_s / inline_run.ingest_rows_per_s);
  return 0;
}
