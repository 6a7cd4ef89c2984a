// `sluice action mysql_sync_table / mysql_sync_database` against a real MariaDB server
// (scripts/mariadb.sh, the `mariadb` ctest fixture): the native binlog source's snapshot, then
// its binlog, with DDL mid-stream; each synced table must then equal what MariaDB returns for
// `SELECT * FROM` its source table.
//
// How each MariaDB value compares with `sluice read --format jsonl` (MariaDB's side through
// JSON_OBJECT, see Expression):
//   kNumber  integers, YEAR, FLOAT / DOUBLE of exact binary values: the JSON number
//   kText    text, DECIMAL, BIGINT UNSIGNED (DECIMAL(20, 0)), dates, times: CAST AS CHAR
//   kBool    TINYINT(1), BIT(1): any non-zero value is true
//   kBytes   binary strings, BIT(n): {"base64": ...}
//   kSet     SET: its members as a JSON array
//   kTime    TIME(p): Java maps every TIME to Paimon TIME(0), so the fraction is dropped
//   kPoint   POINT: Java's JSON of the geometry, {"coordinates":[x,y],"type":"Point","srid":0}
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <sstream>

#include "kafka_sync_test_util.h"
#include "mariadb_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::ColumnTypes;
using test::CommandResult;
using test::MariaDb;
using test::MariaDbPort;
using test::ReadRows;
using test::RunSluice;
using test::Sorted;
using test::TempDir;

enum class Kind { kNumber, kText, kBool, kBytes, kSet, kTime, kPoint };
struct Column {
  std::string name;
  Kind kind;
};

std::string Expression(const Column& column) {
  const std::string& c = column.name;
  switch (column.kind) {
    case Kind::kNumber:
      return c;
    case Kind::kBool:
      return c + " + 0";
    case Kind::kBytes:
      return "REPLACE(TO_BASE64(" + c + "), CHAR(10), '')";
    case Kind::kTime:
      return "TIME_FORMAT(" + c + ", '%H:%i:%s')";
    case Kind::kPoint:
      return "IF(" + c + " IS NULL, NULL, CONCAT('{\"coordinates\":[', ST_X(" + c +
             "), ',', ST_Y(" + c + "), '],\"type\":\"Point\",\"srid\":0}'))";
    default:
      return "CONCAT('', " + c + ")";
  }
}

json Expected(const Column& column, const json& value) {
  if (value.is_null()) return nullptr;
  switch (column.kind) {
    case Kind::kBool:
      return value.get<double>() != 0;
    case Kind::kBytes:
      return json{{"base64", value}};
    case Kind::kSet: {
      json members = json::array();
      std::string text = value.get<std::string>();
      std::istringstream in(text);
      std::string member;
      while (!text.empty() && std::getline(in, member, ',')) members.push_back(member);
      return members;
    }
    default:
      return value;
  }
}

// MariaDB's rows of `database`.`table`, as the synced table should show them.
std::vector<json> SourceRows(const std::string& database, const std::string& table,
                             const std::vector<Column>& columns) {
  std::string select = "SELECT JSON_OBJECT(";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) select += ", ";
    select += "'" + columns[i].name + "', " + Expression(columns[i]);
  }
  CommandResult r = MariaDb(select + ") FROM " + table, database);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> rows;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const json row = json::parse(line);
    json expected = json::object();
    for (const Column& column : columns) {
      expected[column.name] = Expected(column, row.at(column.name));
    }
    rows.push_back(std::move(expected));
  }
  return Sorted(std::move(rows));
}

// `sluice action <action> --warehouse W <args> --mysql_conf (the server) --stop_at_end true`:
// the snapshot when there is none, then the binlog up to its end now.
CommandResult RunMySqlSync(const std::string& action, const std::string& warehouse,
                           const std::string& database_pattern, const std::string& args) {
  return RunSluice("action " + action + " --warehouse '" + warehouse + "' " + args +
                   " --mysql_conf hostname=127.0.0.1 --mysql_conf port=" + MariaDbPort() +
                   " --mysql_conf username=sluice --mysql_conf password=sluice"
                   " --mysql_conf database-name=" +
                   database_pattern + " --stop_at_end true");
}

class MySqlSyncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    database_ = "msync_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : database_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CommandResult r =
        MariaDb("DROP DATABASE IF EXISTS " + database_ + "; CREATE DATABASE " + database_ + ";");
    ASSERT_EQ(r.exit_code, 0) << "is MariaDB running (scripts/mariadb.sh start)? " << r.err;
  }
  void TearDown() override { MariaDb("DROP DATABASE IF EXISTS " + database_); }

  void Sql(const std::string& sql) {
    CommandResult r = MariaDb(sql, database_);
    ASSERT_EQ(r.exit_code, 0) << r.err << "\n" << sql;
  }

  std::string database_;
  TempDir warehouse_;
};

const std::vector<Column> kTypeColumns = {
    {"id", Kind::kNumber}, {"ti", Kind::kNumber},  {"tiu", Kind::kNumber}, {"b1", Kind::kBool},
    {"si", Kind::kNumber}, {"siu", Kind::kNumber}, {"mi", Kind::kNumber},  {"miu", Kind::kNumber},
    {"i", Kind::kNumber},  {"iu", Kind::kNumber},  {"bi", Kind::kNumber},  {"biu", Kind::kText},
    {"f", Kind::kNumber},  {"d", Kind::kNumber},   {"dec1", Kind::kText},  {"dec2", Kind::kText},
    {"dt0", Kind::kText},  {"dt3", Kind::kText},   {"dt6", Kind::kText},   {"ts6", Kind::kText},
    {"dte", Kind::kText},  {"tm", Kind::kTime},    {"yr", Kind::kNumber},  {"c", Kind::kText},
    {"vc", Kind::kText},   {"tx", Kind::kText},    {"lt", Kind::kText},    {"bn", Kind::kBytes},
    {"vb", Kind::kBytes},  {"bl", Kind::kBytes},   {"en", Kind::kText},    {"st", Kind::kSet},
    {"bt1", Kind::kBool},  {"bt12", Kind::kBytes}, {"js", Kind::kText},    {"l1", Kind::kText},
    {"g", Kind::kPoint}};

constexpr const char* kTypesTable = R"sql(
CREATE TABLE types (
  id INT PRIMARY KEY, ti TINYINT, tiu TINYINT UNSIGNED, b1 TINYINT(1), si SMALLINT,
  siu SMALLINT UNSIGNED, mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT,
  biu BIGINT UNSIGNED, f FLOAT, d DOUBLE, dec1 DECIMAL(10,2), dec2 DECIMAL(38,10), dt0 DATETIME,
  dt3 DATETIME(3), dt6 DATETIME(6), ts6 TIMESTAMP(6) NULL DEFAULT NULL, dte DATE, tm TIME(3),
  yr YEAR, c CHAR(5), vc VARCHAR(20), tx TEXT, lt LONGTEXT, bn BINARY(4), vb VARBINARY(8),
  bl BLOB, en ENUM('a','b','c'), st SET('x','y','z'), bt1 BIT(1), bt12 BIT(12), js JSON,
  l1 VARCHAR(10) CHARACTER SET latin1, g POINT);
)sql";

// Rows of every type with the extremes, from `first_id` on.
std::string TypeRows(int first_id) {
  const std::string a = std::to_string(first_id), b = std::to_string(first_id + 1),
                    c = std::to_string(first_id + 2);
  return "INSERT INTO types VALUES (" + a +
         ", -128, 255, 1, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295, "
         "-9223372036854775808, 18446744073709551615, 1.5, -2.25, -12345678.99, "
         "1234567890123456789012345678.0123456789, '1000-01-01 00:00:00', "
         "'2024-02-29 12:34:56.789', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999999', "
         "'1000-01-01', '23:59:59.999', 2155, 'abc', 'héllo ☃ 😀', 'text', REPEAT('long', 500), "
         "X'00FF', X'0102030405060708', X'00FF10', 'b', 'x,z', b'1', b'101010101010', "
         "'{\"k\": [1, 2]}', 'café', POINT(1, 2)), (" +
         b +
         ", 127, 0, 0, 32767, 0, 8388607, 0, 2147483647, 0, 9223372036854775807, 0, -0.5, "
         "1e308, 0.00, -0.0000000001, '2024-01-01 00:00:00', '1970-01-01 00:00:00.001', "
         "'1969-12-31 23:59:59.999999', '1970-01-01 00:00:01.000000', '9999-12-31', "
         "'00:00:00.000', 1901, '', '', '', '', X'', X'', X'', 'a', '', b'0', b'0', '[]', '', "
         "POINT(-1.5, 3.25)), "
         "(" +
         c +
         ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
         "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
         "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);";
}

TEST_F(MySqlSyncTest, EveryTypeRoundTripsThroughSnapshotAndBinlog) {
  Sql(kTypesTable);
  Sql(TypeRows(1));
  CommandResult r = RunMySqlSync("mysql_sync_table", warehouse_.path(), database_,
                                 "--database ods --table types --mysql_conf table-name=types");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.types"), SourceRows(database_, "types", kTypeColumns));

  // The same values through the binlog, and updates and deletes of the snapshot's rows.
  Sql(TypeRows(11));
  Sql("UPDATE types SET vc = 'changed', dec1 = dec1 + 1, st = 'y' WHERE id = 1; "
      "DELETE FROM types WHERE id = 2; UPDATE types SET id = 20 WHERE id = 3;");
  r = RunMySqlSync("mysql_sync_table", warehouse_.path(), database_,
                   "--database ods --table types --mysql_conf table-name=types");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.types"), SourceRows(database_, "types", kTypeColumns));

  const std::map<std::string, std::string> types =
      test::ColumnTypes(warehouse_.path(), "ods.types");
  const std::map<std::string, std::string> expected = {
      {"id", "INT NOT NULL"},
      {"ti", "TINYINT"},
      {"tiu", "SMALLINT"},
      {"b1", "BOOLEAN"},
      {"si", "SMALLINT"},
      {"siu", "INT"},
      {"mi", "INT"},
      {"miu", "BIGINT"},
      {"i", "INT"},
      {"iu", "BIGINT"},
      {"bi", "BIGINT"},
      {"biu", "DECIMAL(20, 0)"},
      {"f", "FLOAT"},
      {"d", "DOUBLE"},
      {"dec1", "DECIMAL(10, 2)"},
      {"dec2", "DECIMAL(38, 10)"},
      {"dt0", "TIMESTAMP(0)"},
      {"dt3", "TIMESTAMP(3)"},
      {"dt6", "TIMESTAMP(6)"},
      {"ts6", "TIMESTAMP(6)"},
      {"dte", "DATE"},
      {"tm", "TIME(0)"},
      {"yr", "INT"},
      {"c", "CHAR(5)"},
      {"vc", "VARCHAR(20)"},
      {"tx", "STRING"},
      {"lt", "STRING"},
      {"bn", "VARBINARY(4)"},
      {"vb", "VARBINARY(8)"},
      {"bl", "BYTES"},
      {"en", "STRING"},
      {"st", R"({"element":"STRING","type":"ARRAY"})"},
      {"bt1", "BOOLEAN"},
      {"bt12", "BINARY(2)"},
      {"js", "STRING"},
      {"l1", "VARCHAR(10)"},
      {"g", "STRING"}};
  EXPECT_EQ(types, expected);
}

TEST_F(MySqlSyncTest, DatabaseSyncFollowsDdlAndNewTables) {
  const std::vector<Column> orders = {
      {"id", Kind::kNumber}, {"qty", Kind::kNumber}, {"note", Kind::kText}};
  const std::vector<Column> orders_widened = {
      {"id", Kind::kNumber}, {"qty", Kind::kNumber}, {"note", Kind::kText}, {"price", Kind::kText}};
  Sql("CREATE TABLE orders (id INT PRIMARY KEY, qty INT, note VARCHAR(10)); "
      "CREATE TABLE nokey (v INT); "
      "INSERT INTO orders VALUES (1, 10, 'a'), (2, 20, NULL); INSERT INTO nokey VALUES (1);");
  CommandResult r = RunMySqlSync("mysql_sync_database", warehouse_.path(), database_,
                                 "--database ods --metadata_column table_name,op_ts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<json> rows = ReadRows(warehouse_.path(), "ods.orders");
  ASSERT_EQ(rows.size(), 2u);
  for (json& row : rows) {
    EXPECT_EQ(row.at("table_name"), "orders");
    // Snapshot rows carry op_ts 0, as Flink CDC's.
    EXPECT_EQ(row.at("op_ts"), "1970-01-01 00:00:00.000");
    row.erase("table_name");
    row.erase("op_ts");
  }
  EXPECT_EQ(rows, SourceRows(database_, "orders", orders));
  // Java's database sync leaves tables without a primary key out.
  EXPECT_NE(r.err.find("nokey"), std::string::npos) << r.err;

  // Mid-stream: rows, a widened column, an added column, a new table.
  Sql("INSERT INTO orders VALUES (3, 30, 'c'); "
      "ALTER TABLE orders MODIFY qty BIGINT; "
      "UPDATE orders SET qty = 9000000000 WHERE id = 1; "
      "ALTER TABLE orders ADD COLUMN price DECIMAL(8,2); "
      "INSERT INTO orders VALUES (4, 40, 'd', 1.25); DELETE FROM orders WHERE id = 2; "
      "CREATE TABLE items (k VARCHAR(8) PRIMARY KEY, v DOUBLE); "
      "INSERT INTO items VALUES ('x', 0.5), ('y', NULL);");
  r = RunMySqlSync("mysql_sync_database", warehouse_.path(), database_,
                   "--database ods --metadata_column table_name,op_ts");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rows = ReadRows(warehouse_.path(), "ods.orders");
  for (json& row : rows) {
    row.erase("table_name");
    row.erase("op_ts");
  }
  EXPECT_EQ(Sorted(rows), SourceRows(database_, "orders", orders_widened));
  const std::map<std::string, std::string> types = ColumnTypes(warehouse_.path(), "ods.orders");
  EXPECT_EQ(types.at("qty"), "BIGINT");
  EXPECT_EQ(types.at("price"), "DECIMAL(8, 2)");
  rows = ReadRows(warehouse_.path(), "ods.items");
  for (json& row : rows) {
    EXPECT_NE(row.at("op_ts"), "1970-01-01 00:00:00.000") << "a binlog row's op_ts";
    row.erase("table_name");
    row.erase("op_ts");
  }
  EXPECT_EQ(Sorted(rows),
            SourceRows(database_, "items", {{"k", Kind::kText}, {"v", Kind::kNumber}}));
}

TEST_F(MySqlSyncTest, BadArgumentsNameWhatIsWrong) {
  CommandResult r = RunSluice(
      "action mysql_sync_database --warehouse /tmp/x --database ods "
      "--mysql_conf hostname=127.0.0.1 --mysql_conf username=u "
      "--mysql_conf password=secret123 --mysql_conf database-name=d "
      "--mysql_conf table-name=t");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("table-name cannot be set for mysql_sync_database"), std::string::npos)
      << r.err;
  r = RunSluice(
      "action mysql_sync_table --warehouse /tmp/x --database ods --table t "
      "--mysql_conf hostname=127.0.0.1 --mysql_conf username=u "
      "--mysql_conf password=secret123 --mysql_conf database-name=d "
      "--mysql_conf table-name=t --mysql_conf bogus.key=1 --metadata_column topic");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.find("secret123"), std::string::npos) << r.err;
  r = RunSluice(
      "action mysql_sync_table --warehouse /tmp/x --database ods --table t "
      "--mysql_conf hostname=127.0.0.1 --mysql_conf port=1 --mysql_conf username=u "
      "--mysql_conf password=secret123 --mysql_conf database-name=d "
      "--mysql_conf table-name=t");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("127.0.0.1:1"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("secret123"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice
