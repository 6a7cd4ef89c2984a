#include "sluice/sql/statement_parser.h"

#include <gtest/gtest.h>

#include "sluice/sql/sql_text.h"
#include "test_util.h"

namespace sluice::sql {
namespace {

TEST(SplitStatements, CutsAtSemicolonsOutsideQuotesAndComments) {
  EXPECT_EQ(SplitStatements("SELECT 'a;b'; -- c;d\n SELECT \"x;\" ;; /* ; */ ;\n"),
            (std::vector<std::string>{"SELECT 'a;b'", "-- c;d\n SELECT \"x;\""}));
}

TEST(ParseStatement, CreateTableWithFlinkClauses) {
  auto parsed = ParseStatement(
      "CREATE TABLE IF NOT EXISTS db.`T` (a INT, b VARCHAR, PRIMARY KEY (a, b) NOT ENFORCED) "
      "PARTITIONED BY (b) COMMENT 'it''s' WITH ('bucket' = '4', 'merge-engine' = "
      "'partial-update')");
  ASSERT_OK(parsed);
  const auto& create = std::get<CreateTableStatement>(*parsed);
  EXPECT_EQ(create.name.Identifier(), "db.T");
  EXPECT_TRUE(create.if_not_exists);
  EXPECT_EQ(create.columns_sql, "a INT, b VARCHAR, PRIMARY KEY (a, b) ");
  EXPECT_EQ(create.partition_keys, (std::vector<std::string>{"b"}));
  EXPECT_EQ(create.comment, "it's");
  EXPECT_EQ(create.options, (std::vector<std::pair<std::string, std::string>>{
                                {"bucket", "4"}, {"merge-engine", "partial-update"}}));
}

TEST(ParseStatement, CreateTableAsQuery) {
  auto parsed = ParseStatement(
      "CREATE TABLE db.t WITH ('bucket' = '2') AS SELECT a, b FROM db.u WHERE a > 1");
  ASSERT_OK(parsed);
  const auto& create = std::get<CreateTableStatement>(*parsed);
  EXPECT_TRUE(create.columns_sql.empty());
  EXPECT_EQ(create.query, "SELECT a, b FROM db.u WHERE a > 1");
  EXPECT_EQ(create.options, (std::vector<std::pair<std::string, std::string>>{{"bucket", "2"}}));
  EXPECT_TRUE(test::HasError(ParseStatement("CREATE TABLE db.t (a INT) AS SELECT 1"),
                             StatusCode::kInvalidArgument, {"columns from the query"}));
  EXPECT_TRUE(test::HasError(ParseStatement("CREATE TABLE db.t WITH ('bucket' = '2')"),
                             StatusCode::kInvalidArgument, {"column list or AS query"}));
}

TEST(ParseStatement, InsertOverwriteWithStaticPartitionAndColumns) {
  auto parsed = ParseStatement(
      "INSERT OVERWRITE TABLE db.t PARTITION (p = 'x', q = 3) (a, b) "
      "SELECT a, b FROM db.u");
  ASSERT_OK(parsed);
  const auto& insert = std::get<InsertStatement>(*parsed);
  EXPECT_TRUE(insert.overwrite);
  EXPECT_EQ(insert.partition,
            (std::vector<std::pair<std::string, std::string>>{{"p", "x"}, {"q", "3"}}));
  EXPECT_EQ(insert.columns, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(insert.query, "SELECT a, b FROM db.u");
  // A parenthesised query is the query, not a column list.
  auto values = ParseStatement("INSERT INTO db.t (SELECT 1)");
  ASSERT_OK(values);
  EXPECT_EQ(std::get<InsertStatement>(*values).query, "(SELECT 1)");
}

TEST(ParseStatement, CallTakesNamedArguments) {
  auto parsed = ParseStatement(
      "CALL sys.expire_snapshots(`table` => 'db.t', retain_max => 5, retain_min => -1)");
  ASSERT_OK(parsed);
  const auto& call = std::get<CallStatement>(*parsed);
  EXPECT_EQ(call.procedure, "expire_snapshots");
  EXPECT_EQ(call.args, (std::vector<std::pair<std::string, std::string>>{
                           {"table", "db.t"}, {"retain_max", "5"}, {"retain_min", "-1"}}));
  EXPECT_TRUE(test::HasError(ParseStatement("CALL sys.create_tag('db.t', 'x')"),
                             StatusCode::kInvalidArgument, {"named argument", "position 21"}));
}

TEST(ParseStatement, LeavesDuckDbItsOwnStatements) {
  for (const char* sql :
       {"SELECT 1", "CREATE TABLE scratch (a INT)", "CREATE TEMP TABLE x AS SELECT 1",
        "INSERT INTO main.x VALUES (1)", "CALL pragma_version()", "DROP TABLE scratch"}) {
    auto parsed = ParseStatement(sql);
    ASSERT_OK(parsed);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(*parsed)) << sql;
  }
}

}  // namespace
}  // namespace sluice::sql
