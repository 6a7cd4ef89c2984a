#include "sluice/sql/filter_pushdown.h"

#include <duckdb.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "test_util.h"

namespace sluice::sql {
namespace {

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

class FilterPushdownTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(duckdb_open(nullptr, &db_), DuckDBSuccess);
    ASSERT_EQ(duckdb_connect(db_, &con_), DuckDBSuccess);
    tables_["db.t"] = DataType::Row(
        {Field(0, "Id", DataType::BigInt()), Field(1, "name", DataType::String()),
         Field(2, "amount", DataType::Decimal(10, 2)), Field(3, "day", DataType::Date()),
         Field(4, "small", DataType::TinyInt()), Field(5, "x", DataType::Double())});
    tables_["db.u"] =
        DataType::Row({Field(0, "k", DataType::Int()), Field(1, "v", DataType::String())});
  }
  void TearDown() override {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }

  // The filters DuckDB's parse tree of `query` gives.
  std::map<std::string, std::string> Push(const std::string& query) { return PushIn("", query); }
  std::map<std::string, std::string> PushIn(const std::string& database, const std::string& query) {
    std::string quoted;
    for (char c : query) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    duckdb_result result;
    EXPECT_EQ(duckdb_query(con_, ("SELECT json_serialize_sql('" + quoted + "')").c_str(), &result),
              DuckDBSuccess);
    char* json = duckdb_value_varchar(&result, 0, 0);
    std::map<std::string, std::string> out = PushdownFilters(json, tables_, database);
    duckdb_free(json);
    duckdb_destroy_result(&result);
    return out;
  }

  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
  std::map<std::string, DataTypePtr> tables_;
};

TEST_F(FilterPushdownTest, ConjunctsOfColumnsAgainstConstants) {
  auto filters = Push(
      "SELECT * FROM db.t WHERE id > 2 AND name IN ('c', 'it''s') AND amount >= 1.5 AND "
      "day = DATE '2024-01-31' AND name IS NOT NULL AND 5 <= small AND id BETWEEN 1 AND 9");
  ASSERT_EQ(filters.size(), 1u);
  EXPECT_EQ(filters["db.t"],
            "`Id` > 2 AND `name` IN ('c', 'it''s') AND `amount` >= 1.5 AND "
            "`day` = DATE '2024-01-31' AND `name` IS NOT NULL AND `small` >= 5 AND "
            "`Id` BETWEEN 1 AND 9");
}

TEST_F(FilterPushdownTest, SkipsWhatCouldMeanSomethingElse) {
  // OR, expressions, a float column, a scale finer than the column's, an integer out of the
  // column's range, a string against a number: DuckDB alone decides those.
  EXPECT_TRUE(Push("SELECT * FROM db.t WHERE id = 1 OR id = 2").empty());
  EXPECT_TRUE(Push("SELECT * FROM db.t WHERE id + 1 = 2").empty());
  EXPECT_TRUE(Push("SELECT * FROM db.t WHERE x > 1").empty());
  EXPECT_TRUE(Push("SELECT * FROM db.t WHERE amount > 1.555").empty());
  EXPECT_TRUE(Push("SELECT * FROM db.t WHERE small < 1000").empty());
  EXPECT_TRUE(Push("SELECT * FROM db.t WHERE id = '1'").empty());
  // Only the conjuncts it can say.
  EXPECT_EQ(Push("SELECT * FROM db.t WHERE x > 1 AND id = 7")["db.t"], "`Id` = 7");
}

TEST_F(FilterPushdownTest, JoinsPushNullRejectingConjunctsByQualifier) {
  auto filters = Push(
      "SELECT * FROM db.t a LEFT JOIN db.u b ON a.id = b.k WHERE a.name = 'x' AND b.v = 'y' "
      "AND b.v IS NULL AND k > 3");
  EXPECT_EQ(filters["db.t"], "`name` = 'x'");
  EXPECT_EQ(filters["db.u"], "`v` = 'y' AND `k` > 3");
}

TEST_F(FilterPushdownTest, NothingForATableReadTwiceOrBehindAView) {
  EXPECT_TRUE(Push("SELECT * FROM db.t a, db.t b WHERE a.id = 1").empty());
  EXPECT_TRUE(
      Push("SELECT * FROM db.t WHERE id = 1 AND id IN (SELECT id FROM db.t WHERE id > 5)").empty());
  EXPECT_TRUE(Push("SELECT * FROM db.t, my_view WHERE id = 1").empty());
  // A CTE is not a view: it is part of the statement.
  EXPECT_EQ(Push("WITH q AS (SELECT * FROM db.t WHERE id = 1) SELECT * FROM q")["db.t"],
            "`Id` = 1");
  // After `USE db`, unqualified names are the database's tables; a CTE shadows a table.
  EXPECT_TRUE(Push("SELECT * FROM t WHERE id = 1").empty());
  EXPECT_EQ(PushIn("db", "SELECT * FROM t WHERE id = 1")["db.t"], "`Id` = 1");
  EXPECT_TRUE(PushIn("db",
                     "WITH t AS (SELECT 1 AS id) SELECT * FROM t, db.t x WHERE x.id = 1 "
                     "AND t.id = 1")["db.t"] == "`Id` = 1");
  // Time travel through the table function counts as a read of the table.
  EXPECT_EQ(Push("SELECT * FROM sluice_scan('db.t', snapshot => 1) WHERE id = 1")["db.t"],
            "`Id` = 1");
}

}  // namespace
}  // namespace sluice::sql
