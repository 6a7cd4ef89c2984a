// Round trips through our ORC writer and reader: every type, nulls, nesting, every codec,
// dictionary and direct strings, several stripes, statistics, pruning, row positions and
// projection.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sluice/format/orc/orc_file_format.h"
#include "sluice/format/orc/orc_reader.h"
#include "sluice/fs/file_io.h"
#include "sluice/predicate/predicate.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::orc {
namespace {

using test::Field;

DataTypePtr AllTypes() {
  return DataType::Row({
      Field(0, "id", DataType::Int(false)),
      Field(1, "b", DataType::Boolean()),
      Field(2, "t", DataType::TinyInt()),
      Field(3, "s", DataType::SmallInt()),
      Field(4, "l", DataType::BigInt()),
      Field(5, "f", DataType::Float()),
      Field(6, "d", DataType::Double()),
      Field(7, "dec", DataType::Decimal(10, 2)),
      Field(8, "bigdec", DataType::Decimal(30, 5)),
      Field(9, "ch", DataType::Char(5)),
      Field(10, "vc", DataType::VarChar(10)),
      Field(11, "str", DataType::String()),
      Field(12, "bin", DataType::Bytes()),
      Field(13, "date", DataType::Date()),
      Field(14, "time", DataType::Time()),
      Field(15, "ts3", DataType::Timestamp(3)),
      Field(16, "ts9", DataType::Timestamp(9)),
      Field(17, "ltz", DataType::TimestampLtz(6)),
      Field(18, "ints", DataType::Array(DataType::Int())),
      Field(19, "strs", DataType::Array(DataType::String())),
      Field(20, "m", DataType::Map(DataType::String(false), DataType::BigInt())),
      Field(21, "ms", DataType::Multiset(DataType::String(false))),
      Field(22, "row",
            DataType::Row(
                {Field(23, "x", DataType::Int()), Field(24, "y", DataType::String()),
                 Field(25, "inner",
                       DataType::Array(DataType::Row({Field(26, "z", DataType::BigInt())})))})),
  });
}

// Deterministic values; every column is null on some rows (but not `id`).
ValueList MakeRow(int i) {
  auto null_every = [&](int k) { return i % k == k - 1; };
  auto v = [&](int k, Value x) { return null_every(k) ? Value() : x; };
  int64_t big = static_cast<int64_t>(i) * 1000003 - 500000000;
  ValueList inner;
  for (int k = 0; k < i % 3; ++k) inner.push_back(Value::Row({Value::Int64(big + k)}));
  ValueList ints;
  for (int k = 0; k < i % 4; ++k) ints.push_back(k == 2 ? Value() : Value::Int32(i * 10 + k));
  ValueList strs;
  for (int k = 0; k < i % 3; ++k) strs.push_back(Value::String("s" + std::to_string(i % 7 + k)));
  ValuePairs map;
  for (int k = 0; k < i % 3; ++k) {
    map.emplace_back(Value::String("k" + std::to_string(k)),
                     k == 1 ? Value() : Value::Int64(big * k));
  }
  ValuePairs multiset;
  if (i % 2 == 0)
    multiset.emplace_back(Value::String("m" + std::to_string(i % 5)), Value::Int32(2));
  return {
      Value::Int32(i),
      v(7, Value::Boolean(i % 3 == 0)),
      v(11, Value::Int8(static_cast<int8_t>(i % 256 - 128))),
      v(13, Value::Int16(static_cast<int16_t>(i * 37 % 65536 - 32768))),
      v(5, Value::Int64(i % 17 == 0 ? INT64_MIN + i : big * 4099)),
      v(9, Value::Float(static_cast<float>(i) * 0.25f - 100.0f)),
      v(8, Value::Double(i * 1.0 / 7.0 - 3.0)),
      v(6, Value::FromDecimal(Decimal{big % 10000000000, 10, 2})),
      v(10, Value::FromDecimal(
                Decimal{static_cast<int128_t>(big) * 1000000000000LL * (i % 2 ? -1 : 1), 30, 5})),
      v(4, Value::String(std::string("c") + std::to_string(i % 10))),
      v(12, Value::String("v" + std::to_string(i % 50))),
      v(3, Value::String(i % 4 == 0 ? std::string() : "unique string " + std::to_string(i))),
      v(14, Value::Binary(std::string("\0\1\2", 3) + std::to_string(i))),
      v(15, Value::Int32(i * 3 - 20000)),
      v(16, Value::Int32((i * 7919) % 86400000)),
      v(17, Value::FromTimestamp(Timestamp{big * 97, 0})),
      v(18, Value::FromTimestamp(Timestamp{big * 1001 - 5, (i * 7777) % 1000000})),
      v(19, Value::FromTimestamp(Timestamp{big * 13, (i % 1000) * 1000})),
      v(20, Value::Array(ints)),
      v(21, Value::Array(strs)),
      v(22, Value::Map(map)),
      v(23, Value::Map(multiset)),
      v(24, Value::Row({v(2, Value::Int32(-i)), Value::String("row" + std::to_string(i % 9)),
                        Value::Array(inner)})),
  };
}

std::string WriteFile(const std::string& path, const DataTypePtr& type, int rows,
                      const WriterOptions& options, WriteResult* result = nullptr,
                      int batch_rows = 700) {
  auto file = LocalFileIO()->OpenForWrite(path, true);
  EXPECT_OK(file);
  auto writer = OrcFormat()->CreateWriter(std::move(*file), type, options);
  EXPECT_OK(writer);
  ColumnBatch batch(type);
  for (int i = 0; i < rows; ++i) {
    Status st = batch.AppendRow(MakeRow(i));
    EXPECT_OK(st);
    if (batch.num_rows() == batch_rows || i + 1 == rows) {
      st = (*writer)->Write(batch);
      EXPECT_OK(st);
      batch.Clear();
    }
  }
  auto res = (*writer)->Finish();
  EXPECT_OK(res);
  if (result != nullptr && res.ok()) *result = *res;
  return path;
}

std::unique_ptr<OrcReader> Open(const std::string& path, DataTypePtr type,
                                const ReaderOptions& options = {}) {
  auto file = LocalFileIO()->OpenForRead(path);
  EXPECT_OK(file);
  auto reader = OrcReader::Open(std::shared_ptr<RandomAccessFile>(std::move(*file)), type, options);
  EXPECT_OK(reader);
  return reader.ok() ? std::move(*reader) : nullptr;
}

std::vector<Value> ReadRows(OrcReader* reader) {
  std::vector<Value> rows;
  ColumnBatch batch(reader->read_type());
  while (true) {
    auto more = reader->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(batch.GetRow(i));
  }
  return rows;
}

class OrcRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(OrcRoundTripTest, EveryTypeEveryCodec) {
  test::TempDir dir;
  WriterOptions options;
  options.compression = GetParam();
  options.options["orc.compress.size"] = "4096";  // several chunks per stream
  options.options["orc.row.index.stride"] = "100";
  constexpr int kRows = 2500;
  DataTypePtr type = AllTypes();
  WriteResult result;
  std::string path = WriteFile(dir.path() + "/all.orc", type, kRows, options, &result);
  EXPECT_EQ(result.row_count, kRows);
  auto reader = Open(path, type);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->num_rows(), kRows);
  std::vector<Value> rows = ReadRows(reader.get());
  ASSERT_EQ(rows.size(), static_cast<size_t>(kRows));
  for (int i = 0; i < kRows; ++i) {
    Value expected = Value::Row(MakeRow(i));
    ASSERT_EQ(rows[static_cast<size_t>(i)], expected)
        << "row " << i << "\n got " << rows[static_cast<size_t>(i)].DebugString() << "\nwant "
        << expected.DebugString();
  }
  // Chosen rows: the reader seeks through the row index (100-row groups, 4 KiB chunks).
  ReaderOptions ro;
  ro.row_positions = std::vector<int64_t>{};
  for (int64_t p = 3; p < kRows; p += 131) ro.row_positions->push_back(p);
  ro.row_positions->push_back(kRows - 1);
  auto chosen = Open(path, type, ro);
  ASSERT_NE(chosen, nullptr);
  std::vector<Value> picked = ReadRows(chosen.get());
  ASSERT_EQ(picked.size(), ro.row_positions->size());
  for (size_t i = 0; i < picked.size(); ++i) {
    int row = static_cast<int>((*ro.row_positions)[i]);
    ASSERT_EQ(picked[i], Value::Row(MakeRow(row))) << "row " << row;
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, OrcRoundTripTest,
                         ::testing::Values("none", "zlib", "snappy", "lz4", "zstd"));

TEST(OrcWriterTest, FileSchemaCarriesPaimonIds) {
  test::TempDir dir;
  std::string path = WriteFile(dir.path() + "/ids.orc", AllTypes(), 10, WriterOptions{});
  auto reader = Open(path, nullptr);
  ASSERT_NE(reader, nullptr);
  const auto& types = reader->tail().footer.types;
  // map `m` (id 20): key 536870911 - 20 * 1024 - 1, value 536870911 + 20 * 1024 + 1.
  const OrcType& root = types[0];
  const OrcType* map = nullptr;
  for (size_t i = 0; i < root.field_names.size(); ++i) {
    if (root.field_names[i] == "m") map = &types[root.subtypes[i]];
  }
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(*map->FindAttribute("paimon.id"), "20");
  EXPECT_EQ(*types[map->subtypes[0]].FindAttribute("paimon.id"),
            std::to_string(536870911 - 20 * 1024 - 1));
  EXPECT_EQ(*types[map->subtypes[1]].FindAttribute("paimon.id"),
            std::to_string(536870911 + 20 * 1024 + 1));
  // The file schema read back keeps names and ids.
  DataTypePtr file_type = reader->read_type();
  ASSERT_EQ(file_type->num_fields(), AllTypes()->num_fields());
  for (int i = 0; i < file_type->num_fields(); ++i) {
    EXPECT_EQ(file_type->fields()[static_cast<size_t>(i)].name,
              AllTypes()->fields()[static_cast<size_t>(i)].name);
    EXPECT_EQ(file_type->fields()[static_cast<size_t>(i)].id,
              AllTypes()->fields()[static_cast<size_t>(i)].id);
  }
}

TEST(OrcWriterTest, StatisticsDictionaryAndStripes) {
  test::TempDir dir;
  WriterOptions options;
  options.options["orc.stripe.size"] = "20000";  // many stripes
  WriteResult result;
  constexpr int kRows = 6000;
  std::string path = WriteFile(dir.path() + "/stats.orc", AllTypes(), kRows, options, &result, 500);
  ASSERT_EQ(result.stats.size(), static_cast<size_t>(AllTypes()->num_fields()));
  EXPECT_EQ(result.stats[0].min, Value::Int32(0));
  EXPECT_EQ(result.stats[0].max, Value::Int32(kRows - 1));
  EXPECT_EQ(result.stats[0].null_count, 0);
  EXPECT_EQ(result.stats[1].null_count, kRows / 7);
  EXPECT_EQ(result.stats[10].min, Value::String("v0"));
  EXPECT_EQ(result.stats[10].max, Value::String("v9"));
  EXPECT_EQ(result.stats[13].min, Value::Int32(-20000));
  auto reader = Open(path, AllTypes());
  ASSERT_NE(reader, nullptr);
  EXPECT_GT(reader->tail().footer.stripes.size(), 2u);
  EXPECT_EQ(reader->tail().stripe_statistics.size(), reader->tail().footer.stripes.size());
  EXPECT_EQ(ReadRows(reader.get()).size(), static_cast<size_t>(kRows));
}

TEST(OrcReaderTest, PredicateSkipsStripes) {
  test::TempDir dir;
  WriterOptions options;
  options.options["orc.stripe.size"] = "20000";
  std::string path = WriteFile(dir.path() + "/p.orc", AllTypes(), 6000, options, nullptr, 500);
  ReaderOptions ro;
  ro.predicate = Predicate::Leaf(PredicateOp::kGreaterOrEqual, 0, "id", DataType::Int(false),
                                 {Value::Int32(5500)});
  auto reader = Open(path, AllTypes(), ro);
  ASSERT_NE(reader, nullptr);
  std::vector<Value> rows = ReadRows(reader.get());
  EXPECT_GT(reader->stripes_skipped(), 0);
  ASSERT_FALSE(rows.empty());
  EXPECT_LT(rows.size(), 6000u);
  // Every row with id >= 5500 is still there (pruning never drops matching rows).
  int matching = 0;
  for (const Value& r : rows) matching += r.list()[0].int32() >= 5500;
  EXPECT_EQ(matching, 500);
}

TEST(OrcReaderTest, PredicateSkipsRowGroups) {
  test::TempDir dir;
  WriterOptions options;
  options.options["orc.row.index.stride"] = "100";
  std::string path = WriteFile(dir.path() + "/rg.orc", AllTypes(), 3000, options);
  ReaderOptions ro;
  ro.predicate =
      Predicate::Leaf(PredicateOp::kLessThan, 0, "id", DataType::Int(false), {Value::Int32(250)});
  auto reader = Open(path, AllTypes(), ro);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->tail().footer.row_index_stride, 100u);
  std::vector<Value> rows = ReadRows(reader.get());
  EXPECT_EQ(reader->row_groups_skipped(), 27);
  ASSERT_EQ(rows.size(), 300u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i], Value::Row(MakeRow(static_cast<int>(i))));
  }
}

TEST(OrcReaderTest, RowPositions) {
  test::TempDir dir;
  WriterOptions options;
  options.options["orc.stripe.size"] = "20000";
  std::string path = WriteFile(dir.path() + "/pos.orc", AllTypes(), 6000, options, nullptr, 500);
  ReaderOptions ro;
  ro.row_positions = std::vector<int64_t>{0, 1, 7, 1234, 1235, 4000, 5999};
  ro.batch_size = 3;
  auto reader = Open(path, AllTypes(), ro);
  ASSERT_NE(reader, nullptr);
  std::vector<Value> rows = ReadRows(reader.get());
  ASSERT_EQ(rows.size(), ro.row_positions->size());
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i], Value::Row(MakeRow(static_cast<int>((*ro.row_positions)[i])))) << i;
  }
}

TEST(OrcReaderTest, ProjectionByIdAndByNameAndMissingColumns) {
  test::TempDir dir;
  std::string path = WriteFile(dir.path() + "/proj.orc", AllTypes(), 50, WriterOptions{});
  // `renamed` has the id of `str` (11): matched by id. `absent` (id 99) reads as null.
  DataTypePtr read =
      DataType::Row({Field(13, "date", DataType::Date()), Field(11, "renamed", DataType::String()),
                     Field(99, "absent", DataType::Int()), Field(0, "id", DataType::BigInt())});
  auto reader = Open(path, read);
  ASSERT_NE(reader, nullptr);
  std::vector<Value> rows = ReadRows(reader.get());
  ASSERT_EQ(rows.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    ValueList full = MakeRow(i);
    const ValueList& got = rows[static_cast<size_t>(i)].list();
    EXPECT_EQ(got[0], full[13]);
    EXPECT_EQ(got[1], full[11]);
    EXPECT_TRUE(got[2].is_null());
    EXPECT_EQ(got[3], Value::Int64(i));  // INT widened to BIGINT
  }
}

}  // namespace
}  // namespace sluice::orc
