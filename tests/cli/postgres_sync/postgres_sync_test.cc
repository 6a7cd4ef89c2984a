// `sluice action postgres_sync_table / postgres_sync_database` against a real PostgreSQL 15
// server (scripts/postgres.sh, the `postgres` ctest fixture): the slot's exported snapshot, then
// the pgoutput stream with DDL mid-stream; each synced table must then equal what PostgreSQL
// returns for `SELECT * FROM` its source table (compared through to_jsonb, with numerics and
// temporal values as their text and bytea as base64, as `sluice read --format jsonl` shows them:
// CHAR keeps its padding, numeric without a precision is DECIMAL(38, 18) as Java maps it, TIME(3)
// shows its three fraction digits).
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <sstream>

#include "kafka_sync_test_util.h"
#include "postgres_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CommandResult;
using test::PostgresPort;
using test::Psql;
using test::ReadRows;
using test::RunSluice;
using test::Sorted;
using test::TempDir;

// The rows of `table` as JSON objects: `select` gives each row's jsonb.
std::vector<json> SourceRows(const std::string& database, const std::string& select) {
  CommandResult r = Psql(select, database);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::vector<json> rows;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) rows.push_back(json::parse(line));
  }
  return Sorted(std::move(rows));
}

class PostgresSyncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    database_ = "pgsync_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : database_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    CommandResult r = Psql("CREATE DATABASE " + database_);
    ASSERT_EQ(r.exit_code, 0) << "is PostgreSQL running (scripts/postgres.sh start)? " << r.out;
  }
  void TearDown() override {
    Psql("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" +
         database_ + "'");
    Psql("DROP DATABASE IF EXISTS " + database_ + " WITH (FORCE)");
  }

  void Sql(const std::string& sql) {
    CommandResult r = Psql(sql, database_);
    ASSERT_EQ(r.exit_code, 0) << r.out << "\n" << sql;
  }

  CommandResult Sync(const std::string& action, const std::string& args) {
    return RunSluice("action " + action + " --warehouse '" + warehouse_.path() + "' " + args +
                     " --postgres_conf hostname=127.0.0.1 --postgres_conf port=" + PostgresPort() +
                     " --postgres_conf username=sluice --postgres_conf password=sluice"
                     " --postgres_conf database-name=" +
                     database_ +
                     " --postgres_conf schema-name=public --postgres_conf slot.name=sluice_" +
                     database_.substr(7, 6) +
                     " --postgres_conf decoding.plugin.name=pgoutput --stop_at_end true");
  }

  std::string database_;
  TempDir warehouse_;
};

constexpr const char* kTypesTable = R"sql(
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE types (
  id int PRIMARY KEY, b bool, s smallint, i int, bi bigint, r real, d double precision,
  n numeric(10,2), nn numeric, c char(4), vc varchar(20), t text, ts timestamp(3),
  tstz timestamptz, dt date, tm time(3), by bytea, j json, jb jsonb, u uuid, m mood,
  ia int[], ta text[], bt bit(1), bv bit(12));
)sql";

std::string TypeRows(int first) {
  const std::string a = std::to_string(first), b = std::to_string(first + 1),
                    c = std::to_string(first + 2);
  return "INSERT INTO types VALUES (" + a +
         ", true, -32768, -2147483648, 9223372036854775807, 1.5, -2.25, -12345678.99, "
         "123456789.123456789, 'ab', 'héllo ☃ 😀', 'text', '2024-02-29 12:34:56.789', "
         "'2038-01-19 03:14:07.123456+00', '1000-01-01', '23:59:59.999', '\\x00ff10', "
         "'{\"k\": [1, 2]}', '{\"a\": 1}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'happy', "
         "'{1,NULL,3}', '{\"a b\",\"c,d\",\"\\\"q\\\"\"}', B'1', B'101010101010'), (" +
         b +
         ", false, 32767, 2147483647, -9223372036854775808, -0.5, 1e308, 0.00, 0, '', '', '', "
         "'1970-01-01 00:00:00.001', '1969-12-31 23:59:59.999999+00', '9999-12-31', "
         "'00:00:00', '\\x', '[]', '[]', '00000000-0000-0000-0000-000000000000', 'sad', '{}', "
         "'{}', B'0', B'000000000000'), (" +
         c +
         ", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
         "NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);";
}

// PostgreSQL's rows of `types` as `sluice read` shows them.
constexpr const char* kTypesSelect = R"sql(
SELECT jsonb_build_object('id', id, 'b', b, 's', s, 'i', i, 'bi', bi, 'r', r, 'd', d,
  'n', n::text, 'nn', nn::numeric(38,18)::text, 'c', rpad(c::text, 4), 'vc', vc, 't', t, 'ts', ts::text,
  'tstz', replace(tstz::text, '+00', ''), 'dt', dt::text, 'tm', to_char('2000-01-01'::date + tm, 'HH24:MI:SS.MS'),
  'by', CASE WHEN by IS NULL THEN NULL ELSE jsonb_build_object('base64', replace(encode(by, 'base64'), E'\n', '')) END,
  'j', j::text, 'jb', jb::text, 'u', u::text, 'm', m::text, 'ia', to_jsonb(ia), 'ta', to_jsonb(ta),
  'bt', CASE WHEN bt IS NULL THEN NULL ELSE bt = B'1' END,
  'bv', CASE WHEN bv IS NULL THEN NULL ELSE jsonb_build_object('base64',
        encode(decode(lpad(to_hex(bv::bit(16)::int), 4, '0'), 'hex'), 'base64')) END)
FROM types
)sql";

TEST_F(PostgresSyncTest, EveryTypeRoundTripsThroughSnapshotAndStream) {
  Sql(kTypesTable);
  Sql(TypeRows(1));
  CommandResult r =
      Sync("postgres_sync_table", "--database ods --table types --postgres_conf table-name=types");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.types"), SourceRows(database_, kTypesSelect));

  Sql(TypeRows(11));
  Sql("UPDATE types SET vc = 'changed', n = n + 1, ia = '{7}' WHERE id = 1; "
      "DELETE FROM types WHERE id = 2; UPDATE types SET id = 20 WHERE id = 3;");
  r = Sync("postgres_sync_table", "--database ods --table types --postgres_conf table-name=types");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.types"), SourceRows(database_, kTypesSelect));

  const std::map<std::string, std::string> types =
      test::ColumnTypes(warehouse_.path(), "ods.types");
  const std::map<std::string, std::string> expected = {
      {"id", "INT NOT NULL"},
      {"b", "BOOLEAN"},
      {"s", "SMALLINT"},
      {"i", "INT"},
      {"bi", "BIGINT"},
      {"r", "FLOAT"},
      {"d", "DOUBLE"},
      {"n", "DECIMAL(10, 2)"},
      {"nn", "DECIMAL(38, 18)"},
      {"c", "CHAR(4)"},
      {"vc", "VARCHAR(20)"},
      {"t", "STRING"},
      {"ts", "TIMESTAMP(3)"},
      {"tstz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
      {"dt", "DATE"},
      {"tm", "TIME(3)"},
      {"by", "BYTES"},
      {"j", "STRING"},
      {"jb", "STRING"},
      {"u", "STRING"},
      {"m", "STRING"},
      {"ia", R"({"element":"INT","type":"ARRAY"})"},
      {"ta", R"({"element":"STRING","type":"ARRAY"})"},
      {"bt", "BOOLEAN"},
      {"bv", "BINARY(2)"}};
  EXPECT_EQ(types, expected);
}

TEST_F(PostgresSyncTest, DatabaseSyncFollowsDdlAndNewTables) {
  Sql("CREATE TABLE orders (id int PRIMARY KEY, qty int, note varchar(10), tags int[]); "
      "CREATE TABLE nokey (v int); "
      "INSERT INTO orders VALUES (1, 10, 'a', '{1,2}'), (2, 20, NULL, NULL); "
      "INSERT INTO nokey VALUES (1);");
  CommandResult r = Sync("postgres_sync_database", "--database ods --metadata_column table_name");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const char* orders =
      "SELECT jsonb_build_object('id', id, 'qty', qty, 'note', note, 'tags', to_jsonb(tags), "
      "'table_name', 'orders') FROM orders";
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.orders"), SourceRows(database_, orders));
  EXPECT_NE(r.err.find("nokey"), std::string::npos) << r.err;

  // A nested column widens through its element (Java's `tags.element` path).
  Sql("INSERT INTO orders VALUES (3, 30, 'c', '{3}'); "
      "ALTER TABLE orders ALTER COLUMN qty TYPE bigint; "
      "UPDATE orders SET qty = 9000000000 WHERE id = 1; "
      "ALTER TABLE orders ALTER COLUMN tags TYPE bigint[]; "
      "UPDATE orders SET tags = '{9000000000,NULL}' WHERE id = 3; "
      "ALTER TABLE orders ADD COLUMN price numeric(8,2); "
      "INSERT INTO orders VALUES (4, 40, 'd', NULL, 1.25); DELETE FROM orders WHERE id = 2; "
      "CREATE TABLE items (k varchar(8) PRIMARY KEY, v double precision); "
      "INSERT INTO items VALUES ('x', 0.5), ('y', NULL);");
  r = Sync("postgres_sync_database", "--database ods --metadata_column table_name");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.orders"),
            SourceRows(database_,
                       "SELECT jsonb_build_object('id', id, 'qty', qty, 'note', note, 'tags', "
                       "to_jsonb(tags), 'price', price::text, 'table_name', 'orders') FROM "
                       "orders"));
  const std::map<std::string, std::string> types =
      test::ColumnTypes(warehouse_.path(), "ods.orders");
  EXPECT_EQ(types.at("qty"), "BIGINT");
  EXPECT_EQ(types.at("price"), "DECIMAL(8, 2)");
  EXPECT_EQ(types.at("tags"), R"({"element":"BIGINT","type":"ARRAY"})");
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.items"),
            SourceRows(database_,
                       "SELECT jsonb_build_object('k', k, 'v', v, 'table_name', "
                       "'items') FROM items"));
}

// With REPLICA IDENTITY DEFAULT a DELETE carries only the key; the table's NOT NULL columns
// must not stop the job (Java's does, for good).
TEST_F(PostgresSyncTest, KeyOnlyDeletesOfNotNullColumns) {
  Sql("CREATE TABLE t (id bigint PRIMARY KEY, name varchar(10) NOT NULL, at date NOT NULL, "
      "ok bool NOT NULL); INSERT INTO t VALUES (1, 'a', '2024-01-01', true), "
      "(2, 'b', '2024-01-02', false), (3, 'c', '2024-01-03', true);");
  CommandResult r = Sync("postgres_sync_database", "--database ods");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Sql("UPDATE t SET name = 'z' WHERE id = 1; DELETE FROM t WHERE id = 2; UPDATE t SET id = 4 "
      "WHERE id = 3;");
  r = Sync("postgres_sync_database", "--database ods");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.t"),
            SourceRows(database_,
                       "SELECT jsonb_build_object('id', id, 'name', name, 'at', "
                       "at::text, 'ok', ok) FROM t"));
}

// A slot dropped under a job (or moved past its position by another client) loses the changes
// after the job's position: the next run says so and names the slot, rather than going on from
// wherever a new slot starts.
TEST_F(PostgresSyncTest, ALostSlotPositionIsAnErrorNotASkip) {
  Sql("CREATE TABLE t (id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 1);");
  CommandResult r = Sync("postgres_sync_database", "--database ods");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Sql("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = '" +
      database_ + "'; INSERT INTO t VALUES (2, 2);");
  r = Sync("postgres_sync_database", "--database ods");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sluice_" + database_.substr(7, 6)), std::string::npos) << r.err;
  EXPECT_EQ(ReadRows(warehouse_.path(), "ods.t").size(), 1u);
}

}  // namespace
}  // namespace sluice
