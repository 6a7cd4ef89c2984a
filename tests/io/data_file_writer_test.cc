// RollingDataFileWriter: files roll at target-file-size, names follow Java, and every
// DataFileMeta field equals what re-reading the file gives (row count, size, keys, sequence
// numbers, stats per stats mode, delete rows).
#include <gtest/gtest.h>

#include <regex>

#include "sluice/format/file_format_registry.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/io/simple_stats_converter.h"
#include "sluice/io/stats_mode.h"
#include "sluice/meta/file_paths.h"
#include "sluice/row/binary_row.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

std::shared_ptr<const TableSchema> MakeSchema(std::vector<DataField> fields,
                                              std::vector<std::string> pk, TableOptions options) {
  int32_t highest = 0;
  for (const DataField& f : fields) highest = std::max(highest, f.id);
  auto schema = TableSchema::Make(3, 0, std::move(fields), highest, {}, std::move(pk),
                                  std::move(options), std::nullopt, 0);
  EXPECT_OK(schema);
  return std::make_shared<const TableSchema>(std::move(schema).value());
}

// Reads a whole data file as `type`.
std::vector<Value> ReadRows(const std::string& path, const std::string& format, DataTypePtr type) {
  auto fmt = FileFormatByName(format).value();
  auto file = LocalFileIO()->OpenForRead(path);
  EXPECT_OK(file);
  auto reader = fmt->CreateReader(std::shared_ptr<RandomAccessFile>(std::move(file).value()), type,
                                  ReaderOptions{});
  EXPECT_OK(reader);
  std::vector<Value> rows;
  ColumnBatch batch(type);
  while (true) {
    auto more = (*reader)->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(batch.GetRow(i));
  }
  return rows;
}

TEST(StatsModeTest, ParsesAndTruncatesAsJava) {
  EXPECT_EQ(StatsMode::Parse("TRUNCATE(16)").value(), StatsMode::Truncate(16));
  EXPECT_EQ(StatsMode::Parse("none").value(), StatsMode::None());
  for (std::string_view bad : {"truncate(0)", "truncate(x)", "some"}) {
    EXPECT_TRUE(test::HasError(StatsMode::Parse(bad), StatusCode::kInvalidArgument,
                               {"unknown stats mode '" + std::string(bad) + "'"}));
  }

  ColumnStats s{Value::String("Two roads diverged in a yellow wood"),
                Value::String("Two roads diverged in a yellow wood"), 3};
  ColumnStats t = ApplyStatsMode(s, StatsMode::Truncate(16), *DataType::String());
  EXPECT_EQ(t.min->bytes(), "Two roads diverg");
  EXPECT_EQ(t.max->bytes(), "Two roads diverh");
  EXPECT_EQ(t.null_count, 3);
  // Multi-byte characters count as one; the max rounds up the last kept character.
  ColumnStats u{Value::String("\xC3\xA9\xC3\xA9\xC3\xA9"),
                Value::String("\xC3\xA9\xC3\xA9\xC3\xA9"), 0};
  ColumnStats tu = ApplyStatsMode(u, StatsMode::Truncate(2), *DataType::String());
  EXPECT_EQ(tu.min->bytes(), "\xC3\xA9\xC3\xA9");
  EXPECT_EQ(tu.max->bytes(), "\xC3\xA9\xC3\xAA");
  // A binary max of 0xFF bytes cannot be rounded up: min and max are dropped.
  ColumnStats b{Value::Binary(std::string(4, '\xFF')), Value::Binary(std::string(4, '\xFF')), 0};
  ColumnStats tb = ApplyStatsMode(b, StatsMode::Truncate(2), *DataType::Bytes());
  EXPECT_FALSE(tb.min.has_value());
  EXPECT_FALSE(tb.max.has_value());
  EXPECT_EQ(tb.null_count, 0);
  ColumnStats c = ApplyStatsMode(s, StatsMode{StatsMode::Kind::kCounts, 0}, *DataType::String());
  EXPECT_FALSE(c.min.has_value());
  EXPECT_EQ(c.null_count, 3);
  EXPECT_FALSE(ApplyStatsMode(s, StatsMode::None(), *DataType::String()).null_count.has_value());
}

TEST(StatsModeTest, ModePerColumnFollowsStatsCollectorFactories) {
  auto options = CoreOptions::Make({{"metadata.stats-mode", "counts"},
                                    {"fields.b.stats-mode", "full"},
                                    {"metadata.stats-keep-first-n-columns", "2"}})
                     .value();
  auto modes = StatsModesOfColumns(
                   options, {"_KEY_a", "_SEQUENCE_NUMBER", "_VALUE_KIND", "a", "b", "c", "d"},
                   /*avro_file=*/false)
                   .value();
  const StatsMode counts{StatsMode::Kind::kCounts, 0};
  const StatsMode full{StatsMode::Kind::kFull, 0};
  EXPECT_EQ(modes, (std::vector<StatsMode>{StatsMode::Truncate(128), StatsMode::Truncate(128),
                                           StatsMode::Truncate(128), counts, full,
                                           StatsMode::None(), StatsMode::None()}));
  auto avro = StatsModesOfColumns(options, {"_KEY_a", "a"}, /*avro_file=*/true).value();
  EXPECT_EQ(avro, (std::vector<StatsMode>{counts, counts}));
}

class DataFileWriterTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DataFileWriterTest, AppendFilesRollAndDescribeThemselves) {
  test::TempDir dir;
  const std::string format = GetParam();
  auto schema = MakeSchema(
      {Field(0, "id", DataType::Int(false)), Field(1, "name", DataType::String()),
       Field(2, "score", DataType::Double())},
      {},
      {{"file.format", format}, {"target-file-size", "1 b"}, {"fields.score.stats-mode", "none"}});
  auto options = CoreOptions::FromSchema(*schema).value();
  auto factory =
      DataFileWriterFactory::Make(LocalFileIO(), schema, options, dir.path() + "/bucket-0").value();
  auto writer = factory->NewAppendWriter(/*first_sequence_number=*/7);
  ColumnBatch batch(schema->LogicalRowType());
  const std::string long_name(40, 'x');
  for (int i = 0; i < 2500; ++i) {
    ASSERT_OK(
        batch.AppendRow({Value::Int32(i),
                         i % 10 == 0 ? Value::Null() : Value::String(long_name + std::to_string(i)),
                         Value::Double(i * 0.5)}));
  }
  batch.set_num_rows(2500);
  ASSERT_OK(writer->Write(batch));
  auto files = writer->Close();
  ASSERT_OK(files);
  // Java checks the size every 1000 rows: 1000 + 1000 + 500.
  ASSERT_EQ(files->size(), 3u);
  const std::regex name_re(
      "data-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-([0-9]+)\\." +
      format);
  int64_t expected_seq = 7;
  for (size_t f = 0; f < files->size(); ++f) {
    const DataFileMeta& meta = (*files)[f];
    std::smatch m;
    ASSERT_TRUE(std::regex_match(meta.file_name, m, name_re)) << meta.file_name;
    EXPECT_EQ(m[1].str(), std::to_string(f));
    const std::string path = dir.path() + "/bucket-0/" + meta.file_name;
    EXPECT_EQ(meta.file_size, LocalFileIO()->GetStatus(path).value().size);
    std::vector<Value> rows = ReadRows(path, format, schema->LogicalRowType());
    EXPECT_EQ(meta.row_count, static_cast<int64_t>(rows.size()));
    EXPECT_EQ(meta.row_count, f < 2 ? 1000 : 500);
    EXPECT_EQ(meta.min_sequence_number, expected_seq);
    EXPECT_EQ(meta.max_sequence_number, expected_seq + meta.row_count - 1);
    expected_seq += meta.row_count;
    EXPECT_EQ(meta.level, 0);
    EXPECT_EQ(meta.file_source, FileSource::kAppend);
    EXPECT_EQ(meta.delete_row_count, 0);
    EXPECT_EQ(meta.min_key, EmptySerializedRow());
    EXPECT_EQ(meta.key_stats, EmptySimpleStats());
    EXPECT_TRUE(meta.creation_time.has_value());
    // `score` has stats mode none: dense stats keep id and name only.
    ASSERT_TRUE(meta.value_stats_cols.has_value());
    EXPECT_EQ(*meta.value_stats_cols, (std::vector<std::string>{"id", "name"}));
    auto stats_type =
        DataType::Row({Field(0, "id", DataType::Int()), Field(1, "name", DataType::String())});
    ValueList mins = DecodeSerializedBinaryRow(meta.value_stats.min_values, *stats_type).value();
    ValueList maxs = DecodeSerializedBinaryRow(meta.value_stats.max_values, *stats_type).value();
    int32_t lo = rows.front().list()[0].int32();
    int32_t hi = rows.back().list()[0].int32();
    int64_t nulls = 0;
    for (const Value& r : rows) nulls += r.list()[1].is_null();
    EXPECT_EQ(mins[0], Value::Int32(lo));
    EXPECT_EQ(maxs[0], Value::Int32(hi));
    ASSERT_TRUE(meta.value_stats.null_counts.has_value());
    EXPECT_EQ((*meta.value_stats.null_counts)[0], 0);
    EXPECT_EQ((*meta.value_stats.null_counts)[1], nulls);
    // truncate(16): the name statistics are cut to 16 characters, the max rounded up.
    EXPECT_EQ(mins[1].bytes(), std::string(16, 'x'));
    EXPECT_EQ(maxs[1].bytes(), std::string(15, 'x') + "y");
  }
}

TEST_P(DataFileWriterTest, KeyValueFilesHoldKeysSequenceAndKinds) {
  test::TempDir dir;
  const std::string format = GetParam();
  auto schema = MakeSchema({Field(0, "k", DataType::BigInt(false)),
                            Field(1, "v", DataType::String()), Field(2, "n", DataType::Int())},
                           {"k"}, {{"file.format", format}, {"bucket", "1"}});
  auto options = CoreOptions::FromSchema(*schema).value();
  auto factory =
      DataFileWriterFactory::Make(LocalFileIO(), schema, options, dir.path() + "/bucket-0").value();
  const DataTypePtr kv_type = KeyValueFileType(*schema);
  ASSERT_EQ(kv_type->num_fields(), 6);
  EXPECT_EQ(kv_type->fields()[0].name, "_KEY_k");
  EXPECT_EQ(kv_type->fields()[0].id, 1073741823);
  EXPECT_FALSE(kv_type->fields()[0].type->nullable());
  EXPECT_EQ(kv_type->fields()[1].name, "_SEQUENCE_NUMBER");
  EXPECT_EQ(kv_type->fields()[1].id, 2147483646);
  EXPECT_EQ(kv_type->fields()[2].name, "_VALUE_KIND");
  EXPECT_EQ(kv_type->fields()[2].id, 2147483645);
  EXPECT_EQ(kv_type->fields()[3].name, "k");

  auto writer = factory->NewKeyValueWriter(/*level=*/2, FileSource::kCompact);
  for (int i = 0; i < 100; ++i) {
    KeyValue kv;
    kv.key = {Value::Int64(i * 3 - 50)};
    kv.sequence_number = 1000 - i;
    kv.kind =
        i % 7 == 0 ? RowKind::kDelete : (i % 11 == 0 ? RowKind::kUpdateBefore : RowKind::kInsert);
    kv.value = {Value::Int64(i * 3 - 50),
                i % 4 == 0 ? Value::Null() : Value::String("v" + std::to_string(i)),
                Value::Int32(i)};
    ASSERT_OK(writer->Write(kv));
  }
  auto files = writer->Close();
  ASSERT_OK(files);
  ASSERT_EQ(files->size(), 1u);
  const DataFileMeta& meta = (*files)[0];
  const std::string path = dir.path() + "/bucket-0/" + meta.file_name;
  EXPECT_EQ(meta.file_size, LocalFileIO()->GetStatus(path).value().size);
  std::vector<Value> rows = ReadRows(path, format, kv_type);
  ASSERT_EQ(rows.size(), 100u);
  EXPECT_EQ(meta.row_count, 100);
  EXPECT_EQ(meta.level, 2);
  EXPECT_EQ(meta.file_source, FileSource::kCompact);
  EXPECT_EQ(meta.min_sequence_number, 901);
  EXPECT_EQ(meta.max_sequence_number, 1000);
  int64_t deletes = 0;
  for (const Value& r : rows) {
    const int8_t kind = r.list()[2].int8();
    deletes += kind == 1 || kind == 3;
  }
  EXPECT_EQ(meta.delete_row_count, deletes);
  EXPECT_EQ(deletes, 15 + 8);  // multiples of 7 are -D, other multiples of 11 -U
  auto key_type = schema->LogicalTrimmedPrimaryKeysType();
  EXPECT_EQ(DecodeSerializedBinaryRow(meta.min_key, *key_type).value()[0], Value::Int64(-50));
  EXPECT_EQ(DecodeSerializedBinaryRow(meta.max_key, *key_type).value()[0], Value::Int64(247));
  auto key_min = DecodeSerializedBinaryRow(meta.key_stats.min_values, *key_type).value();
  auto key_max = DecodeSerializedBinaryRow(meta.key_stats.max_values, *key_type).value();
  EXPECT_EQ(key_min[0], Value::Int64(-50));
  EXPECT_EQ(key_max[0], Value::Int64(247));
  EXPECT_FALSE(meta.value_stats_cols.has_value());
  auto value_min =
      DecodeSerializedBinaryRow(meta.value_stats.min_values, *schema->LogicalRowType()).value();
  auto value_max =
      DecodeSerializedBinaryRow(meta.value_stats.max_values, *schema->LogicalRowType()).value();
  EXPECT_EQ(value_min[0], Value::Int64(-50));
  EXPECT_EQ(value_max[2], Value::Int32(99));
  EXPECT_EQ(value_min[1], Value::String("v1"));
  EXPECT_EQ(value_max[1], Value::String("v99"));
  EXPECT_EQ((*meta.value_stats.null_counts)[1], 25);
}

TEST(DataFileWriterLevelTest, StatsModePerLevelAppliesToKeyValueFilesOfThatLevel) {
  test::TempDir dir;
  auto schema =
      MakeSchema({Field(0, "k", DataType::BigInt(false)), Field(1, "v", DataType::String())}, {"k"},
                 {{"bucket", "1"}, {"metadata.stats-mode.per.level", "0:none, 3:counts"}});
  auto options = CoreOptions::FromSchema(*schema).value();
  auto factory =
      DataFileWriterFactory::Make(LocalFileIO(), schema, options, dir.path() + "/bucket-0").value();
  auto write_level = [&](int32_t level) {
    auto writer = factory->NewKeyValueWriter(level, FileSource::kAppend);
    KeyValue kv;
    kv.key = {Value::Int64(1)};
    kv.value = {Value::Int64(1), Value::String("a")};
    EXPECT_OK(writer->Write(kv));
    return std::move(writer->Close().value()[0]);
  };
  // Level 0: no value stats at all (dense: an empty column list); keys keep truncate(128).
  DataFileMeta l0 = write_level(0);
  EXPECT_EQ(l0.value_stats_cols, std::vector<std::string>{});
  EXPECT_EQ(l0.value_stats.min_values, EmptySerializedRow());
  auto key_type = schema->LogicalTrimmedPrimaryKeysType();
  EXPECT_EQ(DecodeSerializedBinaryRow(l0.key_stats.min_values, *key_type).value()[0],
            Value::Int64(1));
  // Level 3: counts only; level 1: the table's truncate(16).
  DataFileMeta l3 = write_level(3);
  EXPECT_FALSE(l3.value_stats_cols.has_value());
  auto row_type = schema->LogicalRowType();
  EXPECT_TRUE(DecodeSerializedBinaryRow(l3.value_stats.min_values, *row_type).value()[1].is_null());
  EXPECT_EQ((*l3.value_stats.null_counts)[1], 0);
  DataFileMeta l1 = write_level(1);
  EXPECT_EQ(DecodeSerializedBinaryRow(l1.value_stats.min_values, *row_type).value()[1],
            Value::String("a"));

  auto bad = CoreOptions::Make({{"metadata.stats-mode.per.level", "x:none"}}).value();
  EXPECT_TRUE(test::HasError(StatsModesPerLevel(bad), StatusCode::kInvalidArgument,
                             {"metadata.stats-mode.per.level: malformed entry 'x:none'"}));
}

INSTANTIATE_TEST_SUITE_P(Formats, DataFileWriterTest, ::testing::Values("parquet", "orc", "avro"));

}  // namespace
}  // namespace sluice
