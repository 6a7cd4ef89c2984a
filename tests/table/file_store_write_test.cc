// FileStoreWrite round trips: rows written through FileStoreWrite, committed by FileStoreCommit and
// read back through PlanScan + OpenSplitReader equal an in-memory model, for append tables (bucket
// -1 and fixed, partitioned and not) and primary-key tables with every merge engine; the
// structural check passes on every table written; the bucket of every row of the corpus'
// fixed-bucket tables is the bucket directory Java put it in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <random>

#include "compaction_test_util.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/io/key_value_layout.h"
#include "sluice/meta/file_paths.h"
#include "sluice/row/binary_row.h"
#include "sluice/row/bucket.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

using test::CreateTestTable;
using test::ReadAll;

// Writes `rows` (with `kinds`, or all +I) through a fresh FileStoreWrite and commits them.
void WriteAndCommit(const std::string& path, const std::vector<ValueList>& rows,
                    const std::vector<RowKind>& kinds, int64_t identifier,
                    int64_t batch_rows = 1000, bool wait_compaction = false,
                    bool background_compaction = false) {
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  FileStoreWriteOptions write_options;
  if (background_compaction) {
    write_options.compact_manager_factory =
        MakeMergeTreeCompactManagerFactory(table, /*background=*/true).value();
  }
  auto write = FileStoreWrite::Open(table, std::move(write_options));
  ASSERT_OK(write);
  const DataTypePtr row_type = table->schema().LogicalRowType();
  for (size_t start = 0; start < rows.size(); start += static_cast<size_t>(batch_rows)) {
    const size_t end = std::min(rows.size(), start + static_cast<size_t>(batch_rows));
    ColumnBatch batch(row_type);
    for (size_t i = start; i < end; ++i) ASSERT_OK(batch.AppendRow(rows[i]));
    batch.set_num_rows(static_cast<int64_t>(end - start));
    Status st = (*write)->Write(batch, kinds.empty() ? nullptr : kinds.data() + start);
    ASSERT_OK(st);
  }
  auto messages = (*write)->PrepareCommit(identifier, wait_compaction);
  ASSERT_OK(messages);
  auto commit = FileStoreCommit::Make(table, "writer-test").value();
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages).value();
  auto result = commit->Commit(committable);
  ASSERT_OK(result);
}

// Every row of the latest snapshot, rendered and sorted.
std::vector<std::string> Render(const std::vector<ValueList>& rows) {
  std::vector<std::string> out;
  for (const ValueList& r : rows) out.push_back(Value::Row(r).DebugString());
  std::sort(out.begin(), out.end());
  return out;
}

void ExpectTableSound(const std::string& path) {
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  Status st = CheckTable(*table);
  EXPECT_OK(st);
}

struct AppendCase {
  std::string name;
  std::string bucket;
  bool partitioned;
  std::string format;
  TableOptions extra = {};
};

class AppendTableWriteTest : public ::testing::TestWithParam<AppendCase> {};

TEST_P(AppendTableWriteTest, RoundTripsThroughCommitAndReader) {
  const AppendCase& c = GetParam();
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/t";
  TableOptions options = {{"bucket", c.bucket}, {"file.format", c.format}};
  if (c.bucket != "-1") options.push_back({"bucket-key", "id"});
  options.insert(options.end(), c.extra.begin(), c.extra.end());
  CreateTestTable(path,
                  {Field(0, "id", DataType::BigInt()), Field(1, "name", DataType::String()),
                   Field(2, "dt", DataType::String()), Field(3, "score", DataType::Double())},
                  c.partitioned ? std::vector<std::string>{"dt"} : std::vector<std::string>{}, {},
                  options);
  std::mt19937_64 rng(42);
  std::vector<ValueList> all;
  for (int commit = 0; commit < 3; ++commit) {
    std::vector<ValueList> rows;
    for (int i = 0; i < 1500; ++i) {
      const int64_t id = static_cast<int64_t>(rng() % 100000);
      rows.push_back(
          {Value::Int64(id),
           i % 13 == 0 ? Value::Null() : Value::String("n" + std::to_string(rng() % 1000)),
           Value::String(i % 17 == 0 ? "" : "2024-01-0" + std::to_string(rng() % 3 + 1)),
           Value::Double(static_cast<double>(rng() % 1000 + 1) / 8.0)});
    }
    WriteAndCommit(path, rows, {}, commit, 700, /*wait_compaction=*/true);
    all.insert(all.end(), rows.begin(), rows.end());
    EXPECT_EQ(ReadAll(path), Render(all)) << "after commit " << commit;
  }
  ExpectTableSound(path);

  // Files sit in the partition and bucket Java would choose; sequence numbers continue per
  // bucket across writers.
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{}).value();
  int64_t files = 0;
  int64_t compacted = 0;
  for (const DataSplit& split : plan.splits) {
    EXPECT_EQ(split.total_buckets, std::stoi(c.bucket));
    std::vector<std::pair<int64_t, int64_t>> ranges;
    for (const DataFileMeta& f : split.data_files) {
      ranges.push_back({f.min_sequence_number, f.max_sequence_number});
      ++files;
      compacted += f.file_source == FileSource::kCompact;
    }
    std::sort(ranges.begin(), ranges.end());
    int64_t next = 0;
    for (auto [lo, hi] : ranges) {
      EXPECT_EQ(lo, next);
      next = hi + 1;
    }
    if (c.partitioned) {
      // Null and blank partition values go to the default partition.
      const Value& value = split.partition_values[0];
      const std::string dt =
          value.is_null() || value.bytes().empty() ? "__DEFAULT_PARTITION__" : value.bytes();
      EXPECT_NE(split.bucket_path.find("/dt=" + dt + "/bucket-"), std::string::npos)
          << split.bucket_path;
    }
  }
  EXPECT_GT(files, 0);
  // Fixed-bucket writers compact small files once `compaction.min.file-num` have gathered.
  if (c.name == "fixed_compacting") EXPECT_GT(compacted, 0);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, AppendTableWriteTest,
    ::testing::Values(
        AppendCase{"unaware", "-1", false, "parquet"},
        AppendCase{"unaware_partitioned", "-1", true, "orc"},
        AppendCase{"fixed", "3", false, "avro"},
        AppendCase{"fixed_partitioned", "2", true, "parquet"},
        AppendCase{"fixed_compacting", "2", false, "parquet", {{"compaction.min.file-num", "2"}}}),
    [](const auto& info) { return info.param.name; });

TEST(TableWriteTest, AppendTablesRefuseRetractions) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto table = CreateTestTable(path, {Field(0, "id", DataType::Int())}, {}, {}, {});
  auto write = FileStoreWrite::Open(table).value();
  ColumnBatch batch(table->schema().LogicalRowType());
  ASSERT_OK(batch.AppendRow({Value::Int32(1)}));
  batch.set_num_rows(1);
  const RowKind kinds[] = {RowKind::kDelete};
  Status st = write->Write(batch, kinds);
  EXPECT_TRUE(st.code() == StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("-D"), std::string::npos) << st.ToString();
}

TEST(TableWriteTest, RefusesWhatItCannotWrite) {
  test::TempDir dir;
  // A batch without the table's columns.
  auto table = CreateTestTable(dir.path() + "/a",
                               {Field(0, "id", DataType::Int()), Field(1, "s", DataType::String())},
                               {}, {}, {});
  auto write = FileStoreWrite::Open(table).value();
  ColumnBatch narrow(DataType::Row({Field(0, "id", DataType::Int())}));
  ASSERT_OK(narrow.AppendRow({Value::Int32(1)}));
  narrow.set_num_rows(1);
  Status st = write->Write(narrow);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("2 columns"), std::string::npos) << st.ToString();
  // A rowkind.field column holding no row kind names the row and the column.
  auto kinds = CreateTestTable(
      dir.path() + "/c", {Field(0, "k", DataType::Int(false)), Field(1, "op", DataType::String())},
      {}, {"k"}, {{"bucket", "1"}, {"rowkind.field", "op"}});
  auto kind_write = FileStoreWrite::Open(kinds).value();
  ColumnBatch rows(kinds->schema().LogicalRowType());
  ASSERT_OK(rows.AppendRow({Value::Int32(1), Value::String("+I")}));
  ASSERT_OK(rows.AppendRow({Value::Int32(2), Value::String("upsert")}));
  rows.set_num_rows(2);
  st = kind_write->Write(rows);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("'op'"), std::string::npos) << st.ToString();
}

TEST(TableWriteTest, RowKindFieldCarriesTheKinds) {
  test::TempDir dir;
  const std::string path = dir.path() + "/rk";
  CreateTestTable(path, {Field(0, "k", DataType::Int(false)), Field(1, "op", DataType::String())},
                  {}, {"k"}, {{"bucket", "2"}, {"rowkind.field", "op"}});
  WriteAndCommit(path,
                 {{Value::Int32(1), Value::String("+I")},
                  {Value::Int32(2), Value::String("+I")},
                  {Value::Int32(1), Value::String("-D")},
                  {Value::Int32(3), Value::String("+U")}},
                 {}, 1);
  EXPECT_EQ(ReadAll(path), Render({{Value::Int32(2), Value::String("+I")},
                                   {Value::Int32(3), Value::String("+U")}}));
}

// ---- Primary-key tables -------------------------------------------------------------------

struct PkCase {
  std::string name;
  TableOptions options;
  bool with_deletes;
  bool background_compaction = false;
};

class PrimaryKeyTableWriteTest : public ::testing::TestWithParam<PkCase> {};

// Model of the merge engines over (k, p, a, b): key (p, k) where p is the partition.
struct Model {
  std::string engine;
  std::map<std::pair<int64_t, int32_t>, ValueList> rows;

  void Apply(const ValueList& row, RowKind kind) {
    const auto key = std::make_pair(row[0].int64(), row[1].int32());
    auto it = rows.find(key);
    if (engine == "deduplicate") {
      if (IsRetract(kind)) {
        rows.erase(key);
      } else {
        rows[key] = row;
      }
    } else if (engine == "first-row") {
      if (it == rows.end()) rows[key] = row;
    } else if (engine == "partial-update") {
      if (it == rows.end()) {
        rows[key] = row;
      } else {
        for (size_t i = 2; i < row.size(); ++i) {
          if (!row[i].is_null()) it->second[i] = row[i];
        }
      }
    } else {  // aggregation: a = sum, b = last_non_null_value
      if (it == rows.end()) {
        rows[key] = row;
      } else {
        if (!row[2].is_null()) {
          it->second[2] = it->second[2].is_null()
                              ? row[2]
                              : Value::Int64(it->second[2].int64() + row[2].int64());
        }
        if (!row[3].is_null()) it->second[3] = row[3];
      }
    }
  }
  std::vector<ValueList> Rows() const {
    std::vector<ValueList> out;
    for (const auto& [k, v] : rows) out.push_back(v);
    return out;
  }
};

TEST_P(PrimaryKeyTableWriteTest, RoundTripsEveryMergeEngine) {
  const PkCase& c = GetParam();
  test::TempDir dir;
  const std::string path = dir.path() + "/db.db/pk";
  TableOptions options = c.options;
  options.push_back({"bucket", "2"});
  CreateTestTable(path,
                  {Field(0, "k", DataType::BigInt(false)), Field(1, "p", DataType::Int(false)),
                   Field(2, "a", DataType::BigInt()), Field(3, "b", DataType::String())},
                  {"p"}, {"k", "p"}, options);
  Model model;
  model.engine = "deduplicate";
  for (const auto& [key, value] : c.options) {
    if (key == "merge-engine") model.engine = value;
  }
  std::mt19937_64 rng(7);
  for (int commit = 0; commit < 4; ++commit) {
    std::vector<ValueList> rows;
    std::vector<RowKind> kinds;
    for (int i = 0; i < 2000; ++i) {
      const int64_t k = static_cast<int64_t>(rng() % 500);
      const int32_t p = static_cast<int32_t>(rng() % 2);
      RowKind kind = RowKind::kInsert;
      if (c.with_deletes) {
        const uint64_t r = rng() % 10;
        kind = r == 0 ? RowKind::kDelete : r == 1 ? RowKind::kUpdateAfter : RowKind::kInsert;
      }
      rows.push_back(
          {Value::Int64(k), Value::Int32(p),
           rng() % 5 == 0 ? Value::Null() : Value::Int64(static_cast<int64_t>(rng() % 100)),
           rng() % 5 == 0 ? Value::Null() : Value::String("s" + std::to_string(rng() % 50))});
      kinds.push_back(kind);
      model.Apply(rows.back(), kind);
    }
    WriteAndCommit(path, rows, kinds, commit, 300, /*wait_compaction=*/false,
                   c.background_compaction);
    ASSERT_EQ(ReadAll(path), Render(model.Rows())) << "after commit " << commit;
  }
  ExpectTableSound(path);

  // Write-only tables keep every flush at level 0; sequence numbers continue per bucket over
  // the commits.
  bool write_only = false;
  for (const auto& [key, value] : c.options) write_only = write_only || key == "write-only";
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*table, ScanOptions{}).value();
  for (const DataSplit& split : plan.splits) {
    int64_t max_seq = -1;
    for (const DataFileMeta& f : split.data_files) {
      if (write_only) EXPECT_EQ(f.level, 0);
      EXPECT_GE(f.max_sequence_number, f.min_sequence_number);
      max_seq = std::max(max_seq, f.max_sequence_number);
    }
    EXPECT_GT(max_seq, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Engines, PrimaryKeyTableWriteTest,
    ::testing::Values(
        PkCase{"deduplicate", {}, true},
        PkCase{"deduplicate_small_buffer_orc",
               {{"write-buffer-size", "4 kb"}, {"file.format", "orc"}},
               true},
        PkCase{"partial_update", {{"merge-engine", "partial-update"}}, false},
        PkCase{"aggregation",
               {{"merge-engine", "aggregation"}, {"fields.a.aggregate-function", "sum"}},
               false},
        PkCase{"deduplicate_compacting_often",
               {{"write-buffer-size", "8 kb"}, {"num-sorted-run.compaction-trigger", "2"}},
               true},
        PkCase{"deduplicate_write_only", {{"write-only", "true"}}, true},
        // Lookup tables: batch scans read no level-0 file, so every commit must carry level 0
        // up (Java waits for the lookup compaction before it commits).
        PkCase{"first_row", {{"merge-engine", "first-row"}}, false},
        PkCase{"first_row_small_buffer",
               {{"merge-engine", "first-row"}, {"write-buffer-size", "4 kb"}},
               false},
        PkCase{"lookup_changelog", {{"changelog-producer", "lookup"}}, true},
        PkCase{"first_row_background",
               {{"merge-engine", "first-row"}, {"write-buffer-size", "4 kb"}},
               false,
               true},
        PkCase{"force_lookup", {{"force-lookup", "true"}}, true},
        PkCase{"force_lookup_background", {{"force-lookup", "true"}}, true, true}),
    [](const auto& info) { return info.param.name; });

// First-row tables are read from compacted files only (Java reads no level-0 file of them), so
// the flush is checked on the level-0 file itself: the first record of each key, and
// sequence numbers continuing after the restored files.
TEST(TableWriteTest, FirstRowFlushKeepsTheFirstRecordOfEachKey) {
  test::TempDir dir;
  const std::string path = dir.path() + "/first";
  CreateTestTable(path, {Field(0, "k", DataType::Int(false)), Field(1, "v", DataType::String())},
                  {}, {"k"},
                  {{"bucket", "1"}, {"merge-engine", "first-row"}, {"file.format", "avro"}});
  WriteAndCommit(path, {{Value::Int32(1), Value::String("x")}}, {}, 1);
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  auto write = FileStoreWrite::Open(table).value();
  ColumnBatch input(table->schema().LogicalRowType());
  for (const ValueList& row : std::vector<ValueList>{{Value::Int32(2), Value::String("first")},
                                                     {Value::Int32(3), Value::String("only")},
                                                     {Value::Int32(2), Value::String("second")},
                                                     {Value::Int32(1), Value::String("y")}}) {
    ASSERT_OK(input.AppendRow(row));
  }
  input.set_num_rows(4);
  ASSERT_OK(write->Write(input));
  auto messages = write->PrepareCommit(2).value();
  ASSERT_EQ(messages.size(), 1u);
  ASSERT_EQ(messages[0].data.new_files.size(), 1u);
  const DataFileMeta* second = &messages[0].data.new_files[0];
  // The restored level-0 file of the first commit holds sequence number 0.
  EXPECT_EQ(second->min_sequence_number, 1);
  EXPECT_EQ(second->max_sequence_number, 4);
  EXPECT_EQ(second->row_count, 3);
  const std::string bucket_path = path + "/bucket-0";
  auto format = FileFormatByName("avro").value();
  const DataTypePtr kv_type = KeyValueFileType(table->schema());
  auto file = LocalFileIO()->OpenForRead(bucket_path + "/" + second->file_name).value();
  auto reader = format
                    ->CreateReader(std::shared_ptr<RandomAccessFile>(std::move(file)), kv_type,
                                   ReaderOptions{})
                    .value();
  ColumnBatch batch(kv_type);
  std::vector<std::string> rows;
  while (reader->Next(&batch).ValueOr(false)) {
    for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(batch.GetRow(i).DebugString());
  }
  EXPECT_EQ(rows, (std::vector<std::string>{"(1, 4, 0, 1, 'y')", "(2, 1, 0, 2, 'first')",
                                            "(3, 2, 0, 3, 'only')"}));
}

TEST(TableWriteTest, SequenceFieldOrdersUpdatesOfOneKey) {
  test::TempDir dir;
  const std::string path = dir.path() + "/seq";
  CreateTestTable(path,
                  {Field(0, "k", DataType::Int(false)), Field(1, "ts", DataType::BigInt()),
                   Field(2, "v", DataType::String())},
                  {}, {"k"}, {{"bucket", "1"}, {"sequence.field", "ts"}});
  // The row with the larger ts wins, whatever the order of arrival, within and across commits.
  WriteAndCommit(path,
                 {{Value::Int32(1), Value::Int64(5), Value::String("new")},
                  {Value::Int32(1), Value::Int64(3), Value::String("old")},
                  {Value::Int32(2), Value::Int64(1), Value::String("a")}},
                 {}, 1);
  WriteAndCommit(path,
                 {{Value::Int32(1), Value::Int64(4), Value::String("late")},
                  {Value::Int32(2), Value::Int64(2), Value::String("b")}},
                 {}, 2);
  EXPECT_EQ(ReadAll(path), Render({{Value::Int32(1), Value::Int64(5), Value::String("new")},
                                   {Value::Int32(2), Value::Int64(2), Value::String("b")}}));
}

TEST(TableWriteTest, IgnoreDeleteDropsRetractions) {
  test::TempDir dir;
  const std::string path = dir.path() + "/ign";
  CreateTestTable(path, {Field(0, "k", DataType::Int(false)), Field(1, "v", DataType::Int())}, {},
                  {"k"}, {{"bucket", "1"}, {"ignore-delete", "true"}});
  WriteAndCommit(path, {{Value::Int32(1), Value::Int32(10)}, {Value::Int32(1), Value::Int32(11)}},
                 {RowKind::kInsert, RowKind::kDelete}, 1);
  EXPECT_EQ(ReadAll(path), Render({{Value::Int32(1), Value::Int32(10)}}));
}

// ---- Buckets of the corpus ----------------------------------------------------------------

// Recomputes the bucket (and partition) of every row of every fixed-bucket corpus table's
// latest snapshot and compares them with the bucket directory and partition Java wrote.
TEST(TableWriteTest, BucketOfEveryCorpusRowMatchesJava) {
  namespace fs = std::filesystem;
  int64_t tables = 0;
  int64_t rows_checked = 0;
  std::vector<std::string> problems;
  for (const std::string& format_dir : {"parquet", "orc"}) {
    const fs::path root = fs::path(test::CompatTablesDir()) / format_dir;
    if (!fs::exists(root)) continue;
    for (const auto& db : fs::directory_iterator(root)) {
      if (!db.is_directory() || db.path().extension() != ".db") continue;
      for (const auto& t : fs::directory_iterator(db.path())) {
        if (!fs::exists(t.path() / "schema")) continue;
        auto table = FileStoreTable::Open(LocalFileIO(), t.path().string());
        if (!table.ok() || (*table)->options().bucket() <= 0) continue;
        auto plan = PlanScan(**table, ScanOptions{});
        if (!plan.ok()) continue;
        ++tables;
        for (const DataSplit& split : plan->splits) {
          if (split.total_buckets <= 0) continue;
          for (size_t f = 0; f < split.data_files.size(); ++f) {
            const DataFileMeta& meta = split.data_files[f];
            auto schema = (*table)->SchemaById(meta.schema_id).value();
            auto options =
                CoreOptions::FromSchema(*schema, {{"bucket", std::to_string(split.total_buckets)}})
                    .value();
            auto extractor = RowKeyExtractor::Make(*schema, options);
            ASSERT_OK(extractor);
            auto file = LocalFileIO()->OpenForRead(split.data_file_paths[f]);
            if (!file.ok()) continue;  // external paths of tables copied from elsewhere
            std::shared_ptr<RandomAccessFile> shared(std::move(file).value());
            auto format = DetectFileFormat(*shared);
            ASSERT_OK(format);
            auto reader =
                (*format)->CreateReader(shared, schema->LogicalRowType(), ReaderOptions{});
            ASSERT_OK(reader);
            ColumnBatch batch(schema->LogicalRowType());
            while ((*reader)->Next(&batch).ValueOr(false)) {
              for (int64_t i = 0; i < batch.num_rows(); ++i) {
                auto bucket = extractor->Bucket(batch, i);
                auto partition = extractor->Partition(batch, i);
                ASSERT_OK(bucket) << split.data_file_paths[f];
                ASSERT_OK(partition) << split.data_file_paths[f];
                ++rows_checked;
                if (*bucket != split.bucket ||
                    SerializeBinaryRow(*partition, extractor->partition_arity()) !=
                        split.partition) {
                  problems.push_back(split.data_file_paths[f] + " row " + std::to_string(i) +
                                     ": bucket " + std::to_string(*bucket) + " in bucket-" +
                                     std::to_string(split.bucket));
                }
              }
            }
          }
        }
      }
    }
  }
  std::cout << "corpus fixed-bucket tables: " << tables << ", rows checked: " << rows_checked
            << "\n";
  EXPECT_GE(tables, 5);
  EXPECT_GE(rows_checked, 100);
  EXPECT_TRUE(problems.empty()) << problems.size()
                                << " rows in the wrong bucket, first: " << problems.front();
}

// Commits a long-lived writer's messages with `identifier`.
void CommitMessages(const std::shared_ptr<const FileStoreTable>& table, FileStoreWrite* write,
                    int64_t identifier) {
  auto messages = write->PrepareCommit(identifier);
  ASSERT_OK(messages);
  auto commit = FileStoreCommit::Make(table, "writer-test").value();
  ManifestCommittable committable;
  committable.identifier = identifier;
  committable.messages = std::move(messages).value();
  auto result = commit->Commit(committable);
  ASSERT_OK(result);
}

// full-compaction.delta-commits = 3: commits 3 and 6 leave every bucket one run at the max
// level; the commits between keep their level-0 files (compaction trigger out of reach).
TEST(TableWriteTest, FullCompactionDeltaCommitsCompactsEveryNthCommit) {
  test::TempDir dir;
  const std::string path = dir.path() + "/full";
  auto table = CreateTestTable(
      path, {Field(0, "k", DataType::Int(false)), Field(1, "v", DataType::Int())}, {}, {"k"},
      {{"bucket", "2"},
       {"full-compaction.delta-commits", "3"},
       {"num-sorted-run.compaction-trigger", "20"},
       {"num-sorted-run.stop-trigger", "40"}});
  auto write = FileStoreWrite::Open(table).value();
  std::map<int32_t, int32_t> model;
  for (int64_t identifier = 1; identifier <= 6; ++identifier) {
    ColumnBatch batch(table->schema().LogicalRowType());
    for (int32_t i = 0; i < 50; ++i) {
      const int32_t k = (i * 7 + static_cast<int32_t>(identifier) * 3) % 60;
      const int32_t v = static_cast<int32_t>(identifier) * 100 + i;
      ASSERT_OK(batch.AppendRow({Value::Int32(k), Value::Int32(v)}));
      model[k] = v;
    }
    batch.set_num_rows(50);
    ASSERT_OK(write->Write(batch));
    CommitMessages(table, write.get(), identifier);

    std::vector<ValueList> expected;
    for (const auto& [k, v] : model) expected.push_back({Value::Int32(k), Value::Int32(v)});
    ASSERT_EQ(ReadAll(path), Render(expected)) << "after commit " << identifier;
    auto latest = FileStoreTable::Open(LocalFileIO(), path).value();
    auto plan = PlanScan(*latest, ScanOptions{}).value();
    ASSERT_EQ(plan.splits.size(), 2u);
    const bool full = identifier % 3 == 0;
    for (const DataSplit& split : plan.splits) {
      int level0 = 0;
      for (const DataFileMeta& f : split.data_files) {
        // num-levels defaults to the compaction trigger + 1 (Java CoreOptions.numLevels).
        if (full) EXPECT_EQ(f.level, 20) << "commit " << identifier << " " << f.file_name;
        level0 += f.level == 0 ? 1 : 0;
      }
      if (!full) EXPECT_GT(level0, 0) << "commit " << identifier;
    }
  }
  ASSERT_OK(write->Close());
  ExpectTableSound(path);
}

// Fixed-bucket append tables compact through FileStoreWrite::Compact (Java AppendOnlyWriter
// compaction); the full compaction joins the next commit and leaves one file per bucket.
TEST(TableWriteTest, CompactsFixedBucketAppendTables) {
  test::TempDir dir;
  const std::string path = dir.path() + "/append";
  auto table =
      CreateTestTable(path, {Field(0, "id", DataType::BigInt()), Field(1, "v", DataType::Int())},
                      {}, {}, {{"bucket", "1"}, {"bucket-key", "id"}});
  std::vector<ValueList> all;
  for (int64_t commit = 0; commit < 4; ++commit) {
    std::vector<ValueList> rows;
    for (int64_t i = 0; i < 10; ++i) {
      rows.push_back({Value::Int64(commit * 10 + i), Value::Int32(static_cast<int32_t>(i))});
    }
    all.insert(all.end(), rows.begin(), rows.end());
    WriteAndCommit(path, rows, {}, commit);
  }
  auto write = FileStoreWrite::Open(table).value();
  const std::string partition = SerializeBinaryRow(EmptyBinaryRow(), 0);
  Status st = write->Compact(partition, 0, /*full_compaction=*/true);
  ASSERT_OK(st);
  auto messages = write->PrepareCommit(5, /*wait_compaction=*/true).value();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].compact.compact_before.size(), 4u);
  EXPECT_EQ(messages[0].compact.compact_after.size(), 1u);
  auto commit = FileStoreCommit::Make(table, "writer-test").value();
  ManifestCommittable committable;
  committable.identifier = 5;
  committable.messages = std::move(messages);
  ASSERT_OK(commit->Commit(committable));
  ASSERT_OK(write->Close());
  EXPECT_EQ(ReadAll(path), Render(all));
  auto latest = FileStoreTable::Open(LocalFileIO(), path).value();
  auto plan = PlanScan(*latest, ScanOptions{}).value();
  ASSERT_EQ(plan.splits.size(), 1u);
  EXPECT_EQ(plan.splits[0].data_files.size(), 1u);
  ExpectTableSound(path);
}

// A writer restores a bucket when it first writes to it (Java), not when it is opened: a
// writer opened before another's commit numbers its rows after that commit's, so its later
// delete wins over the earlier insert.
TEST(TableWriteTest, RestoresABucketAtItsFirstWrite) {
  test::TempDir dir;
  const std::string path = dir.path() + "/lazy";
  auto table =
      CreateTestTable(path, {Field(0, "k", DataType::Int(false)), Field(1, "v", DataType::Int())},
                      {}, {"k"}, {{"bucket", "1"}});
  auto first = FileStoreWrite::Open(table).value();
  auto second = FileStoreWrite::Open(table).value();
  ColumnBatch inserts(table->schema().LogicalRowType());
  for (int32_t k = 0; k < 10; ++k) ASSERT_OK(inserts.AppendRow({Value::Int32(k), Value::Int32(k)}));
  inserts.set_num_rows(10);
  ASSERT_OK(first->Write(inserts));
  CommitMessages(table, first.get(), 1);

  ColumnBatch deletes(table->schema().LogicalRowType());
  ASSERT_OK(deletes.AppendRow({Value::Int32(5), Value::Int32(5)}));
  deletes.set_num_rows(1);
  const RowKind kind = RowKind::kDelete;
  ASSERT_OK(second->Write(deletes, &kind));
  auto latest = FileStoreTable::Open(LocalFileIO(), path).value();
  CommitMessages(latest, second.get(), 2);
  ASSERT_OK(first->Close());
  ASSERT_OK(second->Close());

  std::vector<ValueList> expected;
  for (int32_t k = 0; k < 10; ++k) {
    if (k != 5) expected.push_back({Value::Int32(k), Value::Int32(k)});
  }
  EXPECT_EQ(ReadAll(path), Render(expected));
}

// Floating statistics as the writers legitimately record them: Parquet writes a zero min as
// -0.0, Parquet and ORC leave NaN out of min / max, Avro (Java's collectors) orders NaN last.
// The checker accepts each format's files, for value and key columns.
class FloatingStatsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FloatingStatsTest, CheckerAcceptsZeroAndNaNBounds) {
  for (const bool primary_key : {false, true}) {
    test::TempDir dir;
    const std::string path = dir.path() + "/floats";
    TableOptions options = {{"file.format", GetParam()}, {"bucket", "1"}};
    if (!primary_key) options.push_back({"bucket-key", "d"});
    CreateTestTable(path,
                    {Field(0, "d", DataType::Double(false)), Field(1, "f", DataType::Float()),
                     Field(2, "n", DataType::Double())},
                    {}, primary_key ? std::vector<std::string>{"d"} : std::vector<std::string>{},
                    options);
    const double nan = std::nan("");
    std::vector<ValueList> rows = {
        {Value::Double(0.0), Value::Float(0.0f), Value::Double(1.5)},
        {Value::Double(2.5), Value::Float(3.5f), Value::Double(nan)},
        {Value::Double(7.0), Value::Float(-0.0f), Value::Double(-2.0)},
    };
    WriteAndCommit(path, rows, {}, 1);
    ExpectTableSound(path);
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, FloatingStatsTest, ::testing::Values("parquet", "orc", "avro"));

// Primary-key data files are laid out as key_value_layout.h says: `_KEY_` columns with ids
// offset by kKeyFieldIdStart, then `_SEQUENCE_NUMBER` and `_VALUE_KIND`, then the table row.
TEST(TableWriteTest, KeyValueFileTypeFollowsTheSharedLayout) {
  test::TempDir dir;
  auto table = CreateTestTable(
      dir.path() + "/kv", {Field(0, "a", DataType::Int()), Field(4, "k", DataType::BigInt(false))},
      {}, {"k"}, {{"bucket", "1"}});
  const DataTypePtr type = KeyValueFileType(table->schema());
  ASSERT_EQ(type->fields().size(), 5u);
  EXPECT_EQ(type->fields()[0].name, std::string(kKeyFieldNamePrefix) + "k");
  EXPECT_EQ(type->fields()[0].id, kKeyFieldIdStart + 4);
  EXPECT_EQ(type->fields()[1].name, kSequenceNumberFieldName);
  EXPECT_EQ(type->fields()[1].id, kSequenceNumberFieldId);
  EXPECT_EQ(type->fields()[2].name, kValueKindFieldName);
  EXPECT_EQ(type->fields()[2].id, kValueKindFieldId);
  EXPECT_EQ(type->fields()[3].name, "a");
}

// The column-at-a-time key hashes of dynamic-bucket writes (the fast path for one INT / BIGINT
// key column, the row-encoding path for the rest) equal each row's own KeyHash.
TEST(TableWriteTest, KeyHashesOfABatchEqualEachRowsKeyHash) {
  struct Case {
    DataTypePtr key_type;
    std::vector<Value> keys;
  };
  const std::vector<Case> cases = {
      {DataType::Int(false), {Value::Int32(0), Value::Int32(-1), Value::Int32(INT32_MAX)}},
      {DataType::BigInt(false), {Value::Int64(0), Value::Int64(-7), Value::Int64(INT64_MIN)}},
      {DataType::Date(false), {Value::Int32(19000), Value::Int32(-3)}},
      {DataType::String(false), {Value::String(""), Value::String("a longer key string")}},
  };
  for (const Case& c : cases) {
    auto schema =
        TableSchema::Make(3, 0, {Field(0, "k", c.key_type), Field(1, "v", DataType::Int())}, 1, {},
                          {"k"}, {{"bucket", "-1"}}, std::nullopt, 0);
    ASSERT_OK(schema);
    auto options = CoreOptions::FromSchema(*schema, {}).value();
    auto extractor = RowKeyExtractor::Make(*schema, options);
    ASSERT_OK(extractor);
    ColumnBatch batch(schema->LogicalRowType());
    for (const Value& key : c.keys) ASSERT_OK(batch.AppendRow({key, Value::Int32(1)}));
    batch.set_num_rows(static_cast<int64_t>(c.keys.size()));
    std::vector<int32_t> hashes;
    ASSERT_OK(extractor->KeyHashes(batch, &hashes));
    ASSERT_EQ(hashes.size(), c.keys.size());
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      auto one = extractor->KeyHash(batch, i);
      ASSERT_OK(one);
      EXPECT_EQ(hashes[static_cast<size_t>(i)], *one) << c.key_type->ToString() << " row " << i;
    }
  }
}

}  // namespace
}  // namespace sluice
