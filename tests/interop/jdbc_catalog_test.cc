// Java Paimon's JdbcCatalog and Sluice's (issue 35) on one catalog database and warehouse, for
// each of SQLite (a file of the test's scratch folder), PostgreSQL (the `postgres` fixture,
// SLUICE_POSTGRES_PORT) and MariaDB (the `mariadb` fixture, SLUICE_MARIADB_PORT, reached as
// jdbc:mysql:// so that Java's catalog has its MySQL lock dialect; Java 1.4.2 has none for
// jdbc:mariadb:). Both open it with the same options, lock.enabled among them:
//
//   - Java creates and writes a table; Sluice lists it, reads it and writes into it.
//   - Sluice creates and writes a table; Java lists it, reads it and writes into it.
//   - Java renames Sluice's table, Sluice reads it under the new name and drops it.
//   - Both commit into one table at once (Java's oracle in a background thread, `sluice write`
//     processes meanwhile), each side's commits under the catalog's lock: every commit lands
//     or fails with a conflict, each acknowledged one has its APPEND snapshot, and the rows
//     read by both equal the model of the writes that landed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/jdbc/jdbc_client_pool.h"
#include "test_util.h"

namespace sluice::test {
namespace {

constexpr int kJavaCommits = 8;
constexpr int kSluiceCommits = 4;
constexpr char kJavaUserPrefix[] = "java-jdbc";

std::string Port(const char* variable, const char* fallback) {
  const char* env = std::getenv(variable);
  return env != nullptr && *env != '\0' ? env : fallback;
}

std::vector<Column> Columns() {
  return {{"id", DataType::BigInt(false)}, {"v", DataType::String()}};
}

TableShape Shape() {
  TableShape shape;
  shape.columns = Columns();
  shape.primary_keys = {"id"};
  shape.merge_engine = "deduplicate";
  return shape;
}

// Rows with ids [first, first + n), tagged with `who`.
std::vector<nlohmann::json> Rows(int64_t first, int n, const std::string& who) {
  std::vector<nlohmann::json> rows;
  for (int64_t id = first; id < first + n; ++id) {
    rows.push_back({{"id", id}, {"v", who + "-" + std::to_string(id)}});
  }
  return rows;
}

class JdbcInterop {
 public:
  JdbcInterop(std::string name, std::string uri, const std::string& scratch)
      : name_(std::move(name)), uri_(std::move(uri)), warehouse_(scratch + "/" + name_) {
    std::random_device random;
    key_ = "interop_" + std::to_string(random());
  }

  void Run() {
    // On a server, Sluice's catalog first creates the catalog's tables (IF NOT EXISTS): Java's
    // creates them after a metadata lookup, and would fail if another test's catalog created
    // them in between. On SQLite Java's must come first: Java 1.4.2's JdbcCatalog leaves the
    // ResultSet of that lookup open when the table exists, and on SQLite the open read holds
    // the file's shared lock, so every later write to the catalog database (its lock rows, new
    // tables) fails with SQLITE_BUSY. A second Java catalog on the same file fails so too.
    if (name_ != "sqlite") {
      std::map<std::string, std::string> options = {{"warehouse", warehouse_}};
      const nlohmann::json java_options = CatalogOptions();
      for (const auto& [key, value] : java_options.items()) {
        options[key] = value.get<std::string>();
      }
      ASSERT_OK(CreateCatalog(options).status());
    }

    // Java creates and writes; Sluice lists, reads, writes.
    nlohmann::json create = Command("create_table", "db.java_t");
    create["fields"] = nlohmann::json::array();
    for (const Column& c : Columns()) {
      create["fields"].push_back({{"name", c.name}, {"type", PaimonJson(c.type)}});
    }
    create["primary_keys"] = {"id"};
    create["options"] = {{"bucket", "1"}};
    OracleAnswer created = Oracle()->Call(create);
    ASSERT_TRUE(created.ok()) << name_ << ": Java create_table: " << created.error();
    ASSERT_TRUE(JavaWrite("db.java_t", Rows(0, 5, "java"), &java_t_));
    std::string listed;
    ASSERT_TRUE(SluiceOk("list db" + Flags(), name_ + " sluice list", &listed));
    EXPECT_NE(listed.find("java_t"), std::string::npos) << listed;
    Compare("db.java_t", java_t_, "Java's table, Java wrote");
    ASSERT_TRUE(SluiceWrite("db.java_t", Rows(3, 4, "sluice"), &java_t_, nullptr));
    Compare("db.java_t", java_t_, "Java's table, Sluice wrote");

    // Sluice creates and writes; Java lists, reads, writes.
    ASSERT_TRUE(SluiceOk("create-table db.sluice_t" + Flags() +
                             " --column 'id BIGINT NOT NULL' --column 'v STRING' --primary-key id "
                             "--option bucket=1",
                         name_ + " sluice create-table"));
    ASSERT_TRUE(SluiceWrite("db.sluice_t", Rows(10, 5, "sluice"), &sluice_t_, nullptr));
    nlohmann::json list = Command("catalog", "");
    list["op"] = "list_tables";
    list["database"] = "db";
    OracleAnswer tables = Oracle()->Call(list);
    ASSERT_TRUE(tables.ok()) << name_ << ": Java list_tables: " << tables.error();
    EXPECT_EQ(tables.head["names"], (nlohmann::json{"java_t", "sluice_t"}));
    Compare("db.sluice_t", sluice_t_, "Sluice's table, Sluice wrote");
    ASSERT_TRUE(JavaWrite("db.sluice_t", Rows(12, 5, "java"), &sluice_t_));
    Compare("db.sluice_t", sluice_t_, "Sluice's table, Java wrote");

    Concurrent();

    // Java renames Sluice's table, Sluice reads it under its new name and drops it; Java no
    // longer lists it.
    nlohmann::json rename = Command("catalog", "db.sluice_t");
    rename["op"] = "rename_table";
    rename["to"] = "db.renamed";
    OracleAnswer renamed = Oracle()->Call(rename);
    ASSERT_TRUE(renamed.ok()) << name_ << ": Java rename_table: " << renamed.error();
    Compare("db.renamed", sluice_t_, "Sluice's table renamed by Java");
    ASSERT_TRUE(SluiceOk("drop-table db.renamed" + Flags(), name_ + " sluice drop-table"));
    OracleAnswer after = Oracle()->Call(list);
    ASSERT_TRUE(after.ok()) << name_ << ": Java list_tables: " << after.error();
    EXPECT_EQ(after.head["names"], (nlohmann::json{"java_t"}));
    ++Counts().scenarios;
  }

 private:
  nlohmann::json CatalogOptions() const {
    nlohmann::json options = {{"metastore", "jdbc"},
                              {"uri", uri_},
                              {"catalog-key", key_},
                              {"lock.enabled", "true"},
                              {"lock-check-max-sleep", "100 ms"}};
    if (name_ != "sqlite") {
      options["jdbc.user"] = "sluice";
      options["jdbc.password"] = "sluice";
    }
    return options;
  }

  nlohmann::json Command(const std::string& cmd, const std::string& table) const {
    nlohmann::json command = {
        {"cmd", cmd}, {"warehouse", warehouse_}, {"catalog_options", CatalogOptions()}};
    if (!table.empty()) command["table"] = table;
    return command;
  }

  std::string Flags() const {
    std::string flags = " --warehouse " + ShellQuote(warehouse_);
    const nlohmann::json options = CatalogOptions();
    for (const auto& [key, value] : options.items()) {
      flags += " --catalog_conf " + ShellQuote(key + "=" + value.get<std::string>());
    }
    return flags;
  }

  bool JavaWrite(const std::string& table, const std::vector<nlohmann::json>& rows,
                 TableModel* model) {
    nlohmann::json write = Command("write", table);
    write["rows"] = rows;
    OracleAnswer answer = Oracle()->Call(write);
    EXPECT_TRUE(answer.ok()) << name_ << ": Java write " << table << ": " << answer.error();
    if (answer.ok()) model->Apply(rows, false);
    return answer.ok();
  }

  // `sluice write`; with `error` a failure is returned there instead of failing the test.
  bool SluiceWrite(const std::string& table, const std::vector<nlohmann::json>& rows,
                   TableModel* model, std::string* error) {
    const std::string input = warehouse_ + "-input-" + std::to_string(inputs_++) + ".jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    const std::string args =
        "write " + table + Flags() + " --input " + ShellQuote(input) + " --format jsonl";
    bool landed = false;
    if (error == nullptr) {
      landed = SluiceOk(args, name_ + " sluice write " + table);
    } else {
      CommandResult result = RunSluice(args);
      landed = result.exit_code == 0;
      if (!landed) *error = "exit " + std::to_string(result.exit_code) + ": " + result.err;
    }
    if (landed) model->Apply(rows, false);
    return landed;
  }

  void Compare(const std::string& table, const TableModel& model, const std::string& what) {
    const std::vector<std::string> rows = model.Rows();
    SameRows(name_ + ": " + what, JavaRead(Command("read", table), Columns()),
             SluiceRead(table + Flags(), Columns()), &rows);
    ++Counts().reads_compared;
  }

  // Java's commits in a background thread, Sluice's processes meanwhile, into db.java_t.
  void Concurrent() {
    nlohmann::json start = Command("concurrent_start", "db.java_t");
    start["user_prefix"] = kJavaUserPrefix;
    start["commits"] = nlohmann::json::array();
    std::vector<std::vector<nlohmann::json>> java;
    for (int i = 0; i < kJavaCommits; ++i) {
      java.push_back(Rows(1000 + i * 10, 3, "javac"));
      start["commits"].push_back({{"kind", "write"}, {"rows", java.back()}});
    }
    OracleAnswer started = Oracle()->Call(start);
    ASSERT_TRUE(started.ok()) << name_ << ": concurrent_start: " << started.error();
    int sluice_landed = 0;
    int conflicts = 0;
    for (int i = 0; i < kSluiceCommits; ++i) {
      std::string error;
      if (SluiceWrite("db.java_t", Rows(2000 + i * 10, 3, "sluicec"), &java_t_, &error)) {
        ++sluice_landed;
      } else if (error.find("onflict") != std::string::npos) {
        ++conflicts;
      } else {
        ++Counts().mismatches;
        ADD_FAILURE() << name_ << ": Sluice write failed without a conflict: " << error;
      }
    }
    OracleAnswer joined = Oracle()->Call({{"cmd", "concurrent_join"}});
    ASSERT_TRUE(joined.ok()) << name_ << ": concurrent_join: " << joined.error();
    const nlohmann::json& results = joined.head["results"];
    ASSERT_EQ(results.size(), java.size()) << joined.head.dump();
    // Each acknowledged commit has its APPEND snapshot: commit i's user is "<prefix>-i_<uuid>".
    std::vector<int> java_appends(java.size(), 0);
    int sluice_appends = 0;
    int switches = 0;
    std::string previous;
    for (const nlohmann::json& snapshot : joined.head["snapshots"]) {
      const std::string user = snapshot.value("user", "");
      const bool is_java = user.rfind(kJavaUserPrefix, 0) == 0;
      const std::string side = is_java ? "java" : "sluice";
      if (!previous.empty() && side != previous) ++switches;
      previous = side;
      if (snapshot.value("kind", "") != "APPEND") continue;
      if (!is_java) {
        ++sluice_appends;
        continue;
      }
      const size_t dash = std::string(kJavaUserPrefix).size() + 1;
      const size_t index = std::stoul(user.substr(dash, user.find('_') - dash));
      if (index < java_appends.size()) ++java_appends[index];
    }
    int java_landed = 0;
    for (size_t i = 0; i < java.size(); ++i) {
      const bool ok = results[i].value("ok", false);
      if (ok) {
        ++java_landed;
        java_t_.Apply(java[i], false);
        EXPECT_EQ(java_appends[i], 1)
            << name_ << ": Java commit " << i
            << " was acknowledged; its APPEND snapshots: " << java_appends[i];
      } else if (results[i].value("error", "").find("onflict") != std::string::npos) {
        // A Java write commits its data (APPEND), then the compaction its writer did (COMPACT):
        // a compaction that conflicts fails the call after the data landed.
        ++conflicts;
        if (java_appends[i] == 1) java_t_.Apply(java[i], false);
      } else {
        ++Counts().mismatches;
        ADD_FAILURE() << name_ << ": Java commit " << i
                      << " failed without a conflict: " << results[i].dump();
      }
    }
    // Before: Java's first write and Sluice's (users of their own); then each landed write.
    EXPECT_EQ(sluice_appends, 2 + sluice_landed) << name_;
    Counts().concurrent_landed += java_landed + sluice_landed;
    Counts().concurrent_conflicts += conflicts;
    Compare("db.java_t", java_t_, "after the concurrent commits");
    std::printf(
        "interop jdbc %s: java %d/%d and sluice %d/%d commits landed, %d conflicts, %d switches "
        "between the sides in the snapshot sequence\n",
        name_.c_str(), java_landed, kJavaCommits, sluice_landed, kSluiceCommits, conflicts,
        switches);
  }

  std::string name_;
  std::string uri_;
  std::string warehouse_;
  std::string key_;
  int inputs_ = 0;
  TableModel java_t_{Shape()};
  TableModel sluice_t_{Shape()};
};

// Fails the test unless the catalog database at `uri` answers.
::testing::AssertionResult Reachable(const std::string& uri) {
  auto parsed = JdbcUri::Parse(uri);
  if (!parsed.ok()) return ::testing::AssertionFailure() << parsed.status().ToString();
  auto connection = JdbcClientPool::Connect(*parsed, {{"user", "sluice"}, {"password", "sluice"}});
  if (!connection.ok()) {
    return ::testing::AssertionFailure()
           << connection.status().ToString()
           << " (scripts/postgres.sh / scripts/mariadb.sh start, or ctest's fixtures)";
  }
  return ::testing::AssertionSuccess();
}

TEST(Interop, JdbcCatalogSqlite) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir dir;
  JdbcInterop("sqlite", "jdbc:sqlite:" + dir.path() + "/catalog.db", dir.path()).Run();
}

TEST(Interop, JdbcCatalogPostgres) {
  ASSERT_NE(Oracle(), nullptr);
  const std::string uri =
      "jdbc:postgresql://127.0.0.1:" + Port("SLUICE_POSTGRES_PORT", "15432") + "/sluice";
  ASSERT_TRUE(Reachable(uri));
  TempDir dir;
  JdbcInterop("postgres", uri, dir.path()).Run();
}

TEST(Interop, JdbcCatalogMariaDb) {
  ASSERT_NE(Oracle(), nullptr);
  const std::string server = "jdbc:mysql://127.0.0.1:" + Port("SLUICE_MARIADB_PORT", "13306");
  ASSERT_TRUE(Reachable(server + "/"));
  // utf8mb3: Java's paimon_table_properties key is over InnoDB's limit in utf8mb4
  // (jdbc_catalog_tables.h).
  auto uri = JdbcUri::Parse(server + "/");
  ASSERT_OK(uri);
  auto connection = JdbcClientPool::Connect(*uri, {{"user", "sluice"}, {"password", "sluice"}});
  ASSERT_OK(connection);
  ASSERT_OK((*connection)
                ->Execute("CREATE DATABASE IF NOT EXISTS sluice_jdbc CHARACTER SET utf8mb3", {})
                .status());
  TempDir dir;
  JdbcInterop("mariadb", server + "/sluice_jdbc?permitMysqlScheme", dir.path()).Run();
}

}  // namespace
}  // namespace sluice::test
