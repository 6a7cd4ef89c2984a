// Flink: a Flink SQL job in a local mini-cluster (the Flink driver of tests/interop/flink, with
// Paimon's Flink connector) reads a primary-key table that Sluice writes, as a batch and as a
// stream while Sluice keeps committing into it (also with a consumer-id, whose consumer file
// Sluice then lives with), and writes with INSERT INTO tables that Sluice then reads: a
// partitioned primary-key table and a cross-partition one (bucket -1, primary key without the
// partition key), which Java's table API cannot write, and on which Sluice then writes (keys
// moving and deleted) and Flink reads and writes again.
//
// Streaming reads are compared by the rows their changelog folds into: the driver waits (with
// a deadline) until they equal the rows Sluice reads, and the rows it answers are compared.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "test_util.h"

namespace sluice::test {
namespace {

constexpr int kKeySpace = 20;
constexpr int64_t kStreamTimeoutMs = 120000;
// Paimon's Flink source looks for new snapshots every `continuous.discovery-interval` (10 s by
// default): each wait for a commit of Sluice's would take up to that long. The streams look
// every 100 ms.
constexpr const char* kDiscoveryHint = "'continuous.discovery-interval' = '100 ms'";

std::string SqlLiteral(const nlohmann::json& value) {
  if (value.is_null()) return "NULL";
  if (value.is_string()) {
    std::string out = "'";
    for (char c : value.get<std::string>())
      out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  }
  return value.dump();
}

class FlinkRun {
 public:
  FlinkRun(const std::string& warehouse, uint64_t seed)
      : warehouse_(warehouse), rng_(seed), pk_(PkShape()) {}

  void Run() {
    flink_ = Flink();
    if (flink_ == nullptr) return;
    if (!SluiceOk("create-database fl --warehouse " + ShellQuote(warehouse_), "create-database"))
      return;
    if (!SluiceOk("create-table " + Where("fl.pk") +
                      " --column 'id BIGINT NOT NULL' --column 'n INT' --column 'v STRING' "
                      "--primary-key id --option bucket=2",
                  "create fl.pk")) {
      return;
    }
    if (!SluiceWrite(Batch(false))) return;
    if (!Driver({{"cmd", "open"}, {"warehouse", warehouse_}}, "open")) return;
    BatchRead();
    StreamRead();
    ConsumerRead();
    InsertInto();
    CrossPartition();
    ++Counts().scenarios;
  }

 private:
  static TableShape PkShape() {
    TableShape shape;
    shape.columns = {
        {"id", DataType::BigInt(false)}, {"n", DataType::Int()}, {"v", DataType::String()}};
    shape.primary_keys = {"id"};
    shape.merge_engine = "deduplicate";
    return shape;
  }

  std::string Where(const std::string& table) const {
    return ShellQuote(table) + " --warehouse " + ShellQuote(warehouse_);
  }

  bool Driver(const nlohmann::json& command, const std::string& what,
              OracleAnswer* answer = nullptr) {
    OracleAnswer got = flink_->Call(command);
    if (answer != nullptr) *answer = got;
    if (got.ok()) return true;
    ++Counts().mismatches;
    ADD_FAILURE() << "flink " << what << ": " << got.error();
    return false;
  }

  // Upserts (and, after the first batch, deletes) of random keys.
  std::vector<nlohmann::json> Batch(bool retract) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(5, 15)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, kKeySpace - 1)(rng_)},
                            {"n", RandomValue(DataType::Int(), &rng_)},
                            {"v", RandomValue(DataType::String(), &rng_)}};
      if (retract && std::uniform_int_distribution<int>(0, 5)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    return rows;
  }

  bool SluiceWrite(const std::vector<nlohmann::json>& rows, const std::string& table = "fl.pk") {
    const std::string input = warehouse_ + "/flink-input-" + std::to_string(inputs_++) + ".jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    if (!SluiceOk("write " + Where(table) + " --input " + ShellQuote(input) + " --format jsonl",
                  "sluice write " + table)) {
      return false;
    }
    if (table == "fl.pk") pk_.Apply(rows, false);
    return true;
  }

  // Compares a Flink read with Sluice's read of `table` and the model.
  void Compare(const std::string& key, const std::string& what, const ReadRows& flink,
               const std::string& table, const TableModel& model) {
    const std::vector<std::string> expected = model.Rows();
    CompareRows(key, what, flink, SluiceRead(Where(table), model.shape().columns), &expected);
    ++Counts().flink_reads;
  }

  ReadRows FlinkQuery(const std::string& sql, const std::vector<Column>& columns) {
    return ProgramRead(flink_, {{"cmd", "query"}, {"sql", sql}}, columns);
  }

  void BatchRead() {
    Compare("flink/batch", "flink batch read of fl.pk",
            FlinkQuery("SELECT * FROM fl.pk", pk_.shape().columns), "fl.pk", pk_);
  }

  nlohmann::json ModelRows(const TableModel& model) const {
    nlohmann::json rows = nlohmann::json::array();
    for (const std::string& row : model.Rows()) rows.push_back(nlohmann::json::parse(row));
    return rows;
  }

  // Waits until stream `id` folds into the model's rows; compares what it folded into (with
  // Sluice's read of fl.pk too when the stream stands for the whole table).
  void StreamWait(const std::string& id, const std::string& what, const TableModel& model,
                  bool whole_table = true) {
    nlohmann::json wait = {{"cmd", "stream_wait"},
                           {"id", id},
                           {"rows", ModelRows(model)},
                           {"timeout_ms", kStreamTimeoutMs}};
    const ReadRows folded = ProgramRead(flink_, wait, model.shape().columns);
    if (whole_table) {
      Compare("flink/stream", what, folded, "fl.pk", model);
      return;
    }
    const std::vector<std::string> expected = model.Rows();
    CompareRows("flink/stream", what, folded, folded, &expected);
    ++Counts().flink_reads;
  }

  // A stream of fl.pk started while Sluice commits: the full rows first, then every commit.
  void StreamRead() {
    if (!Driver({{"cmd", "stream_start"},
                 {"id", "s1"},
                 {"sql", std::string("SELECT * FROM fl.pk /*+ OPTIONS(") + kDiscoveryHint + ") */"},
                 {"keys", {"id"}}},
                "stream_start")) {
      return;
    }
    StreamWait("s1", "flink stream of fl.pk, initial", pk_);
    for (int i = 0; i < 3; ++i) {
      if (!SluiceWrite(Batch(true))) break;
      if (i == 1 && !SluiceOk("compact " + Where("fl.pk") + " --full", "sluice compact")) break;
      StreamWait("s1", "flink stream of fl.pk after sluice commit " + std::to_string(i), pk_);
    }
    Driver({{"cmd", "stream_stop"}, {"id", "s1"}}, "stream_stop");
  }

  // A stream with a consumer-id: stopped with a savepoint, it leaves its consumer file
  // (consumer/consumer-<id>: the next snapshot it reads). Sluice commits on into the table and
  // reads it; a new stream of that consumer reads only what Sluice committed since.
  void ConsumerRead() {
    const std::string sql =
        std::string("SELECT * FROM fl.pk /*+ OPTIONS('consumer-id' = 'sluice_it', ") +
        kDiscoveryHint + ") */";
    // Java allows consumers only on tables whose consumers expire.
    if (!SluiceOk("alter-table " + Where("fl.pk") + " --set-option consumer.expiration-time=1h",
                  "sluice alter-table consumer.expiration-time")) {
      return;
    }
    if (!Driver({{"cmd", "stream_start"}, {"id", "c1"}, {"sql", sql}, {"keys", {"id"}}},
                "stream_start consumer")) {
      return;
    }
    StreamWait("c1", "flink stream of fl.pk with a consumer-id", pk_);
    if (!Driver({{"cmd", "stream_stop"}, {"id", "c1"}, {"savepoint", warehouse_ + "/savepoints"}},
                "stream_stop with a savepoint")) {
      return;
    }
    const std::string table_dir = warehouse_ + "/fl.db/pk";
    const std::vector<int64_t> ids = SnapshotIds(table_dir);
    std::ifstream consumer_file(table_dir + "/consumer/consumer-sluice_it");
    std::stringstream text;
    text << consumer_file.rdbuf();
    const nlohmann::json consumer = nlohmann::json::parse(text.str(), nullptr, false);
    ++Counts().flink_reads;
    if (!consumer.is_object() || consumer.value("nextSnapshot", int64_t{-1}) != ids.back() + 1) {
      ++Counts().mismatches;
      ADD_FAILURE() << "the consumer file of the Flink stream reads '" << text.str()
                    << "'; expected nextSnapshot " << ids.back() + 1;
      return;
    }
    // Sluice commits on and reads the table with its consumer; the checker accepts it.
    const std::vector<nlohmann::json> rows = Batch(true);
    if (!SluiceWrite(rows)) return;
    const std::vector<std::string> expected = pk_.Rows();
    const ReadRows sluice = SluiceRead(Where("fl.pk"), pk_.shape().columns);
    SameRows("sluice read of fl.pk with a Flink consumer", sluice, sluice, &expected);
    SluiceOk("check " + ShellQuote(table_dir), "sluice check of fl.pk with a consumer");
    // The consumer resumes at its next snapshot: only Sluice's last commit.
    TableModel since(PkShape());
    since.Apply(rows, false);
    if (!Driver({{"cmd", "stream_start"}, {"id", "c2"}, {"sql", sql}, {"keys", {"id"}}},
                "stream_start consumer again")) {
      return;
    }
    StreamWait("c2", "flink stream resumed at its consumer", since, /*whole_table=*/false);
    Driver({{"cmd", "stream_stop"}, {"id", "c2"}}, "stream_stop");
  }

  static std::string Values(const std::vector<nlohmann::json>& rows,
                            const std::vector<Column>& columns) {
    std::string sql;
    for (const nlohmann::json& row : rows) {
      sql += sql.empty() ? "(" : ", (";
      for (size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) sql += ", ";
        const std::string literal = SqlLiteral(row.value(columns[i].name, nlohmann::json()));
        // Typed NULLs and INT literals, so that VALUES has the table's column types.
        sql += "CAST(" + literal + " AS " + columns[i].type->WithNullable(true)->ToString() + ")";
      }
      sql += ")";
    }
    return sql;
  }

  // INSERT INTO a partitioned primary-key table Flink creates: first from Sluice's table (a
  // Flink job reading and writing), then VALUES; Sluice reads it, writes into it, Flink reads.
  void InsertInto() {
    TableShape shape;
    shape.columns = {
        {"id", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
    shape.primary_keys = {"id", "p"};
    shape.partition_keys = {"p"};
    shape.merge_engine = "deduplicate";
    TableModel model(shape);
    if (!Driver({{"cmd", "sql"},
                 {"sql",
                  "CREATE TABLE fl.from_flink (id BIGINT NOT NULL, p INT NOT NULL, v STRING, "
                  "PRIMARY KEY (id, p) NOT ENFORCED) PARTITIONED BY (p) WITH ('bucket' = '2', "
                  "'file.format' = 'orc')"}},
                "create fl.from_flink")) {
      return;
    }
    if (!Driver(
            {{"cmd", "sql"},
             {"sql", "INSERT INTO fl.from_flink SELECT id, CAST(MOD(id, 3) AS INT), v FROM fl.pk"}},
            "insert from fl.pk")) {
      return;
    }
    std::vector<nlohmann::json> copied;
    for (const std::string& text : pk_.Rows()) {
      const nlohmann::json row = nlohmann::json::parse(text);
      copied.push_back({{"id", row["id"]}, {"p", row["id"].get<int64_t>() % 3}, {"v", row["v"]}});
    }
    model.Apply(copied, false);
    std::vector<nlohmann::json> values;
    for (int i = 0; i < 8; ++i) {
      values.push_back({{"id", std::uniform_int_distribution<int64_t>(0, kKeySpace - 1)(rng_)},
                        {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                        {"v", RandomValue(DataType::String(), &rng_)}});
    }
    if (!Driver({{"cmd", "sql"},
                 {"sql", "INSERT INTO fl.from_flink VALUES " + Values(values, shape.columns)}},
                "insert values")) {
      return;
    }
    model.Apply(values, false);
    Compare("flink/insert", "sluice read of Flink's INSERT INTO fl.from_flink",
            FlinkQuery("SELECT * FROM fl.from_flink", shape.columns), "fl.from_flink", model);
    std::vector<nlohmann::json> more;
    for (int i = 0; i < 6; ++i) {
      more.push_back({{"id", std::uniform_int_distribution<int64_t>(0, kKeySpace - 1)(rng_)},
                      {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                      {"v", RandomValue(DataType::String(), &rng_)}});
    }
    if (!SluiceWrite(more, "fl.from_flink")) return;
    model.Apply(more, false);
    Compare("flink/insert", "flink read of fl.from_flink after a sluice write",
            FlinkQuery("SELECT * FROM fl.from_flink", shape.columns), "fl.from_flink", model);
    SluiceOk("check " + ShellQuote(warehouse_ + "/fl.db/from_flink"), "sluice check");
    Counts().files_compared += DataFileCount(warehouse_ + "/fl.db/from_flink");
  }

  // A cross-partition primary-key table (bucket -1, key `id` without the partition key `p`):
  // a key that moves to another partition leaves the old one.
  void CrossPartition() {
    TableShape shape;
    shape.columns = {
        {"id", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
    shape.primary_keys = {"id"};
    shape.merge_engine = "deduplicate";
    TableModel model(shape);
    if (!Driver({{"cmd", "sql"},
                 {"sql",
                  "CREATE TABLE fl.cross_partition (id BIGINT NOT NULL, p INT NOT NULL, v STRING, "
                  "PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (p) WITH ('bucket' = '-1')"}},
                "create fl.cross_partition")) {
      return;
    }
    for (int commit = 0; commit < 2; ++commit) {
      std::vector<nlohmann::json> values;
      std::set<int64_t> seen;
      for (int i = 0; i < 10; ++i) {
        const int64_t id = std::uniform_int_distribution<int64_t>(0, 11)(rng_);
        // One row per key and statement: the order of a statement's rows is Flink's.
        if (!seen.insert(id).second) continue;
        values.push_back({{"id", id},
                          {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                          {"v", RandomValue(DataType::String(), &rng_)}});
      }
      if (!Driver(
              {{"cmd", "sql"},
               {"sql", "INSERT INTO fl.cross_partition VALUES " + Values(values, shape.columns)}},
              "insert into fl.cross_partition")) {
        return;
      }
      model.Apply(values, false);
    }
    Compare("flink/cross_partition", "sluice read of Flink's cross-partition table",
            FlinkQuery("SELECT * FROM fl.cross_partition", shape.columns), "fl.cross_partition",
            model);
    // Sluice writes on (its key index bootstrapped from Flink's files): keys move and are
    // deleted; Flink reads what Sluice wrote, then writes on once more.
    for (int commit = 0; commit < 2; ++commit) {
      std::vector<nlohmann::json> rows;
      for (int i = 0; i < 10; ++i) {
        nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, 11)(rng_)},
                              {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                              {"v", RandomValue(DataType::String(), &rng_)}};
        if (std::uniform_int_distribution<int>(0, 4)(rng_) == 0) row["_ROW_KIND"] = "-D";
        rows.push_back(row);
      }
      if (!SluiceWrite(rows, "fl.cross_partition")) return;
      model.Apply(rows, false);
      Compare("flink/cross_partition_after_sluice",
              "flink read of the cross-partition table after a sluice write",
              FlinkQuery("SELECT * FROM fl.cross_partition", shape.columns), "fl.cross_partition",
              model);
      SluiceOk("check " + ShellQuote(warehouse_ + "/fl.db/cross_partition"),
               "sluice check of the cross-partition table");
    }
    std::vector<nlohmann::json> values;
    std::set<int64_t> seen;
    for (int i = 0; i < 10; ++i) {
      const int64_t id = std::uniform_int_distribution<int64_t>(0, 11)(rng_);
      if (!seen.insert(id).second) continue;
      values.push_back({{"id", id},
                        {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                        {"v", RandomValue(DataType::String(), &rng_)}});
    }
    if (!Driver({{"cmd", "sql"},
                 {"sql", "INSERT INTO fl.cross_partition VALUES " + Values(values, shape.columns)}},
                "insert into fl.cross_partition after sluice")) {
      return;
    }
    model.Apply(values, false);
    Compare("flink/cross_partition_after_flink_on_sluice",
            "sluice read of Flink's write on a Sluice-written cross-partition table",
            FlinkQuery("SELECT * FROM fl.cross_partition", shape.columns), "fl.cross_partition",
            model);
    SluiceOk("check " + ShellQuote(warehouse_ + "/fl.db/cross_partition"),
             "sluice check of the cross-partition table after Flink");
    Counts().files_compared += DataFileCount(warehouse_ + "/fl.db/cross_partition");
  }

  std::string warehouse_;
  std::mt19937_64 rng_;
  TableModel pk_;
  JavaOracle* flink_ = nullptr;
  int inputs_ = 0;
};

TEST(Interop, Flink) {
  ASSERT_NE(Flink(), nullptr);
  TempDir warehouse;
  FlinkRun(warehouse.path(), 5).Run();
}

}  // namespace
}  // namespace sluice::test
