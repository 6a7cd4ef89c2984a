// Round trips of every Paimon type through our Avro writer and reader, with nulls, under each
// codec; schema resolution (reordered, missing, extra, promoted fields); row selection; stats.
#include <gtest/gtest.h>

#include <limits>

#include "avro_test_helpers.h"
#include "sluice/format/avro/avro_file_writer.h"
#include "test_util.h"

namespace sluice::test {
namespace {

DataField F(int id, std::string name, DataTypePtr type) {
  DataField f;
  f.id = id;
  f.name = std::move(name);
  f.type = std::move(type);
  return f;
}

int128_t Pow10(int n) {
  int128_t v = 1;
  for (int i = 0; i < n; ++i) v *= 10;
  return v;
}

Value Dec(int128_t unscaled, int p, int s) { return Value::FromDecimal(Decimal{unscaled, p, s}); }
Value Ts(int64_t ms, int32_t nanos = 0) { return Value::FromTimestamp(Timestamp{ms, nanos}); }
Value Str(std::string s) { return Value::String(std::move(s)); }
Value Bin(std::string s) { return Value::Binary(std::move(s)); }

DataTypePtr AllTypes() {
  DataTypePtr inner = DataType::Row(
      {F(100, "c", DataType::String()), F(101, "d", DataType::Array(DataType::Double()))});
  return DataType::Row(
      {
          F(0, "bool", DataType::Boolean()),
          F(1, "tiny", DataType::TinyInt()),
          F(2, "small", DataType::SmallInt()),
          F(3, "int", DataType::Int()),
          F(4, "big", DataType::BigInt(false)),
          F(5, "float", DataType::Float()),
          F(6, "double", DataType::Double()),
          F(7, "dec_compact", DataType::Decimal(10, 2)),
          F(8, "dec_wide", DataType::Decimal(38, 10)),
          F(9, "chr", DataType::Char(5)),
          F(10, "vchr", DataType::VarChar(20)),
          F(11, "str", DataType::String(false)),
          F(12, "bin", DataType::Binary(4)),
          F(13, "vbin", DataType::VarBinary(10)),
          F(14, "date", DataType::Date()),
          F(15, "time", DataType::Time(3)),
          F(16, "ts0", DataType::Timestamp(0)),
          F(17, "ts3", DataType::Timestamp(3)),
          F(18, "ts6", DataType::Timestamp(6)),
          F(19, "ltz3", DataType::TimestampLtz(3)),
          F(20, "ltz6", DataType::TimestampLtz(6)),
          F(21, "arr", DataType::Array(DataType::Int())),
          F(22, "arr_str", DataType::Array(DataType::String(false))),
          F(23, "map_str", DataType::Map(DataType::String(false), DataType::Int())),
          F(24, "map_int", DataType::Map(DataType::Int(false), DataType::String())),
          F(25, "map_row", DataType::Map(DataType::BigInt(false), inner)),
          F(26, "mset_str", DataType::Multiset(DataType::String(false))),
          F(27, "mset_int", DataType::Multiset(DataType::Int(false))),
          F(28, "row", DataType::Row({F(102, "a", DataType::Int()), F(103, "b", inner)})),
          F(29, "arr_row", DataType::Array(inner)),
          F(30, "blob", DataType::Blob()),
      },
      false);
}

std::vector<Value> AllTypesRows() {
  Value inner1 = Value::Row({Str("x"), Value::Array({Value::Double(1.5), Value::Null()})});
  Value inner2 = Value::Row({Value::Null(), Value::Null()});
  std::vector<Value> rows;
  rows.push_back(Value::Row({
      Value::Boolean(true),
      Value::Int8(-128),
      Value::Int16(32767),
      Value::Int32(std::numeric_limits<int32_t>::min()),
      Value::Int64(std::numeric_limits<int64_t>::max()),
      Value::Float(-1.25f),
      Value::Double(3.141592653589793),
      Dec(-12345, 10, 2),
      Dec(Pow10(38) - 1, 38, 10),
      Str("ab"),
      Str("héllo"),
      Str(""),
      Bin(std::string("\x00\x01\xfe\xff", 4)),
      Bin(""),
      Value::Int32(-719162),
      Value::Int32(86399999),
      Ts(-1000),
      Ts(1700000000123),
      Ts(-1, 999000),
      Ts(0),
      Ts(1700000000123, 456000),
      Value::Array({Value::Int32(1), Value::Null()}),
      Value::Array({Str("a"), Str("")}),
      Value::Map({{Str("k1"), Value::Int32(1)}, {Str("k2"), Value::Null()}}),
      Value::Map({{Value::Int32(-5), Str("neg")}, {Value::Int32(7), Value::Null()}}),
      Value::Map({{Value::Int64(1), inner1}, {Value::Int64(2), inner2}}),
      Value::Map({{Str("m"), Value::Int32(3)}}),
      Value::Map({{Value::Int32(9), Value::Int32(2)}}),
      Value::Row({Value::Int32(5), inner1}),
      Value::Array({inner1, inner2}),
      Bin("blob"),
  }));
  // Every nullable column null.
  ValueList nulls(31);
  nulls[4] = Value::Int64(0);
  nulls[11] = Str("not null");
  rows.push_back(Value::Row(nulls));
  // Empty containers and the other extremes.
  rows.push_back(Value::Row({
      Value::Boolean(false),
      Value::Int8(127),
      Value::Int16(-32768),
      Value::Int32(std::numeric_limits<int32_t>::max()),
      Value::Int64(std::numeric_limits<int64_t>::min()),
      Value::Float(0.0f),
      Value::Double(-0.0),
      Dec(0, 10, 2),
      Dec(-(Pow10(38) - 1), 38, 10),
      Str("abcde"),
      Str(std::string(20, 'z')),
      Str("s"),
      Bin("abcd"),
      Bin(std::string(10, '\0')),
      Value::Int32(0),
      Value::Int32(0),
      Ts(253402300799000),
      Ts(-62135596800000),
      Ts(-62135596800000, 1000),
      Ts(1),
      Ts(-1, 1000),
      Value::Array({}),
      Value::Array({}),
      Value::Map({}),
      Value::Map({}),
      Value::Map({}),
      Value::Map({}),
      Value::Map({}),
      Value::Row({Value::Null(), inner2}),
      Value::Array({}),
      Bin(""),
  }));
  return rows;
}

void ExpectRowsEqual(const std::vector<Value>& actual, const std::vector<Value>& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i], expected[i]) << "row " << i << "\n  got      " << actual[i].DebugString()
                                      << "\n  expected " << expected[i].DebugString();
  }
}

class AvroRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AvroRoundTripTest, EveryTypeWithNulls) {
  TempDir tmp;
  std::string path = tmp.path() + "/all.avro";
  WriterOptions options;
  options.compression = GetParam();
  DataTypePtr type = AllTypes();
  std::vector<Value> rows = AllTypesRows();
  SLUICE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteRows(path, type, rows, options, 2));
  EXPECT_EQ(result.row_count, 3);
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> back, ReadRowsFromPath(path, type));
  ExpectRowsEqual(back, rows);

  // The header names the Avro codec Java would write for this compression.
  SLUICE_ASSERT_OK_AND_ASSIGN(auto file, LocalFileIO()->OpenForRead(path));
  SLUICE_ASSERT_OK_AND_ASSIGN(
      auto container,
      AvroContainerReader::Open(std::shared_ptr<RandomAccessFile>(std::move(file))));
  std::string expected_codec = GetParam() == "zstd" ? "zstandard" : GetParam();
  EXPECT_EQ(container->codec_name(), expected_codec);

  // Reading generically (type derived from the writer schema) gives the same values except for
  // types Avro cannot tell apart, which are compared through the declared type above.
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> generic, ReadRowsFromPath(path));
  EXPECT_EQ(generic.size(), rows.size());
}

TEST_P(AvroRoundTripTest, ManyBlocksAndBatchSizes) {
  TempDir tmp;
  std::string path = tmp.path() + "/many.avro";
  DataTypePtr type =
      DataType::Row({F(0, "id", DataType::BigInt(false)), F(1, "name", DataType::String()),
                     F(2, "tags", DataType::Array(DataType::String(false)))},
                    false);
  std::vector<Value> rows;
  for (int64_t i = 0; i < 6000; ++i) {
    rows.push_back(Value::Row(
        {Value::Int64(i * 7919),
         i % 5 == 0 ? Value::Null() : Str("name-" + std::to_string(i) + std::string(40, 'p')),
         Value::Array({Str(std::to_string(i % 3))})}));
  }
  WriterOptions options;
  options.compression = GetParam();
  SLUICE_ASSERT_OK_AND_ASSIGN(WriteResult result, WriteRows(path, type, rows, options, 777));
  EXPECT_EQ(result.row_count, 6000);
  EXPECT_EQ(result.file_size, static_cast<int64_t>(ReadFileOrFail(path).size()));
  SLUICE_ASSERT_OK_AND_ASSIGN(auto raw, LocalFileIO()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> file(std::move(raw));
  SLUICE_ASSERT_OK_AND_ASSIGN(auto container, AvroContainerReader::Open(file));
  EXPECT_GT(container->blocks().size(), 3u);
  for (int64_t batch_size : {1, 333, 100000}) {
    ReaderOptions ro;
    ro.batch_size = batch_size;
    SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> back, ReadRows(file, type, ro));
    ExpectRowsEqual(back, rows);
  }
  // Selected positions only, across blocks, including the last row.
  ReaderOptions ro;
  ro.row_positions = std::vector<int64_t>{0, 1, 2999, 4000, 4001, 5999};
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> picked, ReadRows(file, type, ro));
  ASSERT_EQ(picked.size(), 6u);
  for (size_t i = 0; i < picked.size(); ++i) EXPECT_EQ(picked[i], rows[(*ro.row_positions)[i]]);
}

INSTANTIATE_TEST_SUITE_P(Codecs, AvroRoundTripTest,
                         ::testing::Values("zstd", "snappy", "deflate", "null"));

TEST(AvroSchemaResolutionTest, ByNameAtEveryLevelWithPromotionsAndDefaults) {
  TempDir tmp;
  std::string path = tmp.path() + "/evolve.avro";
  DataTypePtr writer =
      DataType::Row({F(0, "a", DataType::Int()), F(1, "b", DataType::Float()),
                     F(2, "dropped", DataType::String()),
                     F(3, "nested",
                       DataType::Row({F(10, "x", DataType::Int()),
                                      F(11, "gone", DataType::Array(DataType::Int()))})),
                     F(4, "c", DataType::String(false))},
                    false);
  std::vector<Value> rows = {
      Value::Row({Value::Int32(1), Value::Float(0.5f), Str("d"),
                  Value::Row({Value::Int32(7), Value::Array({Value::Int32(1)})}), Str("c1")}),
      Value::Row({Value::Null(), Value::Null(), Value::Null(), Value::Null(), Str("c2")}),
  };
  SLUICE_ASSERT_OK(WriteRows(path, writer, rows).status());
  DataTypePtr reader = DataType::Row(
      {F(4, "c", DataType::Bytes()), F(5, "added", DataType::Int()), F(0, "a", DataType::BigInt()),
       F(1, "b", DataType::Double()),
       F(3, "nested",
         DataType::Row({F(12, "y", DataType::String()), F(10, "x", DataType::Double())}))},
      false);
  SLUICE_ASSERT_OK_AND_ASSIGN(std::vector<Value> back, ReadRowsFromPath(path, reader));
  ExpectRowsEqual(
      back, {
                Value::Row({Bin("c1"), Value::Null(), Value::Int64(1), Value::Double(0.5),
                            Value::Row({Value::Null(), Value::Double(7)})}),
                Value::Row({Bin("c2"), Value::Null(), Value::Null(), Value::Null(), Value::Null()}),
            });
}

TEST(AvroSchemaResolutionTest, IncompatibleTypeNamesTheField) {
  TempDir tmp;
  std::string path = tmp.path() + "/bad.avro";
  DataTypePtr writer =
      DataType::Row({F(0, "n", DataType::Row({F(1, "s", DataType::String())}))}, false);
  SLUICE_ASSERT_OK(WriteRows(path, writer, {Value::Row({Value::Row({Str("x")})})}).status());
  DataTypePtr reader =
      DataType::Row({F(0, "n", DataType::Row({F(1, "s", DataType::Int())}))}, false);
  EXPECT_TRUE(HasError(ReadRowsFromPath(path, reader), StatusCode::kNotSupported,
                       {path, "field n.s: cannot read Avro \"string\" as INT"}));
}

TEST(AvroWriterTest, StatsPerTopLevelColumn) {
  TempDir tmp;
  SLUICE_ASSERT_OK_AND_ASSIGN(WriteResult result,
                              WriteRows(tmp.path() + "/s.avro", AllTypes(), AllTypesRows()));
  ASSERT_EQ(result.stats.size(), 31u);
  const ColumnStats& big = result.stats[4];
  EXPECT_EQ(big.min, Value::Int64(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(big.max, Value::Int64(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(big.null_count, 0);
  const ColumnStats& dbl = result.stats[6];
  EXPECT_EQ(dbl.min, Value::Double(-0.0));
  EXPECT_EQ(dbl.max, Value::Double(3.141592653589793));
  EXPECT_EQ(dbl.null_count, 1);
  EXPECT_EQ(result.stats[8].min, Dec(-(Pow10(38) - 1), 38, 10));
  EXPECT_EQ(result.stats[10].max, Str(std::string(20, 'z')));
  EXPECT_EQ(result.stats[17].min, Ts(-62135596800000));
  // No order for binaries and nested types; null counts still.
  EXPECT_FALSE(result.stats[12].min.has_value());
  EXPECT_FALSE(result.stats[21].max.has_value());
  EXPECT_EQ(result.stats[21].null_count, 1);
}

TEST(AvroWriterTest, RejectsWhatJavaRejects) {
  TempDir tmp;
  for (DataTypePtr t : {DataType::Timestamp(9), DataType::TimestampLtz(9), DataType::Time(6)}) {
    auto file = LocalFileIO()->OpenForWrite(tmp.path() + "/x.avro", true);
    ASSERT_OK(file);
    auto w = AvroFormat()->CreateWriter(std::move(file).value(),
                                        DataType::Row({F(0, "t", t)}, false), {});
    EXPECT_TRUE(
        HasError(w, StatusCode::kNotSupported, {"field t", "Avro cannot hold " + t->ToString()}));
  }
  auto file = LocalFileIO()->OpenForWrite(tmp.path() + "/y.avro", true);
  ASSERT_OK(file);
  WriterOptions lz4;
  lz4.compression = "lz4";
  auto w = AvroFormat()->CreateWriter(std::move(file).value(),
                                      DataType::Row({F(0, "i", DataType::Int())}, false), lz4);
  EXPECT_TRUE(HasError(w.status(), StatusCode::kInvalidArgument,
                       {"file.compression", "'lz4'", "not an Avro codec"}))
      << w.status().ToString();
}

// The codec names Java's AvroFileFormat takes for a compression: "zstd" in any case, else
// Avro's own names exactly as spelled; "none" (Parquet's and ORC's name) is refused, naming the
// options it comes from.
TEST(AvroWriterTest, CompressionNamesAsJavaTakesThem) {
  const std::vector<std::pair<std::string, std::string>> taken = {
      {"zstd", "zstandard"}, {"ZSTD", "zstandard"},  {"zstandard", "zstandard"},
      {"snappy", "snappy"},  {"deflate", "deflate"}, {"null", "null"}};
  for (const auto& [compression, codec] : taken) {
    WriterOptions options;
    options.compression = compression;
    ASSERT_OK_AND_ASSIGN(std::string name, AvroCodecNameFor(options));
    EXPECT_EQ(name, codec) << compression;
  }
  for (const char* refused : {"none", "uncompressed", "gzip", "SNAPPY", ""}) {
    WriterOptions options;
    options.compression = refused;
    EXPECT_TRUE(
        HasError(AvroCodecNameFor(options).status(), StatusCode::kInvalidArgument,
                 {"file.compression", "'" + std::string(refused) + "'", "Unrecognized codec"}))
        << refused;
  }
  WriterOptions bzip2;
  bzip2.compression = "bzip2";
  EXPECT_EQ(AvroCodecNameFor(bzip2).status().code(), StatusCode::kNotSupported);
}

TEST(AvroWriterTest, NullInNotNullColumnIsAnError) {
  TempDir tmp;
  DataTypePtr type =
      DataType::Row({F(0, "r", DataType::Row({F(1, "v", DataType::Int(false))}))}, false);
  auto result =
      WriteRows(tmp.path() + "/n.avro", type, {Value::Row({Value::Row({Value::Null()})})});
  EXPECT_TRUE(
      HasError(result, StatusCode::kInvalidArgument, {"field r.v is NOT NULL but holds a null"}));
}

TEST(AvroSchemaJsonTest, ManifestEntrySchemaIsJavasText) {
  DataTypePtr stats = DataType::Row(
      {F(0, "_MIN_VALUES", DataType::Bytes(false)), F(1, "_MAX_VALUES", DataType::Bytes(false)),
       F(2, "_NULL_COUNTS", DataType::Array(DataType::BigInt()))},
      false);
  DataTypePtr strings = DataType::Array(DataType::String(false));
  DataTypePtr file =
      DataType::Row({F(0, "_FILE_NAME", DataType::String(false)),
                     F(1, "_FILE_SIZE", DataType::BigInt(false)),
                     F(2, "_ROW_COUNT", DataType::BigInt(false)),
                     F(3, "_MIN_KEY", DataType::Bytes(false)),
                     F(4, "_MAX_KEY", DataType::Bytes(false)),
                     F(5, "_KEY_STATS", stats),
                     F(6, "_VALUE_STATS", stats),
                     F(7, "_MIN_SEQUENCE_NUMBER", DataType::BigInt(false)),
                     F(8, "_MAX_SEQUENCE_NUMBER", DataType::BigInt(false)),
                     F(9, "_SCHEMA_ID", DataType::BigInt(false)),
                     F(10, "_LEVEL", DataType::Int(false)),
                     F(11, "_EXTRA_FILES", strings->WithNullable(false)),
                     F(12, "_CREATION_TIME", DataType::Timestamp(3)),
                     F(13, "_DELETE_ROW_COUNT", DataType::BigInt()),
                     F(14, "_EMBEDDED_FILE_INDEX", DataType::Bytes()),
                     F(15, "_FILE_SOURCE", DataType::TinyInt()),
                     F(16, "_VALUE_STATS_COLS", strings),
                     F(17, "_EXTERNAL_PATH", DataType::String()),
                     F(18, "_FIRST_ROW_ID", DataType::BigInt()),
                     F(19, "_WRITE_COLS", strings),
                     F(20, "_WRITE_COLS_SEQUENCES", DataType::Array(DataType::BigInt(false)))},
                    false);
  DataTypePtr entry = DataType::Row(
      {F(0, "_VERSION", DataType::Int(false)), F(1, "_KIND", DataType::TinyInt(false)),
       F(2, "_PARTITION", DataType::Bytes(false)), F(3, "_BUCKET", DataType::Int(false)),
       F(4, "_TOTAL_BUCKETS", DataType::Int(false)), F(5, "_FILE", file)},
      false);
  SLUICE_ASSERT_OK_AND_ASSIGN(AvroSchemaPtr schema, RowTypeToAvroSchema(*entry));
  // format-spec.md 4.6, verbatim.
  EXPECT_EQ(
      AvroSchemaToJson(*schema),
      R"({"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[{"name":"_VERSION","type":"int"},{"name":"_KIND","type":"int"},{"name":"_PARTITION","type":"bytes"},{"name":"_BUCKET","type":"int"},{"name":"_TOTAL_BUCKETS","type":"int"},{"name":"_FILE","type":{"type":"record","name":"record__FILE","fields":[{"name":"_FILE_NAME","type":"string"},{"name":"_FILE_SIZE","type":"long"},{"name":"_ROW_COUNT","type":"long"},{"name":"_MIN_KEY","type":"bytes"},{"name":"_MAX_KEY","type":"bytes"},{"name":"_KEY_STATS","type":{"type":"record","name":"record__FILE__KEY_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_VALUE_STATS","type":{"type":"record","name":"record__FILE__VALUE_STATS","fields":[{"name":"_MIN_VALUES","type":"bytes"},{"name":"_MAX_VALUES","type":"bytes"},{"name":"_NULL_COUNTS","type":["null",{"type":"array","items":["null","long"]}],"default":null}]}},{"name":"_MIN_SEQUENCE_NUMBER","type":"long"},{"name":"_MAX_SEQUENCE_NUMBER","type":"long"},{"name":"_SCHEMA_ID","type":"long"},{"name":"_LEVEL","type":"int"},{"name":"_EXTRA_FILES","type":{"type":"array","items":"string"}},{"name":"_CREATION_TIME","type":["null",{"type":"long","logicalType":"timestamp-millis"}],"default":null},{"name":"_DELETE_ROW_COUNT","type":["null","long"],"default":null},{"name":"_EMBEDDED_FILE_INDEX","type":["null","bytes"],"default":null},{"name":"_FILE_SOURCE","type":["null","int"],"default":null},{"name":"_VALUE_STATS_COLS","type":["null",{"type":"array","items":"string"}],"default":null},{"name":"_EXTERNAL_PATH","type":["null","string"],"default":null},{"name":"_FIRST_ROW_ID","type":["null","long"],"default":null},{"name":"_WRITE_COLS","type":["null",{"type":"array","items":"string"}],"default":null},{"name":"_WRITE_COLS_SEQUENCES","type":["null",{"type":"array","items":"long"}],"default":null}]}}]})");
}

TEST(AvroSchemaJsonTest, NestedNamesFollowJava) {
  DataTypePtr type = DataType::Row(
      {F(0, "m", DataType::Map(DataType::Int(false), DataType::Row({F(1, "v", DataType::Int())}))),
       F(2, "s", DataType::Multiset(DataType::String(false))),
       F(3, "a",
         DataType::Array(DataType::Row({F(4, "e", DataType::Decimal(5, 2, false))}, false),
                         false))},
      false);
  SLUICE_ASSERT_OK_AND_ASSIGN(AvroSchemaPtr schema, RowTypeToAvroSchema(*type));
  EXPECT_EQ(
      AvroSchemaToJson(*schema),
      R"({"type":"record","name":"record","namespace":"org.apache.paimon.avro.generated","fields":[)"
      R"({"name":"m","type":["null",{"type":"array","items":{"type":"record","name":"record_m","fields":[{"name":"key","type":"int"},{"name":"value","type":["null",{"type":"record","name":"record_m_value","fields":[{"name":"v","type":["null","int"],"default":null}]}],"default":null}]},"logicalType":"map"}],"default":null},)"
      R"({"name":"s","type":["null",{"type":"map","values":["null","int"]}],"default":null},)"
      R"({"name":"a","type":{"type":"array","items":{"type":"record","name":"record_a","fields":[{"name":"e","type":{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}}]}}}]})");
  // And the JSON parses back to the same text.
  SLUICE_ASSERT_OK_AND_ASSIGN(AvroSchemaPtr parsed, ParseAvroSchema(AvroSchemaToJson(*schema)));
  EXPECT_EQ(AvroSchemaToJson(*parsed), AvroSchemaToJson(*schema));
}

}  // namespace
}  // namespace sluice::test

namespace sluice::test {
namespace {

// Large files are read block by block instead of whole; both paths give the same blocks.
TEST(AvroContainerReaderTest, StreamingMatchesCached) {
  TempDir tmp;
  std::string path = tmp.path() + "/stream.avro";
  DataTypePtr type = DataType::Row({F(0, "s", DataType::String(false))}, false);
  std::vector<Value> rows;
  for (int i = 0; i < 4000; ++i) rows.push_back(Value::Row({Str(std::string(50, 'a' + i % 26))}));
  for (const char* codec : {"null", "snappy"}) {
    WriterOptions options;
    options.compression = codec;
    SLUICE_ASSERT_OK(WriteRows(path, type, rows, options).status());
    SLUICE_ASSERT_OK_AND_ASSIGN(auto raw, LocalFileIO()->OpenForRead(path));
    std::shared_ptr<RandomAccessFile> file(std::move(raw));
    SLUICE_ASSERT_OK_AND_ASSIGN(auto cached, AvroContainerReader::Open(file));
    SLUICE_ASSERT_OK_AND_ASSIGN(auto streamed, AvroContainerReader::Open(file, 0));
    ASSERT_EQ(cached->blocks().size(), streamed->blocks().size());
    ASSERT_GT(cached->blocks().size(), 1u);
    EXPECT_EQ(streamed->num_rows(), 4000);
    for (size_t b = 0; b < cached->blocks().size(); ++b) {
      SLUICE_ASSERT_OK_AND_ASSIGN(std::string_view x, cached->ReadBlock(b));
      std::string copy(x);
      SLUICE_ASSERT_OK_AND_ASSIGN(std::string_view y, streamed->ReadBlock(b));
      EXPECT_EQ(copy, y);
    }
  }
}

}  // namespace
}  // namespace sluice::test
