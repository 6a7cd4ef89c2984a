// SIGKILL tests of the maintenance operations (labelled scenario): a real child process (fork)
// runs snapshot expiry, tag creation, branch merge, orphan cleanup or rollback on a table in a
// local folder, through a FileIO that sends the process SIGKILL right before its n-th mutating
// call (file create, append, close, rename, delete, mkdir, directory sync), n drawn at random
// from the calls an uninterrupted run makes. The parent waits for the kill, then checks what a
// restarted process sees: the table checks clean (`sluice check`), every snapshot and tag left
// reads as before, and the latest snapshot reads as one committed state (before or after the
// operation, or, for a rollback, a snapshot in between); the operation then runs again to
// completion and leaves what an uninterrupted run leaves. Unlike the power-loss tests
// (FaultInjectionFileIO), the page cache survives a killed process: what the child wrote is all
// there, half-done.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <random>

#include "fs/sigkill_file_io.h"
#include "maintenance/tags_test_util.h"
#include "sluice/maintenance/branch_merge.h"
#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/maintenance/orphan_files_clean.h"
#include "sluice/maintenance/rollback.h"
#include "sluice/maintenance/tag_operations.h"
#include "sluice/meta/branch_manager.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;
using test::SigkillFileIO;
using test::tags::MaintenanceRowType;
using test::tags::Row;

// The table folder inside a run folder (the path the template was built at, under it).
std::string TableIn(const std::string& root) { return root + test::tags::kMaintenanceTable; }

Result<std::shared_ptr<FileStoreTable>> OpenAt(std::shared_ptr<FileIO> io, const std::string& root,
                                               const std::string& branch = "main") {
  return FileStoreTable::Open(std::move(io), TableIn(root), branch);
}

// Every row of `version` of `branch`, rendered, sorted.
Result<std::vector<std::string>> ReadRows(const std::string& root, const std::string& branch,
                                          TableVersion version = TableVersion::Latest()) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                          OpenAt(LocalFileIO(), root, branch));
  return test::tags::ReadTableRows(*table, version);
}

// What a version of the table reads as: snapshot id -> rows, tag -> rows.
struct Reads {
  std::map<int64_t, std::vector<std::string>> snapshots;
  std::map<std::string, std::vector<std::string>> tags;
  std::vector<std::string> latest;
};

Reads ReadEverything(const std::string& root) {
  Reads reads;
  auto table = OpenAt(LocalFileIO(), root);
  EXPECT_OK(table);
  if (!table.ok()) return reads;
  for (int64_t id : (*table)->snapshot_manager().ListSnapshotIds().ValueOr({})) {
    auto rows = ReadRows(root, "main", TableVersion::SnapshotId(id));
    EXPECT_OK(rows) << "snapshot " << id;
    if (rows.ok()) reads.snapshots[id] = *rows;
  }
  for (const std::string& name : (*table)->tag_manager().ListTagNames().ValueOr({})) {
    auto rows = ReadRows(root, "main", TableVersion::Tag(name));
    EXPECT_OK(rows) << "tag " << name;
    if (rows.ok()) reads.tags[name] = *rows;
  }
  reads.latest = ReadRows(root, "main").ValueOr({});
  return reads;
}

// An operation on the table at a run folder, through `io`.
using Operation = std::function<Status(std::shared_ptr<FileIO> io, const std::string& root)>;

class MaintenanceSigkillTest : public ::testing::Test {
 protected:
  // The template: snapshots 1 .. 5 on main (three writes, each of the later two with its
  // compaction), tag t1 of snapshot 1, branch dev from t1 with a write of its own, and three
  // orphans; built in memory, then laid out under a local folder.
  void SetUp() override {
    auto memory = std::make_shared<MemoryFileIO>();
    test::tags::CreateMaintenanceTable(
        memory, /*append=*/false, {{"bucket", "1"}, {"num-sorted-run.compaction-trigger", "2"}});
    ASSERT_OK(test::tags::WriteAndCommit(memory, "main", {Row(1, "a", "one"), Row(2, "b", "two")}));
    auto table = test::tags::OpenBranch(memory);
    ASSERT_OK(table);
    ASSERT_OK(CreateTag(**table, "t1", TagRequest{.snapshot_id = 1}));
    ASSERT_OK(BranchManager(memory, test::tags::kMaintenanceTable)
                  .CreateBranchFromTag("dev", "main", "t1"));
    ASSERT_OK(test::tags::WriteAndCommit(memory, "dev", {Row(3, "c", "dev")}));
    ASSERT_OK(test::tags::WriteAndCommit(memory, "main", {Row(1, "a", "uno")}));
    ASSERT_OK(test::tags::WriteAndCommit(memory, "main", {Row(2, "b", "dos")}));
    const std::string t = test::tags::kMaintenanceTable;
    for (const std::string name : {"/p=a/bucket-0/data-orphan.parquet", "/manifest/manifest-orphan",
                                   "/snapshot/.snapshot-9.tmp"}) {
      ASSERT_OK(memory->WriteFileAtomic(t + name, "x", false));
    }
    template_ = dir_.path() + "/template";
    std::vector<std::string> files;
    Collect(*memory, "/warehouse", &files);
    for (const std::string& path : files) {
      fs::create_directories(fs::path(template_ + path).parent_path());
      std::ofstream(template_ + path, std::ios::binary) << memory->ReadFile(path).ValueOr("");
    }
    before_ = ReadEverything(template_);
    ASSERT_EQ(before_.snapshots.size(), 5u);
  }

  static void Collect(FileIO& io, const std::string& dir, std::vector<std::string>* out) {
    for (const FileStatus& e : io.ListDir(dir).ValueOr({})) {
      if (e.is_dir) {
        Collect(io, e.path, out);
      } else {
        out->push_back(e.path);
      }
    }
  }

  // A fresh copy of the template.
  std::string Copy(const std::string& name) {
    const std::string root = dir_.path() + "/" + name;
    fs::remove_all(root);
    fs::copy(template_, root, fs::copy_options::recursive);
    return root;
  }

  // Runs `op` in a child killed before mutating call `kill_at`; returns whether SIGKILL ended it
  // (false: it exited, with `op`'s success as its status).
  bool RunKilled(const Operation& op, const std::string& root, int64_t kill_at) {
    std::cout.flush();
    const pid_t pid = fork();
    if (pid == 0) {
      auto io = std::make_shared<SigkillFileIO>(LocalFileIO(), kill_at);
      _exit(op(io, root).ok() ? 0 : 1);
    }
    int status = 0;
    EXPECT_EQ(waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status)) {
      EXPECT_EQ(WTERMSIG(status), SIGKILL);
      return true;
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the child failed";
    return false;
  }

  // What a restarted process sees: a clean check on main and dev, every snapshot and tag left
  // reading as before (new ones as `after`), the latest as before or after.
  void ExpectOneCommittedState(const std::string& root, const Reads& after) {
    for (const std::string branch : {"main", "dev"}) {
      auto table = OpenAt(LocalFileIO(), root, branch);
      ASSERT_OK(table);
      auto report = RunTableCheck(**table);
      ASSERT_OK(report);
      for (const std::string& p : report->problems) ADD_FAILURE() << branch << ": " << p;
    }
    const Reads now = ReadEverything(root);
    for (const auto& [id, rows] : now.snapshots) {
      const auto& known = before_.snapshots.count(id) ? before_.snapshots : after.snapshots;
      ASSERT_TRUE(known.count(id)) << "snapshot " << id << " is neither before nor after";
      EXPECT_EQ(rows, known.at(id)) << "snapshot " << id;
    }
    for (const auto& [name, rows] : now.tags) {
      const auto& known = before_.tags.count(name) ? before_.tags : after.tags;
      ASSERT_TRUE(known.count(name)) << "tag " << name;
      EXPECT_EQ(rows, known.at(name)) << "tag " << name;
    }
    // The latest is a committed state: a snapshot's of before or after (a rollback killed half
    // way has removed only its newest snapshots).
    bool committed = false;
    for (const Reads* reads : {static_cast<const Reads*>(&before_), &after}) {
      for (const auto& [id, rows] : reads->snapshots) committed = committed || rows == now.latest;
    }
    EXPECT_TRUE(committed) << "the latest snapshot reads as no committed state";
  }

  // The reference run (uninterrupted, in this process), then up to `kills` runs killed at
  // distinct random calls; each killed table must be one committed state, and `finish` (the
  // operation as a restarted process runs it) must bring it to the reference's end state.
  void RunWithKills(const std::string& what, const Operation& op, const Operation& finish,
                    int kills = 6) {
    const std::string reference = Copy(what + "-reference");
    auto counting = std::make_shared<SigkillFileIO>(LocalFileIO(), 0);
    ASSERT_OK(op(counting, reference));
    const int64_t calls = counting->calls();
    ASSERT_GT(calls, 1) << what;
    const Reads after = ReadEverything(reference);
    // Distinct kill points, at random.
    std::vector<int64_t> points;
    for (int64_t n = 1; n <= calls; ++n) points.push_back(n);
    std::shuffle(points.begin(), points.end(), std::mt19937_64(std::hash<std::string>{}(what)));
    points.resize(std::min<size_t>(points.size(), static_cast<size_t>(kills)));
    int killed = 0;
    for (const int64_t kill_at : points) {
      SCOPED_TRACE(what + ": SIGKILL before mutating call " + std::to_string(kill_at) + " of " +
                   std::to_string(calls));
      const std::string root = Copy(what + "-killed");
      if (RunKilled(op, root, kill_at)) ++killed;
      ExpectOneCommittedState(root, after);
      ASSERT_OK(finish(LocalFileIO(), root));
      const Reads done = ReadEverything(root);
      EXPECT_EQ(done.snapshots, after.snapshots);
      EXPECT_EQ(done.tags, after.tags);
      EXPECT_EQ(done.latest, after.latest);
      if (HasFailure()) return;
    }
    EXPECT_EQ(killed, static_cast<int>(points.size()))
        << "every child is killed before a call it makes";
    std::cout << what << ": " << killed << " children killed, of " << calls << " mutating calls\n";
  }

  test::TempDir dir_;
  std::string template_;
  Reads before_;
};

TEST_F(MaintenanceSigkillTest, ExpireSnapshots) {
  const Operation op = [](std::shared_ptr<FileIO> io, const std::string& root) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenAt(std::move(io), root));
    ExpireConfig config;
    config.snapshot_retain_min = 2;
    config.snapshot_retain_max = 2;
    config.changelog_retain_min = 2;
    config.changelog_retain_max = 2;
    return ExpireSnapshotsImpl(table).Expire(config, CurrentTimeMillis()).status();
  };
  RunWithKills("expire", op, op);
}

TEST_F(MaintenanceSigkillTest, TagCreation) {
  const Operation op = [](std::shared_ptr<FileIO> io, const std::string& root) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenAt(std::move(io), root));
    TagRequest request;
    request.time_retained_millis = 3600000;
    request.ignore_if_exists = true;  // the restarted process tags again
    return CreateTag(*table, "t5", request).status();
  };
  RunWithKills("tag", op, op);
}

TEST_F(MaintenanceSigkillTest, BranchMerge) {
  const Operation op = [](std::shared_ptr<FileIO> io, const std::string& root) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenAt(std::move(io), root));
    return MergeBranch(table, "dev").status();
  };
  // Restarted, the merge runs again unless it landed.
  const std::vector<std::string> unmerged = before_.latest;
  const Operation finish = [op, unmerged](std::shared_ptr<FileIO> io,
                                          const std::string& root) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> rows, ReadRows(root, "main"));
    return rows == unmerged ? op(std::move(io), root) : Status::OK();
  };
  RunWithKills("merge", op, finish);
}

TEST_F(MaintenanceSigkillTest, RemoveOrphanFiles) {
  const Operation op = [](std::shared_ptr<FileIO> io, const std::string& root) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenAt(std::move(io), root));
    return LocalOrphanFilesClean(table, INT64_MAX, /*dry_run=*/false).Clean().status();
  };
  RunWithKills("orphans", op, op);
}

TEST_F(MaintenanceSigkillTest, Rollback) {
  const Operation op = [](std::shared_ptr<FileIO> io, const std::string& root) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, OpenAt(std::move(io), root));
    return RollbackHelper(table).RollbackTo(2).status();
  };
  RunWithKills("rollback", op, op);
}

}  // namespace
}  // namespace sluice
