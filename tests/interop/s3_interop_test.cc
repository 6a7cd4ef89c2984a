// Java Paimon and Sluice on one S3 warehouse (issue 36), in the S3-compatible server of the `s3`
// fixture (scripts/s3.sh; SLUICE_S3_ENDPOINT): Java opens it through paimon-s3 with the catalog
// options s3.endpoint, s3.access-key, s3.secret-key and s3.path.style.access, Sluice through
// --catalog_conf with the same keys.
//
//   - Sluice writes, Java reads: a partitioned primary-key table written and updated by Sluice.
//   - Java writes, Sluice reads: a primary-key table written and fully compacted by Java.
//   - Both commit at once into one append table.
//
// How each side commits snapshot-N on S3: Sluice creates it conditionally (PUT with
// If-None-Match: *), so of two committers of one id exactly one wins and the other retries with
// the next id. Java Paimon 1.4.2 (no catalog lock configured) writes a temporary object and
// renames it; S3A's rename checks that the target is absent (HEAD and a listing) and then
// copies and deletes: not atomic, so Java's side is check-then-act, and a Sluice commit that
// lands inside Java's window is overwritten by Java's copy (BothCommitConcurrently says what
// is asserted, then). Both on one JDBC catalog with `lock.enabled` commit under its lock, and
// no commit is lost (BothCommitConcurrentlyThroughAJdbcCatalogLock).
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "test_util.h"

namespace sluice::test {
namespace {

std::string Endpoint() {
  const char* env = std::getenv("SLUICE_S3_ENDPOINT");
  return env != nullptr && *env != '\0' ? env : "http://127.0.0.1:19400";
}

// Whether the server accepts connections: without it Java's S3A retries each request for
// minutes before it gives up, so a scenario checks first.
bool ServerUp() {
  const std::string endpoint = Endpoint();
  const size_t colon = endpoint.rfind(':');
  const int port = colon == std::string::npos ? 80 : std::atoi(endpoint.c_str() + colon + 1);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  const bool up = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  if (fd >= 0) ::close(fd);
  return up;
}
#define ASSERT_S3_SERVER_UP()                                         \
  ASSERT_TRUE(ServerUp()) << "no S3 server at " << Endpoint()         \
                          << " (127.0.0.1): scripts/s3.sh start, or " \
                             "ctest's `s3` fixture"

// A fresh warehouse under a prefix of its own in the server's `sluice` bucket.
// `metastore` options (a JDBC catalog's) come on top of the store's, for both sides.
class S3Warehouse {
 public:
  explicit S3Warehouse(const std::string& name, std::map<std::string, std::string> metastore = {}) {
    std::random_device random;
    uri_ =
        "s3://sluice/interop-" + name + "-" + std::to_string(random()) + std::to_string(random());
    options_ = {{"s3.endpoint", Endpoint()},
                {"s3.access-key", "sluice-test"},
                {"s3.secret-key", "sluice-test-secret"},
                {"s3.path.style.access", "true"}};
    options_.insert(metastore.begin(), metastore.end());
  }
  const std::string& uri() const { return uri_; }
  // Sluice's flags: the warehouse and the catalog options.
  std::string Flags() const {
    std::string flags = " --warehouse " + ShellQuote(uri_);
    for (const auto& [key, value] : options_)
      flags += " --catalog_conf " + ShellQuote(key + "=" + value);
    return flags;
  }
  // A Java oracle command on `table` of this warehouse, with the catalog options.
  nlohmann::json Command(const std::string& cmd, const std::string& table) const {
    return {{"cmd", cmd}, {"warehouse", uri_}, {"table", table}, {"catalog_options", options_}};
  }

 private:
  std::string uri_;
  std::map<std::string, std::string> options_;
};

// Writes `rows` as JSON lines to a file of `dir` and returns the `--input` flag naming it.
std::string InputFlag(const TempDir& dir, const std::vector<nlohmann::json>& rows) {
  static int inputs = 0;
  const std::string path = dir.path() + "/input-" + std::to_string(inputs++) + ".jsonl";
  std::ofstream out(path);
  for (const nlohmann::json& row : rows) out << row.dump() << "\n";
  return " --input " + ShellQuote(path) + " --format jsonl";
}

// The snapshot ids Java lists for the table.
std::vector<int64_t> JavaSnapshotIds(const S3Warehouse& warehouse, const std::string& table) {
  OracleAnswer answer = Oracle()->Call(warehouse.Command("snapshots", table));
  std::vector<int64_t> ids;
  if (!answer.ok()) {
    ADD_FAILURE() << table << ": snapshots: " << answer.error();
    return ids;
  }
  for (const nlohmann::json& id : answer.head["ids"]) ids.push_back(id.get<int64_t>());
  return ids;
}

std::vector<int64_t> OneTo(int64_t n) {
  std::vector<int64_t> ids;
  for (int64_t id = 1; id <= n; ++id) ids.push_back(id);
  return ids;
}

// Both readers against the model, and `sluice check`.
void Verify(const S3Warehouse& warehouse, const std::string& table, const TableModel& model,
            const std::string& what) {
  const std::vector<std::string> rows = model.Rows();
  SameRows(what, JavaRead(warehouse.Command("read", table), model.shape().columns),
           SluiceRead(ShellQuote(table) + warehouse.Flags(), model.shape().columns), &rows);
  ++Counts().reads_compared;
  std::string out;
  if (SluiceOk("check " + ShellQuote(table) + warehouse.Flags(), what + " check", &out)) {
    EXPECT_NE(out.find("snapshots"), std::string::npos) << out;
  }
  ++Counts().scenarios;
}

TableShape KeyedShape() {
  TableShape shape;
  shape.columns = {{"id", DataType::BigInt(false)},
                   {"p", DataType::Int(false)},
                   {"v", DataType::String()},
                   {"d", DataType::Decimal(20, 4)}};
  shape.primary_keys = {"id", "p"};
  shape.partition_keys = {"p"};
  shape.merge_engine = "deduplicate";
  return shape;
}

std::vector<nlohmann::json> KeyedRows(std::mt19937_64* rng, int count) {
  std::vector<nlohmann::json> rows;
  for (int i = 0; i < count; ++i) {
    rows.push_back({{"id", std::uniform_int_distribution<int64_t>(0, 40)(*rng)},
                    {"p", std::uniform_int_distribution<int>(0, 2)(*rng)},
                    {"v", RandomValue(DataType::String(), rng)},
                    {"d", RandomValue(DataType::Decimal(20, 4), rng)}});
  }
  return rows;
}

TEST(InteropS3, SluiceWritesJavaReads) {
  ASSERT_S3_SERVER_UP();
  ASSERT_NE(Oracle(), nullptr);
  S3Warehouse warehouse("sluice-written");
  TempDir inputs;
  ASSERT_TRUE(SluiceOk("create-database s3db" + warehouse.Flags(), "create-database"));
  ASSERT_TRUE(SluiceOk("create-table s3db.keyed" + warehouse.Flags() +
                           " --column 'id BIGINT NOT NULL' --column 'p INT NOT NULL'"
                           " --column 'v STRING' --column 'd DECIMAL(20, 4)' --primary-key id,p"
                           " --partition p --option bucket=2",
                       "create-table"));
  TableModel model(KeyedShape());
  std::mt19937_64 rng(361);
  constexpr int kCommits = 3;
  for (int i = 0; i < kCommits; ++i) {
    const std::vector<nlohmann::json> rows = KeyedRows(&rng, 30);
    ASSERT_TRUE(SluiceOk("write s3db.keyed" + warehouse.Flags() + InputFlag(inputs, rows),
                         "write " + std::to_string(i)));
    model.Apply(rows, false);
  }
  EXPECT_EQ(JavaSnapshotIds(warehouse, "s3db.keyed"), OneTo(kCommits));
  ++Counts().snapshots_compared;
  Verify(warehouse, "s3db.keyed", model, "s3 sluice-written keyed");
  // A projected read of one partition by Java.
  nlohmann::json read = warehouse.Command("read", "s3db.keyed");
  read["projection"] = {"id", "v"};
  read["filter"] = nlohmann::json::array({nlohmann::json::array({"p", "=", 1})});
  const std::vector<Column> projected = {{"id", DataType::BigInt(false)},
                                         {"v", DataType::String()}};
  SameRows(
      "s3 sluice-written keyed, p = 1, (id, v)", JavaRead(read, projected),
      SluiceRead("s3db.keyed" + warehouse.Flags() + " --select id,v --where 'p = 1'", projected),
      nullptr);
  ++Counts().reads_compared;
}

TEST(InteropS3, JavaWritesSluiceReads) {
  ASSERT_S3_SERVER_UP();
  ASSERT_NE(Oracle(), nullptr);
  S3Warehouse warehouse("java-written");
  const TableShape shape = KeyedShape();
  nlohmann::json create = warehouse.Command("create_table", "s3db.keyed");
  create["fields"] = nlohmann::json::array();
  for (const Column& column : shape.columns) {
    create["fields"].push_back({{"name", column.name}, {"type", PaimonJson(column.type)}});
  }
  create["primary_keys"] = shape.primary_keys;
  create["partition_keys"] = shape.partition_keys;
  create["options"] = {{"bucket", "2"}};
  OracleAnswer created = Oracle()->Call(create);
  ASSERT_TRUE(created.ok()) << created.error();
  TableModel model(shape);
  std::mt19937_64 rng(362);
  for (int i = 0; i < 2; ++i) {
    nlohmann::json write = warehouse.Command("write", "s3db.keyed");
    const std::vector<nlohmann::json> rows = KeyedRows(&rng, 30);
    write["rows"] = rows;
    OracleAnswer written = Oracle()->Call(write);
    ASSERT_TRUE(written.ok()) << written.error();
    model.Apply(rows, false);
  }
  OracleAnswer compacted = Oracle()->Call(warehouse.Command("compact", "s3db.keyed"));
  ASSERT_TRUE(compacted.ok()) << compacted.error();
  const std::vector<int64_t> ids = JavaSnapshotIds(warehouse, "s3db.keyed");
  EXPECT_EQ(ids, OneTo(3));
  ++Counts().snapshots_compared;
  // Every snapshot, read by both.
  for (int64_t id : ids) {
    nlohmann::json read = warehouse.Command("read", "s3db.keyed");
    read["snapshot"] = id;
    SameRows("s3 java-written keyed snapshot " + std::to_string(id), JavaRead(read, shape.columns),
             SluiceRead("s3db.keyed" + warehouse.Flags() + " --snapshot " + std::to_string(id),
                        shape.columns),
             nullptr);
    ++Counts().reads_compared;
  }
  Verify(warehouse, "s3db.keyed", model, "s3 java-written keyed");
}

// Java's thread commits kJavaCommits writes while the test runs kSluiceCommits `sluice write`
// processes into the same append table, each commit's rows distinct (side, commit_no). The table
// is write-only (no side compacts), so every commit is one APPEND snapshot and none conflicts.
//
// What really happens: Java's commit of snapshot-N on S3 is check-then-copy (see the top of
// this file), so a Sluice commit that creates snapshot-N between Java's check and its copy is
// overwritten by Java's snapshot-N: acknowledged, then gone (with 60 Java and 30 Sluice commits
// at once, 2 and 3 of the 30 Sluice commits in two runs; Java Paimon needs a catalog lock on
// S3, which Sluice does not take part in). Sluice's own conditional create never overwrites
// anything. So what is asserted: every acknowledged Java commit is in the table, each as one
// snapshot of its own; each Sluice commit is in the table whole (its snapshot and its rows) or
// was overwritten by a Java snapshot (gone whole: no rows, no snapshot of its user); snapshot
// ids 1..N without a gap; both readers read the same rows; `sluice check` is clean. The run
// prints how many Sluice commits Java overwrote.
// Java and Sluice commit into one append table of `warehouse` at once (8 Java commits from a
// background thread, 5 `sluice write` processes). With `locked` (both sides commit under one
// catalog lock) every acknowledged commit of both sides must land; without, a Sluice commit may
// be overwritten by Java's check-then-copy (counted and printed), and every commit that is in
// the table is whole.
void BothCommitConcurrently(const S3Warehouse& warehouse, bool locked) {
  constexpr int kJavaCommits = 8;
  constexpr int kSluiceCommits = 5;
  JavaOracle* oracle = Oracle();
  ASSERT_NE(oracle, nullptr);
  TempDir inputs;
  // Java creates the database (and, on a JDBC catalog, the catalog's tables): Java 1.4.2's
  // JdbcCatalog opening a SQLite file whose tables exist leaves a lookup's ResultSet open, whose
  // shared lock then makes every write to the file fail (jdbc_catalog_test.cc).
  nlohmann::json create_database = warehouse.Command("catalog", "");
  create_database["op"] = "create_database";
  create_database["database"] = "s3db";
  OracleAnswer database = oracle->Call(create_database);
  ASSERT_TRUE(database.ok()) << database.error();
  ASSERT_TRUE(SluiceOk("create-table s3db.events" + warehouse.Flags() +
                           " --column 'side STRING NOT NULL' --column 'commit_no INT NOT NULL'"
                           " --column 'n INT NOT NULL' --option bucket=1 --option bucket-key=n"
                           " --option write-only=true",
                       "create-table"));
  TableShape shape;
  shape.columns = {{"side", DataType::String(false)},
                   {"commit_no", DataType::Int(false)},
                   {"n", DataType::Int(false)}};
  constexpr int kRowsPerCommit = 3;
  auto rows_of = [](const std::string& side, int commit) {
    std::vector<nlohmann::json> rows;
    for (int n = 0; n < kRowsPerCommit; ++n) {
      rows.push_back({{"side", side}, {"commit_no", commit}, {"n", n}});
    }
    return rows;
  };
  nlohmann::json start = warehouse.Command("concurrent_start", "s3db.events");
  start["user_prefix"] = "java-s3";
  start["commits"] = nlohmann::json::array();
  for (int i = 0; i < kJavaCommits; ++i) {
    start["commits"].push_back({{"kind", "write"}, {"rows", rows_of("java", i)}});
  }
  OracleAnswer started = oracle->Call(start);
  ASSERT_TRUE(started.ok()) << started.error();
  std::vector<bool> sluice_acknowledged;
  std::string sluice_errors;
  for (int i = 0; i < kSluiceCommits; ++i) {
    CommandResult result = RunSluice("write s3db.events" + warehouse.Flags() +
                                     InputFlag(inputs, rows_of("sluice", i)));
    sluice_acknowledged.push_back(result.exit_code == 0);
    if (result.exit_code != 0) {
      sluice_errors += "\n  write " + std::to_string(i) + ": " + result.err;
    }
  }
  OracleAnswer joined = oracle->Call({{"cmd", "concurrent_join"}});
  ASSERT_TRUE(joined.ok()) << joined.error();
  // A write-only append table's commits never conflict: every commit of both sides must land.
  EXPECT_EQ(sluice_errors, "");
  const nlohmann::json& results = joined.head["results"];
  ASSERT_EQ(results.size(), static_cast<size_t>(kJavaCommits)) << joined.head.dump();
  for (int i = 0; i < kJavaCommits; ++i) {
    EXPECT_TRUE(results[i].value("ok", false)) << "Java commit " << i << ": " << results[i].dump();
  }
  int switches = 0;
  std::map<std::string, int> snapshots_of;
  std::string previous;
  for (const nlohmann::json& snapshot : joined.head["snapshots"]) {
    const std::string side =
        snapshot.value("user", "").rfind("java-s3", 0) == 0 ? "java" : "sluice";
    ++snapshots_of[side];
    if (!previous.empty() && side != previous) ++switches;
    previous = side;
  }

  // The rows of each commit in the table (both readers must agree first).
  const ReadRows java_rows = JavaRead(warehouse.Command("read", "s3db.events"), shape.columns);
  const ReadRows sluice_rows = SluiceRead("s3db.events" + warehouse.Flags(), shape.columns);
  ASSERT_TRUE(SameRows("s3 concurrent events", java_rows, sluice_rows, nullptr));
  ++Counts().reads_compared;
  std::map<std::pair<std::string, int>, int> rows_of_commit;
  for (const std::string& line : *sluice_rows.rows) {
    const nlohmann::json row = nlohmann::json::parse(line);
    ++rows_of_commit[{row["side"].get<std::string>(), row["commit_no"].get<int>()}];
  }
  for (const auto& [commit, rows] : rows_of_commit) {
    EXPECT_EQ(rows, kRowsPerCommit) << commit.first << " commit " << commit.second;
  }
  int java_landed = 0;
  for (int i = 0; i < kJavaCommits; ++i) {
    if (!results[i].value("ok", false)) continue;
    ++java_landed;
    EXPECT_EQ(rows_of_commit.count({"java", i}), 1u) << "acknowledged Java commit " << i;
  }
  int sluice_landed = 0;
  int sluice_overwritten = 0;
  for (int i = 0; i < kSluiceCommits; ++i) {
    if (!sluice_acknowledged[i]) continue;
    ++(rows_of_commit.count({"sluice", i}) == 1 ? sluice_landed : sluice_overwritten);
  }
  Counts().concurrent_landed += java_landed + sluice_landed;
  EXPECT_EQ(snapshots_of["java"], java_landed);
  EXPECT_EQ(snapshots_of["sluice"], sluice_landed);
  EXPECT_EQ(JavaSnapshotIds(warehouse, "s3db.events"), OneTo(java_landed + sluice_landed));
  if (locked) EXPECT_EQ(sluice_overwritten, 0) << "acknowledged Sluice commits lost";
  ++Counts().snapshots_compared;
  std::string out;
  SluiceOk("check s3db.events" + warehouse.Flags(), "s3 concurrent events check", &out);
  ++Counts().scenarios;
  std::printf(
      "interop s3 concurrent%s: java %d landed, sluice %d landed and %d overwritten by Java's "
      "snapshot copy, %d switches between the sides in the snapshot sequence\n",
      locked ? " (JDBC catalog lock)" : "", java_landed, sluice_landed, sluice_overwritten,
      switches);
}

TEST(InteropS3, BothCommitConcurrently) {
  ASSERT_S3_SERVER_UP();
  BothCommitConcurrently(S3Warehouse("concurrent"), /*locked=*/false);
}

// The remedy for Java's check-then-copy: both sides on one JDBC catalog (SQLite here) with
// `lock.enabled`, so that each commits its snapshot under the catalog's lock (Java's
// JdbcCatalogLock, Sluice's JDBC catalog lock on the same table).
TEST(InteropS3, BothCommitConcurrentlyThroughAJdbcCatalogLock) {
  ASSERT_S3_SERVER_UP();
  TempDir catalog;
  BothCommitConcurrently(S3Warehouse("concurrent-locked",
                                     {{"metastore", "jdbc"},
                                      {"uri", "jdbc:sqlite:" + catalog.path() + "/catalog.sqlite"},
                                      {"catalog-key", "s3"},
                                      {"lock.enabled", "true"}}),
                         /*locked=*/true);
}

}  // namespace
}  // namespace sluice::test
