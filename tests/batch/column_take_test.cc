#include "sluice/batch/column_take.h"

#include <gtest/gtest.h>

#include "sluice/column_batch.h"
#include "test_util.h"

namespace sluice {
namespace {

DataField Field(int32_t id, const char* name, DataTypePtr type) {
  return DataField{id, name, std::move(type), std::nullopt, std::nullopt};
}

// AppendNulls gives the same rows as n calls of AppendNull, whatever the column's family.
TEST(ColumnTakeTest, AppendNullsMatchesAppendNullPerRow) {
  DataTypePtr row = DataType::Row({
      Field(0, "i32", DataType::Int()),
      Field(1, "s", DataType::String()),
      Field(2, "ts", DataType::Timestamp(9)),
      Field(3, "arr", DataType::Array(DataType::Int())),
      Field(4, "map", DataType::Map(DataType::String(false), DataType::BigInt())),
      Field(5, "nested",
            DataType::Row({Field(6, "x", DataType::Int()),
                           Field(7, "y", DataType::Array(DataType::String()))})),
  });
  ValueList full = {
      Value::Int32(32),
      Value::String("paimon"),
      Value::FromTimestamp(Timestamp{1700000000123, 456789}),
      Value::Array({Value::Int32(1), Value::Int32(3)}),
      Value::Map({{Value::String("k"), Value::Int64(1)}}),
      Value::Row({Value::Int32(7), Value::Array({Value::String("a")})}),
  };
  ColumnBatch bulk(row);
  ColumnBatch one_by_one(row);
  ASSERT_OK(bulk.AppendRow(full));
  ASSERT_OK(one_by_one.AppendRow(full));
  for (int c = 0; c < bulk.num_columns(); ++c) {
    AppendNulls(3, bulk.column(c));
    for (int i = 0; i < 3; ++i) one_by_one.column(c)->AppendNull();
  }
  ASSERT_OK(bulk.AppendRow(full));
  ASSERT_OK(one_by_one.AppendRow(full));
  for (int c = 0; c < bulk.num_columns(); ++c) {
    const ColumnVector& got = *bulk.column(c);
    ASSERT_EQ(got.size(), 5);
    for (int64_t r = 0; r < 5; ++r) {
      EXPECT_EQ(got.IsNull(r), r >= 1 && r <= 3) << "column " << c << " row " << r;
      EXPECT_EQ(got.GetValue(r), one_by_one.column(c)->GetValue(r))
          << "column " << c << " row " << r;
    }
  }
}

TEST(ColumnTakeTest, AppendingNoNullsLeavesAColumnWithoutValidity) {
  ColumnVector v(DataType::Int());
  ASSERT_OK(v.AppendValue(Value::Int32(1)));
  ASSERT_FALSE(v.has_nulls());
  AppendNulls(0, &v);
  EXPECT_EQ(v.size(), 1);
  EXPECT_FALSE(v.has_nulls());
}

// Runs of consecutive rows copy in one piece and single rows one at a time: both give the rows
// a value-by-value copy gives, appended after what the output held.
TEST(ColumnTakeTest, TakeRowsCopiesRunsAndSingleRows) {
  DataTypePtr row = DataType::Row({
      Field(0, "b", DataType::Boolean()),
      Field(1, "i16", DataType::SmallInt()),
      Field(2, "i32", DataType::Int()),
      Field(3, "i64", DataType::BigInt()),
      Field(4, "ts", DataType::Timestamp(9)),
      Field(5, "s", DataType::String()),
  });
  ColumnBatch in(row);
  for (int i = 0; i < 12; ++i) {
    ASSERT_OK(in.AppendRow({Value::Boolean(i % 3 == 0), Value::Int16(static_cast<int16_t>(i)),
                            i == 4 ? Value() : Value::Int32(i * 7), Value::Int64(i * 1000003LL),
                            Value::FromTimestamp(Timestamp{1700000000000 + i, i}),
                            Value::String(std::string(static_cast<size_t>(i % 5), 'a' + i))}));
  }
  const std::vector<int64_t> rows = {3, 4, 5, 6, 0, 11, 9, 10, 2, 2, 7};
  ColumnBatch out(row);
  ASSERT_OK(out.AppendRow({Value::Boolean(true), Value::Int16(1), Value::Int32(2), Value::Int64(3),
                           Value::FromTimestamp(Timestamp{4, 5}), Value::String("head")}));
  for (int c = 0; c < in.num_columns(); ++c) {
    TakeRows(*in.column(c), rows.data(), static_cast<int64_t>(rows.size()), out.column(c));
  }
  for (int c = 0; c < in.num_columns(); ++c) {
    const ColumnVector& got = *out.column(c);
    ASSERT_EQ(got.size(), static_cast<int64_t>(rows.size()) + 1);
    if (c == 5) {
      EXPECT_EQ(got.GetValue(0), Value::String("head"));
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(got.GetValue(static_cast<int64_t>(i) + 1), in.column(c)->GetValue(rows[i]))
          << "column " << c << " row " << i;
    }
  }
}

// TakeRowsFrom gives the rows TakeRows of each row's own input gives, nulls included.
TEST(ColumnTakeTest, TakeRowsFromInterleavesInputs) {
  DataTypePtr row = DataType::Row({
      Field(0, "i64", DataType::BigInt()),
      Field(1, "s", DataType::String()),
      Field(2, "arr", DataType::Array(DataType::Int())),
  });
  ColumnBatch a(row);
  ColumnBatch b(row);
  for (int i = 0; i < 6; ++i) {
    ASSERT_OK(a.AppendRow({Value::Int64(i), Value::String(std::string(static_cast<size_t>(i), 'a')),
                           Value::Array({Value::Int32(i)})}));
    ASSERT_OK(b.AppendRow({i == 2 ? Value() : Value::Int64(100 + i),
                           i == 3 ? Value() : Value::String("b" + std::to_string(i)),
                           Value::Array({Value::Int32(100 + i), Value::Int32(i)})}));
  }
  const std::vector<uint32_t> sources = {0, 1, 1, 0, 1, 0, 0};
  const std::vector<int64_t> rows = {5, 2, 3, 1, 0, 4, 4};
  ColumnBatch out(row);
  for (int c = 0; c < row->num_fields(); ++c) {
    const ColumnVector* ins[] = {a.column(c), b.column(c)};
    TakeRowsFrom(ins, sources.data(), rows.data(), static_cast<int64_t>(rows.size()),
                 out.column(c));
    ASSERT_EQ(out.column(c)->size(), static_cast<int64_t>(rows.size()));
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(out.column(c)->GetValue(static_cast<int64_t>(i)),
                ins[sources[i]]->GetValue(rows[i]))
          << "column " << c << " row " << i;
    }
  }
}

// Strings of up to kShortCopy bytes are copied as whole words where the source buffer has room
// past them (CopyShort): strings of 0 to 40 bytes, the shortest last in their column, taken by
// TakeRows (single rows and runs) and TakeRowsFrom (interleaved) after a value already there.
TEST(ColumnTakeTest, StringsOfEveryLengthAroundTheWholeWordCopy) {
  ColumnVector a(DataType::String());
  ColumnVector b(DataType::String());
  for (int i = 40; i >= 0; --i) {
    a.AppendBytes(std::string(static_cast<size_t>(i), static_cast<char>('a' + i % 26)));
    b.AppendBytes(std::string(static_cast<size_t>(40 - i), static_cast<char>('A' + i % 26)));
  }
  std::vector<int64_t> rows;
  std::vector<uint32_t> sources;
  for (int64_t i = 0; i < 41; ++i) {
    rows.push_back(i * 17 % 41);
    sources.push_back(static_cast<uint32_t>(i % 3 == 0));
  }
  rows.insert(rows.end(), {38, 39, 40, 0, 1, 2});
  sources.insert(sources.end(), {0, 0, 0, 1, 1, 1});
  const auto n = static_cast<int64_t>(rows.size());
  ColumnVector taken(DataType::String());
  taken.AppendBytes("head");
  TakeRows(a, rows.data(), n, &taken);
  ColumnVector gathered(DataType::String());
  gathered.AppendBytes("head");
  const ColumnVector* ins[] = {&a, &b};
  TakeRowsFrom(ins, sources.data(), rows.data(), n, &gathered);
  ASSERT_EQ(taken.size(), n + 1);
  ASSERT_EQ(gathered.size(), n + 1);
  EXPECT_EQ(taken.GetBytes(0), "head");
  EXPECT_EQ(gathered.GetBytes(0), "head");
  for (int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<size_t>(i);
    EXPECT_EQ(taken.GetBytes(i + 1), a.GetBytes(rows[k])) << "row " << i;
    EXPECT_EQ(gathered.GetBytes(i + 1), ins[sources[k]]->GetBytes(rows[k])) << "row " << i;
  }
}

// Empty strings in columns that hold no bytes at all (no buffer) are taken without copying from
// a null pointer (UBSan caught it in reads of Java- and Flink-written tables).
TEST(ColumnTakeTest, EmptyStringsOfColumnsWithoutBytes) {
  ColumnVector a(DataType::String());
  ColumnVector b(DataType::String());
  a.AppendBytes("");
  a.AppendBytes("");
  b.AppendBytes("");
  const int64_t rows[] = {1, 0};
  ColumnVector out(DataType::String());
  TakeRows(a, rows, 2, &out);
  const ColumnVector* ins[] = {&a, &b};
  const uint32_t sources[] = {1, 0};
  const int64_t from_rows[] = {0, 1};
  TakeRowsFrom(ins, sources, from_rows, 2, &out);
  ASSERT_EQ(out.size(), 4);
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out.GetBytes(i), "") << i;
}

}  // namespace
}  // namespace sluice
