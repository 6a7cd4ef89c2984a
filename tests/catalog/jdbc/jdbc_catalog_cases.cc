#include "catalog/jdbc/jdbc_catalog_cases.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/jdbc/jdbc_client_pool.h"
#include "sluice/meta/snapshot_manager.h"
#include "table/commit_test_util.h"

namespace sluice::test {

namespace fs = std::filesystem;

void JdbcCatalogCases::SetUp() {
  warehouse_ = temp_.path() + "/warehouse";
  std::random_device random;
  catalog_key_ = "case_" + std::to_string(random()) + std::to_string(random());
}

std::map<std::string, std::string> JdbcCatalogCases::Options(
    const std::map<std::string, std::string>& extra) const {
  std::map<std::string, std::string> options = GetParam().options(temp_.path());
  options["metastore"] = "jdbc";
  options["warehouse"] = warehouse_;
  options["catalog-key"] = catalog_key_;
  options["lock.enabled"] = "true";
  options["lock-check-max-sleep"] = "50 ms";
  for (const auto& [key, value] : extra) options[key] = value;
  return options;
}

std::shared_ptr<const JdbcCatalog> JdbcCatalogCases::OpenCatalog(
    const std::map<std::string, std::string>& extra) const {
  Result<std::shared_ptr<const CatalogBackend>> catalog = CreateCatalog(Options(extra));
  EXPECT_OK(catalog);
  if (!catalog.ok()) return nullptr;
  return std::dynamic_pointer_cast<const JdbcCatalog>(*catalog);
}

std::string BackendName(const ::testing::TestParamInfo<JdbcBackend>& info) {
  return info.param.name;
}

namespace {

NewTableSpec RowsSpec() {
  NewTableSpec spec;
  spec.columns = {DataField{0, "pt", DataType::Int(), std::nullopt, std::nullopt},
                  DataField{1, "id", DataType::BigInt(), std::nullopt, std::nullopt},
                  DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}};
  spec.options = {{"file.format", "parquet"}, {"commit.max-retries", "100"}};
  return spec;
}

// Commits `rows` in one new data file (bucket 0) as `user`'s commit `identifier`.
Result<CommitResult> CommitRows(const std::shared_ptr<FileStoreTable>& table,
                                const std::vector<TestRow>& rows, int64_t identifier,
                                const std::string& user) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                          FileStoreCommit::Make(table, user));
  return commit->Commit(
      Committable(identifier, {AddFiles(*table, 0, 0, {WriteTestDataFile(*table, 0, rows)})}));
}

// The rows of each result of a query on the catalog's database, as "a|b|c".
std::set<std::string> Rows(const JdbcCatalog& catalog, const std::string& sql,
                           const std::vector<std::string>& params) {
  std::set<std::string> out;
  auto connection =
      JdbcClientPool::Connect(catalog.options().uri, catalog.options().driver_properties);
  EXPECT_OK(connection);
  if (!connection.ok()) return out;
  auto rows = (*connection)->Query(sql, params);
  EXPECT_OK(rows);
  if (!rows.ok()) return out;
  for (const JdbcRow& row : *rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) line += (i ? "|" : "") + row[i].value_or("NULL");
    out.insert(line);
  }
  return out;
}

}  // namespace

TEST_P(JdbcCatalogCases, DatabasesAndTablesRoundTrip) {
  auto catalog = OpenCatalog();
  ASSERT_NE(catalog, nullptr);
  const std::string where = "JDBC catalog '" + catalog_key() + "'";
  EXPECT_EQ(*catalog->ListDatabases(), std::vector<std::string>{});
  ASSERT_OK(catalog->CreateDatabase("sales", false));
  EXPECT_TRUE(HasError(catalog->CreateDatabase("sales", false), StatusCode::kAlreadyExists,
                       {"database 'sales' already exists in " + where}));
  EXPECT_OK(catalog->CreateDatabase("sales", /*ignore_if_exists=*/true));
  EXPECT_TRUE(
      HasError(catalog->CreateDatabase("sys", false), StatusCode::kInvalidArgument, {"sys"}));
  ASSERT_OK(catalog->CreateDatabase("hr", false));
  EXPECT_EQ(*catalog->ListDatabases(), (std::vector<std::string>{"hr", "sales"}));
  EXPECT_TRUE(HasError(catalog->CreateTable("nodb.t", RowsSpec(), false), StatusCode::kNotFound,
                       {"database 'nodb' does not exist in " + where}));

  ASSERT_OK(catalog->CreateTable("sales.orders", RowsSpec(), false));
  EXPECT_TRUE(HasError(catalog->CreateTable("sales.orders", RowsSpec(), false),
                       StatusCode::kAlreadyExists,
                       {"table sales.orders already exists in " + where}));
  EXPECT_OK(catalog->CreateTable("sales.orders", RowsSpec(), /*ignore_if_exists=*/true));
  ASSERT_OK(catalog->CreateTable("sales.items", RowsSpec(), false));
  EXPECT_EQ(*catalog->ListTables("sales"), (std::vector<std::string>{"items", "orders"}));
  EXPECT_TRUE(fs::is_regular_file(warehouse() + "/sales.db/orders/schema/schema-0"));
  EXPECT_TRUE(HasError(catalog->ListTables("nodb"), StatusCode::kNotFound,
                       {"database 'nodb' does not exist in " + where}));

  // Another catalog on the same key sees them; one on another key does not.
  auto other = OpenCatalog();
  ASSERT_NE(other, nullptr);
  auto loaded = other->LoadTable("sales.orders");
  ASSERT_OK(loaded);
  EXPECT_EQ((*loaded)->path(), warehouse() + "/sales.db/orders");
  EXPECT_NE((*loaded)->catalog_lock(), nullptr);
  auto foreign = OpenCatalog({{"catalog-key", catalog_key() + "_other"}});
  ASSERT_NE(foreign, nullptr);
  EXPECT_EQ(*foreign->ListDatabases(), std::vector<std::string>{});
  EXPECT_TRUE(HasError(foreign->LoadTable("sales.orders"), StatusCode::kNotFound,
                       {"table sales.orders does not exist in JDBC catalog"}));

  ASSERT_OK(CommitRows(*loaded, MakeRows(0, 0, 3, "a"), 1, "writer"));
  auto altered = catalog->AlterTable("sales.orders", {SchemaChange::SetOption("owner", "ops")});
  ASSERT_OK(altered);
  EXPECT_EQ(*altered->FindOption("owner"), "ops");

  ASSERT_OK(catalog->RenameTable("sales.orders", "hr.orders2", false));
  EXPECT_TRUE(HasError(catalog->RenameTable("sales.orders", "hr.x", false), StatusCode::kNotFound,
                       {"table sales.orders does not exist in " + where}));
  EXPECT_OK(catalog->RenameTable("sales.orders", "hr.x", /*ignore_if_not_exists=*/true));
  EXPECT_TRUE(HasError(catalog->RenameTable("sales.items", "hr.orders2", false),
                       StatusCode::kAlreadyExists,
                       {"table hr.orders2 already exists in " + where}));
  EXPECT_FALSE(fs::exists(warehouse() + "/sales.db/orders"));
  EXPECT_EQ(*ReadTestTable(warehouse() + "/hr.db/orders2"), MakeRows(0, 0, 3, "a"));
  EXPECT_EQ(*catalog->ListTables("hr"), std::vector<std::string>{"orders2"});

  EXPECT_TRUE(HasError(catalog->DropDatabase("sales", false, false), StatusCode::kInvalidArgument,
                       {"database 'sales' is not empty (tables: items)"}));
  ASSERT_OK(catalog->DropTable("hr.orders2", false));
  EXPECT_FALSE(fs::exists(warehouse() + "/hr.db/orders2"));
  EXPECT_TRUE(HasError(catalog->DropTable("hr.orders2", false), StatusCode::kNotFound,
                       {"table hr.orders2 does not exist in " + where}));
  EXPECT_OK(catalog->DropTable("hr.orders2", /*ignore_if_not_exists=*/true));
  ASSERT_OK(catalog->DropDatabase("sales", false, /*cascade=*/true));
  EXPECT_FALSE(fs::exists(warehouse() + "/sales.db/items"));
  EXPECT_EQ(*catalog->ListDatabases(), std::vector<std::string>{"hr"});
  EXPECT_TRUE(HasError(catalog->DropDatabase("sales", false, false), StatusCode::kNotFound,
                       {"database 'sales' does not exist in " + where}));
}

// The rows Java's JdbcCatalog reads and writes (JdbcUtils' tables, columns and values).
TEST_P(JdbcCatalogCases, RowsAreInJavasLayout) {
  auto catalog = OpenCatalog();
  ASSERT_NE(catalog, nullptr);
  ASSERT_OK(catalog->CreateDatabase("db", false));
  NewTableSpec spec = RowsSpec();
  spec.columns[0].type = DataType::Int(false);
  spec.columns[1].type = DataType::BigInt(false);
  spec.primary_keys = {"pt", "id"};
  spec.partition_keys = {"pt"};
  spec.options = {{"bucket", "2"}};
  ASSERT_OK(catalog->CreateTable("db.t", spec, false));
  const std::string key = catalog_key();
  EXPECT_EQ(Rows(*catalog,
                 "SELECT catalog_key, database_name, table_name FROM paimon_tables WHERE "
                 "catalog_key = ?",
                 {key}),
            std::set<std::string>{key + "|db|t"});
  EXPECT_EQ(Rows(*catalog,
                 "SELECT property_key, property_value FROM paimon_database_properties WHERE "
                 "catalog_key = ? AND database_name = ?",
                 {key, "db"}),
            (std::set<std::string>{"exists|true", "location|" + warehouse() + "/db.db"}));
  EXPECT_EQ(
      Rows(*catalog,
           "SELECT property_key, property_value FROM paimon_table_properties WHERE "
           "catalog_key = ? AND database_name = ? AND table_name = ?",
           {key, "db", "t"}),
      (std::set<std::string>{"bucket|2", "bucket-key|id", "partition|pt", "primary-key|pt,id"}));
  ASSERT_OK(catalog->AlterTable("db.t", {SchemaChange::SetOption("bucket-key", "id")}));
  EXPECT_EQ(Rows(*catalog,
                 "SELECT property_key FROM paimon_table_properties WHERE catalog_key = ? AND "
                 "database_name = ? AND table_name = ? AND property_key = 'bucket-key'",
                 {key, "db", "t"}),
            std::set<std::string>{"bucket-key"});
  // A commit takes and gives back its lock row.
  auto table = catalog->LoadTable("db.t");
  ASSERT_OK(table);
  NewTableSpec append = RowsSpec();
  ASSERT_OK(catalog->CreateTable("db.a", append, false));
  auto a = catalog->LoadTable("db.a");
  ASSERT_OK(a);
  ASSERT_OK(CommitRows(*a, MakeRows(0, 0, 2, "x"), 1, "u"));
  EXPECT_EQ(Rows(*catalog, "SELECT lock_id FROM paimon_distributed_locks WHERE lock_id LIKE ?",
                 {key + ".%"}),
            std::set<std::string>{});
  ASSERT_OK(catalog->DropTable("db.t", false));
  EXPECT_EQ(Rows(*catalog,
                 "SELECT property_key FROM paimon_table_properties WHERE catalog_key = ? AND "
                 "table_name = ?",
                 {key, "t"}),
            std::set<std::string>{});
}

// Catalogs of their own (as separate processes) commit into one table at once: every commit
// lands, none is lost.
TEST_P(JdbcCatalogCases, ConcurrentCommitsThroughTheLockAllLand) {
  auto creator = OpenCatalog();
  ASSERT_NE(creator, nullptr);
  ASSERT_OK(creator->CreateDatabase("db", false));
  ASSERT_OK(creator->CreateTable("db.t", RowsSpec(), false));
  constexpr int kWriters = 3;
  constexpr int kCommits = 4;
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      auto catalog = OpenCatalog();
      auto table = catalog
                       ? catalog->LoadTable("db.t")
                       : Result<std::shared_ptr<FileStoreTable>>(Status::Internal("no catalog"));
      if (!table.ok()) {
        ++failures;
        return;
      }
      for (int c = 0; c < kCommits; ++c) {
        auto landed = CommitRows(*table, MakeRows(w, w * 100 + c * 10, 2, "w"), c + 1,
                                 "writer-" + std::to_string(w));
        if (!landed.ok() || landed->snapshot_ids.size() != 1) {
          ADD_FAILURE() << landed.status().ToString();
          ++failures;
        }
      }
    });
  }
  for (std::thread& t : writers) t.join();
  EXPECT_EQ(failures.load(), 0);
  SnapshotManager snapshots(LocalFileIO(), warehouse() + "/db.db/t");
  EXPECT_EQ(*snapshots.LatestSnapshotId(), kWriters * kCommits);
  auto rows = ReadTestTable(warehouse() + "/db.db/t");
  ASSERT_OK(rows);
  EXPECT_EQ(rows->size(), static_cast<size_t>(kWriters * kCommits * 2));
}

// A commit waits for the lock another holds; past lock-acquire-timeout it fails, its files
// deleted, the table unchanged.
TEST_P(JdbcCatalogCases, CommitWaitsForTheLockAndTimesOut) {
  auto catalog = OpenCatalog({{"lock-acquire-timeout", "400 ms"}});
  ASSERT_NE(catalog, nullptr);
  ASSERT_OK(catalog->CreateDatabase("db", false));
  ASSERT_OK(catalog->CreateTable("db.t", RowsSpec(), false));
  auto table = catalog->LoadTable("db.t");
  ASSERT_OK(table);
  auto holder = OpenCatalog();
  ASSERT_NE(holder, nullptr);
  Result<CommitResult> timed_out = Status::Internal("not run");
  ASSERT_OK(holder->lock()->RunWithLock("db", "t", [&] {
    timed_out = CommitRows(*table, MakeRows(0, 0, 2, "late"), 1, "u");
    return Status::OK();
  }));
  EXPECT_TRUE(HasError(timed_out, StatusCode::kIOError,
                       {"could not acquire the JDBC catalog lock '" + catalog_key() + ".db.t'",
                        "lock-acquire-timeout"}));
  SnapshotManager snapshots(LocalFileIO(), warehouse() + "/db.db/t");
  EXPECT_FALSE(snapshots.LatestSnapshotId()->has_value());
  EXPECT_TRUE(fs::is_empty(warehouse() + "/db.db/t/manifest"));

  // Held for a while by another thread: the commit waits and then lands.
  std::atomic<bool> held{false};
  std::thread other([&] {
    EXPECT_OK(holder->lock()->RunWithLock("db", "t", [&] {
      held = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      return Status::OK();
    }));
  });
  while (!held) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto waiting = OpenCatalog();
  ASSERT_NE(waiting, nullptr);
  auto patient = waiting->LoadTable("db.t");
  ASSERT_OK(patient);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_OK(CommitRows(*patient, MakeRows(0, 0, 2, "ok"), 1, "u"));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
  other.join();
  EXPECT_EQ(*snapshots.LatestSnapshotId(), 1);
}

// Two catalogs create the same table at once, round after round: one wins, the other is told
// the table exists; the winner's table is whole.
TEST_P(JdbcCatalogCases, TwoCreatorsOfOneTable) {
  auto a = OpenCatalog();
  auto b = OpenCatalog();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  ASSERT_OK(a->CreateDatabase("db", false));
  for (int round = 0; round < 4; ++round) {
    const std::string name = "db.t" + std::to_string(round);
    Status first;
    Status second;
    std::thread other([&] { second = b->CreateTable(name, RowsSpec(), false); });
    first = a->CreateTable(name, RowsSpec(), false);
    other.join();
    EXPECT_NE(first.ok(), second.ok()) << first.ToString() << " / " << second.ToString();
    const Status& lost = first.ok() ? second : first;
    EXPECT_TRUE(HasError(lost, StatusCode::kAlreadyExists, {name}));
    EXPECT_OK(a->LoadTable(name));
  }
  EXPECT_EQ(a->ListTables("db")->size(), 4u);
}

// Two processes create the same table and then commit into it at once: one creation wins, the
// other is told the table exists; every commit of both lands.
TEST_P(JdbcCatalogCases, TwoProcessesCreateAndCommit) {
  {
    auto catalog = OpenCatalog();
    ASSERT_NE(catalog, nullptr);
    ASSERT_OK(catalog->CreateDatabase("db", false));
  }
  constexpr int kCommits = 3;
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  std::vector<pid_t> children;
  for (int p = 0; p < 2; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The child: 0 created, 1 told it exists; then its commits; 2 on any other outcome.
      ::close(go[1]);
      auto catalog = CreateCatalog(Options());
      char byte;
      if (!catalog.ok() || ::read(go[0], &byte, 1) != 0) ::_exit(2);  // EOF: all start
      Status created = (*catalog)->CreateTable("db.same", RowsSpec(), false);
      int code = created.ok() ? 0 : created.IsAlreadyExists() ? 1 : 2;
      auto table = (*catalog)->LoadTable("db.same");
      for (int c = 1; c <= kCommits && code != 2; ++c) {
        if (!table.ok() ||
            !CommitRows(*table, MakeRows(p, p * 100 + c, 1, "p"), c, "process-" + std::to_string(p))
                 .ok()) {
          code = 2;
        }
      }
      ::_exit(code);
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(go[1]);  // both children start now
  std::multiset<int> codes;
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    codes.insert(WEXITSTATUS(status));
  }
  EXPECT_EQ(codes, (std::multiset<int>{0, 1}));
  SnapshotManager snapshots(LocalFileIO(), warehouse() + "/db.db/same");
  EXPECT_EQ(*snapshots.LatestSnapshotId(), 2 * kCommits);
  EXPECT_EQ(ReadTestTable(warehouse() + "/db.db/same")->size(), 2u * kCommits);
}

// A table renamed while another catalog commits to it: each commit lands before the rename
// (and moves with the table) or fails after it, naming the move; none writes into the old
// folder, none is lost.
TEST_P(JdbcCatalogCases, RenameWhileAnotherCommits) {
  auto catalog = OpenCatalog();
  ASSERT_NE(catalog, nullptr);
  ASSERT_OK(catalog->CreateDatabase("db", false));
  ASSERT_OK(catalog->CreateTable("db.t", RowsSpec(), false));
  auto writer_catalog = OpenCatalog();
  ASSERT_NE(writer_catalog, nullptr);
  auto table = writer_catalog->LoadTable("db.t");
  ASSERT_OK(table);
  std::atomic<int> landed{0};
  std::atomic<int> refused{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int c = 1; !stop && c <= 200; ++c) {
      auto result = CommitRows(*table, MakeRows(0, c * 10, 1, "r"), c, "writer");
      if (result.ok()) {
        ++landed;
      } else {
        EXPECT_TRUE(HasError(result, StatusCode::kNotFound, {warehouse() + "/db.db/t"}));
        ++refused;
        break;
      }
    }
    done = true;
  });
  while (landed < 2 && !done) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_OK(catalog->RenameTable("db.t", "db.moved", false));
  stop = true;
  writer.join();
  // (A refused commit's data file may be left in the old folder: no snapshot or schema is.)
  EXPECT_FALSE(fs::exists(warehouse() + "/db.db/t/snapshot"));
  EXPECT_FALSE(fs::exists(warehouse() + "/db.db/t/schema"));
  SnapshotManager snapshots(LocalFileIO(), warehouse() + "/db.db/moved");
  EXPECT_EQ(*snapshots.LatestSnapshotId(), landed.load());
  EXPECT_EQ(ReadTestTable(warehouse() + "/db.db/moved")->size(), static_cast<size_t>(landed));
  std::printf("rename while committing (%s): %d commits landed before the rename, %d refused\n",
              GetParam().name.c_str(), landed.load(), refused.load());
}

// A table dropped while another catalog reads it: the reader gets an error naming what is
// gone, never rows of another table; loading it again is NotFound.
TEST_P(JdbcCatalogCases, DropWhileAnotherReads) {
  auto catalog = OpenCatalog();
  ASSERT_NE(catalog, nullptr);
  ASSERT_OK(catalog->CreateDatabase("db", false));
  ASSERT_OK(catalog->CreateTable("db.t", RowsSpec(), false));
  auto table = catalog->LoadTable("db.t");
  ASSERT_OK(table);
  ASSERT_OK(CommitRows(*table, MakeRows(0, 0, 5, "d"), 1, "u"));
  auto reader_catalog = OpenCatalog();
  ASSERT_NE(reader_catalog, nullptr);
  auto read_table = reader_catalog->LoadTable("db.t");
  ASSERT_OK(read_table);
  ScanOptions scan;
  scan.num_threads = 1;
  auto plan = PlanScan(**read_table, scan);
  ASSERT_OK(plan);
  ASSERT_OK(catalog->DropTable("db.t", false));
  for (DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(**read_table, (*read_table)->schema_ptr(), std::move(split), {});
    if (reader.ok()) {
      ColumnBatch batch((*reader)->output_type());
      Result<bool> more = (*reader)->Next(&batch);
      EXPECT_TRUE(HasError(more, StatusCode::kNotFound, {warehouse() + "/db.db/t"}));
    } else {
      EXPECT_TRUE(HasError(reader, StatusCode::kNotFound, {warehouse() + "/db.db/t"}));
    }
  }
  EXPECT_TRUE(HasError(reader_catalog->LoadTable("db.t"), StatusCode::kNotFound,
                       {"table db.t does not exist in JDBC catalog"}));
  // A commit of the reader's stale table is refused under the lock.
  EXPECT_TRUE(HasError(CommitRows(*read_table, MakeRows(0, 9, 1, "z"), 2, "u2"),
                       StatusCode::kNotFound, {warehouse() + "/db.db/t"}));
  EXPECT_FALSE(fs::exists(warehouse() + "/db.db/t/snapshot"));
  EXPECT_FALSE(fs::exists(warehouse() + "/db.db/t/schema"));
}

}  // namespace sluice::test
