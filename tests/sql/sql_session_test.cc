#include "sluice/sql/sql_session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/sql/sql_text.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice::sql {
namespace {

class SqlSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SqlOptions options;
    options.threads = 2;
    options.report_pruning = true;
    auto session = SqlSession::Open(Catalog::Filesystem(dir_.path() + "/wh"), options);
    ASSERT_OK(session);
    session_ = std::move(*session);
  }

  // Runs every statement of `sql`; the rows of the last one, each as a JSON object.
  Result<std::vector<std::string>> Run(const std::string& sql) {
    std::vector<std::string> rows;
    for (const std::string& statement : SplitStatements(sql)) {
      SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, session_->Execute(statement));
      rows.clear();
      if (reader == nullptr) continue;
      ColumnBatch batch(reader->output_type());
      while (true) {
        SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
        if (!more) break;
        for (int64_t i = 0; i < batch.num_rows(); ++i) {
          rows.push_back(ValueToJson(batch.GetRow(i), *reader->output_type()));
        }
      }
    }
    return rows;
  }

  std::vector<std::string> MustRun(const std::string& sql) {
    Result<std::vector<std::string>> rows = Run(sql);
    EXPECT_OK(rows) << sql;
    return rows.ok() ? *rows : std::vector<std::string>();
  }

  // A partitioned primary-key table of three partitions, one data file each.
  void CreateOrders() {
    MustRun(
        "CREATE DATABASE shop;"
        "CREATE TABLE shop.orders (id BIGINT, customer VARCHAR NOT NULL, day DATE, "
        "  amount DECIMAL(10, 2), PRIMARY KEY (id, day) NOT ENFORCED) PARTITIONED BY (day) "
        "  WITH ('bucket' = '1', 'file.format' = 'parquet');"
        "INSERT INTO shop.orders VALUES (1, 'ann', DATE '2024-01-01', 10.5);"
        "INSERT INTO shop.orders VALUES (2, 'bob', DATE '2024-01-02', 20);"
        "INSERT INTO shop.orders VALUES (3, 'cid', DATE '2024-01-03', 30.25)");
  }

  test::TempDir dir_;
  std::unique_ptr<SqlSession> session_;
};

TEST_F(SqlSessionTest, CreatesTablesWithPaimonKeysAndOptions) {
  CreateOrders();
  auto table = Catalog::Filesystem(dir_.path() + "/wh").GetTable("shop.orders");
  ASSERT_OK(table);
  EXPECT_EQ(table->primary_keys(), (std::vector<std::string>{"id", "day"}));
  EXPECT_EQ(table->partition_keys(), (std::vector<std::string>{"day"}));
  EXPECT_EQ(table->row_type()->ToString(),
            "ROW<`id` BIGINT NOT NULL, `customer` STRING NOT NULL, `day` DATE NOT NULL, "
            "`amount` DECIMAL(10, 2)>");
  bool bucket = false;
  for (const auto& [key, value] : table->options())
    bucket = bucket || (key == "bucket" && value == "1");
  EXPECT_TRUE(bucket);
  // Options may name the keys too, as Java's do.
  MustRun(
      "CREATE TABLE shop.events (k INT, p VARCHAR, v DOUBLE) "
      "WITH ('primary-key' = 'k,p', 'partition' = 'p', 'bucket' = '2')");
  auto events = Catalog::Filesystem(dir_.path() + "/wh").GetTable("shop.events");
  ASSERT_OK(events);
  EXPECT_EQ(events->primary_keys(), (std::vector<std::string>{"k", "p"}));
  EXPECT_EQ(events->partition_keys(), (std::vector<std::string>{"p"}));
}

TEST_F(SqlSessionTest, CreatesTablesFromQueries) {
  CreateOrders();
  EXPECT_EQ(MustRun("CREATE TABLE shop.daily "
                    "WITH ('primary-key' = 'day', 'bucket' = '1') AS "
                    "SELECT day, count(*) AS orders, sum(amount) AS total FROM shop.orders "
                    "WHERE day >= '2024-01-02' GROUP BY day"),
            (std::vector<std::string>{R"({"rows": 2})"}));
  auto table = Catalog::Filesystem(dir_.path() + "/wh").GetTable("shop.daily");
  ASSERT_OK(table);
  EXPECT_EQ(table->primary_keys(), (std::vector<std::string>{"day"}));
  EXPECT_EQ(table->row_type()->ToString(),
            "ROW<`day` DATE NOT NULL, `orders` BIGINT, `total` DECIMAL(38, 2)>");
  EXPECT_EQ(MustRun("SELECT * FROM shop.daily ORDER BY day"),
            (std::vector<std::string>{R"({"day": "2024-01-02", "orders": 1, "total": "20.00"})",
                                      R"({"day": "2024-01-03", "orders": 1, "total": "30.25"})"}));
  // IF NOT EXISTS leaves an existing table as it is.
  MustRun("CREATE TABLE IF NOT EXISTS shop.daily AS SELECT DATE '2000-01-01' AS day, 0, 0");
  EXPECT_EQ(MustRun("SELECT count(*) AS n FROM shop.daily"),
            (std::vector<std::string>{R"({"n": 2})"}));
}

TEST_F(SqlSessionTest, SelectsWithFiltersPushedIntoPlanning) {
  CreateOrders();
  EXPECT_EQ(MustRun("SELECT id, customer, amount FROM shop.orders WHERE day = DATE '2024-01-02'"),
            (std::vector<std::string>{R"({"id": 2, "customer": "bob", "amount": "20.00"})"}));
  std::vector<ScanReport> reports = session_->scan_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].filter, "`day` = DATE '2024-01-02'");
  EXPECT_EQ(reports[0].files, 1);
  EXPECT_EQ(reports[0].files_unfiltered, 3);

  // DuckDB still filters what cannot be pushed; the rows are the same.
  EXPECT_EQ(MustRun("SELECT id FROM shop.orders WHERE amount > 15 AND id * 2 <> 4 ORDER BY id"),
            (std::vector<std::string>{R"({"id": 3})"}));
  EXPECT_EQ(MustRun("SELECT count(*) AS n, sum(amount) AS total FROM shop.orders"),
            (std::vector<std::string>{R"({"n": 3, "total": "60.75"})"}));
  // Primary-key semantics come from Sluice's merge: an upsert replaces the row.
  MustRun(
      "INSERT INTO shop.orders (id, day, customer, amount) "
      "VALUES (2, DATE '2024-01-02', 'bea', 21)");
  EXPECT_EQ(MustRun("SELECT id, customer FROM shop.orders ORDER BY id"),
            (std::vector<std::string>{R"({"id": 1, "customer": "ann"})",
                                      R"({"id": 2, "customer": "bea"})",
                                      R"({"id": 3, "customer": "cid"})"}));
  // A pushed filter on a value column must not resurrect the replaced row.
  EXPECT_TRUE(MustRun("SELECT id FROM shop.orders WHERE customer = 'bob'").empty());
  EXPECT_EQ(session_->scan_reports().at(0).filter, "`customer` = 'bob'");
}

TEST_F(SqlSessionTest, ExplainShowsWhatEachScanPlanned) {
  CreateOrders();
  std::vector<std::string> plan =
      MustRun("EXPLAIN SELECT customer FROM shop.orders WHERE day >= '2024-01-02'");
  ASSERT_FALSE(plan.empty());
  EXPECT_NE(plan.front().find("SLUICE_SCAN"), std::string::npos) << plan.front();
  EXPECT_EQ(plan.back(),
            R"x({"explain_key": "sluice_scan", "explain_value": "shop.orders: snapshot 3, filter )x"
            R"x(`day` >= DATE '2024-01-02', 2 splits, 2 of 3 files (1 pruned)"})x");
  // After USE, unqualified names are the database's tables, pushdown included.
  MustRun("USE shop");
  EXPECT_EQ(MustRun("SELECT id FROM orders WHERE id IN (1, 3) ORDER BY id"),
            (std::vector<std::string>{R"({"id": 1})", R"({"id": 3})"}));
  ASSERT_EQ(session_->scan_reports().size(), 1u);
  EXPECT_EQ(session_->scan_reports()[0].filter, "`id` IN (1, 3)");
}

TEST_F(SqlSessionTest, ReadsOlderVersionsBySnapshotTagAndTimestamp) {
  CreateOrders();
  EXPECT_EQ(MustRun("SELECT id FROM sluice_scan('shop.orders', snapshot => 1)"),
            (std::vector<std::string>{R"({"id": 1})"}));
  EXPECT_EQ(MustRun("CALL sys.create_tag(`table` => 'shop.orders', tag => 'two', "
                    "snapshot_id => 2)")
                .size(),
            1u);
  EXPECT_EQ(MustRun("SELECT id FROM sluice_scan('shop.orders', tag => 'two') ORDER BY id"),
            (std::vector<std::string>{R"({"id": 1})", R"({"id": 2})"}));
  std::vector<std::string> time = MustRun(
      "SELECT epoch_ms(commit_time)::VARCHAR AS t FROM shop.orders$snapshots "
      "WHERE snapshot_id = 2");
  ASSERT_EQ(time.size(), 1u);
  std::string millis;
  for (char c : time[0]) {
    if (c >= '0' && c <= '9') millis += c;
  }
  EXPECT_EQ(
      MustRun("SELECT count(*) AS n FROM sluice_scan('shop.orders', as_of => '" + millis + "')"),
      (std::vector<std::string>{R"({"n": 2})"}));
}

TEST_F(SqlSessionTest, ShowsSystemTables) {
  CreateOrders();
  EXPECT_EQ(MustRun("SELECT snapshot_id, commit_kind FROM shop.orders$snapshots "
                    "ORDER BY snapshot_id"),
            (std::vector<std::string>{R"({"snapshot_id": 1, "commit_kind": "APPEND"})",
                                      R"({"snapshot_id": 2, "commit_kind": "APPEND"})",
                                      R"({"snapshot_id": 3, "commit_kind": "APPEND"})"}));
  EXPECT_EQ(MustRun("SELECT count(*) AS n FROM shop.orders$files"),
            (std::vector<std::string>{R"({"n": 3})"}));
  EXPECT_EQ(MustRun("SELECT partition FROM shop.orders$partitions ORDER BY 1").size(), 3u);
}

TEST_F(SqlSessionTest, OverwritesPartitionsOrTheWholeTable) {
  CreateOrders();
  // A static partition: only it is replaced; the query gives the other columns.
  MustRun(
      "INSERT OVERWRITE shop.orders PARTITION (day = '2024-01-01') "
      "SELECT 7, 'eve', 70");
  EXPECT_EQ(MustRun("SELECT id, customer FROM shop.orders ORDER BY id"),
            (std::vector<std::string>{R"({"id": 2, "customer": "bob"})",
                                      R"({"id": 3, "customer": "cid"})",
                                      R"({"id": 7, "customer": "eve"})"}));
  // No partition named: the partitions the rows fall in (Java's dynamic overwrite).
  MustRun("INSERT OVERWRITE shop.orders VALUES (8, 'fay', DATE '2024-01-02', 80)");
  EXPECT_EQ(MustRun("SELECT id FROM shop.orders ORDER BY id"),
            (std::vector<std::string>{R"({"id": 3})", R"({"id": 7})", R"({"id": 8})"}));
  // An unpartitioned table is replaced whole, from a query over another table.
  MustRun(
      "CREATE TABLE shop.totals (customer VARCHAR, total DECIMAL(12, 2));"
      "INSERT INTO shop.totals VALUES ('old', 1);"
      "INSERT OVERWRITE shop.totals SELECT customer, sum(amount) FROM shop.orders "
      "GROUP BY customer");
  EXPECT_EQ(MustRun("SELECT * FROM shop.totals ORDER BY customer"),
            (std::vector<std::string>{R"({"customer": "cid", "total": "30.25"})",
                                      R"({"customer": "eve", "total": "70.00"})",
                                      R"({"customer": "fay", "total": "80.00"})"}));
  EXPECT_EQ(MustRun("SELECT commit_kind FROM shop.totals$snapshots ORDER BY snapshot_id"),
            (std::vector<std::string>{R"({"commit_kind": "APPEND"})",
                                      R"({"commit_kind": "OVERWRITE"})"}));
}

TEST_F(SqlSessionTest, CallsProcedures) {
  CreateOrders();
  MustRun("CALL sys.create_tag(`table` => 'shop.orders', tag => 'first', snapshot_id => 1)");
  EXPECT_EQ(MustRun("SELECT tag_name, snapshot_id FROM shop.orders$tags"),
            (std::vector<std::string>{R"({"tag_name": "first", "snapshot_id": 1})"}));
  MustRun("CALL sys.rollback_to(`table` => 'shop.orders', snapshot_id => 1)");
  EXPECT_EQ(MustRun("SELECT id FROM shop.orders"), (std::vector<std::string>{R"({"id": 1})"}));
}

TEST_F(SqlSessionTest, ErrorsNameTheTableOrColumn) {
  CreateOrders();
  EXPECT_TRUE(test::HasError(Run("SELECT * FROM shop.nosuch"), StatusCode::kNotFound, {"nosuch"}));
  EXPECT_TRUE(test::HasError(Run("SELECT nocolumn FROM shop.orders"), StatusCode::kInvalidArgument,
                             {"nocolumn"}));
  EXPECT_TRUE(test::HasError(Run("INSERT INTO shop.orders (id, nocolumn) VALUES (1, 2)"),
                             StatusCode::kNotFound, {"nocolumn", "shop.orders"}));
  EXPECT_TRUE(test::HasError(Run("INSERT INTO shop.nosuch VALUES (1)"), StatusCode::kNotFound,
                             {"shop.nosuch"}));
  EXPECT_TRUE(test::HasError(Run("INSERT INTO shop.orders VALUES (1, 'x')"),
                             StatusCode::kInvalidArgument, {"shop.orders", "4 columns"}));
  // A value that does not fit fails the whole INSERT: nothing is committed.
  EXPECT_TRUE(test::HasError(Run("INSERT INTO shop.orders VALUES (9, 'x', DATE '2024-01-01', 1), "
                                 "(10, NULL, DATE '2024-01-01', 2)"),
                             StatusCode::kInvalidArgument, {"customer"}));
  EXPECT_EQ(MustRun("SELECT count(*) AS n FROM shop.orders$snapshots"),
            (std::vector<std::string>{R"({"n": 3})"}));
  EXPECT_TRUE(
      test::HasError(Run("SELECT * FROM shop.orders$nosuch"), StatusCode::kNotFound, {"nosuch"}));
  EXPECT_TRUE(test::HasError(Run("CALL sys.create_tag(`table` => 'shop.orders')"),
                             StatusCode::kInvalidArgument, {"tag"}));
  EXPECT_TRUE(test::HasError(Run("CREATE TABLE shop.bad (a INT) WITH ('bucket' = 'x')"),
                             StatusCode::kInvalidArgument, {"bucket"}));
}

TEST_F(SqlSessionTest, EveryTypeRoundTripsThroughInsertAndSelect) {
  MustRun(
      "CREATE DATABASE d;"
      "CREATE TABLE d.t (b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, f FLOAT, "
      "  db DOUBLE, d1 DECIMAL(5, 2), d2 DECIMAL(20, 3), s VARCHAR, bl BLOB, dt DATE, tm TIME, "
      "  ts TIMESTAMP, tms TIMESTAMP_MS, tz TIMESTAMPTZ, arr INT[], m MAP(VARCHAR, INT), "
      "  st STRUCT(a INT, b VARCHAR));"
      "INSERT INTO d.t VALUES (true, -1, 300, 70000, 1000000000000, 1.5, 2.25, 123.45, "
      "  12345678901234567.891, 'héllo', '\\x01\\x02'::BLOB, DATE '2024-02-29', "
      "  TIME '12:34:56.789', TIMESTAMP '2024-01-02 03:04:05.123456', "
      "  TIMESTAMP '2024-01-02 03:04:05.123', TIMESTAMPTZ '2024-01-02 03:04:05.5+00', "
      "  [1, NULL, 3], MAP {'k': 1}, {'a': 1, 'b': 'x'}),"
      "  (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
      "   NULL, NULL, NULL, NULL, NULL)");
  auto table = Catalog::Filesystem(dir_.path() + "/wh").GetTable("d.t");
  ASSERT_OK(table);
  EXPECT_EQ(table->row_type()->ToString(),
            "ROW<`b` BOOLEAN, `ti` TINYINT, `si` SMALLINT, `i` INT, `bi` BIGINT, `f` FLOAT, "
            "`db` DOUBLE, `d1` DECIMAL(5, 2), `d2` DECIMAL(20, 3), `s` STRING, `bl` BYTES, "
            "`dt` DATE, `tm` TIME(6), `ts` TIMESTAMP(6), `tms` TIMESTAMP(3), "
            "`tz` TIMESTAMP(6) WITH LOCAL TIME ZONE, `arr` ARRAY<INT>, "
            "`m` MAP<STRING NOT NULL, INT>, `st` ROW<`a` INT, `b` STRING>>");
  EXPECT_EQ(
      MustRun("SELECT * FROM d.t ORDER BY b NULLS LAST"),
      (std::vector<std::string>{
          "{\"b\": true, \"ti\": -1, \"si\": 300, \"i\": 70000, \"bi\": 1000000000000, "
          "\"f\": 1.5, \"db\": 2.25, \"d1\": \"123.45\", \"d2\": \"12345678901234567.891\", "
          "\"s\": \"héllo\", \"bl\": {\"base64\": \"AQI=\"}, \"dt\": \"2024-02-29\", "
          "\"tm\": \"12:34:56.789000\", \"ts\": \"2024-01-02 03:04:05.123456\", "
          "\"tms\": \"2024-01-02 03:04:05.123\", \"tz\": \"2024-01-02 03:04:05.500000\", "
          "\"arr\": [1, null, 3], \"m\": [[\"k\", 1]], \"st\": {\"a\": 1, \"b\": \"x\"}}",
          "{\"b\": null, \"ti\": null, \"si\": null, \"i\": null, \"bi\": null, \"f\": null, "
          "\"db\": null, \"d1\": null, \"d2\": null, \"s\": null, \"bl\": null, \"dt\": null, "
          "\"tm\": null, \"ts\": null, \"tms\": null, \"tz\": null, \"arr\": null, "
          "\"m\": null, \"st\": null}"}));
  // Without the nested columns the scan writes DuckDB's vectors itself (vector_filler.h): the
  // same values.
  std::vector<std::string> flat =
      MustRun("SELECT * EXCLUDE (arr, m, st) FROM d.t ORDER BY b NULLS LAST");
  ASSERT_EQ(flat.size(), 2u);
  EXPECT_EQ(flat[0],
            "{\"b\": true, \"ti\": -1, \"si\": 300, \"i\": 70000, \"bi\": 1000000000000, "
            "\"f\": 1.5, \"db\": 2.25, \"d1\": \"123.45\", \"d2\": \"12345678901234567.891\", "
            "\"s\": \"héllo\", \"bl\": {\"base64\": \"AQI=\"}, \"dt\": \"2024-02-29\", "
            "\"tm\": \"12:34:56.789000\", \"ts\": \"2024-01-02 03:04:05.123456\", "
            "\"tms\": \"2024-01-02 03:04:05.123\", \"tz\": \"2024-01-02 03:04:05.500000\"}");
  EXPECT_EQ(flat[1],
            "{\"b\": null, \"ti\": null, \"si\": null, \"i\": null, \"bi\": null, \"f\": null, "
            "\"db\": null, \"d1\": null, \"d2\": null, \"s\": null, \"bl\": null, \"dt\": null, "
            "\"tm\": null, \"ts\": null, \"tms\": null, \"tz\": null}");
  // Dates and timestamps before 1970, negative decimals, a DECIMAL held in 2 bytes by DuckDB.
  MustRun(
      "CREATE TABLE d.old (dt DATE, ts TIMESTAMP, t0 TIMESTAMP_S, n DECIMAL(4, 1));"
      "INSERT INTO d.old VALUES (DATE '1969-12-31', TIMESTAMP '1969-12-31 23:59:59.999999', "
      "TIMESTAMP_S '1969-12-31 23:59:59', -12.5)");
  EXPECT_EQ(MustRun("SELECT dt::VARCHAR AS dt, ts::VARCHAR AS ts, t0::VARCHAR AS t0, "
                    "n::VARCHAR AS n FROM d.old"),
            (std::vector<std::string>{R"({"dt": "1969-12-31", "ts": "1969-12-31 23:59:59.999999", )"
                                      R"("t0": "1969-12-31 23:59:59", "n": "-12.5"})"}));
}

TEST_F(SqlSessionTest, StringsOfEveryLengthCompareAsDuckDBsOwn) {
  // Up to 12 ASCII bytes the scan writes DuckDB's inline strings itself, from 13 on strings
  // pointing into the batch (vector_filler.h); non-ASCII text and NULL go through DuckDB's
  // assign. Equality, hashing (GROUP BY, a join against DuckDB's own strings), ordering and
  // prefix matching must all agree.
  MustRun(
      "CREATE DATABASE d;"
      "CREATE TABLE d.s (k INT, s VARCHAR);"
      "INSERT INTO d.s VALUES (1, ''), (2, 'a'), (3, 'abcdefghijkl'), (4, 'abcdefghijklm'), "
      "  (5, 'héllo'), (6, 'ünïcödé and more than twelve'), (7, NULL), (8, 'a'), "
      "  (9, 'abcdefghijkl')");
  EXPECT_EQ(
      MustRun("SELECT s, count(*) AS n, min(length(s)) AS len FROM d.s "
              "GROUP BY s ORDER BY s NULLS LAST"),
      (std::vector<std::string>{R"({"s": "", "n": 1, "len": 0})", R"({"s": "a", "n": 2, "len": 1})",
                                R"({"s": "abcdefghijkl", "n": 2, "len": 12})",
                                R"({"s": "abcdefghijklm", "n": 1, "len": 13})",
                                R"({"s": "héllo", "n": 1, "len": 5})",
                                R"({"s": "ünïcödé and more than twelve", "n": 1, "len": 28})",
                                R"({"s": null, "n": 1, "len": null})"}));
  EXPECT_EQ(MustRun("SELECT list(k ORDER BY k) AS ks FROM d.s "
                    "WHERE s = 'abcdefghijkl' OR s = '' OR s LIKE 'abcdefghijkl_'"),
            (std::vector<std::string>{R"({"ks": [1, 3, 4, 9]})"}));
  EXPECT_EQ(MustRun("SELECT list(d.s.k ORDER BY d.s.k) AS ks FROM d.s JOIN "
                    "(VALUES ('a'), ('abcdefghijkl'), ('héllo')) v(x) ON d.s.s = v.x"),
            (std::vector<std::string>{R"({"ks": [2, 3, 5, 8, 9]})"}));
}

TEST_F(SqlSessionTest, ShortStringsOfEveryLengthJoinDuckDBsOwn) {
  // Values of 0-20 bytes, ASCII and ending in a non-ASCII character, the last ones at the end of
  // their batch: the scan's inline strings (written as whole words) must equal, hash and order
  // as the same strings made by DuckDB, whose inline form is zero padded.
  const std::string made =
      "SELECT i, CASE WHEN i <= 20 THEN left('abcdefghijklmnopqrst', i::INT) "
      "ELSE left('abcdefghijklmnopqrst', (i - 21)::INT) || 'é' END AS x FROM range(42) t(i)";
  MustRun("CREATE DATABASE d; CREATE TABLE d.w (k BIGINT, s VARCHAR); INSERT INTO d.w " + made);
  EXPECT_EQ(
      MustRun("SELECT count(*) AS n FROM d.w JOIN (" + made + ") v ON d.w.s = v.x AND d.w.k = v.i"),
      (std::vector<std::string>{R"({"n": 42})"}));
  EXPECT_EQ(MustRun("SELECT count(DISTINCT s) AS n, sum(length(s)) AS len, "
                    "bool_and(s < s || 'a') AS ordered FROM (SELECT s FROM d.w UNION ALL "
                    "SELECT x FROM (" +
                    made + "))"),
            (std::vector<std::string>{R"({"n": 42, "len": "882", "ordered": true})"}));
}

TEST_F(SqlSessionTest, StringsOfAsciiAndNonAsciiVectorsJoinDuckDBsOwn) {
  // 10000 rows in 2048-row vectors: most vectors all ASCII (checked once for the vector), rows
  // 3000-3009 and the last one non-ASCII (checked value by value), short and long values mixed,
  // nulls among them; they must equal, hash and order as the same strings made by DuckDB.
  const std::string made =
      "SELECT i, CASE WHEN i % 97 = 0 THEN NULL "
      "WHEN i BETWEEN 3000 AND 3009 OR i = 9999 THEN 'ünïcode ' || i "
      "WHEN i % 3 = 0 THEN 'a longer ascii value ' || i ELSE 's' || i END AS x "
      "FROM range(10000) t(i)";
  MustRun("CREATE DATABASE m; CREATE TABLE m.t (k BIGINT, s VARCHAR); INSERT INTO m.t " + made);
  EXPECT_EQ(
      MustRun("SELECT count(*) AS n FROM m.t JOIN (" + made + ") v ON m.t.s = v.x AND m.t.k = v.i"),
      (std::vector<std::string>{R"({"n": 9896})"}));
  EXPECT_EQ(MustRun("SELECT count(*) AS n, count(s) AS s, sum(length(s)) AS len, "
                    "max(s) AS hi FROM m.t"),
            MustRun("SELECT count(*) AS n, count(x) AS s, sum(length(x)) AS len, "
                    "max(x) AS hi FROM (" +
                    made + ")"));
}

TEST_F(SqlSessionTest, LongStringsOutliveTheirBatchWhereDuckDBKeepsThem) {
  // Long ASCII values reach DuckDB as pointers into the scan's batches, which the scan drops
  // batch by batch: whatever DuckDB keeps past a chunk (groups, sorted rows, a join's build
  // side, the result) must have been copied, over many batches of several vectors each.
  MustRun(
      "CREATE DATABASE l;"
      "CREATE TABLE l.t (k INT, s VARCHAR);"
      "INSERT INTO l.t SELECT i, 'a string longer than twelve bytes #' || i "
      "FROM range(30000) r(i)");
  EXPECT_EQ(MustRun("SELECT count(DISTINCT s) AS d, min(s) AS lo, max(s) AS hi, "
                    "sum(length(s)) AS bytes FROM l.t"),
            (std::vector<std::string>{
                R"({"d": 30000, "lo": "a string longer than twelve bytes #0", )"
                R"("hi": "a string longer than twelve bytes #9999", "bytes": "1188890"})"}));
  EXPECT_EQ(MustRun("SELECT s FROM l.t ORDER BY k DESC LIMIT 2"),
            (std::vector<std::string>{R"({"s": "a string longer than twelve bytes #29999"})",
                                      R"({"s": "a string longer than twelve bytes #29998"})"}));
  EXPECT_EQ(MustRun("SELECT count(*) AS n FROM l.t a JOIN l.t b ON a.s = b.s AND a.k + 1 = b.k"),
            (std::vector<std::string>{R"({"n": 0})"}));
  EXPECT_EQ(MustRun("SELECT list(s ORDER BY s) AS ss FROM l.t WHERE k % 10000 = 7"),
            (std::vector<std::string>{R"({"ss": ["a string longer than twelve bytes #10007", )"
                                      R"("a string longer than twelve bytes #20007", )"
                                      R"("a string longer than twelve bytes #7"]})"}));
}

TEST_F(SqlSessionTest, ScansManySplitsInParallelInVectorSizedPieces) {
  // Four buckets read by two DuckDB threads; batches larger than DuckDB's 2048-row vectors.
  MustRun(
      "CREATE DATABASE big;"
      "CREATE TABLE big.t (k BIGINT, s VARCHAR, PRIMARY KEY (k) NOT ENFORCED) "
      "WITH ('bucket' = '4');"
      "INSERT INTO big.t SELECT i, 'v' || i FROM range(20000) r(i)");
  EXPECT_EQ(
      MustRun("SELECT count(*) AS n, sum(k) AS total, count(DISTINCT s) AS d, "
              "min(s) AS lo FROM big.t"),
      (std::vector<std::string>{R"({"n": 20000, "total": "199990000", "d": 20000, "lo": "v0"})"}));
  std::vector<ScanReport> reports = session_->scan_reports();
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].splits, 4);
  EXPECT_EQ(MustRun("SELECT s FROM big.t WHERE k = 12345"),
            (std::vector<std::string>{R"({"s": "v12345"})"}));
}

}  // namespace
}  // namespace sluice::sql
