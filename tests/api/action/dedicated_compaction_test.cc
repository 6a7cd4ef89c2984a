// Java's dedicated compaction (`compact_database` / `compact`) through RunAction against real
// writers: primary-key writers with `write-only = true` commit in a loop on threads of their own
// while a streaming compact_database (combined mode) runs, with a batch `compact` of the same
// table racing it. No writer commit fails, every bucket is back at or under
// `num-sorted-run.stop-trigger` sorted runs once the compactor caught up, a table created
// mid-run is picked up, the rows are the model's, and `stop` ends the job within a bound. A
// batch compact_database compacts every matched table once and returns; partition_idle_time
// leaves the partitions written lately alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/action.h"
#include "sluice/catalog.h"
#include "sluice/fs/file_io.h"
#include "sluice/maintenance/dedicated_compactor.h"
#include "sluice/table.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table_commit.h"
#include "sluice/table_maintenance.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;
using test::HasError;
using Clock = std::chrono::steady_clock;

constexpr int kStopTrigger = 5;

class DedicatedCompactionTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(catalog().CreateDatabase("db")); }

  Catalog catalog() const { return Catalog::Filesystem(dir_.path()); }

  // A primary-key table (id, v), 2 buckets, written by write-only writers; `partitioned`: by
  // `dt` too.
  void CreatePkTable(const std::string& name, bool partitioned = false) {
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::BigInt())};
    spec.primary_keys = {"id"};
    if (partitioned) {
      spec.columns.push_back(Field(2, "dt", DataType::String(false)));
      spec.primary_keys = {"dt", "id"};
      spec.partition_keys = {"dt"};
    }
    spec.options = {{"bucket", "2"},
                    {"write-only", "true"},
                    {"num-sorted-run.compaction-trigger", "3"},
                    {"num-sorted-run.stop-trigger", std::to_string(kStopTrigger)}};
    ASSERT_OK(catalog().CreateTable(name, spec));
  }

  // A bucket-unaware append table (id, v) written by write-only writers.
  void CreateAppendTable(const std::string& name) {
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::BigInt())};
    spec.options = {{"write-only", "true"}};
    ASSERT_OK(catalog().CreateTable(name, spec));
  }

  int64_t RowCount(const std::string& name) {
    auto table = catalog().GetTable(name);
    EXPECT_OK(table);
    auto reader = test::ReaderOf(table->NewReadBuilder());
    EXPECT_OK(reader);
    if (!reader.ok()) return -1;
    int64_t rows = 0;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      rows += batch.num_rows();
    }
    return rows;
  }

  int64_t FileCount(const std::string& name) {
    int64_t files = 0;
    for (const auto& [bucket, runs] : SortedRuns(name)) files += runs;
    return files;
  }

  std::string PathOf(const std::string& name) const {
    const size_t dot = name.find('.');
    return dir_.path() + "/" + name.substr(0, dot) + ".db/" + name.substr(dot + 1);
  }

  // The sorted runs of each bucket: level-0 files one run each, every other level one run.
  std::map<std::pair<std::string, int32_t>, int> SortedRuns(const std::string& name) {
    auto table = FileStoreTable::Open(LocalFileIO(), PathOf(name));
    EXPECT_OK(table);
    ScanOptions scan;
    scan.mode = ScanMode::kStreamFull;
    auto plan = PlanScan(**table, scan);
    EXPECT_OK(plan);
    std::map<std::pair<std::string, int32_t>, int> runs;
    for (const DataSplit& split : plan->splits) {
      std::set<int32_t> levels;
      int level0 = 0;
      for (const DataFileMeta& f : split.data_files) {
        if (f.level == 0) {
          ++level0;
        } else {
          levels.insert(f.level);
        }
      }
      runs[{split.partition, split.bucket}] = level0 + static_cast<int>(levels.size());
    }
    return runs;
  }

  int MaxSortedRuns(const std::string& name) {
    int max = 0;
    for (const auto& [bucket, runs] : SortedRuns(name)) max = std::max(max, runs);
    return max;
  }

  std::vector<std::string> CommitKinds(const std::string& name) {
    auto table = catalog().GetTable(name);
    EXPECT_OK(table);
    auto snapshots = table->Snapshots();
    EXPECT_OK(snapshots);
    std::vector<std::string> kinds;
    for (const SnapshotInfo& s : *snapshots) kinds.push_back(s.commit_kind);
    return kinds;
  }

  int64_t CountKind(const std::string& name, const std::string& kind) {
    std::vector<std::string> kinds = CommitKinds(name);
    return std::count(kinds.begin(), kinds.end(), kind);
  }

  // id -> v as read back.
  std::map<int64_t, int64_t> ReadRows(const std::string& name) {
    auto table = catalog().GetTable(name);
    EXPECT_OK(table);
    std::map<int64_t, int64_t> rows;
    auto reader = test::ReaderOf(table->NewReadBuilder());
    EXPECT_OK(reader);
    if (!reader.ok()) return rows;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const Value row = batch.GetRow(i);
        rows[row.list()[0].int64()] = row.list()[1].int64();
      }
    }
    return rows;
  }

  // Commits `rounds` batches of random upserts into `name` through one long-lived write-only
  // writer (a streaming writer's commit identifiers); every commit's status goes to
  // `failures` when not OK. Returns the model: id -> v.
  std::map<int64_t, int64_t> WriteLoop(const std::string& name, int rounds, uint32_t seed,
                                       std::vector<std::string>* failures, std::mutex* mu) {
    std::map<int64_t, int64_t> model;
    auto table = catalog().GetTable(name);
    EXPECT_OK(table);
    WriteBuilder builder = table->NewWriteBuilder();
    builder.WithCommitUser("writer-" + name);
    auto write = builder.NewWrite();
    EXPECT_OK(write);
    auto commit = builder.NewCommit();
    EXPECT_OK(commit);
    std::mt19937 random(seed);
    for (int round = 1; round <= rounds; ++round) {
      ColumnBatch batch((*write)->input_type());
      for (int i = 0; i < 20; ++i) {
        const int64_t id = static_cast<int64_t>(random() % 200);
        const int64_t v = round * 1000 + i;
        std::vector<Value> row = {Value::Int64(id), Value::Int64(v)};
        if ((*write)->input_type()->num_fields() == 3) row.push_back(Value::String("p"));
        EXPECT_OK(batch.AppendRow(row));
        model[id] = v;
      }
      Status status = (*write)->Write(batch);
      Result<std::vector<CommitMessage>> messages =
          status.ok() ? (*write)->PrepareCommit(round) : Result<std::vector<CommitMessage>>(status);
      Result<CommitResult> result = messages.ok() ? (*commit)->Commit(std::move(*messages), round)
                                                  : Result<CommitResult>(messages.status());
      if (!result.ok()) {
        std::lock_guard<std::mutex> lock(*mu);
        failures->push_back(name + " commit " + std::to_string(round) + ": " +
                            result.status().ToString());
      }
    }
    EXPECT_OK((*write)->Close());
    return model;
  }

  test::TempDir dir_;
};

// Runs compact_database in streaming mode on a thread until `stop`; the job's status comes back
// through the future.
struct StreamingJob {
  std::atomic<bool> stop{false};
  std::mutex mu;
  std::condition_variable progressed;
  int64_t commits = 0;
  std::vector<std::string> log;
  std::future<Status> done;

  void Start(std::vector<std::string> args) {
    done = std::async(std::launch::async, [this, args] {
      ActionHooks hooks;
      hooks.mode = ActionMode::kStreaming;
      hooks.log = [this](const std::string& line) {
        std::lock_guard<std::mutex> lock(mu);
        log.push_back(line);
      };
      hooks.progress = [this](const ActionProgress& p) {
        std::lock_guard<std::mutex> lock(mu);
        commits = p.commits;
        progressed.notify_all();
      };
      Status status = RunAction("compact_database", args, stop, hooks);
      std::lock_guard<std::mutex> lock(mu);
      progressed.notify_all();
      return status;
    });
  }

  // Waits, a compaction commit at a time, until `done()` holds or `seconds` passed.
  template <typename Done>
  bool WaitFor(Done done_now, int seconds) {
    const auto deadline = Clock::now() + std::chrono::seconds(seconds);
    while (!done_now()) {
      if (Clock::now() > deadline) return false;
      std::unique_lock<std::mutex> lock(mu);
      const int64_t seen = commits;
      progressed.wait_for(lock, std::chrono::milliseconds(500), [&] { return commits != seen; });
    }
    return true;
  }
};

TEST_F(DedicatedCompactionTest, StreamingKeepsWriteOnlyWritersUnderTheStopTrigger) {
  CreatePkTable("db.a");
  CreatePkTable("db.b", /*partitioned=*/true);
  CreateAppendTable("db.log");
  // Not matched: never compacted.
  CreatePkTable("db.skip");

  StreamingJob job;
  job.Start({"--warehouse", dir_.path(), "--including_databases", "db", "--excluding_tables",
             "db\\.skip", "--mode", "combined", "--table_conf",
             "continuous.discovery-interval=50ms", "--compaction_threads", "2"});

  std::mutex mu;
  std::vector<std::string> failures;
  constexpr int kRounds = 80;
  auto a =
      std::async(std::launch::async, [&] { return WriteLoop("db.a", kRounds, 1, &failures, &mu); });
  auto b =
      std::async(std::launch::async, [&] { return WriteLoop("db.b", kRounds, 2, &failures, &mu); });
  auto log = std::async(std::launch::async,
                        [&] { return WriteLoop("db.log", kRounds, 5, &failures, &mu); });
  // A batch compaction of db.a racing the streaming one and the writer: its commits may lose,
  // the streaming job's never fail it.
  std::vector<Status> batch_runs;
  auto racer = std::async(std::launch::async, [&] {
    for (int i = 0; i < 3; ++i) {
      std::atomic<bool> never{false};
      ActionHooks hooks;
      hooks.mode = ActionMode::kBatch;
      batch_runs.push_back(
          RunAction("compact", {"--warehouse", dir_.path(), "--database", "db", "--table", "a"},
                    never, hooks));
    }
  });
  // A table made while the job runs is picked up (combined mode).
  CreatePkTable("db.late");
  std::map<int64_t, int64_t> late = WriteLoop("db.late", 10, 3, &failures, &mu);
  std::map<int64_t, int64_t> model_a = a.get();
  std::map<int64_t, int64_t> model_b = b.get();
  log.get();
  racer.get();
  WriteLoop("db.skip", 6, 4, &failures, &mu);

  EXPECT_TRUE(failures.empty()) << failures.front();
  for (const Status& status : batch_runs) {
    EXPECT_TRUE(status.ok() || status.IsConflict()) << status.ToString();
  }
  // The compactor catches up: every bucket at or under the stop trigger, the late table too.
  const bool caught_up = job.WaitFor(
      [&] {
        return MaxSortedRuns("db.a") <= kStopTrigger && MaxSortedRuns("db.b") <= kStopTrigger &&
               MaxSortedRuns("db.late") <= kStopTrigger && CountKind("db.late", "COMPACT") > 0 &&
               FileCount("db.log") < kRounds / 2;
      },
      180);
  EXPECT_TRUE(caught_up) << "runs a=" << MaxSortedRuns("db.a") << " b=" << MaxSortedRuns("db.b")
                         << " late=" << MaxSortedRuns("db.late")
                         << " log files=" << FileCount("db.log");
  // Without the compactor, the writers' level-0 files pile up.
  EXPECT_GT(MaxSortedRuns("db.skip"), kStopTrigger);
  EXPECT_EQ(CountKind("db.skip", "COMPACT"), 0);
  EXPECT_GT(CountKind("db.a", "COMPACT"), 0);
  EXPECT_GT(CountKind("db.b", "COMPACT"), 0);

  const auto stop_at = Clock::now();
  job.stop = true;
  ASSERT_EQ(job.done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  const double stop_seconds = std::chrono::duration<double>(Clock::now() - stop_at).count();
  EXPECT_LT(stop_seconds, 5.0);
  ASSERT_OK(job.done.get());
  const int64_t redone = std::count_if(job.log.begin(), job.log.end(), [](const std::string& l) {
    return l.find("compaction dropped") != std::string::npos;
  });
  std::printf(
      "DEDICATED_COMPACTION commits=%lld redone=%lld stop_s=%.2f max_runs a=%d b=%d late=%d "
      "skip=%d log_files=%lld\n",
      static_cast<long long>(job.commits), static_cast<long long>(redone), stop_seconds,
      MaxSortedRuns("db.a"), MaxSortedRuns("db.b"), MaxSortedRuns("db.late"),
      MaxSortedRuns("db.skip"), static_cast<long long>(FileCount("db.log")));

  EXPECT_EQ(ReadRows("db.a"), model_a);
  EXPECT_EQ(ReadRows("db.b"), model_b);
  EXPECT_EQ(ReadRows("db.late"), late);
  // The append table's small files were compacted, every row kept.
  EXPECT_GT(CountKind("db.log", "COMPACT"), 0);
  EXPECT_EQ(RowCount("db.log"), kRounds * 20);
}

TEST_F(DedicatedCompactionTest, BatchCompactsEveryMatchedTableOnceAndReturns) {
  CreatePkTable("db.x");
  CreatePkTable("db.y");
  CreatePkTable("db.z");
  std::mutex mu;
  std::vector<std::string> failures;
  for (const char* name : {"db.x", "db.y", "db.z"}) WriteLoop(name, 8, 7, &failures, &mu);
  ASSERT_TRUE(failures.empty()) << failures.front();
  ASSERT_GT(MaxSortedRuns("db.x"), kStopTrigger);

  std::atomic<bool> stop{false};
  ActionHooks hooks;
  hooks.mode = ActionMode::kBatch;
  ASSERT_OK(RunAction("compact_database",
                      {"--warehouse", dir_.path(), "--including_tables", "db\\.(x|y|z)",
                       "--excluding_tables", "db\\.z"},
                      stop, hooks));
  // Full compaction (batch's default): one run per bucket, one COMPACT snapshot per table.
  EXPECT_EQ(MaxSortedRuns("db.x"), 1);
  EXPECT_EQ(MaxSortedRuns("db.y"), 1);
  EXPECT_EQ(CountKind("db.x", "COMPACT"), 1);
  EXPECT_EQ(CountKind("db.z", "COMPACT"), 0);
  EXPECT_GT(MaxSortedRuns("db.z"), kStopTrigger);

  // Divided mode with nothing matched is an error naming the patterns.
  EXPECT_TRUE(HasError(
      RunAction("compact_database", {"--warehouse", dir_.path(), "--including_databases", "nodb"},
                stop, hooks),
      StatusCode::kInvalidArgument, {"compact_database", "no tables", "nodb"}));
}

TEST_F(DedicatedCompactionTest, PartitionIdleTimeLeavesRecentPartitionsAlone) {
  CreatePkTable("db.p", /*partitioned=*/true);
  auto table = catalog().GetTable("db.p");
  ASSERT_OK(table);
  auto commit_rows = [&](const std::string& dt, int64_t id) {
    WriteBuilder builder = table->NewWriteBuilder();
    auto write = builder.NewWrite();
    ASSERT_OK(write);
    ColumnBatch batch((*write)->input_type());
    ASSERT_OK(batch.AppendRow({Value::Int64(id), Value::Int64(id), Value::String(dt)}));
    ASSERT_OK((*write)->Write(batch));
    auto messages = (*write)->PrepareCommit();
    ASSERT_OK(messages);
    auto commit = builder.NewCommit();
    ASSERT_OK(commit);
    ASSERT_OK((*commit)->Commit(std::move(*messages)));
    ASSERT_OK((*write)->Close());
  };
  // The old partition's files, then the new one's, written until the clock has moved on by 2 s
  // since the old partition's last file (busy writing, no sleeping).
  for (int i = 0; i < 3; ++i) commit_rows("old", i);
  const auto old_written = std::chrono::system_clock::now();
  int64_t id = 100;
  do {
    commit_rows("new", id++);
  } while (std::chrono::system_clock::now() - old_written < std::chrono::seconds(2) || id < 103);
  const auto runs_before = SortedRuns("db.p");
  // Idle time: what has passed since the old partition was written, less one second.
  const int64_t idle_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now() - old_written)
                              .count() -
                          1000;
  std::atomic<bool> stop{false};
  ActionHooks hooks;
  hooks.mode = ActionMode::kBatch;
  ASSERT_OK(RunAction(
      "compact_database",
      {"--warehouse", dir_.path(), "--partition_idle_time", std::to_string(idle_ms) + " ms"}, stop,
      hooks));
  const auto runs_after = SortedRuns("db.p");
  ASSERT_EQ(runs_after.size(), runs_before.size());
  int compacted = 0;
  for (const auto& [bucket, runs] : runs_after) {
    // The partition row holds its short string inline.
    if (bucket.first.find("new") != std::string::npos) {
      EXPECT_EQ(runs, runs_before.at(bucket)) << "bucket " << bucket.second << " of dt=new";
    } else {
      EXPECT_EQ(runs, 1) << "bucket " << bucket.second << " of dt=old";
      compacted += runs_before.at(bucket) > 1 ? 1 : 0;
    }
  }
  EXPECT_GE(compacted, 1);
}

// What a compaction's commit meets between its PrepareCommit and its commit: a writer's APPEND
// (the compaction commits on top of it, the writer's commit never fails), then a competing
// compaction that rewrote the same files (the compaction is dropped, its files deleted, and
// redone from the new state; the job does not fail).
TEST_F(DedicatedCompactionTest, LostRacesAreRedoneAndNeverFailAWriter) {
  CreatePkTable("db.r");
  std::mutex mu;
  std::vector<std::string> failures;
  std::map<int64_t, int64_t> model = WriteLoop("db.r", 6, 9, &failures, &mu);
  int calls = 0;
  DedicatedCompactorOptions options;
  options.warehouse = dir_.path();
  options.table = "db.r";
  options.streaming = false;
  options.full = true;
  DedicatedCompactorProgress last;
  options.progress = [&](const DedicatedCompactorProgress& p) { last = p; };
  std::vector<std::string> logs;
  options.log = [&](const std::string& l) { logs.push_back(l); };
  options.before_commit_for_testing = [&](const std::string& name) {
    ++calls;
    auto table = catalog().GetTable(name);
    ASSERT_OK(table);
    WriteBuilder builder = table->NewWriteBuilder();
    builder.WithOption("write-only", calls == 2 ? "false" : "true");
    auto write = builder.NewWrite();
    ASSERT_OK(write);
    if (calls == 1) {
      // A write-only writer's APPEND lands first.
      ColumnBatch batch((*write)->input_type());
      ASSERT_OK(batch.AppendRow({Value::Int64(7), Value::Int64(-7)}));
      model[7] = -7;
      ASSERT_OK((*write)->Write(batch));
    } else if (calls == 2) {
      // Another job's full compaction takes the files this one rewrote.
      ASSERT_OK((*write)->Compact({}, /*full=*/true));
    }
    auto messages = (*write)->PrepareCommit();
    ASSERT_OK(messages);
    auto commit = builder.NewCommit();
    ASSERT_OK(commit);
    auto result = (*commit)->Commit(std::move(*messages));
    ASSERT_OK(result);
    EXPECT_OK(result->compaction_dropped);
    ASSERT_OK((*write)->Close());
  };
  std::atomic<bool> stop{false};
  // First run: the APPEND in between does not disturb the compaction.
  ASSERT_OK(DedicatedCompactor::Run(options, stop));
  EXPECT_EQ(last.commits, 1);
  EXPECT_EQ(last.redone, 0);
  // Second run (the APPEND left a level-0 file): a competing compaction wins, this one is redone.
  ASSERT_OK(DedicatedCompactor::Run(options, stop));
  EXPECT_EQ(last.redone, 1);
  EXPECT_EQ(std::count_if(logs.begin(), logs.end(),
                          [](const std::string& l) {
                            return l.find("compaction dropped, redoing it") != std::string::npos;
                          }),
            1);
  EXPECT_EQ(MaxSortedRuns("db.r"), 1);
  // The dropped compaction's files were deleted: nothing is left that no snapshot names.
  auto table = catalog().GetTable("db.r");
  ASSERT_OK(table);
  RemoveOrphanFilesOptions orphans;
  orphans.older_than_millis = INT64_MAX;
  orphans.dry_run = true;
  auto found = RemoveOrphanFiles(*table, orphans);
  ASSERT_OK(found);
  EXPECT_TRUE(found->files.empty()) << found->files.front();
  EXPECT_TRUE(failures.empty()) << failures.front();
  EXPECT_EQ(ReadRows("db.r"), model);
}

}  // namespace
}  // namespace sluice
