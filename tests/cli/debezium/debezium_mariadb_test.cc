// A real Debezium into `sluice action kafka_sync_database`: Debezium's embedded engine with its
// MariaDB connector (tests/cdc/debezium) reads a real MariaDB server (scripts/mariadb.sh: an
// initial snapshot, then the binary log with inserts, updates, deletes, a primary key change and
// ALTER TABLE ADD COLUMN) and writes debezium-json, converted by Kafka Connect's JsonConverter
// with the schema envelope and without it, DECIMAL as base64 and as JSON numbers, into a real
// Kafka broker (scripts/kafka.sh); the synced Paimon tables must then hold what MariaDB holds.
//
// How each MariaDB type compares (MariaDB's side is SELECTed as text, see SelectExpression):
//
//   type          with the schema envelope              without it (every column STRING)
//   INT, BIGINT   INT, BIGINT: the number               the number's text
//   TINYINT(1)    SMALLINT (Debezium's int16): number   the number's text
//   VARCHAR, TEXT STRING: the text                      the text
//   DECIMAL(p,s)  DECIMAL(p, s): the text, scale s      base64 of the unscaled value's minimal
//                 (whether JsonConverter wrote base64   big-endian two's complement (Connect's
//                 or a number such as 1E-10)            Decimal in JsonConverter's BASE64 format)
//   DATETIME(3)   TIMESTAMP(3): the text                epoch millis (io.debezium.time.Timestamp)
//   TIMESTAMP     TIMESTAMP(6): the UTC text + .000000  "YYYY-MM-DDTHH:MM:SSZ" (ZonedTimestamp;
//                 (the server's time zone is UTC)       the server's time zone is UTC)
//   DATE          DATE: the text                        epoch days (io.debezium.time.Date)
//   BLOB          BYTES: the bytes (base64 both sides)  the bytes' base64
//   NULL          null                                  null
//
// Columns added mid-stream are NULL in MariaDB's rows that predate them (no DEFAULT) and in
// Paimon's (no event carries them), so whole tables compare.
//
// Requires the `debezium` ctest fixture (the broker and the MariaDB server); by hand:
// scripts/kafka.sh start, scripts/mariadb.sh start (SLUICE_MARIADB_PORT, default 13306) and
// scripts/setup.sh's build of tests/cdc/debezium.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "kafka_sync_test_util.h"
#include "mariadb_test_util.h"
#include "sluice/base/base64.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CommandResult;
using test::CreateTopic;
using test::KafkaBootstrap;
using test::MariaDb;
using test::MariaDbPort;
using test::ReadRows;
using test::RunShellCommand;
using test::RunSync;
using test::Sorted;
using test::SourceDir;
using test::TempDir;
using test::UniqueTopicName;

constexpr auto kReadyDeadline = std::chrono::seconds(180);
// The producer's own deadline for the whole run (it fails after it).
constexpr int kProducerTimeoutS = 300;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A column of a synced table: its name and how it compares (the table above).
enum class Kind { kInt, kText, kDecimal, kDatetime, kTimestamp, kDate, kBlob };
struct Column {
  std::string name;
  Kind kind;
};

// The column as MariaDB's JSON_OBJECT gets it: numbers as numbers, the rest as text.
std::string SelectExpression(const Column& column) {
  const std::string& c = column.name;
  switch (column.kind) {
    case Kind::kInt:
    case Kind::kText:
      return c;
    case Kind::kBlob:
      // TO_BASE64 breaks lines every 76 characters.
      return "REPLACE(TO_BASE64(" + c + "), CHAR(10), '')";
    default:
      return "CAST(" + c + " AS CHAR)";
  }
}

// The civil date "YYYY-MM-DD..." as days since 1970-01-01.
int64_t EpochDays(const std::string& text) {
  using namespace std::chrono;
  const year_month_day date{year{std::stoi(text.substr(0, 4))},
                            month{static_cast<unsigned>(std::stoi(text.substr(5, 2)))},
                            day{static_cast<unsigned>(std::stoi(text.substr(8, 2)))}};
  return sys_days{date}.time_since_epoch().count();
}

// "YYYY-MM-DD HH:MM:SS.fff" read as UTC, in epoch millis.
int64_t EpochMillis(const std::string& text) {
  return EpochDays(text) * 86'400'000 + std::stoll(text.substr(11, 2)) * 3'600'000 +
         std::stoll(text.substr(14, 2)) * 60'000 + std::stoll(text.substr(17, 2)) * 1'000 +
         std::stoll(text.substr(20, 3));
}

// Java's BigInteger.toByteArray of the unscaled value of decimal text (up to 38 digits), in
// base64.
std::string DecimalBase64(const std::string& text) {
  __int128 unscaled = 0;
  for (char c : text) {
    if (c >= '0' && c <= '9') unscaled = unscaled * 10 + (c - '0');
  }
  if (text.starts_with("-")) unscaled = -unscaled;
  std::string bytes;
  for (int shift = 120; shift >= 0; shift -= 8) {
    bytes.push_back(static_cast<char>((unscaled >> shift) & 0xff));
  }
  // Drop leading bytes that only extend the sign.
  size_t start = 0;
  while (start + 1 < bytes.size() &&
         ((bytes[start] == 0 && (bytes[start + 1] & 0x80) == 0) ||
          (bytes[start] == static_cast<char>(0xff) && (bytes[start + 1] & 0x80) != 0))) {
    ++start;
  }
  return Base64Encode(bytes.substr(start));
}

// What `sluice read --format jsonl` shows for MariaDB's `value` of `column`.
json Expected(const Column& column, const json& value, bool schemas) {
  if (value.is_null()) return nullptr;
  if (schemas) {
    switch (column.kind) {
      case Kind::kTimestamp:
        return value.get<std::string>() + ".000000";
      case Kind::kBlob:
        return json{{"base64", value}};
      default:
        return value;
    }
  }
  switch (column.kind) {
    case Kind::kInt:
      return value.dump();
    case Kind::kDecimal:
      return DecimalBase64(value.get<std::string>());
    case Kind::kDatetime:
      return std::to_string(EpochMillis(value.get<std::string>()));
    case Kind::kTimestamp: {
      std::string text = value.get<std::string>();
      text[10] = 'T';
      return text + "Z";
    }
    case Kind::kDate:
      return std::to_string(EpochDays(value.get<std::string>()));
    default:
      return value;
  }
}

// MariaDB's rows of `database`.`table`, as the synced Paimon table should show them.
std::vector<json> ExpectedRows(const std::string& database, const std::string& table,
                               const std::vector<Column>& columns, bool schemas) {
  std::string select = "SELECT JSON_OBJECT(";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) select += ", ";
    select += "'" + columns[i].name + "', " + SelectExpression(columns[i]);
  }
  select += ") FROM " + table;
  CommandResult r = MariaDb(select, database);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> rows;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const json row = json::parse(line);
    json expected = json::object();
    for (const Column& column : columns) {
      expected[column.name] = Expected(column, row.at(column.name), schemas);
    }
    rows.push_back(std::move(expected));
  }
  return Sorted(std::move(rows));
}

// The newest schema of `database`.`table` in `warehouse`: column name -> Paimon type.
std::map<std::string, std::string> PaimonTypes(const std::string& warehouse,
                                               const std::string& database,
                                               const std::string& table) {
  const std::filesystem::path dir =
      std::filesystem::path(warehouse) / (database + ".db") / table / "schema";
  int newest = -1;
  std::error_code ec;
  for (const auto& file : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = file.path().filename().string();
    if (name.rfind("schema-", 0) == 0) newest = std::max(newest, std::stoi(name.substr(7)));
  }
  std::map<std::string, std::string> types;
  if (newest < 0) return types;
  const json schema = json::parse(ReadFile((dir / ("schema-" + std::to_string(newest))).string()));
  for (const json& field : schema.at("fields")) {
    types[field.at("name").get<std::string>()] = field.at("type").get<std::string>();
  }
  return types;
}

// tests/cdc/debezium's program run in the background until MariaDB's `done` table gets a row,
// producing `database`'s change events to `topic`.
class DebeziumProducer {
 public:
  DebeziumProducer(const std::string& database, const std::string& topic, bool schemas,
                   const std::string& decimal_format, int server_id, const std::string& dir)
      : database_(database), ready_file_(dir + "/ready"), log_file_(dir + "/debezium.log") {
    const std::string target = SourceDir() + "/tests/cdc/debezium/target";
    command_ = "java -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp '" + target +
               "/sluice-debezium-producer-1.jar:" + target +
               "/lib/*' org.sluice.cdc.DebeziumProducer --bootstrap " + KafkaBootstrap() +
               " --topic " + topic + " --schemas-enable " + (schemas ? "true" : "false") +
               " --decimal-format " + decimal_format + " --db-port " + MariaDbPort() +
               " --db-user sluice --db-password sluice --database " + database + " --server-id " +
               std::to_string(server_id) + " --stop-table done --ready-file '" + ready_file_ +
               "' --timeout-s " + std::to_string(kProducerTimeoutS) + " >'" + log_file_ + "' 2>&1";
    built_ = std::filesystem::exists(target + "/sluice-debezium-producer-1.jar");
  }

  ~DebeziumProducer() {
    if (thread_.joinable()) {
      Stop();
      thread_.join();
    }
  }

  bool built() const { return built_; }

  void Start() {
    thread_ = std::thread([this] {
      exit_code_ = RunShellCommand(command_).exit_code;
      exited_ = true;
    });
  }

  // Whether the snapshot has been produced (changes from now on come from the binary log);
  // false when the producer exited or the deadline passed first.
  bool WaitUntilStreaming() {
    const auto deadline = std::chrono::steady_clock::now() + kReadyDeadline;
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::filesystem::exists(ready_file_)) return true;
      if (exited_) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  // Inserts the stop row and waits for the producer to exit; its exit code.
  int Stop() {
    if (!stopped_) {
      stopped_ = true;
      MariaDb("INSERT INTO done VALUES (1)", database_);
    }
    if (thread_.joinable()) thread_.join();
    return exit_code_;
  }

  std::string log() const { return ReadFile(log_file_); }

 private:
  std::string database_;
  std::string ready_file_;
  std::string log_file_;
  std::string command_;
  bool built_ = false;
  bool stopped_ = false;
  std::thread thread_;
  std::atomic<bool> exited_ = false;
  std::atomic<int> exit_code_ = -1;
};

const std::vector<Column> kItemColumns = {
    {"id", Kind::kInt},        {"big", Kind::kInt},     {"name", Kind::kText},
    {"price", Kind::kDecimal}, {"dt", Kind::kDatetime}, {"ts", Kind::kTimestamp},
    {"d", Kind::kDate},        {"flag", Kind::kInt},    {"txt", Kind::kText},
    {"bin", Kind::kBlob},      {"note", Kind::kText}};
const std::vector<Column> kAccountColumns = {{"region", Kind::kText},
                                             {"id", Kind::kInt},
                                             {"balance", Kind::kDecimal},
                                             {"rate", Kind::kDecimal},
                                             {"opened", Kind::kDate}};

// Before the producer starts: the snapshot's rows.
constexpr const char* kSnapshotSql = R"sql(
CREATE TABLE items (
  id INT PRIMARY KEY, big BIGINT, name VARCHAR(32), price DECIMAL(10,2), dt DATETIME(3),
  ts TIMESTAMP NULL DEFAULT NULL, d DATE, flag TINYINT(1), txt TEXT, bin BLOB);
CREATE TABLE accounts (
  region VARCHAR(8), id BIGINT, balance DECIMAL(10,2) NOT NULL, rate DECIMAL(38,10),
  PRIMARY KEY (region, id));
CREATE TABLE done (id INT PRIMARY KEY);
INSERT INTO items VALUES
  (1, 9223372036854775807, 'pen', 12.34, '2024-01-02 03:04:05.678', '2024-05-06 07:08:09',
   '2024-01-02', 1, 'hello', X'00FF10'),
  (2, -9223372036854775808, 'ink', -0.50, '1969-12-31 23:59:59.999', '1970-01-01 00:00:01',
   '1969-12-31', 0, '', X''),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO accounts VALUES
  ('eu', 1, 10.00, 1234567890123456789012345678.0123456789), ('us', 1, 20.00, 0.0000000001),
  ('sa', 1, 0.00, 0);
)sql";

// While the producer reads the binary log.
constexpr const char* kStreamSql = R"sql(
INSERT INTO items VALUES
  (4, 42, 'cup', 99999999.99, '2038-01-19 03:14:08.000', '2038-01-19 03:14:07', '9999-12-31', 1,
   REPEAT('x', 3000), UNHEX(REPEAT('AB80', 300)));
UPDATE items SET name = 'red pen', price = price + 1, flag = 0, ts = '2030-01-01 00:00:00'
  WHERE id = 1;
UPDATE items SET txt = 'say "hi" ☃ naïve', d = '0001-01-01', dt = '0001-01-01 00:00:00.001'
  WHERE id = 3;
DELETE FROM items WHERE id = 2;
UPDATE accounts SET id = 2 WHERE region = 'us' AND id = 1;
UPDATE accounts SET balance = -1.25, rate = -0.0000001000 WHERE region = 'eu';
ALTER TABLE items ADD COLUMN note VARCHAR(16);
ALTER TABLE accounts ADD COLUMN opened DATE;
INSERT INTO items (id, name, price, note) VALUES (5, 'pad', -99999999.99, 'new column');
UPDATE items SET note = 'set later' WHERE id = 1;
INSERT INTO accounts VALUES
  ('ap', 7, 0.01, -9999999999999999999999999999.9999999999, '2025-06-30');
)sql";

// How JsonConverter writes the events: with the schema envelope or without it; DECIMAL as
// "base64" (its default) or "numeric" (a JSON number, e.g. 1E-10).
struct Converter {
  bool schemas;
  std::string decimal_format;
  std::string name;
  // Debezium joins the server as a replica: each run needs a server id of its own.
  int server_id_offset;
};

const Converter kConverters[] = {{true, "base64", "schema", 0},
                                 {true, "numeric", "schema_numeric", 1},
                                 {false, "base64", "plain", 2}};

// gtest prints a parameter by its name.
void PrintTo(const Converter& converter, std::ostream* os) { *os << converter.name; }

class DebeziumMariaDbTest : public ::testing::TestWithParam<Converter> {};

TEST_P(DebeziumMariaDbTest, SyncedTablesEqualMariaDb) {
  const bool schemas = GetParam().schemas;
  const std::string database = "dbz_" + GetParam().name + "_" + std::to_string(getpid());
  const int server_id =
      100'000 + static_cast<int>(getpid() % 100'000) * 4 + GetParam().server_id_offset;
  CommandResult r =
      MariaDb("DROP DATABASE IF EXISTS " + database + "; CREATE DATABASE " + database + ";");
  ASSERT_EQ(r.exit_code, 0) << "is MariaDB running (scripts/mariadb.sh start)? " << r.err;
  r = MariaDb(kSnapshotSql, database);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  const std::string topic = UniqueTopicName("debezium");
  ASSERT_OK(CreateTopic(topic, 1));
  TempDir dir;
  DebeziumProducer producer(database, topic, schemas, GetParam().decimal_format, server_id,
                            dir.path());
  ASSERT_TRUE(producer.built()) << "tests/cdc/debezium is not built: run scripts/setup.sh";
  producer.Start();
  ASSERT_TRUE(producer.WaitUntilStreaming()) << "Debezium did not finish its snapshot:\n"
                                             << producer.log();
  r = MariaDb(kStreamSql, database);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(producer.Stop(), 0) << producer.log();

  TempDir warehouse;
  r = RunSync("kafka_sync_database", warehouse.path(), topic, "debezium-json", "--database ods");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note"), std::string::npos) << "the column added mid-stream: " << r.err;

  EXPECT_EQ(ReadRows(warehouse.path(), "ods.items"),
            ExpectedRows(database, "items", kItemColumns, schemas));
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.accounts"),
            ExpectedRows(database, "accounts", kAccountColumns, schemas));

  // The types: Debezium's schema mapped as Paimon maps it (Java's parser too ignores the
  // schema's `optional`: only key columns are NOT NULL); without it, every column is STRING.
  std::map<std::string, std::string> item_types = {
      {"id", "INT NOT NULL"}, {"big", "BIGINT"},
      {"name", "STRING"},     {"price", "DECIMAL(10, 2)"},
      {"dt", "TIMESTAMP(3)"}, {"ts", "TIMESTAMP(6)"},
      {"d", "DATE"},          {"flag", "SMALLINT"},
      {"txt", "STRING"},      {"bin", "BYTES"},
      {"note", "STRING"}};
  std::map<std::string, std::string> account_types = {{"region", "STRING NOT NULL"},
                                                      {"id", "BIGINT NOT NULL"},
                                                      {"balance", "DECIMAL(10, 2)"},
                                                      {"rate", "DECIMAL(38, 10)"},
                                                      {"opened", "DATE"}};
  if (!schemas) {
    for (auto* types : {&item_types, &account_types}) {
      for (auto& [name, type] : *types) {
        type = type.ends_with("NOT NULL") ? "STRING NOT NULL" : "STRING";
      }
    }
  }
  EXPECT_EQ(PaimonTypes(warehouse.path(), "ods", "items"), item_types);
  EXPECT_EQ(PaimonTypes(warehouse.path(), "ods", "accounts"), account_types);

  MariaDb("DROP DATABASE " + database);
}

INSTANTIATE_TEST_SUITE_P(JsonConverter, DebeziumMariaDbTest, ::testing::ValuesIn(kConverters),
                         [](const ::testing::TestParamInfo<Converter>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace sluice
