#include "sluice/cdc/cdc_record_converter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace sluice {
namespace {

using test::HasError;

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

DataTypePtr TableType() {
  return DataType::Row({Field(0, "id", DataType::Int(false)), Field(1, "name", DataType::String()),
                        Field(2, "price", DataType::Decimal(10, 2)),
                        Field(3, "ts", DataType::Timestamp(3))});
}

CdcRecord Record(RowKind kind,
                 std::vector<std::pair<std::string, std::optional<std::string>>> fields) {
  return CdcRecord{kind, std::move(fields)};
}

TEST(CdcRecordConverterTest, ConvertsRecordsWithTheirKinds) {
  CdcRecordConverter converter(TableType());
  Result<CdcRecordConverter::Rows> rows = converter.Convert({
      Record(RowKind::kInsert,
             {{"id", "1"}, {"name", "a"}, {"price", "1.5"}, {"ts", "2024-01-02 03:04:05.123"}}),
      // Another field order; a field carried as NULL; one not carried at all.
      Record(RowKind::kUpdateAfter, {{"price", std::nullopt}, {"id", "2"}}),
      Record(RowKind::kDelete, {{"id", "3"}, {"name", "c"}, {"price", "0"}, {"ts", "0"}}),
  });
  ASSERT_TRUE(test::IsOk(rows));
  ASSERT_EQ(rows->batch.num_rows(), 3);
  EXPECT_EQ(rows->kinds,
            (std::vector<RowKind>{RowKind::kInsert, RowKind::kUpdateAfter, RowKind::kDelete}));
  const int64_t ts =
      int64_t{DaysFromCivil(2024, 1, 2)} * 86400000 + 3 * 3600000 + 4 * 60000 + 5 * 1000 + 123;
  EXPECT_EQ(rows->batch.GetRow(0), Value::Row({Value::Int32(1), Value::String("a"),
                                               Value::FromDecimal(Decimal{150, 10, 2}),
                                               Value::FromTimestamp(Timestamp{ts, 0})}));
  EXPECT_EQ(rows->batch.GetRow(1), Value::Row({Value::Int32(2), Value(), Value(), Value()}));
  EXPECT_EQ(rows->batch.GetRow(2),
            Value::Row({Value::Int32(3), Value::String("c"), Value::FromDecimal(Decimal{0, 10, 2}),
                        Value::FromTimestamp(Timestamp{0, 0})}));
}

TEST(CdcRecordConverterTest, FieldUnknownToTheTableIsNotFound) {
  CdcRecordConverter converter(TableType());
  ColumnBatch batch(TableType());
  std::vector<RowKind> kinds;
  const Status st =
      converter.Append(Record(RowKind::kInsert, {{"id", "1"}, {"color", "red"}}), &batch, &kinds);
  EXPECT_TRUE(HasError(st, StatusCode::kNotFound, {"'color'", "schema update"}));
  EXPECT_EQ(batch.num_rows(), 0);
  EXPECT_TRUE(kinds.empty());
}

TEST(CdcRecordConverterTest, NullInNotNullColumnFailsTheRecord) {
  CdcRecordConverter converter(TableType());
  ColumnBatch batch(TableType());
  std::vector<RowKind> kinds;
  EXPECT_TRUE(HasError(converter.Append(Record(RowKind::kInsert, {{"name", "a"}}), &batch, &kinds),
                       StatusCode::kInvalidArgument, {"Cannot write null to non-null column(id)"}));
  EXPECT_TRUE(
      HasError(converter.Append(Record(RowKind::kInsert, {{"id", std::nullopt}}), &batch, &kinds),
               StatusCode::kInvalidArgument, {"non-null column(id)"}));
  EXPECT_EQ(batch.num_rows(), 0);
}

TEST(CdcRecordConverterTest, BadValueFailsOnlyItsRecord) {
  CdcRecordConverter converter(TableType());
  ColumnBatch batch(TableType());
  std::vector<RowKind> kinds;
  ASSERT_TRUE(test::IsOk(
      converter.Append(Record(RowKind::kInsert, {{"id", "1"}, {"name", "a"}}), &batch, &kinds)));
  EXPECT_TRUE(HasError(
      converter.Append(Record(RowKind::kInsert, {{"id", "2"}, {"name", "b"}, {"ts", "yesterday"}}),
                       &batch, &kinds),
      StatusCode::kInvalidArgument, {"column 'ts'", "\"yesterday\"", "TIMESTAMP(3)"}));
  ASSERT_TRUE(test::IsOk(
      converter.Append(Record(RowKind::kInsert, {{"id", "3"}, {"name", "c"}}), &batch, &kinds)));
  ASSERT_EQ(batch.num_rows(), 2);
  for (int c = 0; c < batch.num_columns(); ++c) EXPECT_EQ(batch.column(c)->size(), 2);
  EXPECT_EQ(batch.GetRow(1), Value::Row({Value::Int32(3), Value::String("c"), Value(), Value()}));
}

TEST(CdcRecordConverterTest, ConvertNamesTheFailingRecord) {
  CdcRecordConverter converter(TableType());
  EXPECT_TRUE(HasError(converter.Convert({Record(RowKind::kInsert, {{"id", "1"}}),
                                          Record(RowKind::kInsert, {{"id", "x"}})}),
                       StatusCode::kInvalidArgument, {"record 1", "column 'id'", "\"x\""}));
}

TEST(CdcRecordConverterTest, ManyFieldLayouts) {
  // More distinct field lists than the cache holds: each still resolves correctly.
  CdcRecordConverter converter(TableType());
  ColumnBatch batch(TableType());
  std::vector<RowKind> kinds;
  const std::vector<std::string> others = {"name", "price", "ts"};
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 12; ++i) {
      std::vector<std::pair<std::string, std::optional<std::string>>> fields = {
          {"id", std::to_string(i)}};
      for (int k = 0; k < i % 4; ++k) {
        const std::string& name = others[static_cast<size_t>(k)];
        fields.emplace_back(name, name == "name" ? "n" : "1");
      }
      if (i >= 4) std::swap(fields.front(), fields.back());
      ASSERT_TRUE(test::IsOk(converter.Append(Record(RowKind::kInsert, fields), &batch, &kinds)));
    }
  }
  EXPECT_EQ(batch.num_rows(), 36);
  EXPECT_EQ(batch.GetRow(35).list()[0], Value::Int32(11));
  EXPECT_EQ(batch.GetRow(35).list()[3], Value::FromTimestamp(Timestamp{1, 0}));
}

}  // namespace
}  // namespace sluice
