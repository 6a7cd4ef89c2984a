// Crash tests of the filesystem catalog's DDL (issue #38), on a FaultInjectionFileIO over a
// MemoryFileIO: drop-table, drop-database and rename-table are cut after each of their mutating
// FileIO calls in turn (CrashAfter(n), n = 0, 1, ...: between every pair of calls), once as a
// SIGKILL (the process stops; the operating system keeps all it was told, so the same files are
// read on) and once as a power loss (DropUnsynced: what was not synced is gone). After each cut:
//   - the table (database) is there whole (it reads its rows and checks clean) or not at all;
//     a neighbour is untouched; no hidden folder is listed as a database or a table;
//   - an acknowledged operation survived the power loss;
//   - creating the table again gives an empty, working table (AlreadyExists when the drop did
//     not happen), and the next drop leaves no hidden folder behind.
// A third run kills a real process (fork, SIGKILL) before each FileIO call of drop-table on
// a local warehouse. Also: a folder of state that a drop of an older version (a recursive delete)
// left is refused by create-table, naming what it holds, and drop-table removes it.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fs/sigkill_file_io.h"
#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/fs/fault_injection_file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "sluice/meta/consumer_manager.h"
#include "sluice/table/table_checker.h"
#include "table/compaction_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

constexpr char kWarehouse[] = "/wh";
constexpr char kTable[] = "/wh/db.db/t";
constexpr char kNeighbour[] = "/wh/db.db/u";

using Model = std::map<int64_t, ValueList>;

DataTypePtr RowType() {
  return DataType::Row({DataField{0, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
                        DataField{1, "v", DataType::String(), std::nullopt, std::nullopt}});
}

NewTableSpec Spec() {
  NewTableSpec spec;
  spec.columns = RowType()->fields();
  spec.primary_keys = {"k"};
  spec.options = {{"bucket", "1"}};
  return spec;
}

Model Rows(int64_t first, int64_t count, const std::string& tag) {
  Model model;
  for (int64_t k = first; k < first + count; ++k) {
    model[k] = {Value::Int64(k), Value::String(tag + std::to_string(k))};
  }
  return model;
}

Status WriteAndCommit(const std::shared_ptr<FileIO>& io, const std::string& path, const Model& rows,
                      int64_t identifier) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, FileStoreTable::Open(io, path));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write, FileStoreWrite::Open(table));
  std::vector<ValueList> batch;
  for (const auto& [k, row] : rows) batch.push_back(row);
  SLUICE_RETURN_NOT_OK(test::WriteRows(write.get(), RowType(), batch, {}));
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                          write->PrepareCommit(identifier, /*wait_compaction=*/true));
  SLUICE_RETURN_NOT_OK(write->Close());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                          FileStoreCommit::Make(table, "crash-test"));
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages);
  return commit->Commit(committable).status();
}

// Copies the directories and files under `from_dir` of `from` to `to_dir` of `to`.
void CopyTree(FileIO& from, const std::string& from_dir, FileIO& to, const std::string& to_dir) {
  ASSERT_OK(to.MkDirs(to_dir));
  auto entries = from.ListDir(from_dir);
  ASSERT_OK(entries);
  for (const FileStatus& e : *entries) {
    const std::string target = to_dir + e.path.substr(from_dir.size());
    if (e.is_dir) {
      CopyTree(from, e.path, to, target);
    } else {
      ASSERT_OK(to.WriteFileAtomic(target, *from.ReadFile(e.path), /*overwrite=*/false));
    }
  }
}

// The entries of warehouse `wh` whose names start with '.' (what drops leave), by name.
std::vector<std::string> HiddenEntries(FileIO& io, const std::string& wh = kWarehouse) {
  std::vector<std::string> out;
  for (const FileStatus& e : io.ListDir(wh).ValueOr({})) {
    const std::string name = e.path.substr(e.path.rfind('/') + 1);
    if (name.starts_with('.')) out.push_back(name);
  }
  return out;
}

// Whether the table's latest snapshot exists.
bool HasSnapshot(const std::shared_ptr<FileIO>& io, const std::string& path) {
  auto table = FileStoreTable::Open(io, path);
  EXPECT_OK(table);
  return table.ok() && (*table)->snapshot_manager().LatestSnapshotId().ValueOr(std::nullopt);
}

void ExpectCheckClean(const std::shared_ptr<FileIO>& io, const std::string& path) {
  auto table = FileStoreTable::Open(io, path);
  ASSERT_OK(table);
  auto report = RunTableCheck(**table);
  ASSERT_OK(report);
  for (const std::string& problem : report->problems) ADD_FAILURE() << path << ": " << problem;
}

class CatalogCrashTest : public ::testing::Test {
 protected:
  // The warehouse every run starts from: databases db and other; in db, table t with two
  // commits and a consumer, and table u with one commit.
  void SetUp() override {
    template_ = std::make_shared<MemoryFileIO>();
    FilesystemCatalog c(template_, kWarehouse);
    ASSERT_OK(c.CreateDatabase("db"));
    ASSERT_OK(c.CreateDatabase("other"));
    ASSERT_OK(c.CreateTable("db.t", Spec()));
    ASSERT_OK(c.CreateTable("db.u", Spec()));
    ASSERT_OK(WriteAndCommit(template_, kTable, Rows(0, 5, "a"), 1));
    ASSERT_OK(WriteAndCommit(template_, kTable, Rows(3, 5, "b"), 2));
    ASSERT_OK(ConsumerManager(template_, kTable).ResetConsumer("reader", Consumer{2}));
    ASSERT_OK(WriteAndCommit(template_, kNeighbour, Rows(100, 3, "u"), 1));
    t_rows_ = Rows(0, 5, "a");
    for (auto& [k, row] : Rows(3, 5, "b")) t_rows_[k] = row;
  }

  std::shared_ptr<MemoryFileIO> Copy() {
    auto memory = std::make_shared<MemoryFileIO>();
    CopyTree(*template_, kWarehouse, *memory, kWarehouse);
    return memory;
  }

  // Runs `op` on a copy of the template with the process cut after n = 0, 1, ... mutating
  // calls, until it runs whole; `check` sees the warehouse after each cut (as a SIGKILL or a
  // power loss leaves it) and whether `op` was acknowledged. Returns the number of cuts.
  int CutEverywhere(bool power_loss, const std::function<Status(FilesystemCatalog&)>& op,
                    const std::function<void(const std::shared_ptr<FileIO>&, bool)>& check) {
    int cuts = 0;
    for (int64_t n = 0;; ++n) {
      SCOPED_TRACE((power_loss ? "power lost" : "killed") + std::string(" after ") +
                   std::to_string(n) + " calls");
      std::shared_ptr<MemoryFileIO> memory = Copy();
      auto io = std::make_shared<FaultInjectionFileIO>(memory);
      io->CrashAfter(n);
      FilesystemCatalog catalog(io, kWarehouse);
      Status st = op(catalog);
      const bool crashed = io->crashed();
      EXPECT_TRUE(st.ok() || crashed) << st.ToString();
      std::shared_ptr<FileIO> after = memory;
      if (power_loss) {
        EXPECT_OK(io->DropUnsynced());
        after = io;
      }
      check(after, st.ok());
      if (HasFailure() || !crashed) break;
      ++cuts;
    }
    return cuts;
  }

  // After drop-table of db.t in warehouse `wh` was cut: t is whole or gone, u is untouched, t
  // can be created again (empty, working), and the next drop leaves no hidden folder.
  void ExpectDropTableRecovers(const std::shared_ptr<FileIO>& io, bool acknowledged,
                               const std::string& wh = kWarehouse) {
    const std::string table = wh + "/db.db/t";
    const std::string neighbour = wh + "/db.db/u";
    FilesystemCatalog c(io, wh);
    EXPECT_EQ(*c.ListDatabases(), (std::vector<std::string>{"db", "other"}));
    auto tables = c.ListTables("db");
    ASSERT_OK(tables);
    const bool present = *tables == std::vector<std::string>{"t", "u"};
    EXPECT_TRUE(present || *tables == (std::vector<std::string>{"u"})) << tables->size();
    EXPECT_FALSE(present && acknowledged) << "an acknowledged drop came back";
    EXPECT_EQ(test::ReadAll(neighbour, io), test::RenderModel(Rows(100, 3, "u")));
    if (present) {
      EXPECT_EQ(test::ReadAll(table, io), test::RenderModel(t_rows_));
      ExpectCheckClean(io, table);
      EXPECT_TRUE(test::HasError(c.CreateTable("db.t", Spec()), StatusCode::kAlreadyExists,
                                 {"table db.t already exists"}));
      ASSERT_OK(c.DropTable("db.t"));
    }
    ASSERT_OK(c.CreateTable("db.t", Spec()));
    EXPECT_FALSE(HasSnapshot(io, table)) << "the new table inherited snapshots";
    EXPECT_TRUE(test::ReadAll(table, io).empty());
    EXPECT_TRUE(ConsumerManager(io, table).ListAllIds()->empty()) << "it inherited consumers";
    ASSERT_OK(WriteAndCommit(io, table, Rows(50, 2, "new"), 1));
    EXPECT_EQ(test::ReadAll(table, io), test::RenderModel(Rows(50, 2, "new")));
    ExpectCheckClean(io, table);
    ASSERT_OK(c.DropTable("db.t"));
    EXPECT_EQ(HiddenEntries(*io, wh), std::vector<std::string>{}) << "the next drop cleans up";
    EXPECT_EQ(*c.ListTables("db"), std::vector<std::string>{"u"});
  }

  std::shared_ptr<MemoryFileIO> template_;
  Model t_rows_;
};

TEST_F(CatalogCrashTest, DropTableKilledBetweenEveryPairOfFileOperations) {
  const int cuts = CutEverywhere(
      /*power_loss=*/false, [](FilesystemCatalog& c) { return c.DropTable("db.t"); },
      [&](const std::shared_ptr<FileIO>& io, bool acked) { ExpectDropTableRecovers(io, acked); });
  EXPECT_GE(cuts, 4);  // rename, two syncs, the deletes
  std::cout << cuts << " drop-table runs killed, one after each FileIO call\n";
}

TEST_F(CatalogCrashTest, DropTablePowerLossAfterEveryFileOperation) {
  const int cuts = CutEverywhere(
      /*power_loss=*/true, [](FilesystemCatalog& c) { return c.DropTable("db.t"); },
      [&](const std::shared_ptr<FileIO>& io, bool acked) { ExpectDropTableRecovers(io, acked); });
  EXPECT_GE(cuts, 4);
  std::cout << cuts << " power losses during drop-table\n";
}

// A real process (fork) runs drop-table on a local warehouse and is sent SIGKILL right before
// its n-th mutating FileIO call, n = 1, 2, ... until it runs whole.
TEST_F(CatalogCrashTest, DropTableProcessKilledBeforeEachFileOperation) {
  test::TempDir dir;
  int kills = 0;
  for (int64_t n = 1;; ++n) {
    SCOPED_TRACE("killed before call " + std::to_string(n));
    const std::string wh = dir.path() + "/run-" + std::to_string(n) + "/wh";
    CopyTree(*template_, kWarehouse, *LocalFileIO(), wh);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto io = std::make_shared<test::SigkillFileIO>(LocalFileIO(), n);
      _exit(FilesystemCatalog(io, wh).DropTable("db.t").ok() ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    const bool killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    EXPECT_TRUE(killed || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) << status;
    ExpectDropTableRecovers(LocalFileIO(), /*acknowledged=*/!killed, wh);
    if (HasFailure() || !killed) break;
    ++kills;
  }
  EXPECT_GE(kills, 4);  // before the rename, each sync, the delete
  std::cout << kills << " drop-table processes killed, one before each FileIO call\n";
}

TEST_F(CatalogCrashTest, DropDatabaseCutAnywhereLeavesItWholeOrGone) {
  for (bool power_loss : {false, true}) {
    const int cuts = CutEverywhere(
        power_loss, [](FilesystemCatalog& c) { return c.DropDatabase("db", false, true); },
        [&](const std::shared_ptr<FileIO>& io, bool acked) {
          FilesystemCatalog c(io, kWarehouse);
          auto databases = c.ListDatabases();
          ASSERT_OK(databases);
          const bool present = *databases == std::vector<std::string>{"db", "other"};
          EXPECT_TRUE(present || *databases == (std::vector<std::string>{"other"}));
          EXPECT_FALSE(present && acked) << "an acknowledged drop came back";
          if (present) {
            EXPECT_EQ(*c.ListTables("db"), (std::vector<std::string>{"t", "u"}));
            EXPECT_EQ(test::ReadAll(kTable, io), test::RenderModel(t_rows_));
            EXPECT_EQ(test::ReadAll(kNeighbour, io), test::RenderModel(Rows(100, 3, "u")));
            ASSERT_OK(c.DropDatabase("db", false, true));
          }
          ASSERT_OK(c.CreateDatabase("db"));
          EXPECT_EQ(*c.ListTables("db"), std::vector<std::string>{});
          ASSERT_OK(c.CreateTable("db.t", Spec()));
          EXPECT_FALSE(HasSnapshot(io, kTable));
          ASSERT_OK(c.DropDatabase("db", false, true));
          EXPECT_EQ(HiddenEntries(*io), std::vector<std::string>{});
        });
    EXPECT_GE(cuts, 2) << (power_loss ? "power loss" : "kill");
  }
}

TEST_F(CatalogCrashTest, RenameTableCutAnywhereLeavesOneTable) {
  for (bool power_loss : {false, true}) {
    const int cuts = CutEverywhere(
        power_loss, [](FilesystemCatalog& c) { return c.RenameTable("db.t", "db.t2"); },
        [&](const std::shared_ptr<FileIO>& io, bool acked) {
          FilesystemCatalog c(io, kWarehouse);
          auto tables = c.ListTables("db");
          ASSERT_OK(tables);
          const bool renamed = *tables == std::vector<std::string>{"t2", "u"};
          EXPECT_TRUE(renamed || *tables == (std::vector<std::string>{"t", "u"}));
          EXPECT_TRUE(renamed || !acked) << "an acknowledged rename came back";
          const std::string path = renamed ? "/wh/db.db/t2" : kTable;
          EXPECT_EQ(test::ReadAll(path, io), test::RenderModel(t_rows_));
          ExpectCheckClean(io, path);
        });
    EXPECT_GE(cuts, 1) << (power_loss ? "power loss" : "kill");
  }
}

// What a drop-table of an older version, killed half-way, left: schema/ deleted, snapshot/
// (with LATEST), the consumer and the data still there.
TEST_F(CatalogCrashTest, CreateTableNamesWhatAHalfDroppedTableLeft) {
  std::shared_ptr<FileIO> io = Copy();
  ASSERT_OK(io->Delete(SchemaDir(kTable), /*recursive=*/true));
  FilesystemCatalog c(io, kWarehouse);
  EXPECT_EQ(*c.ListTables("db"), std::vector<std::string>{"u"});
  EXPECT_TRUE(test::HasError(
      c.CreateTable("db.t", Spec(), /*ignore_if_exists=*/true), StatusCode::kAlreadyExists,
      {"table folder /wh/db.db/t still holds snapshot/ and consumer/ of a dropped or "
       "half-created table: remove the folder, or drop db.t"}));
  EXPECT_TRUE(test::HasError(c.RenameTable("db.u", "db.t"), StatusCode::kAlreadyExists,
                             {"table folder /wh/db.db/t still holds snapshot/ and consumer/"}));
  ASSERT_OK(c.DropTable("db.t"));
  EXPECT_TRUE(
      test::HasError(c.DropTable("db.t"), StatusCode::kNotFound, {"table db.t does not exist"}));
  ASSERT_OK(c.CreateTable("db.t", Spec()));
  EXPECT_FALSE(HasSnapshot(io, kTable));
  EXPECT_TRUE(test::ReadAll(kTable, io).empty());
}

TEST_F(CatalogCrashTest, DroppedFoldersAreNeverListedAndTheNextDropDeletesThem) {
  std::shared_ptr<FileIO> io = Copy();
  // What a drop killed after its rename leaves: a whole table under a hidden name.
  ASSERT_OK(io->RenameNoReplace(kTable, "/wh/.sluice-dropped.db.t.0000"));
  ASSERT_OK(io->MkDirs("/wh/.sluice-dropped.db.1111/x/schema"));
  FilesystemCatalog c(io, kWarehouse);
  EXPECT_EQ(*c.ListDatabases(), (std::vector<std::string>{"db", "other"}));
  EXPECT_EQ(*c.ListTables("db"), std::vector<std::string>{"u"});
  EXPECT_EQ(HiddenEntries(*io).size(), 2u);
  ASSERT_OK(c.DropDatabase("other"));
  EXPECT_EQ(HiddenEntries(*io), std::vector<std::string>{});
  EXPECT_EQ(test::ReadAll(kNeighbour, io), test::RenderModel(Rows(100, 3, "u")));
}

}  // namespace
}  // namespace sluice
