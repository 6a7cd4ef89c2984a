#include "sluice/predicate/predicate_parser.h"

#include <gtest/gtest.h>

#include "predicate/predicate_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::RowOf;

DataTypePtr Schema() {
  static const DataTypePtr schema = RowOf({
      {"a", DataType::Int()},
      {"b", DataType::BigInt()},
      {"s", DataType::String()},
      {"d", DataType::Double()},
      {"f", DataType::Float()},
      {"dec", DataType::Decimal(10, 2)},
      {"dt", DataType::Date()},
      {"ts", DataType::Timestamp(9)},
      {"ltz", DataType::TimestampLtz(3)},
      {"t", DataType::Time(3)},
      {"flag", DataType::Boolean()},
      {"bin", DataType::Bytes()},
      {"weird name", DataType::Int()},
      {"arr", DataType::Array(DataType::Int())},
      {"date", DataType::SmallInt()},
      {"Mixed", DataType::TinyInt()},
  });
  return schema;
}

// Parses and renders back.
std::string P(std::string_view text) {
  Result<PredicatePtr> p = ParsePredicate(text, *Schema());
  EXPECT_OK(p) << text;
  return p.ok() ? (*p)->ToString() : "";
}

std::string Err(std::string_view text) {
  Result<PredicatePtr> p = ParsePredicate(text, *Schema());
  EXPECT_TRUE(test::HasError(p, StatusCode::kInvalidArgument))
      << text << " parsed as " << (p.ok() ? (*p)->ToString() : "");
  return p.ok() ? "" : p.status().message();
}

TEST(PredicateParserTest, ComparisonOperators) {
  EXPECT_EQ(P("a = 1"), "a = 1");
  EXPECT_EQ(P("a == 1"), "a = 1");
  EXPECT_EQ(P("a != 1"), "a != 1");
  EXPECT_EQ(P("a <> 1"), "a != 1");
  EXPECT_EQ(P("a < 1"), "a < 1");
  EXPECT_EQ(P("a <= -1"), "a <= -1");
  EXPECT_EQ(P("a > +1"), "a > 1");
  EXPECT_EQ(P("a>=1"), "a >= 1");
  // Literal first: mirrored.
  EXPECT_EQ(P("1 < a"), "a > 1");
  EXPECT_EQ(P("'x' = s"), "s = 'x'");
  EXPECT_EQ(P("3 >= b"), "b <= 3");
}

TEST(PredicateParserTest, NullInBetweenLike) {
  EXPECT_EQ(P("a IS NULL"), "a IS NULL");
  EXPECT_EQ(P("a is not null"), "a IS NOT NULL");
  EXPECT_EQ(P("a IN (1, 2,3)"), "a IN (1, 2, 3)");
  EXPECT_EQ(P("a NOT IN (1)"), "a NOT IN (1)");
  EXPECT_EQ(P("s IN ('Alice', 'Bob', NULL)"), "s IN ('Alice', 'Bob', NULL)");
  EXPECT_EQ(P("a BETWEEN 1 AND 5"), "(a >= 1 AND a <= 5)");
  EXPECT_EQ(P("a NOT BETWEEN 1 AND 5"), "(a < 1 OR a > 5)");
  EXPECT_EQ(P("a BETWEEN 1 AND 5 AND b = 2"), "(a >= 1 AND a <= 5 AND b = 2)");
  EXPECT_EQ(P("s LIKE 'abc%'"), "s LIKE 'abc%'");
  EXPECT_EQ(P("s LIKE 'abc'"), "s = 'abc'");
  EXPECT_EQ(P("s LIKE 'a\\%b%'"), "s LIKE 'a\\%b%'");
  EXPECT_EQ(P("s LIKE '%abc'"), "s LIKE '%abc'");
  EXPECT_EQ(P("s LIKE 'a_c%'"), "s LIKE 'a_c%'");
  EXPECT_EQ(P("s NOT LIKE 'a%'"), "NOT (s LIKE 'a%')");
  EXPECT_EQ(P("bin LIKE 'ab%'"), "bin LIKE 'ab%'");

  PredicatePtr prefix = *ParsePredicate("s LIKE 'abc%'", *Schema());
  EXPECT_EQ(prefix->op(), PredicateOp::kStartsWith);
  EXPECT_EQ(prefix->literals()[0], Value::String("abc"));
  PredicatePtr like = *ParsePredicate("s LIKE '%b_'", *Schema());
  EXPECT_EQ(like->op(), PredicateOp::kLike);
  EXPECT_EQ(like->literals()[0], Value::String("%b_"));
}

TEST(PredicateParserTest, BooleanStructureAndPrecedence) {
  EXPECT_EQ(P("a = 1 OR b = 2 AND s = 'x'"), "(a = 1 OR (b = 2 AND s = 'x'))");
  EXPECT_EQ(P("(a = 1 OR b = 2) AND s = 'x'"), "((a = 1 OR b = 2) AND s = 'x')");
  EXPECT_EQ(P("a = 1 AND b = 2 OR s = 'x'"), "((a = 1 AND b = 2) OR s = 'x')");
  EXPECT_EQ(P("NOT a = 1 AND b = 2"), "(NOT (a = 1) AND b = 2)");
  EXPECT_EQ(P("NOT (a = 1 AND b = 2)"), "NOT (a = 1 AND b = 2)");
  EXPECT_EQ(P("not not a = 1"), "NOT NOT (a = 1)");
  EXPECT_EQ(P("((a = 1))"), "a = 1");
  EXPECT_EQ(P("a = 1 and b = 2 and d > 0"), "(a = 1 AND b = 2 AND d > 0)");
  EXPECT_EQ(P("flag"), "flag = TRUE");
  EXPECT_EQ(P("NOT flag OR a = 1"), "(NOT (flag = TRUE) OR a = 1)");
  EXPECT_EQ(P("flag = FALSE"), "flag = FALSE");

  PredicatePtr p = *ParsePredicate("a = 1 OR b = 2 AND s = 'x'", *Schema());
  ASSERT_EQ(p->op(), PredicateOp::kOr);
  ASSERT_EQ(p->children().size(), 2u);
  EXPECT_EQ(p->children()[1]->op(), PredicateOp::kAnd);
}

TEST(PredicateParserTest, LiteralsConvertToTheColumnType) {
  EXPECT_EQ(P("dec = 15.0"), "dec = 15.00");
  EXPECT_EQ(P("dec < 1.005"), "dec < 1.005");
  EXPECT_EQ(P("d = 1"), "d = 1");
  EXPECT_EQ(P("d > 15.0"), "d > 15");
  EXPECT_EQ(P("d < 1.5e-3"), "d < 0.0015");
  EXPECT_EQ(P("f = 14.1"), "f = 14.1");
  EXPECT_EQ(P("b = 3"), "b = 3");
  EXPECT_EQ(P("dt = DATE '2024-01-01'"), "dt = DATE '2024-01-01'");
  EXPECT_EQ(P("dt = '2024-01-01'"), "dt = DATE '2024-01-01'");
  EXPECT_EQ(P("ts < TIMESTAMP '2024-01-01 12:00:00.123456789'"),
            "ts < TIMESTAMP '2024-01-01 12:00:00.123456789'");
  EXPECT_EQ(P("ts >= DATE '2024-01-01'"), "ts >= TIMESTAMP '2024-01-01 00:00:00'");
  EXPECT_EQ(P("ltz > TIMESTAMP '2024-01-01 00:00:00'"), "ltz > TIMESTAMP '2024-01-01 00:00:00'");
  EXPECT_EQ(P("t = TIME '12:30:00.250'"), "t = TIME '12:30:00.25'");
  EXPECT_EQ(P("s = 'it''s'"), "s = 'it''s'");
  EXPECT_EQ(P("s = ''"), "s = ''");
  EXPECT_EQ(P("bin = X'00ff'"), "bin = X'00FF'");
  EXPECT_EQ(P("a = NULL"), "a = NULL");
  EXPECT_EQ(P("d = 'NaN'"), "d = 'NaN'");
  EXPECT_EQ(P("d = 1."), "d = 1");
  EXPECT_EQ(P("d = .5"), "d = 0.5");
  EXPECT_EQ(P("d = -.5E+1"), "d = -5");
  EXPECT_EQ(P("a = 1.e1"), "a = 10");
  EXPECT_EQ(P("a = -0"), "a = 0");
  EXPECT_EQ(P("d = -0.0"), "d = -0");

  PredicatePtr p = *ParsePredicate("b = 3", *Schema());
  EXPECT_EQ(p->literals()[0].kind(), Value::Kind::kInt64);
  p = *ParsePredicate("dec = 15.0", *Schema());
  EXPECT_EQ(p->literals()[0], Value::FromDecimal(Decimal{1500, 10, 2}));
  p = *ParsePredicate("d = 1", *Schema());
  EXPECT_EQ(p->literals()[0], Value::Double(1.0));
}

TEST(PredicateParserTest, ColumnNames) {
  EXPECT_EQ(P("`weird name` = 1"), "`weird name` = 1");
  EXPECT_EQ(P("`a` = 1"), "a = 1");
  EXPECT_EQ(P("date = 1"), "`date` = 1");  // a keyword-like name is a column when not a literal
  EXPECT_EQ(P("Mixed = 1"), "Mixed = 1");
  EXPECT_EQ(P("arr IS NOT NULL"), "arr IS NOT NULL");
  PredicatePtr p = *ParsePredicate("s = 'x' OR d > 1", *Schema());
  EXPECT_EQ(p->children()[0]->field_index(), 2);
  EXPECT_EQ(p->children()[1]->field_index(), 3);
  EXPECT_EQ(p->children()[1]->field_name(), "d");
}

TEST(PredicateParserTest, ErrorsSayWhatAndWhere) {
  EXPECT_EQ(Err("a > 1 AND foo = 2"), "unknown column 'foo' at position 11 in: a > 1 AND foo = 2");
  EXPECT_EQ(Err("mixed = 1"),
            "unknown column 'mixed' (did you mean 'Mixed'? names are case-sensitive) at position 1 "
            "in: mixed = 1");
  EXPECT_EQ(Err("a >"), "expected a literal but found end of expression at position 4 in: a >");
  EXPECT_EQ(Err("a = 1 b = 2"), "unexpected 'b' at position 7 in: a = 1 b = 2");
  EXPECT_EQ(Err("(a = 1"), "expected ')' but found end of expression at position 7 in: (a = 1");
  EXPECT_EQ(Err("s = 'abc"), "unterminated string at position 5 in: s = 'abc");
  EXPECT_EQ(Err("a = 1 # 2"), "unexpected character '#' at position 7 in: a = 1 # 2");
  EXPECT_EQ(
      Err("a = 90.5"),
      "literal 90.5 is not an integer, as INT requires (column 'a') at position 5 in: a = 90.5");
  EXPECT_EQ(Err("s = 3"), "cannot compare STRING with 3 (column 's') at position 5 in: s = 3");
  EXPECT_EQ(Err("a LIKE 'x%'"),
            "LIKE needs a string column but 'a' is INT at position 1 in: a LIKE 'x%'");
  EXPECT_EQ(Err("a"),
            "expected an operator after column 'a' but found end of expression at "
            "position 2 in: a");
  EXPECT_EQ(Err("AND a = 1"), "expected a column but found 'AND' at position 1 in: AND a = 1");
  EXPECT_EQ(Err("a IN 1"), "expected '(' after IN but found '1' at position 6 in: a IN 1");
  EXPECT_EQ(Err("a IN (1 2)"), "expected ',' or ')' but found '2' at position 9 in: a IN (1 2)");
  EXPECT_EQ(Err("a IS 1"), "expected NULL but found '1' at position 6 in: a IS 1");
  EXPECT_EQ(Err("a NOT = 1"),
            "expected IN, BETWEEN or LIKE after NOT but found '=' at position 7 in: a NOT = 1");
  EXPECT_EQ(Err("a BETWEEN 1 OR 2"),
            "expected AND in BETWEEN but found 'OR' at position 13 in: a BETWEEN 1 OR 2");
  EXPECT_EQ(Err("a = 12abc"), "malformed number '12a' at position 5 in: a = 12abc");
  EXPECT_EQ(Err("`a = 1"), "unterminated quoted name at position 1 in: `a = 1");
  EXPECT_EQ(Err("1 = 2"), "expected a column but found '2' at position 5 in: 1 = 2");
  EXPECT_EQ(Err("dt = DATE '2024-02-30'"),
            "'2024-02-30' is not a date (expected YYYY-MM-DD) (column 'dt') at position 6 in: dt = "
            "DATE '2024-02-30'");
  EXPECT_EQ(Err("bin = X'0'"),
            "binary literal needs an even number of hex digits at position 7 in: bin = X'0'");
  EXPECT_EQ(
      Err("arr = 1"),
      "cannot compare ARRAY<INT> with a literal; only IS [NOT] NULL applies (column 'arr') at "
      "position 7 in: arr = 1");
  EXPECT_EQ(Err(""), "expected a column but found end of expression at position 1 in: ");
  EXPECT_NE(Err("a = 1 AND b = 99999999999999999999").find("out of range for BIGINT"),
            std::string::npos);
}

TEST(PredicateParserTest, DeepNestingIsRefusedNotACrash) {
  std::string deep(100000, '(');
  EXPECT_NE(Err(deep + "a = 1").find("nested too deeply"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  EXPECT_NE(Err(nots + "a = 1").find("nested too deeply"), std::string::npos);
  // Moderate nesting is fine.
  EXPECT_EQ(P(std::string(100, '(') + "a = 1" + std::string(100, ')')), "a = 1");
}

TEST(PredicateParserTest, ToStringParsesBackToTheSamePredicate) {
  for (std::string_view text : {
           "a = 1 OR b = 2 AND s = 'x''y'",
           "NOT (a IN (1, 2) OR s LIKE 'ab\\_%')",
           "dec BETWEEN -1.5 AND 2 AND d != 'NaN'",
           "ts > TIMESTAMP '1899-01-01 00:59:20.001001002' AND dt < DATE '1969-12-31'",
           "s LIKE '%x_y%' AND bin IN (X'00', X'FF') AND `weird name` IS NULL",
           "f < 0.1 AND t <= TIME '23:59:59.999' AND date NOT IN (1, NULL) AND flag",
       }) {
    std::string once = P(text);
    EXPECT_EQ(P(once), once) << text;
  }
}

TEST(PredicateParserTest, RejectsNonRowType) {
  EXPECT_TRUE(test::HasError(ParsePredicate("a = 1", *DataType::Int()),
                             StatusCode::kInvalidArgument,
                             {"a predicate needs a ROW type, not INT"}));
}

}  // namespace
}  // namespace sluice
