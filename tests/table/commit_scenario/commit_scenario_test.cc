// Multi-process commit scenarios (labelled scenario): several processes committing to one table
// at once, and committers killed with SIGKILL between the steps of a commit.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/table_checker.h"
#include "table/commit_test_util.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::AddFiles;
using test::Committable;
using test::CompactFiles;
using test::CreateTestRowTable;
using test::MakeRows;
using test::OpenTestTable;
using test::ReadTestTable;
using test::Sorted;
using test::TestRow;
using test::TestRowType;
using test::WriteTestDataFile;

// The rows of one data file.
Result<std::vector<TestRow>> ReadDataFile(const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(auto format, FileFormatByName("parquet"));
  SLUICE_ASSIGN_OR_RETURN(auto opened, LocalFileIO()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> file(std::move(opened));
  SLUICE_ASSIGN_OR_RETURN(auto reader, format->CreateReader(file, TestRowType(), {}));
  std::vector<TestRow> rows;
  ColumnBatch batch(TestRowType());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      rows.push_back({static_cast<int32_t>(batch.column(0)->GetValue(r).AsInt64()),
                      batch.column(1)->GetValue(r).AsInt64(),
                      batch.column(2)->GetValue(r).bytes()});
    }
  }
  return rows;
}

// The structural check (table_checker.h) over every snapshot of the table at `dir`.
void ExpectTableChecks(const std::string& dir) {
  auto table = OpenTestTable(dir);
  ASSERT_OK(table);
  auto report = RunTableCheck(**table);
  ASSERT_OK(report);
  for (const auto& p : report->problems) ADD_FAILURE() << p;
  EXPECT_GT(report->files_read, 0);
}

// Runs `body` in a child process; returns its wait status.
template <typename Body>
int RunChild(Body body) {
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

// One committer process: appends (odd steps) and compactions of two of the oldest live files
// (even steps, so that the processes compete for the same files). Writes one line per commit to
// `log_path`: "<kind> <identifier> landed|conflict|error <detail>", and for landed appends the
// ids of the rows added.
void CommitterProcess(const std::string& dir, int child, int steps, const std::string& log_path) {
  std::ofstream log(log_path);
  auto table = OpenTestTable(dir);
  if (!table.ok()) {
    log << "open error " << table.status().ToString() << "\n";
    return;
  }
  auto commit = FileStoreCommit::Make(*table, "child-" + std::to_string(child));
  if (!commit.ok()) {
    log << "make error " << commit.status().ToString() << "\n";
    return;
  }
  std::mt19937 rng(child * 7919 + 17);
  for (int k = 1; k <= steps; ++k) {
    ManifestCommittable committable;
    std::vector<TestRow> added;
    const bool append = k % 2 == 1;
    if (append) {
      added = MakeRows(0, child * 100000 + k * 100, 3, "c" + std::to_string(child));
      committable =
          Committable(k, {AddFiles(**table, 0, 0, {WriteTestDataFile(**table, 0, added)})});
    } else {
      ScanOptions scan;
      scan.num_threads = 1;
      auto plan = PlanScan(**table, scan);
      if (!plan.ok()) {
        log << "compact " << k << " error " << plan.status().ToString() << "\n";
        continue;
      }
      std::vector<std::pair<DataFileMeta, std::string>> files;
      for (const auto& split : plan->splits) {
        for (size_t i = 0; i < split.data_files.size(); ++i) {
          files.emplace_back(split.data_files[i], split.data_file_paths[i]);
        }
      }
      std::sort(files.begin(), files.end(),
                [](const auto& a, const auto& b) { return a.first.file_name < b.first.file_name; });
      if (files.size() < 3) continue;
      // Two of the three first files, picked at random.
      int skip = static_cast<int>(rng() % 3);
      std::vector<DataFileMeta> before;
      std::vector<TestRow> rows;
      for (int i = 0; i < 3; ++i) {
        if (i == skip) continue;
        before.push_back(files[i].first);
        auto part = ReadDataFile(files[i].second);
        if (!part.ok()) {
          log << "compact " << k << " error " << part.status().ToString() << "\n";
          return;
        }
        rows.insert(rows.end(), part->begin(), part->end());
      }
      auto after = WriteTestDataFile(**table, 0, rows);
      committable = Committable(k, {CompactFiles(**table, 0, 0, before, {after})});
    }
    auto res = (*commit)->Commit(committable);
    log << (append ? "append " : "compact ") << k << " ";
    if (res.ok()) {
      log << "landed";
      for (int64_t id : res->snapshot_ids) log << " " << id;
      log << "\n";
      for (const auto& r : added) log << "row " << r.id << " " << r.v << "\n";
    } else if (res.status().IsConflict()) {
      log << "conflict\n";
    } else {
      log << "error " << res.status().ToString() << "\n";
    }
  }
}

TEST(CommitScenarioTest, ConcurrentCommittersLandOrConflict) {
  ::sluice::test::TempDir tmp;
  const std::string dir = tmp.path() + "/t";
  ASSERT_OK(CreateTestRowTable(dir, false,
                               {{"commit.max-retries", "100"},
                                {"commit.min-retry-wait", "1 ms"},
                                {"commit.max-retry-wait", "20 ms"}}));
  auto table = OpenTestTable(dir);
  ASSERT_OK(table);
  std::vector<TestRow> expected;
  {
    auto seed = FileStoreCommit::Make(*table, "seed");
    ASSERT_OK(seed);
    std::vector<DataFileMeta> files;
    for (int i = 0; i < 8; ++i) {
      auto rows = MakeRows(0, i * 10, 3, "seed");
      expected.insert(expected.end(), rows.begin(), rows.end());
      files.push_back(WriteTestDataFile(**table, 0, rows));
    }
    ASSERT_OK((*seed)->Commit(Committable(1, {AddFiles(**table, 0, 0, files)})));
  }

  constexpr int kChildren = 4;
  constexpr int kSteps = 6;
  std::vector<pid_t> pids;
  fflush(nullptr);
  for (int c = 0; c < kChildren; ++c) {
    pid_t pid = fork();
    if (pid == 0) {
      CommitterProcess(dir, c, kSteps, tmp.path() + "/log-" + std::to_string(c));
      _exit(0);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }

  int landed = 0;
  int conflicts = 0;
  std::set<int64_t> snapshot_ids;
  for (int c = 0; c < kChildren; ++c) {
    std::ifstream log(tmp.path() + "/log-" + std::to_string(c));
    std::string line;
    int lines = 0;
    while (std::getline(log, line)) {
      std::istringstream in(line);
      std::string kind;
      in >> kind;
      if (kind == "row") {
        TestRow r;
        r.pt = 0;
        in >> r.id >> r.v;
        expected.push_back(r);
        continue;
      }
      ++lines;
      int64_t k;
      std::string outcome;
      in >> k >> outcome;
      ASSERT_TRUE(outcome == "landed" || outcome == "conflict") << "child " << c << ": " << line;
      if (outcome == "conflict") {
        // Appends never conflict; only compactions of files another process compacted.
        EXPECT_EQ(kind, "compact") << line;
        ++conflicts;
        continue;
      }
      ++landed;
      int64_t id;
      while (in >> id) EXPECT_TRUE(snapshot_ids.insert(id).second) << "snapshot " << id << " twice";
    }
    EXPECT_EQ(lines, kSteps) << "child " << c;
  }
  // Every landed commit made exactly one snapshot; snapshots are 1 (seed) + landed, contiguous.
  auto ids = (*table)->snapshot_manager().ListSnapshotIds();
  ASSERT_OK(ids);
  ASSERT_EQ(static_cast<int>(ids->size()), 1 + landed);
  for (size_t i = 0; i < ids->size(); ++i) EXPECT_EQ((*ids)[i], static_cast<int64_t>(i) + 1);
  EXPECT_EQ(static_cast<int>(snapshot_ids.size()), landed);
  auto rows = ReadTestTable(dir);
  ASSERT_OK(rows);
  EXPECT_EQ(*rows, Sorted(expected));
  auto latest = (*table)->snapshot_manager().LatestSnapshot();
  ASSERT_OK(latest);
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ((*latest)->total_record_count, static_cast<int64_t>(expected.size()));
  ExpectTableChecks(dir);
  RecordProperty("landed", landed);
  RecordProperty("conflicts", conflicts);
  std::cout << "landed " << landed << " commits, " << conflicts << " conflicts\n";
}

// The rows writer `child` upserts in its write `k` (keys of its own).
std::vector<TestRow> WriterRows(int child, int k) {
  return MakeRows(0, 1000000 + child * 100000 + k * 10, 5, "w" + std::to_string(child));
}

Result<std::vector<CommitMessageImpl>> WriteWithTableWrite(
    const std::shared_ptr<FileStoreTable>& table, FileStoreWrite* write,
    const std::vector<TestRow>& rows) {
  std::vector<ValueList> values;
  for (const TestRow& r : rows) {
    values.push_back({Value::Int32(r.pt), Value::Int64(r.id), Value::String(r.v)});
  }
  SLUICE_RETURN_NOT_OK(test::WriteRows(write, TestRowType(), values, {}));
  return write->PrepareCommit(Snapshot::kBatchCommitIdentifier, /*wait_compaction=*/true);
}

// Whether a snapshot of `user` exists (its data landed).
bool UserLanded(const std::string& dir, const std::string& user) {
  auto table = OpenTestTable(dir);
  if (!table.ok()) return false;
  auto snapshots = (*table)->snapshot_manager().ListSnapshots();
  if (!snapshots.ok()) return false;
  for (const Snapshot& s : *snapshots) {
    if (s.commit_user == user) return true;
  }
  return false;
}

// `writes` runs of `sluice write` as a process makes them: a fresh FileStoreWrite (which compacts
// what it restored with its new files), one batch commit under a fresh commit user. One line
// per write: "write <k> ok dropped|kept" or "write <k> failed landed|nothing <status>".
void UpsertWriterProcess(const std::string& dir, int child, int writes,
                         const std::string& log_path) {
  std::ofstream log(log_path);
  for (int k = 1; k <= writes; ++k) {
    const std::string user = "writer-" + std::to_string(child) + "-" + std::to_string(k);
    Result<CommitResult> res = [&]() -> Result<CommitResult> {
      SLUICE_ASSIGN_OR_RETURN(auto table, OpenTestTable(dir));
      SLUICE_ASSIGN_OR_RETURN(auto write, FileStoreWrite::Open(table));
      auto messages = WriteWithTableWrite(table, write.get(), WriterRows(child, k));
      SLUICE_RETURN_NOT_OK(messages.status());
      SLUICE_ASSIGN_OR_RETURN(auto commit, FileStoreCommit::Make(table, user));
      auto committed = commit->Commit(Committable(Snapshot::kBatchCommitIdentifier, *messages));
      SLUICE_RETURN_NOT_OK(write->Close());
      return committed;
    }();
    if (res.ok()) {
      log << "write " << k << " ok " << (res->compaction_dropped.ok() ? "kept" : "dropped") << "\n";
    } else {
      log << "write " << k << " failed " << (UserLanded(dir, user) ? "landed " : "nothing ")
          << res.status().ToString() << "\n";
    }
  }
}

// `sluice compact --full` run `rounds` times: one line per round, "compact <k> ok|conflict|error".
void CompactorProcess(const std::string& dir, int rounds, const std::string& log_path) {
  std::ofstream log(log_path);
  for (int k = 1; k <= rounds; ++k) {
    Result<CommitResult> res = [&]() -> Result<CommitResult> {
      SLUICE_ASSIGN_OR_RETURN(auto table, OpenTestTable(dir));
      SLUICE_ASSIGN_OR_RETURN(auto write, FileStoreWrite::Open(table));
      SLUICE_RETURN_NOT_OK(write->Compact(EmptySerializedRow(), 0, /*full_compaction=*/true));
      SLUICE_ASSIGN_OR_RETURN(auto messages, write->PrepareCommit(Snapshot::kBatchCommitIdentifier,
                                                                  /*wait_compaction=*/true));
      SLUICE_ASSIGN_OR_RETURN(auto commit,
                              FileStoreCommit::Make(table, "compactor-" + std::to_string(k)));
      auto committed = commit->Commit(Committable(Snapshot::kBatchCommitIdentifier, messages));
      SLUICE_RETURN_NOT_OK(write->Close());
      return committed;
    }();
    log << "compact " << k << " "
        << (res.ok()                    ? "ok"
            : res.status().IsConflict() ? "conflict"
                                        : "error")
        << " " << (res.ok() ? std::string() : res.status().ToString()) << "\n";
  }
}

// Issue #17: three writers upserting into one primary-key table while a fourth process compacts
// it. A writer whose rows landed never reports failure, however its own compaction fares; every
// row is there once.
TEST(CommitScenarioTest, WritesRacingACompactorNeverFailOnceTheirRowsLanded) {
  ::sluice::test::TempDir tmp;
  const std::string dir = tmp.path() + "/t";
  ASSERT_OK(CreateTestRowTable(dir, false,
                               {{"bucket", "1"},
                                {"num-sorted-run.compaction-trigger", "2"},
                                {"commit.max-retries", "100"},
                                {"commit.min-retry-wait", "1 ms"},
                                {"commit.max-retry-wait", "20 ms"}},
                               /*primary_key=*/true));
  std::vector<TestRow> expected = MakeRows(0, 0, 20, "seed");
  {
    auto table = OpenTestTable(dir);
    ASSERT_OK(table);
    auto write = FileStoreWrite::Open(*table);
    ASSERT_OK(write);
    auto messages = WriteWithTableWrite(*table, write->get(), expected);
    ASSERT_OK(messages);
    auto seed = FileStoreCommit::Make(*table, "seed");
    ASSERT_OK(seed);
    ASSERT_OK((*seed)->Commit(Committable(Snapshot::kBatchCommitIdentifier, *messages)));
    ASSERT_OK((*write)->Close());
  }

  constexpr int kWriters = 3;
  constexpr int kWrites = 8;
  constexpr int kCompactions = 24;
  std::vector<pid_t> pids;
  fflush(nullptr);
  for (int c = 0; c <= kWriters; ++c) {
    pid_t pid = fork();
    if (pid == 0) {
      const std::string log = tmp.path() + "/log-" + std::to_string(c);
      if (c == kWriters) {
        CompactorProcess(dir, kCompactions, log);
      } else {
        UpsertWriterProcess(dir, c, kWrites, log);
      }
      _exit(0);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }

  int dropped = 0;
  for (int c = 0; c < kWriters; ++c) {
    std::ifstream log(tmp.path() + "/log-" + std::to_string(c));
    std::string line;
    int lines = 0;
    while (std::getline(log, line)) {
      ++lines;
      EXPECT_NE(line.find(" ok "), std::string::npos) << "writer " << c << ": " << line;
      if (line.find(" dropped") != std::string::npos) ++dropped;
    }
    EXPECT_EQ(lines, kWrites) << "writer " << c;
    for (int k = 1; k <= kWrites; ++k) {
      auto rows = WriterRows(c, k);
      expected.insert(expected.end(), rows.begin(), rows.end());
    }
  }
  int compacted = 0, conflicts = 0;
  {
    std::ifstream log(tmp.path() + "/log-" + std::to_string(kWriters));
    std::string line;
    while (std::getline(log, line)) {
      if (line.find(" ok") != std::string::npos) ++compacted;
      if (line.find(" conflict") != std::string::npos) ++conflicts;
      EXPECT_EQ(line.find(" error"), std::string::npos) << line;
    }
  }
  auto rows = ReadTestTable(dir);
  ASSERT_OK(rows);
  EXPECT_EQ(*rows, Sorted(expected));
  ExpectTableChecks(dir);
  RecordProperty("dropped_compactions", dropped);
  std::cout << kWriters * kWrites << " writes, " << dropped
            << " of their compactions dropped; compactor: " << compacted << " landed, " << conflicts
            << " conflicts\n";
}

// The rows of batch k of the killed committer.
std::vector<TestRow> Batch(int64_t k) {
  return MakeRows(static_cast<int32_t>(k % 3), k * 100, 4, "b");
}

std::vector<TestRow> BatchesUpTo(int64_t k) {
  std::vector<TestRow> rows;
  for (int64_t i = 1; i <= k; ++i) {
    auto b = Batch(i);
    rows.insert(rows.end(), b.begin(), b.end());
  }
  return Sorted(std::move(rows));
}

// Commits batches 1..batches as user "killer", skipping those already committed (a restarted
// writer), and kills itself with SIGKILL at step `kill_at` (counting every commit step).
void KilledCommitter(const std::string& dir, int batches, int kill_at) {
  auto table = OpenTestTable(dir);
  if (!table.ok()) _exit(3);
  auto commit = FileStoreCommit::Make(*table, "killer");
  if (!commit.ok()) _exit(3);
  int steps = 0;
  (*commit)->SetStepHookForTesting([&](std::string_view) {
    if (++steps == kill_at) raise(SIGKILL);
  });
  std::vector<int64_t> all;
  for (int k = 1; k <= batches; ++k) all.push_back(k);
  auto pending = (*commit)->FilterCommitted(all);
  if (!pending.ok()) _exit(4);
  for (int64_t k : *pending) {
    auto rows = Batch(k);
    auto file = WriteTestDataFile(**table, 0, rows);
    auto res = (*commit)->Commit(Committable(k, {AddFiles(**table, rows[0].pt, 0, {file})}));
    if (!res.ok() || res->snapshot_ids.size() != 1) _exit(5);
  }
}

TEST(CommitScenarioTest, KilledCommitterLeavesOnlyWholeSnapshots) {
  ::sluice::test::TempDir tmp;
  const std::string dir = tmp.path() + "/t";
  // Small merge count so that base manifests are rewritten in many commits.
  ASSERT_OK(CreateTestRowTable(dir, true, {{"manifest.merge-min-count", "2"}}));
  constexpr int kBatches = 40;
  int kills = 0;
  for (int round = 0; round < 21; ++round) {
    // 7 steps per commit: round r dies at step r + 1 of its run, so that the rounds together
    // die at every step of a commit (before and after the snapshot file, before the hint).
    const int kill_at = 1 + round;
    int status = RunChild([&] { KilledCommitter(dir, kBatches, kill_at); });
    if (WIFSIGNALED(status)) {
      ASSERT_EQ(WTERMSIG(status), SIGKILL);
      ++kills;
    } else {
      ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
    // Whatever the point of death: the snapshots are contiguous, each whole, and each holds
    // exactly the batches up to its commit identifier.
    auto table = OpenTestTable(dir);
    ASSERT_OK(table);
    auto snapshots = (*table)->snapshot_manager().ListSnapshots();
    ASSERT_OK(snapshots);
    for (size_t i = 0; i < snapshots->size(); ++i) {
      const Snapshot& s = (*snapshots)[i];
      ASSERT_EQ(s.id, static_cast<int64_t>(i) + 1);
      ASSERT_EQ(s.commit_identifier, s.id) << "each batch is committed once, in order";
      auto rows = ReadTestTable(dir, TableVersion::SnapshotId(s.id));
      ASSERT_OK(rows);
      ASSERT_EQ(*rows, BatchesUpTo(s.id)) << "snapshot " << s.id;
      EXPECT_EQ(s.total_record_count, static_cast<int64_t>(rows->size()));
    }
    auto latest = ReadTestTable(dir);
    ASSERT_OK(latest);
    EXPECT_EQ(*latest, BatchesUpTo(static_cast<int64_t>(snapshots->size())));
  }
  // A last run without a kill commits what is left, each batch once.
  int status = RunChild([&] { KilledCommitter(dir, kBatches, -1); });
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  auto rows = ReadTestTable(dir);
  ASSERT_OK(rows);
  EXPECT_EQ(*rows, BatchesUpTo(kBatches));
  ExpectTableChecks(dir);
  EXPECT_GT(kills, 0);
  std::cout << kills << " committers killed\n";
}

}  // namespace
}  // namespace sluice
