// Files shaped the way other Avro writers make them: enums, fixed, fixed decimals, [T, "null"]
// unions, general unions, negative-count array blocks (with byte sizes), time-micros,
// timestamp-nanos, named-type references, other record names and namespaces.
#include <gtest/gtest.h>

#include "avro_test_helpers.h"
#include "test_util.h"

namespace sluice::test {
namespace {

const char* kForeignSchema =
    R"({"type":"record","name":"ext","namespace":"com.other","fields":[)"
    R"({"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","GREEN"]}},)"
    R"({"name":"price","type":{"type":"fixed","name":"Money","size":8,"logicalType":"decimal","precision":10,"scale":2}},)"
    R"({"name":"tag","type":{"type":"fixed","name":"Tag","size":3}},)"
    R"({"name":"rev","type":["string","null"]},)"
    R"({"name":"tmicros","type":{"type":"long","logicalType":"time-micros"}},)"
    R"({"name":"tnanos","type":{"type":"long","logicalType":"timestamp-nanos"}},)"
    R"({"name":"nums","type":{"type":"array","items":"int"}},)"
    R"({"name":"attrs","type":{"type":"map","values":"long"}},)"
    R"({"name":"again","type":"com.other.Color"}]})";

std::string ForeignFile() {
  std::string items = Long(7) + Long(-8);
  std::string row0 = Long(1) + std::string("\0\0\0\0\0\0\x30\x39", 8) + "abc" + Long(0) +
                     Bytes("x") + Long(3723000001) + Long(1500000000123456789) + Long(-2) +
                     Long(static_cast<int64_t>(items.size())) + items + Long(0) + Long(1) +
                     Bytes("k") + Long(5) + Long(0) + Long(0);
  std::string row1 = Long(0) + std::string(8, '\xff') + std::string("\0\1\2", 3) + Long(1) +
                     Long(0) + Long(-1) + Long(0) + Long(0) + Long(1);
  return Header(kForeignSchema, "null") + Block(2, row0 + row1);
}

TEST(AvroForeignWriterTest, GenericRead) {
  std::shared_ptr<RandomAccessFile> file = MemFile(ForeignFile(), "foreign.avro");
  SLUICE_ASSERT_OK_AND_ASSIGN(auto container, AvroContainerReader::Open(file));
  SLUICE_ASSERT_OK_AND_ASSIGN(DataTypePtr type, AvroSchemaToRowType(*container->schema()));
  EXPECT_EQ(type->ToString(),
            "ROW<`color` STRING NOT NULL, `price` DECIMAL(10, 2) NOT NULL, `tag` BINARY(3) NOT "
            "NULL, `rev` STRING, `tmicros` TIME(6) NOT NULL, `tnanos` TIMESTAMP(9) NOT NULL, "
            "`nums` ARRAY<INT NOT NULL> NOT NULL, `attrs` MAP<STRING NOT NULL, BIGINT NOT NULL> "
            "NOT NULL, `again` STRING NOT NULL> NOT NULL");
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(file, type));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0],
            Value::Row({Value::String("GREEN"), Value::FromDecimal(Decimal{12345, 10, 2}),
                        Value::Binary("abc"), Value::String("x"), Value::Int32(3723000),
                        Value::FromTimestamp(Timestamp{1500000000123, 456789}),
                        Value::Array({Value::Int32(7), Value::Int32(-8)}),
                        Value::Map({{Value::String("k"), Value::Int64(5)}}), Value::String("RED")}))
      << rows[0].DebugString();
  EXPECT_EQ(rows[1], Value::Row({Value::String("RED"), Value::FromDecimal(Decimal{-1, 10, 2}),
                                 Value::Binary(std::string("\0\1\2", 3)), Value::Null(),
                                 Value::Int32(0), Value::FromTimestamp(Timestamp{-1, 999999}),
                                 Value::Array({}), Value::Map({}), Value::String("GREEN")}))
      << rows[1].DebugString();
}

// Projection and skipping: writer fields the reader lacks are skipped whatever their type
// (including negative-count array blocks, skipped by their byte size).
TEST(AvroForeignWriterTest, ProjectionSkipsEverythingElse) {
  DataField again{0, "again", DataType::String(), {}, {}};
  DataField missing{1, "missing", DataType::Map(DataType::Int(false), DataType::Int()), {}, {}};
  SLUICE_ASSERT_OK_AND_ASSIGN(
      std::vector<Value> rows,
      ReadRows(MemFile(ForeignFile()), DataType::Row({again, missing}, false)));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], Value::Row({Value::String("RED"), Value::Null()}));
  EXPECT_EQ(rows[1], Value::Row({Value::String("GREEN"), Value::Null()}));
}

// A general union resolves branch by branch; a branch the read type cannot take fails only when
// a record actually uses it.
TEST(AvroForeignWriterTest, GeneralUnionBranches) {
  const char* schema =
      R"({"type":"record","name":"u","fields":[{"name":"v","type":["int","null","string"]}]})";
  DataField v{0, "v", DataType::BigInt(), {}, {}};
  DataTypePtr type = DataType::Row({v}, false);
  std::string good = Header(schema, "null") + Block(2, Long(0) + Long(-9) + Long(1));
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> rows, ReadRows(MemFile(good), type));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], Value::Row({Value::Int64(-9)}));
  EXPECT_EQ(rows[1], Value::Row({Value::Null()}));

  std::string header = Header(schema, "null");
  Status st = ReadRows(MemFile(header + Block(1, Long(2) + Bytes("s")), "u.avro"), type).status();
  ASSERT_TRUE(HasError(st, StatusCode::kNotSupported, {"u.avro", "field v"}));
  EXPECT_EQ(st.message(), "u.avro: block 0 at offset " + std::to_string(header.size()) +
                              ": record 0: field v: union branch 2 (\"string\") cannot be read as "
                              "BIGINT");
}

}  // namespace
}  // namespace sluice::test
