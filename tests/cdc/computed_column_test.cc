#include "sluice/cdc/computed_column.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

DataField Field(std::string name, DataTypePtr type) {
  return DataField{0, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

std::vector<DataField> Fields() {
  return {Field("ts", DataType::String()),   Field("epoch", DataType::BigInt()),
          Field("name", DataType::String()), Field("code", DataType::Char(4)),
          Field("n", DataType::Int()),       Field("d", DataType::Decimal(10, 2)),
          Field("flag", DataType::Boolean())};
}

ComputedColumn Parsed(std::string_view argument) {
  Result<ComputedColumn> c = ComputedColumn::Parse(argument);
  EXPECT_TRUE(test::IsOk(c)) << argument;
  return std::move(c).value();
}

std::string TypeOf(std::string_view argument) {
  Result<DataTypePtr> type = Parsed(argument).ResultType(Fields());
  EXPECT_TRUE(test::IsOk(type)) << argument;
  return type.ok() ? (*type)->ToString() : "";
}

// Eval of `argument` on a record holding `field` = `value`, the field typed `type`.
std::optional<std::string> Eval(std::string_view argument, const std::string& field,
                                std::optional<std::string> value,
                                const DataTypePtr& type = DataType::String()) {
  CdcRecord record;
  record.fields.emplace_back(field, std::move(value));
  Result<std::optional<std::string>> out = Parsed(argument).Eval(record, type.get());
  EXPECT_TRUE(test::IsOk(out)) << argument;
  return out.ok() ? *out : std::nullopt;
}

Status EvalStatus(std::string_view argument, const std::string& value,
                  const DataTypePtr& type = DataType::String()) {
  const ComputedColumn c = Parsed(argument);
  CdcRecord record;
  record.fields.emplace_back(c.field_reference(), value);
  return c.Eval(record, type.get()).status();
}

TEST(ComputedColumnTest, ParseErrorsAsJava) {
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a"), StatusCode::kInvalidArgument,
                       {"Invalid computed column argument: a", "column-name=expr-name"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=b=c"), StatusCode::kInvalidArgument,
                       {"Invalid computed column argument"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=year"), StatusCode::kInvalidArgument,
                       {"Invalid expression: year", "expr-name(args, ...)"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=foo(ts)"), StatusCode::kInvalidArgument,
                       {"Unsupported expression: foo", "date_format", "year"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=year(ts, 3, 4)"), StatusCode::kInvalidArgument,
                       {"supports 0 or 1 argument, but found '2'"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=year(ts, 2)"), StatusCode::kInvalidArgument,
                       {"Unsupported precision of temporal function: 2"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=date_format(ts)"), StatusCode::kInvalidArgument,
                       {"'date_format' supports 1 or 2 arguments, but found '0'"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=substring(name)"), StatusCode::kInvalidArgument,
                       {"'substring' expression supports one or two arguments, but found '0'"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=substring(name, x)"), StatusCode::kInvalidArgument,
                       {"contain non integer value"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=substring(name, -1)"), StatusCode::kInvalidArgument,
                       {"begin index argument (-1)", ">= 0"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=substring(name, 3, 3)"),
                       StatusCode::kInvalidArgument,
                       {"end index (3) must be larger than begin index (3)"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=truncate(n)"), StatusCode::kInvalidArgument,
                       {"'truncate' expression supports one argument, but found '0'"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=truncate(n, w)"), StatusCode::kInvalidArgument,
                       {"Invalid width value for truncate function: w, expected integer."}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=cast(1, 2, 3)"), StatusCode::kInvalidArgument,
                       {"'cast' expression supports one or two arguments, but found '3'"}));
  EXPECT_TRUE(HasError(ComputedColumn::Parse("a=upper(name, 1)"), StatusCode::kInvalidArgument,
                       {"'upper' expression only supports 0 argument, but found '1'"}));
}

TEST(ComputedColumnTest, ResultTypes) {
  EXPECT_EQ(TypeOf("y=year(ts)"), "INT");
  EXPECT_EQ(TypeOf("s=second(epoch, 3)"), "INT");
  EXPECT_EQ(TypeOf("f=date_format(ts, yyyy-MM-dd)"), "STRING");
  EXPECT_EQ(TypeOf("s=substring(name, 1)"), "STRING");
  EXPECT_EQ(TypeOf("t=truncate(n, 10)"), "INT");
  EXPECT_EQ(TypeOf("t=truncate(d, 10)"), "DECIMAL(10, 2)");
  EXPECT_EQ(TypeOf("c=cast(12)"), "STRING");
  EXPECT_EQ(TypeOf("c=cast(12, INT)"), "INT");
  EXPECT_EQ(TypeOf("t=now()"), "TIMESTAMP(3)");
  EXPECT_EQ(TypeOf("u=upper(name)"), "STRING");
  EXPECT_TRUE(HasError(Parsed("y=year(nope)").ResultType(Fields()), StatusCode::kInvalidArgument,
                       {"Referenced field 'nope' is not in given fields"}));
  EXPECT_TRUE(
      HasError(Parsed("u=upper(code)").ResultType(Fields()), StatusCode::kInvalidArgument,
               {"'upper' expression only supports type root of 'VARCHAR', but found 'CHAR'"}));
  EXPECT_TRUE(HasError(Parsed("t=truncate(flag, 2)").ResultType(Fields()),
                       StatusCode::kInvalidArgument, {"Unsupported field type for truncate"}));
  // Case-insensitive catalogs look the reference up lower-cased.
  EXPECT_TRUE(test::IsOk(Parsed("y=year(TS)").ResultType(Fields(), /*case_sensitive=*/false)));
}

TEST(ComputedColumnTest, TemporalFunctions) {
  EXPECT_EQ(Eval("y=year(ts)", "ts", "2023-03-23 01:02:03"), "2023");
  EXPECT_EQ(Eval("m=month(ts)", "ts", "2023-03-23 01:02:03"), "3");
  EXPECT_EQ(Eval("d=day(ts)", "ts", "2023-03-23"), "23");
  EXPECT_EQ(Eval("h=hour(ts)", "ts", "2023-03-23 01:02:03.123456789"), "1");
  EXPECT_EQ(Eval("i=minute(ts)", "ts", "2023-03-23 01:02:03"), "2");
  EXPECT_EQ(Eval("s=second(ts)", "ts", "2023-03-23 01:02:03"), "3");
  // Epoch numbers: a precision argument, or an integer column (seconds).
  EXPECT_EQ(Eval("y=year(ts, 3)", "ts", "1679533323000"), "2023");
  EXPECT_EQ(Eval("h=hour(epoch)", "epoch", "1679533323", DataType::BigInt()), "1");
  EXPECT_EQ(Eval("h=hour(epoch, 9)", "epoch", "1679533323000000000", DataType::BigInt()), "1");
  EXPECT_EQ(Eval("y=year(ts)", "ts", std::nullopt), std::nullopt);
  EXPECT_EQ(Eval("y=year(ts)", "other", "2023-01-01"), std::nullopt);
  EXPECT_TRUE(HasError(EvalStatus("y=year(ts)", "yesterday"), StatusCode::kInvalidArgument,
                       {"computed column 'y'", "yesterday"}));
  EXPECT_TRUE(HasError(EvalStatus("y=year(ts)", "1679533323"), StatusCode::kInvalidArgument,
                       {"1679533323"}));
  EXPECT_TRUE(HasError(EvalStatus("y=year(ts, 0)", "2023-01-01"), StatusCode::kInvalidArgument,
                       {"2023-01-01"}));
}

TEST(ComputedColumnTest, DateFormat) {
  EXPECT_EQ(Eval("f=date_format(ts, yyyy-MM-dd)", "ts", "2023-03-23 01:02:03"), "2023-03-23");
  EXPECT_EQ(Eval("f=date_format(ts, yyyyMMddHH)", "ts", "2023-03-23 01:02:03"), "2023032301");
  EXPECT_EQ(Eval("f=date_format(ts, yy/M/d H:mm:ss.SSS)", "ts", "2023-03-05 01:02:03.456789"),
            "23/3/5 1:02:03.456");
  EXPECT_EQ(Eval("f=date_format(ts, 'Q'yyyy MMM EEE hh a)", "ts", "2023-03-23 13:02:03"),
            "Q2023 Mar Thu 01 PM");
  EXPECT_EQ(
      Eval("f=date_format(epoch, yyyy-MM-dd, 3)", "epoch", "1679533323000", DataType::BigInt()),
      "2023-03-23");
  EXPECT_TRUE(HasError(ComputedColumn::Parse("f=date_format(ts, yyyy-ww)"),
                       StatusCode::kInvalidArgument, {"pattern letter 'w'"}));
}

TEST(ComputedColumnTest, SubstringTruncateAndStrings) {
  EXPECT_EQ(Eval("s=substring(name, 2)", "name", "abcdef"), "cdef");
  EXPECT_EQ(Eval("s=substring(name, 1, 3)", "name", "abcdef"), "bc");
  EXPECT_EQ(Eval("s=substring(name, 1, 3)", "name", "äöüß"), "öü");
  EXPECT_TRUE(HasError(EvalStatus("s=substring(name, 1, 9)", "abc"), StatusCode::kInvalidArgument,
                       {"Cannot get substring from 'abc'", "Begin index: 1, end index: 9"}));
  EXPECT_EQ(Eval("t=truncate(n, 10)", "n", "17", DataType::Int()), "10");
  EXPECT_EQ(Eval("t=truncate(n, 10)", "n", "-17", DataType::Int()), "-20");
  EXPECT_EQ(Eval("t=truncate(n, 10)", "n", "-17", DataType::BigInt()), "-20");
  EXPECT_EQ(Eval("t=truncate(d, 10)", "d", "12.34", DataType::Decimal(10, 2)), "12.30");
  EXPECT_EQ(Eval("t=truncate(d, 50)", "d", "-0.01", DataType::Decimal(10, 2)), "-0.50");
  EXPECT_EQ(Eval("t=truncate(name, 3)", "name", "abcdef"), "abc");
  EXPECT_TRUE(
      HasError(EvalStatus("t=truncate(name, 9)", "abc"), StatusCode::kInvalidArgument,
               {"Invalid width value for truncate function: 9", "less than or equal to 3"}));
  EXPECT_EQ(Eval("u=upper(name)", "name", "aBc"), "ABC");
  EXPECT_EQ(Eval("l=lower(name)", "name", "aBc"), "abc");
  EXPECT_EQ(Eval("t=trim(name)", "name", "  a b \t"), "a b");
}

TEST(ComputedColumnTest, CastAndNow) {
  // Constants ignore the record, even when nothing is referenced.
  EXPECT_EQ(Eval("c=cast(hello)", "x", std::nullopt), "hello");
  EXPECT_EQ(Eval("c=cast( 11 , INT)", "x", std::nullopt), " 11 ");
  // Java's split of "" is one empty argument.
  EXPECT_EQ(Eval("c=cast()", "x", std::nullopt), "");
  const std::optional<std::string> now = Eval("t=now()", "x", std::nullopt);
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->size(), 23u);  // "YYYY-MM-DD HH:MM:SS.fff"
  EXPECT_EQ((*now)[10], ' ');
}

TEST(ComputedColumnTest, ParseAllOrdersByDependency) {
  Result<std::vector<ComputedColumn>> columns = ComputedColumn::ParseAll(
      {"c=upper(b)", "b=substring(a, 1)", "a=date_format(ts, yyyy)", "z=year(ts)"});
  ASSERT_TRUE(test::IsOk(columns));
  std::vector<std::string> names;
  for (const ComputedColumn& c : *columns) names.push_back(c.name());
  EXPECT_EQ(names, (std::vector<std::string>{"a", "z", "b", "c"}));
  EXPECT_TRUE(HasError(ComputedColumn::ParseAll({"a=upper(b)", "b=upper(a)"}),
                       StatusCode::kInvalidArgument, {"Cycle detected"}));
}

}  // namespace
}  // namespace sluice
