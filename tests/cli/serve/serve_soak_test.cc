// Soak: one `sluice serve` compacting 20 primary-key tables that 3 writer processes write with
// `write-only=true` (they never compact), for SLUICE_SOAK_SECONDS (60 in CI: about 360 commits
// and a hundred sampling rounds on the 2-core machine; the 10 minutes by hand with
// SLUICE_SOAK_SECONDS=600). Sampled all along: the sorted runs of every bucket stay
// at or under `num-sorted-run.stop-trigger`, the snapshots within retention, the service's RSS
// flat; no writer ever sees an error (a conflict with the compactor included); every table is
// compacted (no table starves); at the end every table holds exactly what its writers
// committed and `sluice check` is clean.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "serve_test_util.h"
#include "sluice/catalog.h"
#include "sluice/system_tables.h"
#include "sluice/table_commit.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice::test {
namespace {

constexpr int kTables = 20;
constexpr int kWriters = 3;
constexpr int kBuckets = 2;
constexpr int kCompactionTrigger = 3;
constexpr int kStopTrigger = 6;
constexpr int kRetainedMax = 30;
// Keys each writer draws from, per table: small enough that updates are common.
constexpr int64_t kKeysPerWriter = 3000;
constexpr int kRowsPerCommit = 300;
// Each writer's pace: a steady ingest of 2 commits a second (6 over the 20 tables, 1,800 rows a
// second), which the service must keep compacted on a 2-core machine under ASan next to the
// writers. How fast write-only writers can go while the service compacts is the `service`
// benchmark's question, not this test's.
constexpr auto kCommitEvery = std::chrono::milliseconds(500);

std::string TableName(int t) { return "soak.t" + std::to_string(t); }

int SoakSeconds() {
  const char* text = std::getenv("SLUICE_SOAK_SECONDS");
  return text != nullptr ? std::atoi(text) : 60;
}

// One writer process: round-robin over the tables, a commit of kRowsPerCommit upserts each
// every kCommitEvery, with `write-only=true`, until `deadline_file` exists. Writes what it
// committed last for each key (the model) and every error it saw to `out`, then exits: 0 when no
// call failed.
[[noreturn]] void RunWriter(const std::string& warehouse, int writer,
                            const std::string& deadline_file, const std::string& out) {
  Catalog catalog = Catalog::Filesystem(warehouse);
  std::mt19937_64 random(writer * 7919 + 1);
  std::vector<std::map<int64_t, int64_t>> model(kTables);
  std::vector<std::string> errors;
  int64_t seq = 0;
  int64_t commits = 0;
  struct Writer {
    std::unique_ptr<WriteBuilder> builder;
    std::unique_ptr<TableWrite> write;
    std::unique_ptr<TableCommit> commit;
  };
  std::vector<Writer> writers(kTables);
  auto fail = [&](int t, const Status& status) {
    errors.push_back(TableName(t) + ": " + status.ToString());
  };
  for (int t = 0; t < kTables && errors.empty(); ++t) {
    Result<Table> table = catalog.GetTable(TableName(t));
    if (!table.ok()) {
      fail(t, table.status());
      break;
    }
    writers[t].builder = std::make_unique<WriteBuilder>(table->NewWriteBuilder());
    writers[t].builder->WithOption("write-only", "true");
    writers[t].builder->WithCommitUser("soak-writer-" + std::to_string(writer));
    Result<std::unique_ptr<TableWrite>> write = writers[t].builder->NewWrite();
    Result<std::unique_ptr<TableCommit>> commit = writers[t].builder->NewCommit();
    if (!write.ok() || !commit.ok()) {
      fail(t, write.ok() ? commit.status() : write.status());
      break;
    }
    writers[t].write = std::move(*write);
    writers[t].commit = std::move(*commit);
  }
  auto next_commit = std::chrono::steady_clock::now();
  for (int t = 0; errors.empty() && !std::filesystem::exists(deadline_file);
       t = (t + 1) % kTables) {
    // The workload's pace (a load generator's rate, not a wait for a condition).
    next_commit += kCommitEvery;
    std::this_thread::sleep_until(next_commit);
    TableWrite& write = *writers[t].write;
    ColumnBatch batch(write.input_type());
    std::map<int64_t, int64_t> written;
    for (int i = 0; i < kRowsPerCommit; ++i) {
      const int64_t id = writer * 1000000 + static_cast<int64_t>(random() % kKeysPerWriter);
      ++seq;
      Status appended = batch.AppendRow({Value::Int64(id), Value::Int64(writer), Value::Int64(seq),
                                         Value::String("v" + std::to_string(seq))});
      if (!appended.ok()) fail(t, appended);
      written[id] = seq;
    }
    Status status = write.Write(batch);
    Result<std::vector<CommitMessage>> messages =
        status.ok() ? write.PrepareCommit() : Result<std::vector<CommitMessage>>(status);
    if (messages.ok()) {
      Result<CommitResult> committed = writers[t].commit->Commit(std::move(*messages));
      if (!committed.ok()) status = committed.status();
    } else {
      status = messages.status();
    }
    if (!status.ok()) {
      fail(t, status);
      break;
    }
    ++commits;
    for (const auto& [id, s] : written) model[t][id] = s;
  }
  for (Writer& w : writers) {
    if (w.write) w.write->Close().IgnoreError();  // the writer exits; its commits are what counts
  }
  std::ofstream file(out);
  file << "commits " << commits << "\n";
  for (const std::string& error : errors) file << "error " << error << "\n";
  for (int t = 0; t < kTables; ++t) {
    for (const auto& [id, s] : model[t]) file << "row " << t << " " << id << " " << s << "\n";
  }
  file.close();
  std::_Exit(errors.empty() ? 0 : 1);
}

// The most sorted runs of any bucket of `table` (level-0 files each a run, every other
// non-empty level one run), from its $files system table.
int MaxSortedRuns(const Catalog& catalog, const std::string& table) {
  Result<ColumnBatch> files = ReadSystemTable(catalog, table + "$files");
  if (!files.ok()) return -1;
  int partition_col = -1, bucket_col = -1, level_col = -1;
  const auto& fields = files->schema()->fields();
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    if (fields[i].name == "partition") partition_col = i;
    if (fields[i].name == "bucket") bucket_col = i;
    if (fields[i].name == "level") level_col = i;
  }
  std::map<std::pair<std::string, int64_t>, std::pair<int, std::set<int64_t>>> runs;
  for (int64_t r = 0; r < files->num_rows(); ++r) {
    Value row = files->GetRow(r);
    const auto& values = row.list();
    auto key = std::make_pair(values[partition_col].is_null() ? "" : values[partition_col].bytes(),
                              values[bucket_col].AsInt64());
    const int64_t level = values[level_col].AsInt64();
    if (level == 0) {
      ++runs[key].first;
    } else {
      runs[key].second.insert(level);
    }
  }
  int most = 0;
  for (const auto& [bucket, r] : runs) {
    most = std::max(most, r.first + static_cast<int>(r.second.size()));
  }
  return most;
}

// The last `lines` lines of `log`, with how many compactions it reports.
std::string LogTail(const std::string& log, int lines) {
  size_t compactions = 0;
  for (size_t at = log.find("] compacted "); at != std::string::npos;
       at = log.find("] compacted ", at + 1)) {
    ++compactions;
  }
  size_t from = log.size();
  for (int i = 0; i <= lines && from > 0; ++i) from = log.rfind('\n', from - 1);
  return std::to_string(compactions) + " compactions committed; the log ends:\n" +
         log.substr(from == std::string::npos ? 0 : from);
}

struct SnapshotCounts {
  int total = 0;
  int compact = 0;
};

SnapshotCounts CountSnapshots(const Catalog& catalog, const std::string& table) {
  SnapshotCounts counts;
  Result<ColumnBatch> snapshots = ReadSystemTable(catalog, table + "$snapshots");
  if (!snapshots.ok()) return counts;
  int kind_col = -1;
  const auto& fields = snapshots->schema()->fields();
  for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
    if (fields[i].name == "commit_kind") kind_col = i;
  }
  counts.total = static_cast<int>(snapshots->num_rows());
  for (int64_t r = 0; r < snapshots->num_rows(); ++r) {
    if (snapshots->GetRow(r).list()[kind_col].bytes() == "COMPACT") ++counts.compact;
  }
  return counts;
}

TEST(ServeSoakTest, WriteOnlyWritersAreKeptCompactedByTheService) {
  const int seconds = SoakSeconds();
  TempDir dir;
  const std::string warehouse = dir.path() + "/warehouse";
  Catalog catalog = Catalog::Filesystem(warehouse);
  ASSERT_OK(catalog.CreateDatabase("soak"));
  for (int t = 0; t < kTables; ++t) {
    NewTableSpec spec;
    spec.columns = {
        DataField{0, "id", DataType::BigInt(false), std::nullopt, std::nullopt},
        DataField{1, "writer", DataType::BigInt(), std::nullopt, std::nullopt},
        DataField{2, "seq", DataType::BigInt(), std::nullopt, std::nullopt},
        DataField{3, "v", DataType::String(), std::nullopt, std::nullopt},
    };
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", std::to_string(kBuckets)},
                    {"num-sorted-run.compaction-trigger", std::to_string(kCompactionTrigger)},
                    {"num-sorted-run.stop-trigger", std::to_string(kStopTrigger)},
                    {"snapshot.num-retained.min", "10"},
                    {"snapshot.num-retained.max", std::to_string(kRetainedMax)},
                    {"snapshot.time-retained", "1 s"}};
    ASSERT_OK(catalog.CreateTable(TableName(t), spec));
  }
  const std::string config = dir.path() + "/sluice.yaml";
  {
    std::ofstream out(config);
    out << "jobs:\n"
           "  - name: compact\n"
           "    action: compact_database\n"
           "    args: [--warehouse, '"
        << warehouse
        << "', --including_databases, soak, --mode, combined,\n"
           "           --table_conf, continuous.discovery-interval=500 ms]\n"
           "    mode: continuous\n";
  }
  // Under ASan the service's RSS would grow by the allocator's quarantine of freed memory
  // (256 MB by default) whatever the service does: a small one keeps the RSS the program's.
  const char* asan = std::getenv("ASAN_OPTIONS");
  setenv("ASAN_OPTIONS",
         (std::string(asan != nullptr ? asan : "") + ":quarantine_size_mb=8").c_str(), 1);
  ServeProcess serve(config, dir.path() + "/serve.log");
  ASSERT_FALSE(serve.MetricsAddress().empty());

  const std::string deadline_file = dir.path() + "/stop-writers";
  std::vector<pid_t> writers;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      RunWriter(warehouse, w, deadline_file, dir.path() + "/writer-" + std::to_string(w));
    }
    writers.push_back(pid);
  }

  // Sample until the soak's time is up: each round reads every table's files and snapshots
  // (the work between samples paces them; nothing waits for time).
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::seconds(seconds);
  int most_runs = 0;
  int most_snapshots = 0;
  std::vector<int64_t> rss;
  int rounds = 0;
  while (std::chrono::steady_clock::now() < end) {
    for (int t = 0; t < kTables; ++t) {
      most_runs = std::max(most_runs, MaxSortedRuns(catalog, TableName(t)));
      most_snapshots = std::max(most_snapshots, CountSnapshots(catalog, TableName(t)).total);
    }
    rss.push_back(serve.ResidentBytes());
    ++rounds;
  }
  std::ofstream(deadline_file) << "stop\n";
  std::vector<std::map<int64_t, int64_t>> model(kTables);
  int64_t commits = 0;
  for (int w = 0; w < kWriters; ++w) {
    int status = 0;
    ASSERT_EQ(::waitpid(writers[w], &status, 0), writers[w]);
    std::ifstream in(dir.path() + "/writer-" + std::to_string(w));
    std::string kind;
    while (in >> kind) {
      if (kind == "commits") {
        int64_t n = 0;
        in >> n;
        commits += n;
      } else if (kind == "error") {
        std::string line;
        std::getline(in, line);
        ADD_FAILURE() << "writer " << w << " saw an error:" << line;
      } else {
        int t;
        int64_t id, seq;
        in >> t >> id >> seq;
        model[t][id] = seq;
      }
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "writer " << w;
  }
  EXPECT_EQ(serve.Stop(SIGTERM, std::chrono::seconds(60)), 0) << serve.Log();

  // RSS flat: the last quarter's mean against the second quarter's (the first is warm-up).
  ASSERT_GE(rss.size(), 8u);
  auto mean = [&](size_t from, size_t to) {
    int64_t sum = 0;
    for (size_t i = from; i < to; ++i) sum += rss[i];
    return sum / static_cast<int64_t>(to - from);
  };
  const int64_t early = mean(rss.size() / 4, rss.size() / 2);
  const int64_t late = mean(rss.size() * 3 / 4, rss.size());
  std::printf(
      "soak: %d s, %d tables, %d writers, %lld commits, %d sampling rounds; most sorted runs "
      "of a bucket %d (stop trigger %d), most snapshots of a table %d (retained max %d), "
      "service RSS %lld MB early, %lld MB late\n",
      seconds, kTables, kWriters, static_cast<long long>(commits), rounds, most_runs, kStopTrigger,
      most_snapshots, kRetainedMax, static_cast<long long>(early >> 20),
      static_cast<long long>(late >> 20));
  EXPECT_GT(commits, kTables * kWriters);
  EXPECT_LE(most_runs, kStopTrigger) << LogTail(serve.Log(), 40);
  // The expiry runs after a compaction's commit; writers may add a few snapshots before it.
  EXPECT_LE(most_snapshots, kRetainedMax + kWriters * 4);
  EXPECT_LE(late, early + early / 4 + (32 << 20));

  for (int t = 0; t < kTables; ++t) {
    SCOPED_TRACE(TableName(t));
    const SnapshotCounts counts = CountSnapshots(catalog, TableName(t));
    std::printf("soak: %s: %d snapshots retained, %d of them COMPACT\n", TableName(t).c_str(),
                counts.total, counts.compact);
    EXPECT_GT(counts.compact, 0) << "never compacted";
    CommandResult read =
        RunSluice("read " + TableName(t) + " --warehouse '" + warehouse + "' --format jsonl");
    ASSERT_EQ(read.exit_code, 0) << read.err;
    std::map<int64_t, int64_t> rows;
    std::istringstream lines(read.out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      nlohmann::json row = nlohmann::json::parse(line);
      rows[row["id"].get<int64_t>()] = row["seq"].get<int64_t>();
    }
    EXPECT_EQ(rows, model[t]);
    CommandResult check = RunSluice("check " + TableName(t) + " --warehouse '" + warehouse + "'");
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  }
}

}  // namespace
}  // namespace sluice::test
