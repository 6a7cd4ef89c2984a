// The Arrow C Data Interface of the public API (arrow.h): every Paimon type's Arrow format and
// field ids, batches round-tripped ColumnBatch -> Arrow -> ColumnBatch with nulls at every level,
// slices and offsets on import, release callbacks called once, buffers kept alive by the
// children a consumer moves out, streams of a ReadBuilder's read, TableWrite::Write of Arrow
// data, and the errors (types without a mapping, mismatched columns, bad buffers, a failing
// reader behind a stream).
#include "sluice/arrow.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

Value Ts(int64_t millis, int32_t nanos = 0) {
  return Value::FromTimestamp(Timestamp{millis, nanos});
}
Value Dec(int128_t unscaled, int32_t p, int32_t s) {
  return Value::FromDecimal(Decimal{unscaled, p, s});
}

// One column of the all-types batch: its type and its four values.
struct ColumnCase {
  std::string name;
  DataTypePtr type;
  std::string format;  // its Arrow format
  std::vector<Value> values;
};

std::vector<ColumnCase> AllTypeCases() {
  DataTypePtr row = DataType::Row(
      {Field(100, "x", DataType::Int()), Field(101, "y", DataType::Array(DataType::String()))});
  return {
      {"b",
       DataType::Boolean(),
       "b",
       {Value::Boolean(true), Value::Null(), Value::Boolean(false), Value::Boolean(true)}},
      {"i8",
       DataType::TinyInt(),
       "c",
       {Value::Int8(-128), Value::Int8(127), Value::Null(), Value::Int8(0)}},
      {"i16",
       DataType::SmallInt(),
       "s",
       {Value::Int16(-32768), Value::Null(), Value::Int16(7), Value::Int16(32767)}},
      {"i32",
       DataType::Int(false),
       "i",
       {Value::Int32(1), Value::Int32(2), Value::Int32(INT32_MIN), Value::Int32(INT32_MAX)}},
      {"i64",
       DataType::BigInt(),
       "l",
       {Value::Null(), Value::Int64(INT64_MIN), Value::Int64(3), Value::Int64(INT64_MAX)}},
      {"f32",
       DataType::Float(),
       "f",
       {Value::Float(1.5f), Value::Float(-0.0f), Value::Null(), Value::Float(3e38f)}},
      {"f64",
       DataType::Double(),
       "g",
       {Value::Double(2.25), Value::Null(), Value::Double(-1e300), Value::Double(0)}},
      {"dec_10_2",
       DataType::Decimal(10, 2),
       "d:10,2",
       {Dec(12345, 10, 2), Dec(-9999999999, 10, 2), Value::Null(), Dec(0, 10, 2)}},
      {"dec_38_6",
       DataType::Decimal(38, 6),
       "d:38,6",
       {Dec(static_cast<int128_t>(INT64_MAX) * 1000000, 38, 6), Value::Null(),
        Dec(-static_cast<int128_t>(INT64_MAX) * 99, 38, 6), Dec(1, 38, 6)}},
      {"ch",
       DataType::Char(3),
       "u",
       {Value::String("abc"), Value::String("x  "), Value::Null(), Value::String("")}},
      {"s",
       DataType::String(),
       "u",
       {Value::String("héllo"), Value::Null(), Value::String(""), Value::String("world")}},
      {"bin",
       DataType::Binary(2),
       "z",
       {Value::Binary(std::string("\0\1", 2)), Value::Null(), Value::Binary("ab"),
        Value::Binary("cd")}},
      {"bytes",
       DataType::Bytes(),
       "z",
       {Value::Null(), Value::Binary(""), Value::Binary(std::string("\xff\0x", 3)),
        Value::Binary("q")}},
      {"blob",
       DataType::Blob(),
       "z",
       {Value::Binary("blob"), Value::Null(), Value::Binary(""), Value::Binary("b")}},
      {"d",
       DataType::Date(),
       "tdD",
       {Value::Int32(-719162), Value::Int32(0), Value::Null(), Value::Int32(2932896)}},
      {"t",
       DataType::Time(3),
       "ttm",
       {Value::Int32(0), Value::Int32(86399999), Value::Null(), Value::Int32(12345)}},
      {"ts0",
       DataType::Timestamp(0),
       "tss:",
       {Ts(-62135596800000), Ts(1000), Value::Null(), Ts(-1000)}},
      {"ts3", DataType::Timestamp(3), "tsm:", {Ts(-1), Ts(1700000000123), Value::Null(), Ts(0)}},
      {"ts6",
       DataType::Timestamp(6),
       "tsu:",
       {Ts(-1, 999000), Value::Null(), Ts(253402300799999, 999000), Ts(5, 1000)}},
      {"ts9",
       DataType::Timestamp(9),
       "tsn:",
       {Ts(-1, 1), Ts(1700000000123, 456789), Value::Null(), Ts(0, 999999)}},
      {"ltz3",
       DataType::TimestampLtz(3),
       "tsm:UTC",
       {Ts(1700000000123), Value::Null(), Ts(-5), Ts(0)}},
      {"ltz6",
       DataType::TimestampLtz(6),
       "tsu:UTC",
       {Value::Null(), Ts(1700000000123, 456000), Ts(-1, 1000), Ts(0)}},
      {"a_i32",
       DataType::Array(DataType::Int()),
       "+l",
       {Value::Array({Value::Int32(1), Value::Null(), Value::Int32(3)}), Value::Null(),
        Value::Array({}), Value::Array({Value::Int32(4)})}},
      {"a_a_s",
       DataType::Array(DataType::Array(DataType::String())),
       "+l",
       {Value::Array({Value::Array({Value::String("a")}), Value::Null()}),
        Value::Array({Value::Array({})}), Value::Null(),
        Value::Array({Value::Array({Value::String("b"), Value::Null()})})}},
      {"m",
       DataType::Map(DataType::String(false), DataType::BigInt()),
       "+m",
       {Value::Map({{Value::String("k"), Value::Int64(1)}, {Value::String("n"), Value::Null()}}),
        Value::Null(), Value::Map({}), Value::Map({{Value::String("z"), Value::Int64(-1)}})}},
      {"ms",
       DataType::Multiset(DataType::Int(false)),
       "+m",
       {Value::Map({{Value::Int32(7), Value::Int32(2)}}), Value::Map({}), Value::Null(),
        Value::Map({{Value::Int32(1), Value::Int32(1)}, {Value::Int32(2), Value::Int32(3)}})}},
      {"vec",
       DataType::Vector(DataType::Float(false), 2),
       "+w:2",
       {Value::Array({Value::Float(1), Value::Float(2)}), Value::Null(),
        Value::Array({Value::Float(3), Value::Float(4)}), Value::Null()}},
      {"r",
       row,
       "+s",
       {Value::Row({Value::Int32(1), Value::Array({Value::String("p")})}), Value::Null(),
        Value::Row({Value::Null(), Value::Null()}),
        Value::Row({Value::Int32(4), Value::Array({})})}},
      {"a_r",
       DataType::Array(row),
       "+l",
       {Value::Array({Value::Row({Value::Int32(9), Value::Null()}), Value::Null()}),
        Value::Array({}), Value::Null(),
        Value::Array({Value::Row({Value::Int32(1), Value::Array({Value::String("q")})})})}},
  };
}

DataTypePtr RowTypeOf(const std::vector<ColumnCase>& cases) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < cases.size(); ++i) {
    fields.push_back(Field(static_cast<int32_t>(i), cases[i].name, cases[i].type));
  }
  return DataType::Row(std::move(fields));
}

std::shared_ptr<ColumnBatch> BatchOf(const std::vector<ColumnCase>& cases) {
  auto batch = std::make_shared<ColumnBatch>(RowTypeOf(cases));
  for (size_t row = 0; row < 4; ++row) {
    ValueList values;
    for (const ColumnCase& c : cases) values.push_back(c.values[row]);
    EXPECT_OK(batch->AppendRow(values));
  }
  return batch;
}

// The "PARQUET:field_id" of an exported schema node.
std::string FieldIdOf(const ArrowSchema& schema) {
  if (schema.metadata == nullptr) return "";
  const char* p = schema.metadata;
  int32_t pairs;
  std::memcpy(&pairs, p, 4);
  p += 4;
  int32_t key_len;
  std::memcpy(&key_len, p, 4);
  std::string key(p + 4, static_cast<size_t>(key_len));
  p += 4 + key_len;
  int32_t value_len;
  std::memcpy(&value_len, p, 4);
  EXPECT_EQ(pairs, 1);
  EXPECT_EQ(key, "PARQUET:field_id");
  return std::string(p + 4, static_cast<size_t>(value_len));
}

// Counts the calls of a wrapped release callback and forwards them to the producer's.
struct ReleaseCounter {
  static inline int calls = 0;
  static inline void (*original)(ArrowArray*) = nullptr;
  static void Release(ArrowArray* array) {
    ++calls;
    array->release = original;
    original(array);
  }
  static void Wrap(ArrowArray* array) {
    calls = 0;
    original = array->release;
    array->release = Release;
  }
};

TEST(ArrowTest, SchemaMapsEveryTypeAsPaimonArrowDoes) {
  std::vector<ColumnCase> cases = AllTypeCases();
  ArrowSchema schema;
  ASSERT_OK(ExportArrowSchema(*RowTypeOf(cases), &schema));
  EXPECT_STREQ(schema.format, "+s");
  ASSERT_EQ(schema.n_children, static_cast<int64_t>(cases.size()));
  for (size_t i = 0; i < cases.size(); ++i) {
    const ArrowSchema& child = *schema.children[i];
    EXPECT_STREQ(child.format, cases[i].format.c_str()) << cases[i].name;
    EXPECT_STREQ(child.name, cases[i].name.c_str());
    EXPECT_EQ(FieldIdOf(child), std::to_string(i));
    EXPECT_EQ((child.flags & ARROW_FLAG_NULLABLE) != 0, cases[i].type->nullable());
  }
  // Array elements, map keys and values: Java's names and SpecialFields ids (field 22, depth 1).
  const ArrowSchema& list = *schema.children[22];
  EXPECT_STREQ(list.children[0]->name, "$data$");
  EXPECT_EQ(FieldIdOf(*list.children[0]), std::to_string(2147483647 / 4 + 22 * 1024 + 1));
  const ArrowSchema& map = *schema.children[24];
  const ArrowSchema& entries = *map.children[0];
  EXPECT_STREQ(entries.name, "entries");
  EXPECT_EQ(entries.flags, 0);
  EXPECT_STREQ(entries.children[0]->name, "key");
  EXPECT_EQ(entries.children[0]->flags, 0);
  EXPECT_EQ(FieldIdOf(*entries.children[0]), std::to_string(2147483647 / 4 - 24 * 1024 - 1));
  EXPECT_STREQ(entries.children[1]->name, "value");
  EXPECT_EQ(FieldIdOf(*entries.children[1]), std::to_string(2147483647 / 4 + 24 * 1024 + 1));
  // ROW fields keep their own ids.
  EXPECT_EQ(FieldIdOf(*schema.children[27]->children[1]), "101");

  // Back to Paimon: the ids, names and nullability; strings and binaries as STRING / BYTES.
  auto imported = ImportArrowSchema(schema);
  ASSERT_OK(imported);
  EXPECT_EQ((*imported)->fields()[3].type->ToString(), "INT NOT NULL");
  EXPECT_EQ((*imported)->fields()[8].type->ToString(), "DECIMAL(38, 6)");
  EXPECT_EQ((*imported)->fields()[10].type->ToString(), "STRING");
  EXPECT_EQ((*imported)->fields()[19].type->ToString(), "TIMESTAMP(9)");
  EXPECT_EQ((*imported)->fields()[21].type->ToString(), "TIMESTAMP(6) WITH LOCAL TIME ZONE");
  EXPECT_EQ((*imported)->fields()[24].type->ToString(), "MAP<STRING NOT NULL, BIGINT>");
  EXPECT_EQ((*imported)->fields()[26].type->ToString(), "VECTOR<FLOAT NOT NULL, 2>");
  EXPECT_EQ((*imported)->fields()[27].type->fields()[1].id, 101);
  EXPECT_EQ((*imported)->fields()[27].id, 27);
  schema.release(&schema);
  EXPECT_EQ(schema.release, nullptr);

  ArrowOptions options;
  options.timestamp_ltz_zone = "Asia/Shanghai";
  ASSERT_OK(ExportArrowSchema(*DataType::Row({Field(0, "t", DataType::TimestampLtz(9))}), &schema,
                              options));
  EXPECT_STREQ(schema.children[0]->format, "tsn:Asia/Shanghai");
  schema.release(&schema);
}

TEST(ArrowTest, EveryTypeRoundTripsWithNulls) {
  std::vector<ColumnCase> cases = AllTypeCases();
  std::shared_ptr<ColumnBatch> batch = BatchOf(cases);
  ArrowSchema schema;
  ASSERT_OK(ExportArrowSchema(*batch->schema(), &schema));
  ArrowArray array;
  ASSERT_OK(ExportArrowArray(batch, &array));
  EXPECT_EQ(array.length, 4);
  // Zero-copy where the layouts agree: the INT column's values and the strings' bytes.
  EXPECT_EQ(array.children[3]->buffers[1], batch->column(3)->values().data());
  EXPECT_EQ(array.children[10]->buffers[1], batch->column(10)->offsets().data());
  EXPECT_EQ(array.children[10]->buffers[2], batch->column(10)->values().data());
  EXPECT_EQ(array.children[3]->null_count, 0);
  EXPECT_EQ(array.children[3]->buffers[0], nullptr);
  EXPECT_EQ(array.children[1]->null_count, 1);
  ReleaseCounter::Wrap(&array);
  auto back = ImportArrowArray(&array, schema, batch->schema());
  ASSERT_OK(back);
  EXPECT_EQ(ReleaseCounter::calls, 1);
  EXPECT_EQ(array.release, nullptr);
  ASSERT_EQ((*back)->num_rows(), 4);
  for (size_t c = 0; c < cases.size(); ++c) {
    for (int64_t row = 0; row < 4; ++row) {
      EXPECT_EQ((*back)->column(static_cast<int>(c))->GetValue(row), cases[c].values[row])
          << cases[c].name << " row " << row;
    }
  }
  schema.release(&schema);
}

TEST(ArrowTest, VectorsShareTheirElementsUnlessANullRowHoldsNone) {
  DataTypePtr vector = DataType::Vector(DataType::Float(false), 2);
  for (bool with_null : {false, true}) {
    auto batch = std::make_shared<ColumnBatch>(DataType::Row({Field(0, "v", vector)}));
    ASSERT_OK(batch->AppendRow({Value::Array({Value::Float(1), Value::Float(2)})}));
    ASSERT_OK(batch->AppendRow(
        {with_null ? Value::Null() : Value::Array({Value::Float(3), Value::Float(4)})}));
    ASSERT_OK(batch->AppendRow({Value::Array({Value::Float(5), Value::Float(6)})}));
    ArrowArray array;
    ASSERT_OK(ExportArrowArray(batch, &array));
    const ArrowArray& elements = *array.children[0]->children[0];
    ASSERT_EQ(elements.length, 6);
    const float* values = static_cast<const float*>(elements.buffers[1]);
    EXPECT_EQ(values == batch->column(0)->child(0)->data<float>(), !with_null);
    EXPECT_EQ(values[4], 5);
    EXPECT_EQ(values[5], 6);
    EXPECT_EQ(array.children[0]->null_count, with_null ? 1 : 0);
    array.release(&array);
  }
}

TEST(ArrowTest, ImportHonoursSlicesAndChildOffsets) {
  std::vector<ColumnCase> cases = AllTypeCases();
  std::shared_ptr<ColumnBatch> batch = BatchOf(cases);
  ArrowSchema schema;
  ASSERT_OK(ExportArrowSchema(*batch->schema(), &schema));
  // A slice of the struct: rows 1..2.
  ArrowArray array;
  ASSERT_OK(ExportArrowArray(batch, &array));
  array.offset = 1;
  array.length = 2;
  auto sliced = ImportArrowArray(&array, schema, batch->schema());
  ASSERT_OK(sliced);
  ASSERT_EQ((*sliced)->num_rows(), 2);
  for (size_t c = 0; c < cases.size(); ++c) {
    for (int64_t row = 0; row < 2; ++row) {
      EXPECT_EQ((*sliced)->column(static_cast<int>(c))->GetValue(row), cases[c].values[row + 1])
          << cases[c].name << " row " << row;
    }
  }
  schema.release(&schema);

  // A column sliced on its own (offset 2 of its buffers) and a null string whose range is not
  // empty: the null imports as an empty range, the other rows keep their bytes.
  auto strings = std::make_shared<ColumnBatch>(DataType::Row({Field(0, "s", DataType::String())}));
  for (const char* s : {"aa", "bbb", "c", "dd", "eee"}) {
    ASSERT_OK(strings->AppendRow({Value::String(s)}));
  }
  ASSERT_OK(ExportArrowSchema(*strings->schema(), &schema));
  ASSERT_OK(ExportArrowArray(strings, &array));
  ArrowArray* column = array.children[0];
  column->offset = 2;
  column->length = 3;
  array.length = 3;
  // Bits of the buffer's rows 0..4: row 3 ("dd", row 1 of the slice) is null.
  uint8_t validity = 0b10111;
  column->null_count = 1;
  const void* buffers[3] = {&validity, column->buffers[1], column->buffers[2]};
  column->buffers = buffers;
  auto imported = ImportArrowArray(&array, schema, strings->schema());
  ASSERT_OK(imported);
  const ColumnVector& s = *(*imported)->column(0);
  EXPECT_EQ(s.GetValue(0), Value::String("c"));
  EXPECT_TRUE(s.IsNull(1));
  EXPECT_EQ(s.ListBegin(1), s.ListEnd(1));
  EXPECT_EQ(s.GetValue(2), Value::String("eee"));
  schema.release(&schema);
}

TEST(ArrowTest, ChildrenMovedOutOutliveTheParentAndTheBatch) {
  std::vector<ColumnCase> cases = AllTypeCases();
  ArrowArray array;
  {
    std::shared_ptr<ColumnBatch> batch = BatchOf(cases);
    ASSERT_OK(ExportArrowArray(std::move(batch), &array));
  }
  // Move the string column out (as the spec lets a consumer), release the parent.
  ArrowArray strings = *array.children[10];
  array.children[10]->release = nullptr;
  array.release(&array);
  EXPECT_EQ(array.release, nullptr);
  const int32_t* offsets = static_cast<const int32_t*>(strings.buffers[1]);
  const char* bytes = static_cast<const char*>(strings.buffers[2]);
  EXPECT_EQ(std::string(bytes + offsets[0], static_cast<size_t>(offsets[1] - offsets[0])), "héllo");
  strings.release(&strings);
  EXPECT_EQ(strings.release, nullptr);
}

TEST(ArrowTest, ErrorsNameTheColumn) {
  // No Arrow type.
  ArrowSchema schema;
  EXPECT_TRUE(test::HasError(
      ExportArrowSchema(*DataType::Row({Field(0, "v", DataType::Variant())}), &schema),
      StatusCode::kInvalidArgument, {"'v'", "VARIANT"}));
  auto variant = std::make_shared<ColumnBatch>(DataType::Row({Field(0, "v", DataType::Variant())}));
  ArrowArray array;
  EXPECT_TRUE(test::HasError(ExportArrowArray(variant, &array), StatusCode::kInvalidArgument,
                             {"'v'", "VARIANT"}));

  // A column of another type than the target's: named, and the array released once anyway.
  auto ints = std::make_shared<ColumnBatch>(
      DataType::Row({Field(0, "id", DataType::Int()),
                     Field(1, "r", DataType::Row({Field(2, "x", DataType::Int())}))}));
  ASSERT_OK(ints->AppendRow({Value::Int32(1), Value::Row({Value::Int32(2)})}));
  ASSERT_OK(ExportArrowSchema(*ints->schema(), &schema));
  ASSERT_OK(ExportArrowArray(ints, &array));
  ReleaseCounter::Wrap(&array);
  DataTypePtr other =
      DataType::Row({Field(0, "id", DataType::Int()),
                     Field(1, "r", DataType::Row({Field(2, "x", DataType::BigInt())}))});
  EXPECT_TRUE(test::HasError(ImportArrowArray(&array, schema, other), StatusCode::kInvalidArgument,
                             {"'r.x'", "BIGINT", "'i'"}));
  EXPECT_EQ(ReleaseCounter::calls, 1);

  // A missing buffer.
  ASSERT_OK(ExportArrowArray(ints, &array));
  const void* buffers[2] = {nullptr, nullptr};
  array.children[0]->buffers = buffers;
  EXPECT_TRUE(test::HasError(ImportArrowArray(&array, schema, ints->schema()),
                             StatusCode::kInvalidArgument, {"'id'", "buffer 1 is null"}));
  // Rows past the end of a child.
  ASSERT_OK(ExportArrowArray(ints, &array));
  array.children[0]->length = 0;
  EXPECT_TRUE(test::HasError(ImportArrowArray(&array, schema, ints->schema()),
                             StatusCode::kInvalidArgument, {"'id'", "rows [0, 1)"}));
  schema.release(&schema);

  // A utf8 array whose bytes are not UTF-8: the column and the row.
  auto strings = std::make_shared<ColumnBatch>(DataType::Row({Field(0, "s", DataType::String())}));
  ASSERT_OK(strings->AppendRow({Value::String("ok")}));
  ASSERT_OK(strings->AppendRow({Value::String("\xed\xa0\x80")}));
  ASSERT_OK(ExportArrowSchema(*strings->schema(), &schema));
  ASSERT_OK(ExportArrowArray(strings, &array));
  EXPECT_TRUE(test::HasError(ImportArrowArray(&array, schema, strings->schema()),
                             StatusCode::kInvalidArgument,
                             {"column 's': row 1 is not valid UTF-8"}));
  schema.release(&schema);

  // An Arrow type without a Paimon one.
  ArrowSchema large = {};
  ArrowSchema* children[1] = {&large};
  large.format = "U";
  large.name = "big";
  ArrowSchema top = {};
  top.format = "+s";
  top.n_children = 1;
  top.children = children;
  top.release = [](ArrowSchema* s) { s->release = nullptr; };
  EXPECT_TRUE(
      test::HasError(ImportArrowSchema(top), StatusCode::kInvalidArgument, {"'big'", "'U'"}));
}

// A reader failing after one batch, behind a stream.
class FailingReader : public BatchReader {
 public:
  FailingReader() : type_(DataType::Row({Field(0, "id", DataType::BigInt())})) {}
  const DataTypePtr& output_type() const override { return type_; }
  Result<bool> Next(ColumnBatch* batch) override {
    if (calls_++ > 0) return Status::Corruption("data file f.parquet is truncated");
    batch->Clear();
    SLUICE_RETURN_NOT_OK(batch->AppendRow({Value::Int64(5)}));
    return true;
  }

 private:
  DataTypePtr type_;
  int calls_ = 0;
};

TEST(ArrowTest, StreamReportsTheReadersErrorThroughGetLastError) {
  ArrowArrayStream stream;
  ASSERT_OK(ExportArrowStream(std::make_unique<FailingReader>(), &stream));
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  ArrowArray array;
  ASSERT_EQ(stream.get_next(&stream, &array), 0);
  ASSERT_NE(array.release, nullptr);
  EXPECT_EQ(static_cast<const int64_t*>(array.children[0]->buffers[1])[0], 5);
  array.release(&array);
  EXPECT_EQ(stream.get_next(&stream, &array), EIO);
  ASSERT_NE(stream.get_last_error(&stream), nullptr);
  EXPECT_NE(std::string(stream.get_last_error(&stream)).find("f.parquet is truncated"),
            std::string::npos);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

class ArrowTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String()),
                    Field(2, "ts", DataType::Timestamp(6))};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "1"}};
    ASSERT_OK(catalog.CreateTable("db.pk", spec));
    auto table = catalog.GetTable("db.pk");
    ASSERT_OK(table);
    table_ = std::make_unique<Table>(*table);
  }

  // Writes `batch` (any column order, maybe `_ROW_KIND`) through Arrow and commits it.
  Status WriteArrow(std::shared_ptr<ColumnBatch> batch) {
    WriteBuilder builder = table_->NewWriteBuilder();
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
    ArrowSchema schema;
    SLUICE_RETURN_NOT_OK(ExportArrowSchema(*batch->schema(), &schema));
    ArrowArray array;
    Status st = ExportArrowArray(batch, &array);
    if (st.ok()) st = write->Write(&array, schema);
    schema.release(&schema);
    SLUICE_RETURN_NOT_OK(st);
    SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages, write->PrepareCommit());
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
    SLUICE_RETURN_NOT_OK(commit->Commit(std::move(messages)).status());
    return write->Close();
  }

  // Every row of the stream, as debug strings.
  static std::vector<std::string> Drain(ArrowArrayStream* stream) {
    std::vector<std::string> rows;
    ArrowSchema schema;
    EXPECT_EQ(stream->get_schema(stream, &schema), 0);
    auto type = ImportArrowSchema(schema);
    EXPECT_OK(type);
    while (true) {
      ArrowArray array;
      EXPECT_EQ(stream->get_next(stream, &array), 0);
      if (array.release == nullptr) break;
      auto batch = ImportArrowArray(&array, schema, *type);
      EXPECT_OK(batch);
      if (!batch.ok()) break;
      for (int64_t i = 0; i < (*batch)->num_rows(); ++i) {
        rows.push_back((*batch)->GetRow(i).DebugString());
      }
    }
    schema.release(&schema);
    stream->release(stream);
    return rows;
  }

  test::TempDir dir_;
  std::unique_ptr<Table> table_;
};

TEST_F(ArrowTableTest, WritesByNameWithRowKindsAndReadsWithProjectionFilterAndTimeTravel) {
  // Columns in another order than the table's, all +I.
  auto first = std::make_shared<ColumnBatch>(
      DataType::Row({Field(0, "ts", DataType::Timestamp(6)), Field(1, "v", DataType::String()),
                     Field(2, "id", DataType::BigInt(false))}));
  for (int64_t id = 1; id <= 3; ++id) {
    ASSERT_OK(first->AppendRow(
        {Ts(id * 1000, 5000), Value::String("v" + std::to_string(id)), Value::Int64(id)}));
  }
  ASSERT_OK(WriteArrow(first));
  // Row kinds from a `_ROW_KIND` column: update 2, delete 3.
  auto second = std::make_shared<ColumnBatch>(DataType::Row(
      {Field(0, "_ROW_KIND", DataType::String()), Field(1, "id", DataType::BigInt(false)),
       Field(2, "v", DataType::String()), Field(3, "ts", DataType::Timestamp(6))}));
  ASSERT_OK(second->AppendRow({Value::String("+U"), Value::Int64(2), Value::String("two"), Ts(0)}));
  ASSERT_OK(
      second->AppendRow({Value::String("-D"), Value::Int64(3), Value::Null(), Value::Null()}));
  ASSERT_OK(WriteArrow(second));

  ArrowArrayStream stream;
  ASSERT_OK(ReadArrowStream(table_->NewReadBuilder(), &stream));
  EXPECT_EQ(Drain(&stream),
            (std::vector<std::string>{"(1, 'v1', 1970-01-01 00:00:01.000005000)",
                                      "(2, 'two', 1970-01-01 00:00:00.000000000)"}));
  ASSERT_OK(ReadArrowStream(
      table_->NewReadBuilder().WithSnapshot(1).WithProjection({"v", "id"}).WithWhere("id >= 2"),
      &stream));
  EXPECT_EQ(Drain(&stream), (std::vector<std::string>{"('v2', 2)", "('v3', 3)"}));
}

TEST_F(ArrowTableTest, WriteErrorsNameTheColumn) {
  auto missing =
      std::make_shared<ColumnBatch>(DataType::Row({Field(0, "id", DataType::BigInt(false))}));
  ASSERT_OK(missing->AppendRow({Value::Int64(1)}));
  EXPECT_TRUE(test::HasError(WriteArrow(missing), StatusCode::kInvalidArgument, {"no column 'v'"}));
  auto unknown = std::make_shared<ColumnBatch>(
      DataType::Row({Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String()),
                     Field(2, "ts", DataType::Timestamp(6)), Field(3, "w", DataType::Int())}));
  ASSERT_OK(unknown->AppendRow({Value::Int64(1), Value::Null(), Value::Null(), Value::Null()}));
  EXPECT_TRUE(test::HasError(WriteArrow(unknown), StatusCode::kInvalidArgument,
                             {"column 'w'", "id, v, ts"}));
  auto wrong = std::make_shared<ColumnBatch>(
      DataType::Row({Field(0, "id", DataType::Int(false)), Field(1, "v", DataType::String()),
                     Field(2, "ts", DataType::TimestampLtz(6))}));
  ASSERT_OK(wrong->AppendRow({Value::Int32(1), Value::Null(), Value::Null()}));
  EXPECT_TRUE(
      test::HasError(WriteArrow(wrong), StatusCode::kInvalidArgument, {"'id'", "BIGINT", "'i'"}));
  auto kinds = std::make_shared<ColumnBatch>(DataType::Row(
      {Field(0, "_ROW_KIND", DataType::String()), Field(1, "id", DataType::BigInt(false)),
       Field(2, "v", DataType::String()), Field(3, "ts", DataType::Timestamp(6))}));
  ASSERT_OK(kinds->AppendRow({Value::String("+X"), Value::Int64(1), Value::Null(), Value::Null()}));
  EXPECT_TRUE(test::HasError(WriteArrow(kinds), StatusCode::kInvalidArgument, {"'+X'"}));
}

}  // namespace
}  // namespace sluice
