// The Parquet writer against DuckDB: files we write must read back in DuckDB to the values we
// wrote, with the schema, statistics and encodings Java Paimon (parquet-mr) writes.

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "duckdb_oracle.h"
#include "sluice/format/parquet/parquet_file_format.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/format/parquet/parquet_writer.h"
#include "sluice/format/parquet/thrift_compact_reader.h"
#include "sluice/fs/file_io.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::parquet {
namespace {

using test::Field;

using test::DuckDbOracle;
using test::TempDir;

Result<WriteResult> WriteParquet(const std::string& path, const DataTypePtr& type,
                                 const std::vector<const ColumnBatch*>& batches,
                                 const WriterOptions& options = WriterOptions()) {
  SLUICE_ASSIGN_OR_RETURN(auto file, LocalFileIO()->OpenForWrite(path, true));
  SLUICE_ASSIGN_OR_RETURN(auto writer,
                          ParquetFormat()->CreateWriter(std::move(file), type, options));
  for (const ColumnBatch* b : batches) SLUICE_RETURN_NOT_OK(writer->Write(*b));
  return writer->Finish();
}

// --- Rendering expected values as DuckDB prints them ---

std::string Hex(const std::string& s) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

// The SQL expression that turns column `name` of `type` into a comparable text.
std::string SelectExpr(const std::string& name, const DataType& type) {
  std::string col = "\"" + name + "\"";
  switch (type.root()) {
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return "hex(" + col + ")";
    case TypeRoot::kTime:
      return "(extract(hour from " + col + ") * 3600000 + extract(minute from " + col +
             ") * 60000 + extract(millisecond from " + col + "))";
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return "epoch_us(" + col + ")";
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return col;
    default:
      return "CAST(" + col + " AS VARCHAR)";
  }
}

std::string Render(const Value& v, const DataType& type, bool nested) {
  if (v.is_null()) return "NULL";
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return v.boolean() ? "true" : "false";
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return std::to_string(v.AsInt64());
    case TypeRoot::kDecimal:
      return v.decimal().ToString();
    case TypeRoot::kFloat:
    case TypeRoot::kDouble: {
      // Shortest round-trip digits, as DuckDB prints them ("5.0" for integral values).
      char buf[64];
      auto end = type.root() == TypeRoot::kFloat ? std::to_chars(buf, buf + 64, v.float32()).ptr
                                                 : std::to_chars(buf, buf + 64, v.float64()).ptr;
      std::string out(buf, end);
      if (out.find_first_of(".en") == std::string::npos) out += ".0";
      return out;
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return v.bytes();
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return Hex(v.bytes());
    case TypeRoot::kDate:
      return FormatDate(v.int32());
    case TypeRoot::kTime:
      return std::to_string(v.int32());
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      const Timestamp& t = v.timestamp();
      return std::to_string(t.millisecond * 1000 + t.nano_of_millisecond / 1000);
    }
    case TypeRoot::kArray: {
      std::string out = "[";
      const ValueList& items = v.list();
      for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ", ";
        out += Render(items[i], *type.element(), true);
      }
      return out + "]";
    }
    case TypeRoot::kMap:
    case TypeRoot::kMultiset: {
      std::string out = "{";
      const ValuePairs& pairs = v.pairs();
      for (size_t i = 0; i < pairs.size(); ++i) {
        if (i > 0) out += ", ";
        out += Render(pairs[i].first, *type.key(), true) + "=" +
               Render(pairs[i].second,
                      type.root() == TypeRoot::kMultiset ? *DataType::Int() : *type.value(), true);
      }
      return out + "}";
    }
    case TypeRoot::kRow: {
      std::string out = "{";
      const ValueList& fields = v.list();
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ", ";
        out +=
            "'" + type.fields()[i].name + "': " + Render(fields[i], *type.fields()[i].type, true);
      }
      return out + "}";
    }
    default:
      ADD_FAILURE() << "no rendering for " << type.ToString();
      return "";
  }
  (void)nested;
}

// Compares every cell DuckDB reads from `path` with `rows` (in file order).
void ExpectDuckDbReads(DuckDbOracle& duck, const std::string& path, const DataType& row_type,
                       const std::vector<ValueList>& rows) {
  std::string sql = "SELECT ";
  for (int i = 0; i < row_type.num_fields(); ++i) {
    if (i > 0) sql += ", ";
    sql += SelectExpr(row_type.fields()[i].name, *row_type.fields()[i].type);
  }
  sql += " FROM read_parquet(" + DuckDbOracle::Quote(path) + ")";
  auto result = duck.Query(sql);
  ASSERT_OK(result);
  const DuckDbOracle::Rows& got = *result;
  ASSERT_EQ(got.size(), rows.size());
  int mismatches = 0;
  for (size_t r = 0; r < rows.size() && mismatches < 10; ++r) {
    for (int c = 0; c < row_type.num_fields(); ++c) {
      const DataType& type = *row_type.fields()[c].type;
      const Value& expected = rows[r][c];
      const DuckDbOracle::Cell& cell = got[r][c];
      if (expected.is_null()) {
        if (cell.has_value()) {
          ADD_FAILURE() << "row " << r << " column " << c << ": expected NULL, got " << *cell;
          ++mismatches;
        }
        continue;
      }
      if (!cell.has_value()) {
        ADD_FAILURE() << "row " << r << " column " << c << ": got NULL, expected "
                      << expected.DebugString();
        ++mismatches;
        continue;
      }
      if (type.root() == TypeRoot::kFloat || type.root() == TypeRoot::kDouble) {
        double want = type.root() == TypeRoot::kFloat ? expected.float32() : expected.float64();
        double have = std::strtod(cell->c_str(), nullptr);
        bool same =
            (std::isnan(want) && std::isnan(have)) ||
            (type.root() == TypeRoot::kFloat ? static_cast<float>(have) == static_cast<float>(want)
                                             : have == want);
        if (!same) {
          ADD_FAILURE() << "row " << r << " column " << c << ": expected " << want << ", got "
                        << *cell;
          ++mismatches;
        }
        continue;
      }
      std::string want = Render(expected, type, false);
      if (*cell != want) {
        ADD_FAILURE() << "row " << r << " column " << c << " (" << type.ToString() << "): expected "
                      << want << ", got " << *cell;
        ++mismatches;
      }
    }
  }
}

// --- Random data ---

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  int64_t Int(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  bool Chance(int percent) { return Int(0, 99) < percent; }
  std::string Word(int min_len, int max_len) {
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::string s(static_cast<size_t>(Int(min_len, max_len)), 'a');
    for (char& c : s) c = alphabet[Int(0, sizeof(alphabet) - 2)];
    return s;
  }

  // A value of `type`; null with `null_percent` when the type is nullable.
  Value Make(const DataType& type, int null_percent) {
    if (type.nullable() && Chance(null_percent)) return Value();
    switch (type.root()) {
      case TypeRoot::kBoolean:
        return Value::Boolean(Chance(50));
      case TypeRoot::kTinyInt:
        return Value::Int8(static_cast<int8_t>(Int(-128, 127)));
      case TypeRoot::kSmallInt:
        return Value::Int16(static_cast<int16_t>(Int(-32768, 32767)));
      case TypeRoot::kInt:
        return Value::Int32(static_cast<int32_t>(Int(INT32_MIN, INT32_MAX)));
      case TypeRoot::kBigInt:
        return Value::Int64(Chance(50) ? Int(-1000, 1000) : Int(INT64_MIN, INT64_MAX));
      case TypeRoot::kFloat:
        return Value::Float(static_cast<float>(Int(-1000000, 1000000)) / 64.0f);
      case TypeRoot::kDouble:
        return Value::Double(static_cast<double>(Int(-1000000000, 1000000000)) / 1024.0);
      case TypeRoot::kDecimal: {
        int128_t bound = 1;
        for (int i = 0; i < type.precision(); ++i) bound *= 10;
        bound -= 1;
        int128_t v = static_cast<int128_t>(Int(INT64_MIN, INT64_MAX)) * Int(1, 1 << 30);
        v %= bound + 1;
        if (Chance(5)) v = Chance(50) ? bound : -bound;
        return Value::FromDecimal(Decimal{v, type.precision(), type.scale()});
      }
      case TypeRoot::kChar:
      case TypeRoot::kVarChar:
        return Value::String(Word(1, 12));
      case TypeRoot::kBinary:
      case TypeRoot::kVarBinary: {
        std::string s(static_cast<size_t>(Int(0, 10)), '\0');
        for (char& c : s) c = static_cast<char>(Int(0, 255));
        return Value::Binary(s);
      }
      case TypeRoot::kDate:
        return Value::Int32(static_cast<int32_t>(Int(-20000, 40000)));
      case TypeRoot::kTime:
        return Value::Int32(static_cast<int32_t>(Int(0, 86399999)));
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz: {
        int64_t millis = Int(0, int64_t{4102444800000});
        int32_t nanos = 0;
        if (type.precision() > 6) {
          nanos = static_cast<int32_t>(Int(0, 999999));
        } else if (type.precision() > 3) {
          nanos = static_cast<int32_t>(Int(0, 999) * 1000);
        }
        return Value::FromTimestamp(Timestamp{millis, nanos});
      }
      case TypeRoot::kArray: {
        ValueList items;
        int64_t n = Int(0, 4);
        for (int64_t i = 0; i < n; ++i) items.push_back(Make(*type.element(), null_percent));
        return Value::Array(std::move(items));
      }
      case TypeRoot::kMap: {
        ValuePairs pairs;
        int64_t n = Int(0, 3);
        for (int64_t i = 0; i < n; ++i) {
          Value key = type.key()->IsString()
                          ? Value::String("k" + std::to_string(i) + Word(1, 3))
                          : Value::Int32(static_cast<int32_t>(i * 100 + Int(0, 99)));
          pairs.emplace_back(std::move(key), Make(*type.value(), null_percent));
        }
        return Value::Map(std::move(pairs));
      }
      case TypeRoot::kMultiset: {
        ValuePairs pairs;
        int64_t n = Int(0, 3);
        for (int64_t i = 0; i < n; ++i) {
          pairs.emplace_back(Value::String("m" + std::to_string(i)),
                             Value::Int32(static_cast<int32_t>(Int(1, 5))));
        }
        return Value::Map(std::move(pairs));
      }
      case TypeRoot::kRow: {
        ValueList fields;
        for (const DataField& f : type.fields()) fields.push_back(Make(*f.type, null_percent));
        return Value::Row(std::move(fields));
      }
      default:
        return Value();
    }
  }

 private:
  std::mt19937_64 rng_;
};

std::vector<DataTypePtr> PrimitiveTypes(bool nullable) {
  return {DataType::Boolean(nullable),        DataType::TinyInt(nullable),
          DataType::SmallInt(nullable),       DataType::Int(nullable),
          DataType::BigInt(nullable),         DataType::Float(nullable),
          DataType::Double(nullable),         DataType::Decimal(5, 2, nullable),
          DataType::Decimal(18, 4, nullable), DataType::Decimal(38, 10, nullable),
          DataType::Decimal(20, 0, nullable), DataType::VarChar(20, nullable),
          DataType::Char(3, nullable),        DataType::String(nullable),
          DataType::Bytes(nullable),          DataType::Date(nullable),
          DataType::Time(0, nullable),        DataType::Timestamp(3, nullable),
          DataType::Timestamp(6, nullable),   DataType::TimestampLtz(3, nullable),
          DataType::TimestampLtz(6, nullable)};
}

DataTypePtr RowOf(const std::vector<DataTypePtr>& types) {
  std::vector<DataField> fields;
  for (size_t i = 0; i < types.size(); ++i) {
    fields.push_back(Field(static_cast<int32_t>(i), "c" + std::to_string(i), types[i]));
  }
  return DataType::Row(std::move(fields));
}

struct Dataset {
  std::vector<ValueList> rows;
  std::unique_ptr<ColumnBatch> batch;
};

Dataset MakeDataset(const DataTypePtr& row_type, int64_t n, int null_percent, uint32_t seed) {
  Generator gen(seed);
  Dataset d;
  d.batch = std::make_unique<ColumnBatch>(row_type);
  for (int64_t r = 0; r < n; ++r) {
    ValueList row;
    for (const DataField& f : row_type->fields()) row.push_back(gen.Make(*f.type, null_percent));
    Status st = d.batch->AppendRow(row);
    EXPECT_OK(st);
    d.rows.push_back(std::move(row));
  }
  return d;
}

// --- Tests ---

class ParquetWriterCodecTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ParquetWriterCodecTest, PrimitiveTypesReadBackInDuckDb) {
  TempDir dir;
  DuckDbOracle duck;
  for (bool nullable : {true, false}) {
    DataTypePtr type = RowOf(PrimitiveTypes(nullable));
    Dataset data = MakeDataset(type, 3000, 20, nullable ? 1 : 2);
    WriterOptions options;
    options.compression = GetParam();
    std::string path = dir.path() + "/p" + (nullable ? "n" : "r") + ".parquet";
    auto result = WriteParquet(path, type, {data.batch.get()}, options);
    ASSERT_OK(result);
    EXPECT_EQ(result->row_count, 3000);
    ExpectDuckDbReads(duck, path, *type, data.rows);
  }
}

// "lz4" writes Hadoop's framed LZ4 as Java does, which DuckDB does not read: its files are
// read by Java and pyarrow in the interop tests (FileCompressionAgreesWithJava).
INSTANTIATE_TEST_SUITE_P(Codecs, ParquetWriterCodecTest,
                         ::testing::Values("zstd", "snappy", "gzip", "lz4_raw", "none"));

// Reads `path` back with our reader and compares every row with `rows`.
void ExpectSluiceReads(const std::string& path, const DataTypePtr& row_type,
                       const std::vector<ValueList>& rows) {
  auto file = LocalFileIO()->OpenForRead(path);
  ASSERT_OK(file);
  ReaderOptions options;
  options.batch_size = 777;
  auto reader = ParquetFormat()->CreateReader(std::shared_ptr<RandomAccessFile>(std::move(*file)),
                                              row_type, options);
  ASSERT_OK(reader);
  EXPECT_EQ((*reader)->num_rows(), static_cast<int64_t>(rows.size()));
  ColumnBatch batch(row_type);
  size_t next = 0;
  int mismatches = 0;
  while (true) {
    auto more = (*reader)->Next(&batch);
    ASSERT_OK(more);
    if (!*more) break;
    for (int64_t r = 0; r < batch.num_rows(); ++r, ++next) {
      ASSERT_LT(next, rows.size());
      Value got = batch.GetRow(r);
      Value want = Value::Row(rows[next]);
      if (got != want && ++mismatches <= 5) {
        ADD_FAILURE() << "row " << next << ": expected " << want.DebugString() << ", got "
                      << got.DebugString();
      }
    }
  }
  EXPECT_EQ(next, rows.size());
}

// --- Nested types ---

DataTypePtr NestedRowType() {
  return DataType::Row({
      Field(0, "id", DataType::Int(false)),
      Field(1, "ints", DataType::Array(DataType::Int())),
      Field(2, "words", DataType::Array(DataType::String(false), false)),
      Field(3, "nested", DataType::Array(DataType::Array(DataType::BigInt()))),
      Field(4, "map", DataType::Map(DataType::String(), DataType::Double())),
      Field(5, "bag", DataType::Multiset(DataType::String())),
      Field(6, "rec",
            DataType::Row(
                {Field(7, "a", DataType::Int()), Field(8, "b", DataType::Array(DataType::String())),
                 Field(9, "c", DataType::Row({Field(10, "d", DataType::Decimal(10, 3))}))})),
      Field(11, "recs",
            DataType::Array(DataType::Row(
                {Field(12, "x", DataType::SmallInt()),
                 Field(13, "y", DataType::Map(DataType::Int(), DataType::String()))}))),
  });
}

TEST(ParquetWriterTest, NestedTypesReadBackInDuckDb) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type = NestedRowType();
  for (int null_percent : {0, 25}) {
    Dataset data = MakeDataset(type, 2500, null_percent, 7 + null_percent);
    std::string path = dir.path() + "/nested" + std::to_string(null_percent) + ".parquet";
    WriterOptions options;
    // Small pages: page cuts land inside the nested columns.
    options.options["parquet.page.size"] = "2048";
    auto result = WriteParquet(path, type, {data.batch.get()}, options);
    ASSERT_OK(result);
    ExpectDuckDbReads(duck, path, *type, data.rows);
    // Paimon keeps no statistics for nested columns.
    for (int c = 1; c < type->num_fields(); ++c) {
      EXPECT_FALSE(result->stats[c].min.has_value());
      EXPECT_FALSE(result->stats[c].null_count.has_value());
    }
    EXPECT_TRUE(result->stats[0].min.has_value());
  }
}

TEST(ParquetWriterTest, RoundTripThroughSluiceReader) {
  TempDir dir;
  std::vector<DataTypePtr> types = {RowOf(PrimitiveTypes(true)), RowOf(PrimitiveTypes(false)),
                                    NestedRowType()};
  for (size_t t = 0; t < types.size(); ++t) {
    for (const char* codec : {"zstd", "snappy"}) {
      Dataset data = MakeDataset(types[t], 3000, 15, static_cast<uint32_t>(100 + t));
      std::string path = dir.path() + "/rt" + std::to_string(t) + codec + ".parquet";
      WriterOptions options;
      options.compression = codec;
      options.options["parquet.page.size"] = "4096";
      options.options["parquet.block.size"] = "100000";
      auto result = WriteParquet(path, types[t], {data.batch.get()}, options);
      ASSERT_OK(result);
      ExpectSluiceReads(path, types[t], data.rows);
    }
  }
}

// --- Schema as Java Paimon writes it ---

// parquet_schema() of a file, one "|"-joined line per schema element, without file names.
std::vector<std::string> SchemaLines(DuckDbOracle& duck, const std::string& path) {
  auto rows = duck.Query(
      "SELECT name, type, type_length, repetition_type, num_children, converted_type, scale, "
      "precision, field_id, logical_type FROM parquet_schema(" +
      DuckDbOracle::Quote(path) + ")");
  EXPECT_OK(rows);
  std::vector<std::string> lines;
  if (!rows.ok()) return lines;
  for (const auto& row : *rows) {
    std::string line;
    for (const auto& cell : row) line += (cell ? *cell : "NULL") + "|";
    lines.push_back(line);
  }
  return lines;
}

struct JavaFile {
  std::string relative_path;  // under the corpus tables
  DataTypePtr type;           // the Paimon write type of the file
};

std::vector<JavaFile> JavaWrittenFiles() {
  std::vector<JavaFile> files;
  files.push_back(
      {"parquet/parquet_append_table.db/parquet_append_table/bucket-0/"
       "data-9ea62f34-1dca-49c1-bf7a-d37303d8fb76-1.parquet",
       DataType::Row({Field(0, "f1", DataType::Boolean()), Field(1, "f2", DataType::TinyInt()),
                      Field(2, "f3", DataType::SmallInt()), Field(3, "f4", DataType::Int()),
                      Field(4, "f5", DataType::BigInt()), Field(5, "f6", DataType::Float()),
                      Field(6, "f7", DataType::Double()), Field(7, "f8", DataType::String()),
                      Field(8, "f9", DataType::Bytes()),
                      Field(9, "f10",
                            DataType::Map(DataType::Array(DataType::Float()),
                                          DataType::Row({Field(10, "f0", DataType::Boolean()),
                                                         Field(11, "f1", DataType::BigInt())}))),
                      Field(12, "f11", DataType::Timestamp(9)), Field(13, "f12", DataType::Date()),
                      Field(14, "f13", DataType::Decimal(2, 2))})});
  files.push_back(
      {"parquet/append_with_cast_timestamp.db/append_with_cast_timestamp/bucket-0/"
       "data-ac91592e-f1c2-4cbe-adb2-cbfe71764ede-0.parquet",
       DataType::Row({Field(0, "ts_sec", DataType::Timestamp(0)),
                      Field(1, "ts_milli", DataType::Timestamp(3)),
                      Field(2, "ts_micro", DataType::Timestamp(6)),
                      Field(3, "ts_nano", DataType::Timestamp(9)),
                      Field(4, "ts_tz_sec", DataType::TimestampLtz(0)),
                      Field(5, "ts_tz_milli", DataType::TimestampLtz(3)),
                      Field(6, "ts_tz_micro", DataType::TimestampLtz(6)),
                      Field(7, "ts_tz_nano", DataType::TimestampLtz(9)),
                      Field(8, "int_ts_sec", DataType::Int()),
                      Field(9, "int_ts_tz_micro", DataType::Int())})});
  files.push_back(
      {"parquet/append_complex_data.db/append_complex_data/f1=10/bucket-0/"
       "data-35f2719c-ffae-4697-960e-af95a0b4bd51-1.parquet",
       DataType::Row({Field(0, "f1", DataType::Int()), Field(1, "f2", DataType::Int()),
                      Field(2, "f3", DataType::Date()), Field(3, "f4", DataType::Timestamp(9)),
                      Field(4, "f5", DataType::Decimal(23, 5)),
                      Field(5, "f6", DataType::Bytes())})});
  files.push_back(
      {"parquet/pk_table_nested_type.db/pk_table_nested_type/dt=2025-04-14/hr=10/bucket-0/"
       "data-f63238db-a23a-4f18-9211-0835909197cf-0.parquet",
       DataType::Row(
           {Field(1073741823, "_KEY_shopId", DataType::Int(false)),
            Field(2147483646, "_SEQUENCE_NUMBER", DataType::BigInt(false)),
            Field(2147483645, "_VALUE_KIND", DataType::TinyInt(false)),
            Field(0, "shopId", DataType::Int(false)), Field(1, "dt", DataType::String(false)),
            Field(2, "hr", DataType::Int(false)), Field(3, "col0", DataType::Int()),
            Field(
                4, "col1",
                DataType::Row({Field(5, "f0", DataType::String()), Field(6, "f1", DataType::Int()),
                               Field(7, "f2", DataType::Array(DataType::Int()))})),
            Field(8, "col2", DataType::Map(DataType::Int(), DataType::Int()))})});
  return files;
}

TEST(ParquetWriterTest, SchemaMatchesJavaWrittenFiles) {
  TempDir dir;
  DuckDbOracle duck;
  int compared = 0;
  for (const JavaFile& java : JavaWrittenFiles()) {
    std::string java_path = test::CompatTablesDir() + "/" + java.relative_path;
    auto created_by = duck.Query("SELECT created_by FROM parquet_file_metadata(" +
                                 DuckDbOracle::Quote(java_path) + ")");
    ASSERT_OK(created_by);
    ASSERT_EQ(created_by->size(), 1u);
    ASSERT_EQ((*created_by)[0][0]->rfind("parquet-mr", 0), 0u) << *(*created_by)[0][0];

    std::string ours = dir.path() + "/ours" + std::to_string(compared) + ".parquet";
    ColumnBatch empty(java.type);
    auto result = WriteParquet(ours, java.type, {&empty});
    ASSERT_OK(result);
    EXPECT_EQ(SchemaLines(duck, ours), SchemaLines(duck, java_path)) << java.relative_path;
    ++compared;
  }
  EXPECT_EQ(compared, 4);
}

// --- Statistics ---

TEST(ParquetWriterTest, StatisticsInFooterAndResult) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type = DataType::Row({
      Field(0, "i", DataType::Int()),
      Field(1, "s", DataType::String()),
      Field(2, "d", DataType::Double()),
      Field(3, "f", DataType::Float()),
      Field(4, "dec", DataType::Decimal(38, 2)),
      Field(5, "dec9", DataType::Decimal(9, 3)),
      Field(6, "ts", DataType::Timestamp(6)),
      Field(7, "ts9", DataType::Timestamp(9)),
      Field(8, "allnull", DataType::BigInt()),
      Field(9, "nan", DataType::Double()),
      Field(10, "b", DataType::Boolean()),
      Field(11, "bin", DataType::Bytes()),
  });
  const double nan = std::nan("");
  std::vector<ValueList> rows = {
      {Value::Int32(5), Value::String("zebra"), Value::Double(nan), Value::Float(0.0f),
       Value::FromDecimal({-12345, 38, 2}), Value::FromDecimal({999999999, 9, 3}),
       Value::FromTimestamp({1000, 5000}), Value::FromTimestamp({1, 1}), Value(),
       Value::Double(nan), Value::Boolean(true), Value::Binary("\x01")},
      {Value(), Value::String("\xc3\xa9t\xc3\xa9"), Value::Double(-2.5), Value::Float(-0.0f),
       Value::FromDecimal({7, 38, 2}), Value::FromDecimal({-5, 9, 3}), Value(), Value(), Value(),
       Value(), Value::Boolean(true), Value::Binary(std::string("\xff\x00", 2))},
      {Value::Int32(-3), Value::String("apple"), Value::Double(7.25), Value::Float(1.5f), Value(),
       Value(), Value::FromTimestamp({-86400000, 0}), Value::FromTimestamp({5, 0}), Value(),
       Value::Double(nan), Value(), Value()},
  };
  ColumnBatch batch(type);
  for (const auto& r : rows) ASSERT_OK(batch.AppendRow(r));
  std::string path = dir.path() + "/stats.parquet";
  auto result = WriteParquet(path, type, {&batch});
  ASSERT_OK(result);

  auto meta = duck.Query(
      "SELECT path_in_schema, stats_min_value, stats_max_value, stats_null_count FROM "
      "parquet_metadata(" +
      DuckDbOracle::Quote(path) + ") ORDER BY column_id");
  ASSERT_OK(meta);
  std::map<std::string, std::vector<std::string>> got;
  for (const auto& row : *meta) {
    got[*row[0]] = {row[1] ? *row[1] : "NULL", row[2] ? *row[2] : "NULL", *row[3]};
  }
  using V = std::vector<std::string>;
  EXPECT_EQ(got["i"], (V{"-3", "5", "1"}));
  // Unsigned byte order: "été" (0xC3...) sorts after "zebra".
  EXPECT_EQ(got["s"], (V{"apple", "\xc3\xa9t\xc3\xa9", "0"}));
  // NaN is left out; zeros are widened to -0.0 / +0.0.
  EXPECT_EQ(got["d"], (V{"-2.5", "7.25", "0"}));
  EXPECT_EQ(got["f"], (V{"-0.0", "1.5", "0"}));
  EXPECT_EQ(got["dec"], (V{"-123.45", "0.07", "1"}));
  EXPECT_EQ(got["dec9"], (V{"-0.005", "999999.999", "1"}));
  EXPECT_EQ(got["ts9"], (V{"NULL", "NULL", "1"}));
  EXPECT_EQ(got["allnull"], (V{"NULL", "NULL", "3"}));
  EXPECT_EQ(got["nan"], (V{"NULL", "NULL", "1"}));
  EXPECT_EQ(got["b"], (V{"true", "true", "1"}));
  EXPECT_EQ(got["bin"], (V{"\\x01", "\\xFF\\x00", "1"}));

  const auto& stats = result->stats;
  ASSERT_EQ(stats.size(), 12u);
  EXPECT_EQ(*stats[0].min, Value::Int32(-3));
  EXPECT_EQ(*stats[0].max, Value::Int32(5));
  EXPECT_EQ(*stats[0].null_count, 1);
  EXPECT_EQ(*stats[1].min, Value::String("apple"));
  EXPECT_EQ(*stats[1].max, Value::String("\xc3\xa9t\xc3\xa9"));
  EXPECT_EQ(*stats[2].min, Value::Double(-2.5));
  EXPECT_EQ(*stats[2].max, Value::Double(7.25));
  EXPECT_TRUE(std::signbit(stats[3].min->float32()));
  EXPECT_EQ(*stats[3].max, Value::Float(1.5f));
  EXPECT_EQ(*stats[4].min, Value::FromDecimal({-12345, 38, 2}));
  EXPECT_EQ(*stats[4].max, Value::FromDecimal({7, 38, 2}));
  EXPECT_EQ(*stats[5].min, Value::FromDecimal({-5, 9, 3}));
  EXPECT_EQ(*stats[6].min, Value::FromTimestamp({-86400000, 0}));
  EXPECT_EQ(*stats[6].max, Value::FromTimestamp({1000, 5000}));
  EXPECT_EQ(*stats[6].null_count, 1);
  EXPECT_FALSE(stats[7].min.has_value());  // INT96: Paimon has no min / max
  EXPECT_EQ(*stats[7].null_count, 1);
  EXPECT_FALSE(stats[8].min.has_value());
  EXPECT_EQ(*stats[8].null_count, 3);
  EXPECT_FALSE(stats[9].min.has_value());
  EXPECT_EQ(*stats[10].min, Value::Boolean(true));
  // Paimon keeps no min / max for binaries (ParquetSimpleStatsExtractor).
  EXPECT_FALSE(stats[11].min.has_value());
  EXPECT_EQ(*stats[11].null_count, 1);
}

// --- Encodings, pages and row groups ---

std::map<std::string, std::string> EncodingsByColumn(DuckDbOracle& duck, const std::string& path) {
  auto rows = duck.Query(
      "SELECT path_in_schema, string_agg(DISTINCT encodings, ';') FROM "
      "parquet_metadata(" +
      DuckDbOracle::Quote(path) + ") GROUP BY path_in_schema");
  EXPECT_OK(rows);
  std::map<std::string, std::string> out;
  if (rows.ok()) {
    for (const auto& r : *rows) out[*r[0]] = *r[1];
  }
  return out;
}

TEST(ParquetWriterTest, DictionaryAndFallbackToPlain) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type = DataType::Row(
      {Field(0, "few", DataType::String()), Field(1, "many", DataType::String()),
       Field(2, "few_ints", DataType::BigInt()), Field(3, "many_ints", DataType::BigInt()),
       Field(4, "grows", DataType::Int())});
  Generator gen(3);
  ColumnBatch batch(type);
  std::vector<ValueList> rows;
  for (int i = 0; i < 20000; ++i) {
    ValueList row = {Value::String("v" + std::to_string(gen.Int(0, 9))),
                     Value::String(gen.Word(10, 20)), Value::Int64(gen.Int(0, 5) * 1000000007),
                     Value::Int64(gen.Int(INT64_MIN, INT64_MAX)),
                     // Repeats at first, then unique: dictionary pages, then PLAIN pages.
                     Value::Int32(i < 10000 ? i % 7 : i)};
    ASSERT_OK(batch.AppendRow(row));
    rows.push_back(std::move(row));
  }
  std::string path = dir.path() + "/dict.parquet";
  WriterOptions options;
  options.options["parquet.page.size"] = "4096";
  options.options["parquet.dictionary.page.size"] = "16384";
  auto result = WriteParquet(path, type, {&batch}, options);
  ASSERT_OK(result);
  ExpectDuckDbReads(duck, path, *type, rows);
  auto enc = EncodingsByColumn(duck, path);
  EXPECT_EQ(enc["few"], "PLAIN_DICTIONARY, RLE");
  EXPECT_EQ(enc["few_ints"], "PLAIN_DICTIONARY, RLE");
  EXPECT_EQ(enc["many"], "RLE, PLAIN");
  EXPECT_EQ(enc["many_ints"], "RLE, PLAIN");
  EXPECT_EQ(enc["grows"], "PLAIN_DICTIONARY, RLE, PLAIN");
}

// The data pages of each column chunk of `path`: rows (levels) per page.
std::vector<std::vector<int32_t>> DataPageSizes(const std::string& path);

// A sorted column (each value greater than the one before, as a primary key in a data file) is
// kept PLAIN while the first page stays sorted, without the dictionary's hashing: its pages and
// encodings are the ones the dictionary rule gives the same values out of order, and a column
// that stops being sorted within the first page (here in its second slice of 4096 rows) still
// gets its dictionary.
TEST(ParquetWriterTest, SortedStringsFollowTheDictionaryRule) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type = DataType::Row({Field(0, "sorted", DataType::String()),
                                    Field(1, "reversed", DataType::String()),
                                    Field(2, "sorted_then_repeats", DataType::String())});
  constexpr int kRows = 50000;
  auto key = [](int i) {
    char text[16];
    std::snprintf(text, sizeof(text), "k%08d", i);
    return std::string(text);
  };
  ColumnBatch batch(type);
  std::vector<ValueList> rows;
  for (int i = 0; i < kRows; ++i) {
    ValueList row = {Value::String(key(i)), Value::String(key(kRows - 1 - i)),
                     Value::String(i < 5000 ? key(i) : key(i % 50))};
    ASSERT_OK(batch.AppendRow(row));
    rows.push_back(std::move(row));
  }
  // Parquet's defaults (the first page cut at 20,000 rows), then a dictionary limit that the
  // first slice passes (a fallback within the first page).
  for (const char* dictionary_page_size : {"1048576", "16384"}) {
    SCOPED_TRACE(dictionary_page_size);
    std::string path = dir.path() + "/sorted" + dictionary_page_size + ".parquet";
    WriterOptions options;
    options.options["parquet.dictionary.page.size"] = dictionary_page_size;
    auto result = WriteParquet(path, type, {&batch}, options);
    ASSERT_OK(result);
    ExpectDuckDbReads(duck, path, *type, rows);
    ExpectSluiceReads(path, type, rows);
    auto enc = EncodingsByColumn(duck, path);
    EXPECT_EQ(enc["sorted"], "RLE, PLAIN");
    EXPECT_EQ(enc["reversed"], "RLE, PLAIN");
    EXPECT_EQ(enc["sorted_then_repeats"], std::string(dictionary_page_size) == "16384"
                                              ? "RLE, PLAIN"
                                              : "PLAIN_DICTIONARY, RLE");
    auto pages = DataPageSizes(path);
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[0], pages[1]);
    EXPECT_GT(pages[0].size(), 1u);
  }
}

TEST(ParquetWriterTest, RowGroupsCutAtBlockSize) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type =
      DataType::Row({Field(0, "k", DataType::BigInt(false)), Field(1, "v", DataType::String())});
  Dataset first = MakeDataset(type, 30000, 10, 11);
  Dataset second = MakeDataset(type, 20000, 10, 12);
  std::string path = dir.path() + "/groups.parquet";
  WriterOptions options;
  options.compression = "snappy";
  options.options["parquet.block.size"] = "65536";
  options.options["parquet.page.size"] = "8192";
  auto result = WriteParquet(path, type, {first.batch.get(), second.batch.get()}, options);
  ASSERT_OK(result);
  EXPECT_EQ(result->row_count, 50000);
  std::vector<ValueList> rows = first.rows;
  rows.insert(rows.end(), second.rows.begin(), second.rows.end());
  ExpectDuckDbReads(duck, path, *type, rows);
  auto groups = duck.Query("SELECT count(*), sum(row_group_num_rows) FROM parquet_metadata(" +
                           DuckDbOracle::Quote(path) + ") WHERE column_id = 0");
  ASSERT_OK(groups);
  EXPECT_GT(std::stoi(*(*groups)[0][0]), 3);
  auto sizes = duck.Query("SELECT max(row_group_bytes) FROM parquet_metadata(" +
                          DuckDbOracle::Quote(path) + ")");
  ASSERT_OK(sizes);
  // A row group is cut within one slice of rows after it reaches the block size.
  EXPECT_LT(std::stoll(*(*sizes)[0][0]), 2 * 65536);
  auto file_meta = duck.Query("SELECT num_rows, created_by FROM parquet_file_metadata(" +
                              DuckDbOracle::Quote(path) + ")");
  ASSERT_OK(file_meta);
  EXPECT_EQ(*(*file_meta)[0][0], "50000");
  EXPECT_EQ(*(*file_meta)[0][1], kSluiceCreatedBy);
}

TEST(ParquetWriterTest, ManyBatchesAcrossRowGroupsAndPages) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type =
      DataType::Row({Field(0, "k", DataType::Int(false)), Field(1, "tag", DataType::String()),
                     Field(2, "items", DataType::Array(DataType::String())),
                     Field(3, "m", DataType::Map(DataType::Int(), DataType::Double()))});
  std::vector<Dataset> batches;
  std::vector<const ColumnBatch*> inputs;
  std::vector<ValueList> rows;
  // Batch sizes around the writer's slice size, and an empty batch.
  for (int64_t n : {1, 4095, 4096, 4097, 0, 7000, 333}) {
    batches.push_back(MakeDataset(type, n, 20, static_cast<uint32_t>(n + 5)));
  }
  for (const Dataset& d : batches) {
    inputs.push_back(d.batch.get());
    rows.insert(rows.end(), d.rows.begin(), d.rows.end());
  }
  for (bool dictionary : {true, false}) {
    std::string path = dir.path() + "/many" + (dictionary ? "d" : "p") + ".parquet";
    WriterOptions options;
    options.options["parquet.block.size"] = "200000";
    options.options["parquet.page.size"] = "10000";
    options.options["parquet.enable.dictionary"] = dictionary ? "true" : "false";
    auto result = WriteParquet(path, type, inputs, options);
    ASSERT_OK(result);
    EXPECT_EQ(result->row_count, static_cast<int64_t>(rows.size()));
    ExpectDuckDbReads(duck, path, *type, rows);
    ExpectSluiceReads(path, type, rows);
    auto enc = EncodingsByColumn(duck, path);
    if (dictionary) {
      // 300 distinct map keys: dictionary-encoded; random words: PLAIN after the first page.
      EXPECT_EQ(enc["m, key_value, key"], "PLAIN_DICTIONARY, RLE");
      EXPECT_EQ(enc["tag"], "RLE, PLAIN");
    } else {
      for (const auto& [column, encodings] : enc) EXPECT_EQ(encodings, "RLE, PLAIN") << column;
    }
  }
}

// The data pages of each column chunk of `path`: rows (levels) per page, walked through the page
// headers with the reader's thrift decoder.
std::vector<std::vector<int32_t>> DataPageSizes(const std::string& path) {
  std::string bytes = test::ReadFileOrFail(path);
  auto file = LocalFileIO()->OpenForRead(path);
  EXPECT_OK(file);
  auto meta = ReadFileMetaData(**file);
  EXPECT_OK(meta);
  std::vector<std::vector<int32_t>> out;
  if (!meta.ok()) return out;
  for (const RowGroup& rg : meta->row_groups) {
    for (const ColumnChunk& chunk : rg.columns) {
      const ColumnMetaData& m = *chunk.meta_data;
      int64_t pos = m.dictionary_page_offset.value_or(m.data_page_offset);
      int64_t end = pos + m.total_compressed_size;
      std::vector<int32_t> pages;
      while (pos < end) {
        PageHeader header;
        size_t consumed = 0;
        Status st = DecodePageHeader(std::string_view(bytes).substr(static_cast<size_t>(pos)),
                                     &header, &consumed);
        EXPECT_OK(st);
        if (!st.ok()) return out;
        if (header.data_page_header) pages.push_back(header.data_page_header->num_values);
        pos += static_cast<int64_t>(consumed) + header.compressed_page_size;
      }
      EXPECT_EQ(pos, end);
      out.push_back(std::move(pages));
    }
  }
  return out;
}

TEST(ParquetWriterTest, PagesCutAtRowCountAndSize) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type =
      DataType::Row({Field(0, "k", DataType::Int(false)), Field(1, "s", DataType::String())});
  Dataset data = MakeDataset(type, 50000, 10, 31);
  std::string path = dir.path() + "/pages.parquet";
  WriterOptions options;
  options.options["parquet.page.row.count.limit"] = "10000";
  options.options["parquet.page.size"] = "65536";
  auto result = WriteParquet(path, type, {data.batch.get()}, options);
  ASSERT_OK(result);
  ExpectDuckDbReads(duck, path, *type, data.rows);
  auto pages = DataPageSizes(path);
  ASSERT_EQ(pages.size(), 2u);
  // INT: 4-byte values reach 64 KiB after 16384 rows, so the row limit cuts first: at the first
  // slice boundary (4096 rows) past 10000.
  EXPECT_EQ(pages[0], (std::vector<int32_t>{12288, 12288, 12288, 12288, 848}));
  // Strings: the first page is dictionary-encoded (small indices) until the row limit, then
  // falls back to PLAIN; PLAIN pages of ~10.5-byte values reach 64 KiB within two slices.
  ASSERT_GT(pages[1].size(), 2u);
  EXPECT_EQ(pages[1][0], 12288);
  for (size_t i = 1; i + 1 < pages[1].size(); ++i) EXPECT_EQ(pages[1][i], 8192);
  int64_t total = 0;
  for (int32_t n : pages[1]) total += n;
  EXPECT_EQ(total, 50000);
}

TEST(ParquetWriterTest, PageIndexMatchesThePages) {
  TempDir dir;
  DataTypePtr type =
      DataType::Row({Field(0, "seq", DataType::BigInt(false)), Field(1, "s", DataType::String()),
                     Field(2, "f", DataType::Double()), Field(3, "ts9", DataType::Timestamp(9))});
  ColumnBatch batch(type);
  const int64_t rows = 30000;
  for (int64_t i = 0; i < rows; ++i) {
    // `s` is null in rows [8192, 16384): one all-null page.
    bool null_s = i >= 8192 && i < 16384;
    ASSERT_OK(batch.AppendRow(
        {Value::Int64(i * 3), null_s ? Value() : Value::String("v" + std::to_string(i % 977)),
         Value::Double(i == 20000 ? std::nan("") : 0.5 * i), Value::FromTimestamp({i, 0})}));
  }
  std::string path = dir.path() + "/index.parquet";
  WriterOptions options;
  options.options["parquet.page.row.count.limit"] = "8000";
  auto result = WriteParquet(path, type, {&batch}, options);
  ASSERT_OK(result);

  std::string bytes = test::ReadFileOrFail(path);
  auto file = LocalFileIO()->OpenForRead(path);
  ASSERT_OK(file);
  auto meta = ReadFileMetaData(**file);
  ASSERT_OK(meta);
  ASSERT_EQ(meta->row_groups.size(), 1u);
  const auto& columns = meta->row_groups[0].columns;
  auto pages = DataPageSizes(path);
  ASSERT_EQ(columns.size(), 4u);
  for (size_t c = 0; c < columns.size(); ++c) {
    ASSERT_TRUE(columns[c].offset_index_offset.has_value()) << c;
    OffsetIndex offsets;
    ASSERT_OK(DecodeOffsetIndex(
        std::string_view(bytes).substr(static_cast<size_t>(*columns[c].offset_index_offset),
                                       static_cast<size_t>(*columns[c].offset_index_length)),
        &offsets));
    ASSERT_EQ(offsets.page_locations.size(), pages[c].size()) << c;
    int64_t first_row = 0;
    int64_t expected_offset = columns[c].meta_data->data_page_offset;
    for (size_t p = 0; p < pages[c].size(); ++p) {
      const PageLocation& loc = offsets.page_locations[p];
      EXPECT_EQ(loc.first_row_index, first_row);
      EXPECT_EQ(loc.offset, expected_offset);
      first_row += pages[c][p];
      expected_offset += loc.compressed_page_size;
    }
  }
  auto column_index = [&](size_t c) {
    ColumnIndex index;
    EXPECT_OK(DecodeColumnIndex(
        std::string_view(bytes).substr(static_cast<size_t>(*columns[c].column_index_offset),
                                       static_cast<size_t>(*columns[c].column_index_length)),
        &index));
    return index;
  };
  // seq: pages of 8192 rows (the first slice boundary past 8000), ascending.
  ColumnIndex seq = column_index(0);
  ASSERT_EQ(seq.min_values.size(), 4u);
  EXPECT_EQ(seq.boundary_order, BoundaryOrder::kAscending);
  for (int p = 0; p < 4; ++p) {
    int64_t lo, hi;
    std::memcpy(&lo, seq.min_values[p].data(), 8);
    std::memcpy(&hi, seq.max_values[p].data(), 8);
    EXPECT_EQ(lo, p * 8192 * 3);
    EXPECT_EQ(hi, std::min<int64_t>((p + 1) * 8192, rows) * 3 - 3);
    EXPECT_FALSE(seq.null_pages[p]);
  }
  // s: the second page holds only nulls.
  ColumnIndex s = column_index(1);
  ASSERT_EQ(s.null_pages.size(), 4u);
  EXPECT_EQ(s.null_pages, (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(s.null_counts, (std::vector<int64_t>{0, 8192, 0, 0}));
  EXPECT_EQ(s.min_values[1], "");
  EXPECT_EQ(s.min_values[0], "v0");
  EXPECT_EQ(s.max_values[0], "v99");  // byte order: "v99" > "v976"
  // f holds a NaN and ts9 is INT96: no column index, as parquet-mr writes them.
  EXPECT_FALSE(columns[2].column_index_offset.has_value());
  EXPECT_FALSE(columns[3].column_index_offset.has_value());
}

TEST(ParquetWriterTest, EstimatedSizeTracksTheFile) {
  TempDir dir;
  DataTypePtr type =
      DataType::Row({Field(0, "a", DataType::BigInt()), Field(1, "s", DataType::String())});
  Dataset data = MakeDataset(type, 50000, 5, 21);
  std::string path = dir.path() + "/size.parquet";
  auto file = LocalFileIO()->OpenForWrite(path, true);
  ASSERT_OK(file);
  WriterOptions options;
  options.compression = "none";
  options.options["parquet.enable.dictionary"] = "false";
  auto writer = ParquetFormat()->CreateWriter(std::move(*file), type, options);
  ASSERT_OK(writer);
  int64_t before = (*writer)->EstimatedSize();
  ASSERT_OK((*writer)->Write(*data.batch));
  int64_t estimate = (*writer)->EstimatedSize();
  auto result = (*writer)->Finish();
  ASSERT_OK(result);
  EXPECT_LT(before, 100);
  // Uncompressed and PLAIN: the estimate is the data give or take headers, footer and levels.
  EXPECT_GT(estimate, result->file_size * 9 / 10);
  EXPECT_LT(estimate, result->file_size * 11 / 10);
}

TEST(ParquetWriterTest, EmptyFileIsValid) {
  TempDir dir;
  DuckDbOracle duck;
  DataTypePtr type = RowOf(PrimitiveTypes(true));
  std::string path = dir.path() + "/empty.parquet";
  auto result = WriteParquet(path, type, {});
  ASSERT_OK(result);
  EXPECT_EQ(result->row_count, 0);
  auto count = duck.Query("SELECT count(*) FROM read_parquet(" + DuckDbOracle::Quote(path) + ")");
  ASSERT_OK(count);
  EXPECT_EQ(*(*count)[0][0], "0");
  EXPECT_EQ(result->file_size, static_cast<int64_t>(test::ReadFileOrFail(path).size()));
}

// --- Invalid input ---

TEST(ParquetWriterTest, RejectsInvalidInput) {
  TempDir dir;
  DataTypePtr type =
      DataType::Row({Field(0, "a", DataType::Int(false)), Field(1, "d", DataType::Decimal(5, 2))});
  auto open = [&](const std::string& name) {
    auto file = LocalFileIO()->OpenForWrite(dir.path() + "/" + name, true);
    EXPECT_OK(file);
    auto writer = ParquetFormat()->CreateWriter(std::move(*file), type, WriterOptions());
    EXPECT_OK(writer);
    return std::move(*writer);
  };
  {
    // A batch of another type.
    DataTypePtr other = DataType::Row(
        {Field(0, "a", DataType::BigInt(false)), Field(1, "d", DataType::Decimal(5, 2))});
    ColumnBatch batch(other);
    ASSERT_OK(batch.AppendRow({Value::Int64(1), Value()}));
    Status st = open("mismatch.parquet")->Write(batch);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("column 'a'"), std::string::npos) << st.message();
  }
  {
    // A decimal beyond DECIMAL(5, 2).
    ColumnBatch batch(type);
    ASSERT_OK(batch.AppendRow({Value::Int32(1), Value::FromDecimal({99999, 5, 2})}));
    ASSERT_OK(batch.AppendRow({Value::Int32(2), Value::FromDecimal({-100000, 5, 2})}));
    Status st = open("decimal.parquet")->Write(batch);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("-100000 does not fit DECIMAL(5, 2)"), std::string::npos)
        << st.message();
  }
  {
    // A null in a NOT NULL column.
    ColumnBatch batch(type);
    ASSERT_OK(batch.AppendRow({Value::Int32(1), Value()}));
    batch.column(0)->MutableValidity()[0] = 0;
    Status st = open("null.parquet")->Write(batch);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("null value in NOT NULL"), std::string::npos) << st.message();
  }
  {
    // Offsets that point past the element vector.
    DataTypePtr list_type = DataType::Row({Field(0, "l", DataType::Array(DataType::Int()))});
    ColumnBatch batch(list_type);
    ASSERT_OK(batch.AppendRow({Value::Array({Value::Int32(1), Value::Int32(2)})}));
    batch.column(0)->offset_data()[1] = 1000;
    auto file = LocalFileIO()->OpenForWrite(dir.path() + "/offsets.parquet", true);
    ASSERT_OK(file);
    auto writer = ParquetFormat()->CreateWriter(std::move(*file), list_type, WriterOptions());
    ASSERT_OK(writer);
    Status st = (*writer)->Write(batch);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(st.message().find("column 'l': offsets run past the elements"), std::string::npos)
        << st.message();
  }
  {
    // Options.
    auto file = LocalFileIO()->OpenForWrite(dir.path() + "/opts.parquet", true);
    ASSERT_OK(file);
    WriterOptions options;
    options.compression = "lz4_frame";
    EXPECT_TRUE(test::HasError(ParquetFormat()->CreateWriter(std::move(*file), type, options),
                               StatusCode::kNotSupported,
                               {"opts.parquet", "compression 'lz4_frame' has no Parquet codec"}));
    file = LocalFileIO()->OpenForWrite(dir.path() + "/opts2.parquet", true);
    options = WriterOptions();
    options.options["parquet.page.size"] = "-1";
    EXPECT_TRUE(test::HasError(ParquetFormat()->CreateWriter(std::move(*file), type, options),
                               StatusCode::kInvalidArgument,
                               {"option parquet.page.size = '-1' is not a positive size"}));
  }
  {
    // Types Parquet files of Paimon cannot hold.
    auto file = LocalFileIO()->OpenForWrite(dir.path() + "/variant.parquet", true);
    ASSERT_OK(file);
    auto w = ParquetFormat()->CreateWriter(
        std::move(*file), DataType::Row({Field(0, "v", DataType::Variant())}), WriterOptions());
    EXPECT_TRUE(test::HasError(w, StatusCode::kNotSupported, {"column 'v'", "VARIANT"}));
  }
}

// Counts the bytes read through it.
class CountingFile : public RandomAccessFile {
 public:
  explicit CountingFile(std::shared_ptr<RandomAccessFile> base) : base_(std::move(base)) {}
  const std::string& path() const override { return base_->path(); }
  int64_t size() const override { return base_->size(); }
  Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
    bytes_read_ += n;
    return base_->ReadAt(offset, n, out);
  }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  std::shared_ptr<RandomAccessFile> base_;
  mutable int64_t bytes_read_ = 0;
};

TEST(ParquetWriterTest, OneHugeRowGroupIsReadPageByPage) {
  // One row group of 2M rows in pages of 20000 rows: the first batch reads (and decodes) only
  // the first pages, not the row group.
  TempDir dir;
  DataTypePtr type = DataType::Row(
      {Field(0, "a", DataType::BigInt(false)), Field(1, "d", DataType::Double(false))});
  const int64_t rows = 2000000;
  ColumnBatch batch(type);
  batch.column(0)->Resize(rows);
  batch.column(1)->Resize(rows);
  for (int64_t i = 0; i < rows; ++i) {
    batch.column(0)->values().as<int64_t>()[i] = i;
    batch.column(1)->values().as<double>()[i] = 0.5 * static_cast<double>(i);
  }
  batch.set_num_rows(rows);
  std::string path = dir.path() + "/huge.parquet";
  WriterOptions options;
  options.compression = "none";
  options.options["file.block-size"] = "1 gb";
  auto result = WriteParquet(path, type, {&batch}, options);
  ASSERT_OK(result);

  auto f = LocalFileIO()->OpenForRead(path);
  ASSERT_OK(f);
  auto counting = std::make_shared<CountingFile>(std::move(f).value());
  auto meta = ReadFileMetaData(*counting);
  ASSERT_OK(meta);
  ASSERT_EQ(meta->row_groups.size(), 1u);
  ReaderOptions read_options;
  read_options.batch_size = 1000;
  auto reader = OpenParquetReader(counting, type, read_options);
  ASSERT_OK(reader);
  ColumnBatch out(type);
  auto more = (*reader)->Next(&out);
  ASSERT_OK(more);
  ASSERT_TRUE(*more);
  EXPECT_LT(counting->bytes_read(), counting->size() / 4)
      << "the first batch read " << counting->bytes_read() << " of " << counting->size();
  int64_t next = 0;
  while (true) {
    for (int64_t i = 0; i < out.num_rows(); ++i, ++next) {
      ASSERT_EQ(out.column(0)->data<int64_t>()[i], next);
      ASSERT_EQ(out.column(1)->data<double>()[i], 0.5 * static_cast<double>(next));
    }
    more = (*reader)->Next(&out);
    ASSERT_OK(more);
    if (!*more) break;
  }
  EXPECT_EQ(next, rows);
}

TEST(ParquetWriterTest, NullsAfterPagesWithoutNullsReadBack) {
  // The reader leaves the definition levels of pages without nulls unmaterialised
  // (ColumnChunkData::def_levels) and fills them in when a later page of the chunk brings nulls;
  // read whole, in small batches across pages, and at chosen rows (other pages skipped).
  TempDir dir;
  DataTypePtr type = DataType::Row(
      {Field(0, "k", DataType::Int(false)), Field(1, "v", DataType::BigInt()),
       Field(2, "s", DataType::String()), Field(3, "items", DataType::Array(DataType::Int())),
       Field(4, "rec", DataType::Row({Field(5, "x", DataType::Int())}))});
  const int64_t n = 60000;
  ColumnBatch batch(type);
  std::vector<ValueList> rows;
  for (int64_t i = 0; i < n; ++i) {
    const int32_t k = static_cast<int32_t>(i);
    Value v = (i >= 30000 && i < 30100) || (i >= 50000 && i % 7 == 0) ? Value::Null()
                                                                      : Value::Int64(i * 3);
    Value s = i >= 45000 && i % 3 == 0 ? Value::Null() : Value::String("s" + std::to_string(i));
    Value items =
        i >= 20000 && i < 20010 ? Value::Null() : Value::Array({Value::Int32(k), Value::Int32(-k)});
    Value x = i >= 55000 && i % 5 == 0 ? Value::Null() : Value::Int32(k + 1);
    ValueList row{Value::Int32(k), v, s, items, Value::Row({x})};
    ASSERT_OK(batch.AppendRow(row));
    rows.push_back(std::move(row));
  }
  std::string path = dir.path() + "/late_nulls.parquet";
  WriterOptions options;
  options.options["parquet.page.row.count.limit"] = "4096";
  auto result = WriteParquet(path, type, {&batch}, options);
  ASSERT_OK(result);
  ExpectSluiceReads(path, type, rows);

  auto file = LocalFileIO()->OpenForRead(path);
  ASSERT_OK(file);
  std::shared_ptr<RandomAccessFile> shared(std::move(*file));
  ReaderOptions read_options;
  read_options.row_positions =
      std::vector<int64_t>{5, 19999, 20005, 29999, 30000, 30099, 45000, 45001, 50000, 59999};
  auto reader = ParquetFormat()->CreateReader(shared, type, read_options);
  ASSERT_OK(reader);
  ColumnBatch out(type);
  size_t next = 0;
  while (true) {
    auto more = (*reader)->Next(&out);
    ASSERT_OK(more);
    if (!*more) break;
    for (int64_t r = 0; r < out.num_rows(); ++r, ++next) {
      ASSERT_LT(next, read_options.row_positions->size());
      int64_t at = (*read_options.row_positions)[next];
      EXPECT_EQ(out.GetRow(r), Value::Row(rows[static_cast<size_t>(at)])) << "row " << at;
    }
  }
  EXPECT_EQ(next, read_options.row_positions->size());
}

}  // namespace
}  // namespace sluice::parquet
