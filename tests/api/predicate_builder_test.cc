// PredicateBuilder: filters built from names and Values select the same rows as the same
// filter written as a where-expression; unknown fields and literals of the wrong type are
// errors naming them.
#include "sluice/predicate_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice {
namespace {

const char kTable[] = "parquet/append_09.db/append_09";  // f0 STRING, f1 INT, f2 INT, f3 DOUBLE

Table Open() {
  auto table = Table::Open(test::CompatTablesDir() + "/" + kTable);
  EXPECT_OK(table);
  return *table;
}

std::vector<std::string> Rows(const ReadBuilder& read) {
  std::vector<std::string> rows;
  auto reader = test::ReaderOf(read);
  EXPECT_OK(reader);
  if (!reader.ok()) return rows;
  ColumnBatch batch((*reader)->output_type());
  while (true) {
    auto more = (*reader)->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r) {
      rows.push_back(ValueToJson(batch.GetRow(r), *batch.schema()));
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(PredicateBuilderTest, SameRowsAsTheWhereExpression) {
  Table table = Open();
  PredicateBuilder where(table.row_type());
  auto f2 = where.GreaterThan("f2", Value::Int64(2));  // widened Value narrowed to INT
  ASSERT_OK(f2);
  auto f1 = where.In("f1", {Value::Int32(1), Value::Int32(2)});
  ASSERT_OK(f1);
  auto f0 = where.IsNotNull("f0");
  ASSERT_OK(f0);
  PredicatePtr both = PredicateBuilder::And({*f2, PredicateBuilder::Or({*f1, *f0})});
  const std::string text = PredicateBuilder::ToString(both);
  EXPECT_NE(text.find("f2 > 2"), std::string::npos) << text;

  const std::vector<std::string> built = Rows(table.NewReadBuilder().WithFilter(both));
  const std::vector<std::string> parsed = Rows(table.NewReadBuilder().WithWhere(text));
  EXPECT_EQ(built, parsed);
  const std::vector<std::string> all = Rows(table.NewReadBuilder());
  EXPECT_LT(built.size(), all.size());
  EXPECT_EQ(
      Rows(table.NewReadBuilder().WithFilter(PredicateBuilder::Not(both))).size() + built.size(),
      all.size());
}

TEST(PredicateBuilderTest, ErrorsNameTheFieldAndTheLiteral) {
  Table table = Open();
  PredicateBuilder where(table.row_type());
  EXPECT_TRUE(test::HasError(where.Equal("nope", Value::Int32(1)), StatusCode::kInvalidArgument,
                             {"predicate on unknown field 'nope'", "f0, f1, f2, f3"}));
  EXPECT_TRUE(test::HasError(where.Equal("f1", Value::String("x")), StatusCode::kInvalidArgument,
                             {"literal 'x' does not fit field 'f1'"}));
  EXPECT_TRUE(test::HasError(where.StartsWith("f1", "1"), StatusCode::kInvalidArgument,
                             {"LIKE on field 'f1'", "not a string"}));
}

}  // namespace
}  // namespace sluice
