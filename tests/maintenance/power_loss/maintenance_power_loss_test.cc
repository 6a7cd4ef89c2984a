// Power-loss tests of the maintenance operations (labelled scenario): snapshot expiry (with and
// without a decoupled changelog), long-lived changelog expiry, rollback, the deletion of a tag
// whose snapshot expired (with the files only it kept) and orphan cleanup run
// on a FaultInjectionFileIO over a MemoryFileIO (the harness of tests/table/power_loss), and the
// power fails after each of their mutating FileIO calls in turn (the table is opened first, so
// the crash strikes the operation, not the open). After FaultInjectionFileIO::DropUnsynced():
//   - the table checks clean and every snapshot and tag left reads as it did before (one
//     committed state: before, after, or an expiry or rollback that went part of the way,
//     oldest (expiry) or newest (rollback) snapshots first, which Java's own passes through);
//   - the operation run again completes; then orphan cleanup leaves exactly the referenced
//     files (the crash left at most orphans).
// Tag creation, branch creation and branch merge: tags_power_loss_test.cc.

#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "maintenance/maintenance_test_util.h"
#include "sluice/fs/fault_injection_file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "sluice/maintenance/expire_changelogs.h"
#include "sluice/maintenance/expire_snapshots.h"
#include "sluice/maintenance/orphan_files_clean.h"
#include "sluice/maintenance/rollback.h"
#include "sluice/maintenance/tag_deletion.h"

namespace sluice {
namespace {

constexpr char kTable[] = "/warehouse/db.db/t";

std::vector<ValueList> Batch(int i) {
  return {{Value::Int64(0), Value::String("u" + std::to_string(i))},
          {Value::Int64(i), Value::String("v" + std::to_string(i))}};
}

// Every file under `dir` of `io`, recursively.
void ListAll(FileIO& io, const std::string& dir, std::vector<FileStatus>* out) {
  auto entries = io.ListDir(dir);
  if (!entries.ok()) return;
  for (FileStatus& e : *entries) {
    if (e.is_dir) {
      ListAll(io, e.path, out);
    } else {
      out->push_back(std::move(e));
    }
  }
}

// The data, manifest, index and statistics files of the table in `io`.
std::set<std::string> DataAndManifestFiles(FileIO& io) {
  std::vector<FileStatus> files;
  ListAll(io, kTable, &files);
  std::set<std::string> out;
  for (const FileStatus& f : files) {
    const std::string rel = f.path.substr(std::string(kTable).size() + 1);
    const std::string top = rel.substr(0, rel.find('/'));
    if (top == "schema" || top == "snapshot" || top == "tag" || top == "consumer" ||
        top == "changelog" || top == "branch") {
      continue;
    }
    out.insert(f.path);
  }
  return out;
}

// Keeps the `snapshots` newest snapshots (min = max: with no time retained, min decides), and
// up to `changelog_max` snapshots and long-lived changelogs.
ExpireConfig Retain(int32_t snapshots, int32_t changelog_max) {
  ExpireConfig config;
  config.snapshot_retain_min = snapshots;
  config.snapshot_retain_max = snapshots;
  config.snapshot_time_retain_millis = 0;
  config.changelog_retain_min = 1;
  config.changelog_retain_max = changelog_max;
  config.changelog_time_retain_millis = 0;
  return config;
}

using Operation = std::function<Status(std::shared_ptr<const FileStoreTable>)>;

class MaintenancePowerLossTest : public ::testing::Test {
 protected:
  // The table every run starts from: three writes (snapshots 1 APPEND, 2 APPEND, 3 COMPACT,
  // 4 APPEND, 5 COMPACT), a tag of snapshot 3, and what `prepare` adds; the reads of every
  // snapshot and tag. Few snapshots keep the runs short: each write adds its own crash points.
  void SetUp() override { BuildTemplate(nullptr); }

  void BuildTemplate(const Operation& prepare) {
    template_ = std::make_shared<MemoryFileIO>();
    test::CreateKvTable(kTable, false, {}, template_);
    for (int i = 1; i <= 3; ++i) {
      ASSERT_OK(test::WriteAndCommit(template_, kTable, false, Batch(i), i));
    }
    test::WriteTag(*Open(template_), "t3", 3);
    if (prepare) ASSERT_OK(prepare(Open(template_)));
    reads_.clear();
    for (const Snapshot& s : Open(template_)->snapshot_manager().ListSnapshots().ValueOr({})) {
      reads_[s.id] = test::ReadAll(kTable, template_, TableVersion::SnapshotId(s.id));
    }
    tag_read_ = test::ReadAll(kTable, template_, TableVersion::Tag("t3"));
  }

  static std::shared_ptr<FileStoreTable> Open(std::shared_ptr<FileIO> io) {
    auto table = FileStoreTable::Open(std::move(io), kTable);
    EXPECT_OK(table);
    return *table;
  }

  // A copy of the template on a fresh fault-injecting file system.
  std::shared_ptr<FaultInjectionFileIO> Fresh() {
    auto memory = std::make_shared<MemoryFileIO>();
    std::vector<FileStatus> files;
    ListAll(*template_, "/warehouse", &files);
    for (const FileStatus& f : files) {
      EXPECT_OK(memory->MkDirs(ParentDir(f.path)));
      EXPECT_OK(memory->WriteFileAtomic(f.path, template_->ReadFile(f.path).ValueOr(""), false));
    }
    return std::make_shared<FaultInjectionFileIO>(memory);
  }

  void ExpectConsistent(const std::shared_ptr<FileIO>& io, const std::string& where) {
    SCOPED_TRACE(where);
    auto table = Open(io);
    auto report = RunTableCheck(*table);
    ASSERT_OK(report);
    for (const std::string& p : report->problems) ADD_FAILURE() << p;
    auto ids = table->snapshot_manager().ListSnapshotIds();
    ASSERT_OK(ids);
    ASSERT_FALSE(ids->empty());
    for (int64_t id : *ids) {
      // A snapshot restored from tag t3 reads as the tag did.
      const std::vector<std::string>& expected = reads_.count(id) ? reads_[id] : tag_read_;
      EXPECT_TRUE(reads_.count(id) || id == 3) << "snapshot " << id << " is new";
      EXPECT_EQ(test::ReadAll(kTable, io, TableVersion::SnapshotId(id)), expected)
          << "snapshot " << id;
    }
    if (table->tag_manager().TagExists("t3").ValueOr(false)) {
      EXPECT_EQ(test::ReadAll(kTable, io, TableVersion::Tag("t3")), tag_read_);
    }
  }

  // Runs `op` once without a crash (the reference: its mutating calls and the snapshots it
  // leaves), then with the power failing after each of its mutating calls but the last (after
  // which nothing is left to fail).
  void RunWithPowerLoss(const Operation& op) {
    auto reference = Fresh();
    ASSERT_OK(op(Open(reference)));
    const int64_t calls = reference->mutations();
    ASSERT_GT(calls, 1);
    ExpectConsistent(reference, "no crash");
    auto final_ids = Open(reference)->snapshot_manager().ListSnapshotIds();
    ASSERT_OK(final_ids);
    for (int64_t n = 1; n < calls; ++n) {
      SCOPED_TRACE("power lost after " + std::to_string(n) + " of " + std::to_string(calls) +
                   " mutating calls");
      auto io = Fresh();
      const std::shared_ptr<FileStoreTable> table = Open(io);
      ASSERT_NE(table, nullptr);
      io->CrashAfter(n);
      EXPECT_TRUE(test::HasError(op(table), StatusCode::kIOError, {"injected crash"}));
      EXPECT_TRUE(io->crashed());
      ASSERT_OK(io->DropUnsynced());
      ExpectConsistent(io, "after the power loss");
      // Run again, it ends where the uncrashed run ended, with at most orphans to clean.
      ASSERT_OK(op(Open(io))) << "the operation run again";
      EXPECT_EQ(Open(io)->snapshot_manager().ListSnapshotIds().ValueOr({}), *final_ids);
      test::ExpectCheckClean(*Open(io));
      ASSERT_OK(LocalOrphanFilesClean(Open(io), INT64_MAX, false).Clean());
      EXPECT_EQ(DataAndManifestFiles(*io), test::ReferencedFiles(*Open(io)));
      if (HasFailure()) break;
    }
    std::cout << calls - 1 << " power losses\n";
  }

  std::shared_ptr<MemoryFileIO> template_;
  std::map<int64_t, std::vector<std::string>> reads_;
  std::vector<std::string> tag_read_;
};

TEST_F(MaintenancePowerLossTest, ExpireSnapshots) {
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    return ExpireSnapshotsImpl(table).Expire(Retain(2, 2), CurrentTimeMillis()).status();
  });
}

TEST_F(MaintenancePowerLossTest, ExpireSnapshotsIntoLongLivedChangelogs) {
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    return ExpireSnapshotsImpl(table).Expire(Retain(3, 100), CurrentTimeMillis()).status();
  });
}

TEST_F(MaintenancePowerLossTest, ExpireChangelogs) {
  BuildTemplate([](std::shared_ptr<const FileStoreTable> table) {
    return ExpireSnapshotsImpl(table).Expire(Retain(2, 100), CurrentTimeMillis()).status();
  });
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    return ExpireChangelogImpl(table).Expire(Retain(2, 3), CurrentTimeMillis()).status();
  });
}

TEST_F(MaintenancePowerLossTest, Rollback) {
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    return RollbackHelper(table).RollbackTo(2).status();
  });
}

TEST_F(MaintenancePowerLossTest, RollbackToTagOfExpiredSnapshot) {
  BuildTemplate([](std::shared_ptr<const FileStoreTable> table) {
    return ExpireSnapshotsImpl(table).Expire(Retain(1, 1), CurrentTimeMillis()).status();
  });
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    return RollbackHelper(table).RollbackToTag("t3").status();
  });
}

// Deleting the tag of an expired snapshot deletes the files only it kept (what automatic tag
// expiry does); run again after a crash that took the tag file, there is nothing left to delete.
TEST_F(MaintenancePowerLossTest, DeleteTagOfExpiredSnapshot) {
  BuildTemplate([](std::shared_ptr<const FileStoreTable> table) {
    return ExpireSnapshotsImpl(table).Expire(Retain(1, 1), CurrentTimeMillis()).status();
  });
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    Result<int64_t> deleted = DeleteTagAndUnusedFiles(*table, "t3");
    return deleted.status().IsNotFound() ? Status::OK() : deleted.status();
  });
}

TEST_F(MaintenancePowerLossTest, RemoveOrphanFiles) {
  BuildTemplate([](std::shared_ptr<const FileStoreTable> table) {
    for (const std::string name : {"/bucket-0/data-orphan.parquet", "/manifest/manifest-orphan",
                                   "/snapshot/.snapshot-9.tmp"}) {
      SLUICE_RETURN_NOT_OK(table->io()->WriteFileAtomic(kTable + name, "x", false));
    }
    return Status::OK();
  });
  RunWithPowerLoss([](std::shared_ptr<const FileStoreTable> table) {
    return LocalOrphanFilesClean(table, INT64_MAX, false).Clean().status();
  });
}

}  // namespace
}  // namespace sluice
