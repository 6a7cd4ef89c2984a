// MergeTreeCompactRewriter: merging sorted runs of real key-value files with the table's merge
// function, dropping or keeping deletes, keeping sequence numbers; and primary-key tables
// written through FileStoreWrite with compaction read back as the model of their rows.
#include "sluice/table/sink/merge_tree_compact_rewriter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "compaction_test_util.h"
#include "sluice/lsm/levels.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

std::vector<DataField> KvFields() {
  return {Field(0, "k", DataType::BigInt(false)), Field(1, "v", DataType::String()),
          Field(2, "n", DataType::BigInt())};
}

KeyValue Rec(int64_t k, const std::string& v, int64_t n, int64_t seq,
             RowKind kind = RowKind::kInsert) {
  KeyValue kv;
  kv.key = {Value::Int64(k)};
  kv.value = {Value::Int64(k), Value::String(v), Value::Int64(n)};
  kv.sequence_number = seq;
  kv.kind = kind;
  return kv;
}

// The records of one data file of bucket 0, in file order.
std::vector<KeyValue> ReadFileRecords(const FileStoreTable& table, const DataFileMeta& file) {
  DataSplit split;
  split.bucket_path = BucketPath(table.path(), "", 0);
  split.data_files.push_back(file);
  split.data_file_paths.push_back(split.bucket_path + "/" + file.file_name);
  const DataTypePtr value_type = table.schema().LogicalRowType();
  const int num_values = value_type->num_fields();
  std::vector<KeyValue> out;
  auto reader = KeyValueFileReader::Open(table, table.schema(), value_type, split, 0, {});
  EXPECT_OK(reader);
  if (!reader.ok()) return out;
  ColumnBatch batch(KeyValueFileReader::RecordType(value_type));
  while (true) {
    auto more = (*reader)->Next(&batch);
    EXPECT_OK(more);
    if (!more.ok() || !*more) break;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      KeyValue kv;
      for (int c = 0; c < num_values; ++c) kv.value.push_back(batch.column(c)->GetValue(row));
      kv.key = {kv.value[0]};
      kv.sequence_number = batch.column(num_values)->GetValue(row).int64();
      kv.kind = static_cast<RowKind>(batch.column(num_values + 1)->GetValue(row).int8());
      out.push_back(std::move(kv));
    }
  }
  return out;
}

struct Bucket {
  std::shared_ptr<const FileStoreTable> table;
  std::shared_ptr<DataFileWriterFactory> writers;
  std::unique_ptr<MergeTreeCompactRewriter> rewriter;

  Bucket(const std::string& path, TableOptions options) {
    options.push_back({"bucket", "1"});
    table = test::CreateTestTable(path, KvFields(), {}, {"k"}, options);
    writers = DataFileWriterFactory::Make(table->io(), table->schema_ptr(), table->options(),
                                          BucketPath(path, "", 0))
                  .value();
    EXPECT_OK(table->io()->MkDirs(BucketPath(path, "", 0)));
    auto made = MergeTreeCompactRewriter::Make(table, EmptySerializedRow(), writers);
    EXPECT_OK(made);
    rewriter = std::move(made).value();
  }

  // One level-0 file of `records` (sorted by key).
  LevelFilePtr Write(const std::vector<KeyValue>& records, int level = 0) {
    auto writer = writers->NewKeyValueWriter(level, FileSource::kAppend);
    for (const KeyValue& kv : records) EXPECT_OK(writer->Write(kv));
    auto files = writer->Close();
    EXPECT_OK(files);
    EXPECT_EQ(files->size(), 1u);
    return LevelFile::Make(files->at(0), *table->schema().LogicalTrimmedPrimaryKeysType()).value();
  }

  // Every record of `files`, in order (the files of one compaction are one sorted run).
  std::vector<KeyValue> Read(const std::vector<DataFileMeta>& files) {
    std::vector<KeyValue> out;
    for (const DataFileMeta& file : files) {
      for (KeyValue& kv : ReadFileRecords(*table, file)) out.push_back(std::move(kv));
    }
    return out;
  }
};

std::string Show(const std::vector<KeyValue>& records) {
  std::string out;
  for (const KeyValue& kv : records) {
    out += std::string(RowKindShortString(kv.kind)) + Value::Row(kv.value).DebugString() + "@" +
           std::to_string(kv.sequence_number) + " ";
  }
  return out;
}

TEST(MergeTreeCompactRewriterTest, DeduplicateKeepsNewestAndDropsDeletesAtTheTop) {
  test::TempDir dir;
  Bucket b(dir.path() + "/t", {});
  LevelFilePtr older = b.Write({Rec(1, "a", 1, 0), Rec(2, "b", 2, 1), Rec(3, "c", 3, 2)});
  LevelFilePtr newer =
      b.Write({Rec(1, "A", 10, 3), Rec(2, "", 0, 4, RowKind::kDelete), Rec(4, "d", 4, 5)});
  std::vector<std::vector<SortedRun>> sections = {
      {SortedRun::FromSingle(newer), SortedRun::FromSingle(older)}};

  auto dropped = b.rewriter->Rewrite(2, /*drop_delete=*/true, sections);
  ASSERT_OK(dropped);
  EXPECT_EQ(dropped->before.size(), 2u);
  ASSERT_EQ(dropped->after.size(), 1u);
  const DataFileMeta& out = dropped->after[0];
  EXPECT_EQ(out.level, 2);
  EXPECT_EQ(out.file_source, FileSource::kCompact);
  EXPECT_EQ(out.row_count, 3);
  EXPECT_EQ(out.min_sequence_number, 2);
  EXPECT_EQ(out.max_sequence_number, 5);
  EXPECT_EQ(out.delete_row_count, 0);
  EXPECT_EQ(Show(b.Read({out})), "+I(1, 'A', 10)@3 +I(3, 'c', 3)@2 +I(4, 'd', 4)@5 ");

  auto kept = b.rewriter->Rewrite(1, /*drop_delete=*/false, sections);
  ASSERT_OK(kept);
  ASSERT_EQ(kept->after.size(), 1u);
  EXPECT_EQ(kept->after[0].delete_row_count, 1);
  EXPECT_EQ(Show(b.Read(kept->after)),
            "+I(1, 'A', 10)@3 -D(2, '', 0)@4 +I(3, 'c', 3)@2 +I(4, 'd', 4)@5 ");
}

TEST(MergeTreeCompactRewriterTest, AggregationMergesAndSingleRecordsPassThrough) {
  test::TempDir dir;
  Bucket b(dir.path() + "/t", {{"merge-engine", "aggregation"},
                               {"fields.n.aggregate-function", "sum"},
                               {"fields.v.aggregate-function", "last_non_null_value"}});
  LevelFilePtr f1 = b.Write({Rec(1, "x", 5, 0), Rec(2, "y", 7, 1)});
  LevelFilePtr f2 = b.Write({Rec(1, "z", 6, 2)});
  LevelFilePtr f3 = b.Write({Rec(1, "w", -1, 3), Rec(9, "q", 1, 4)});
  auto result = b.rewriter->Rewrite(
      3, true, {{SortedRun::FromSingle(f1), SortedRun::FromSingle(f2), SortedRun::FromSingle(f3)}});
  ASSERT_OK(result);
  EXPECT_EQ(Show(b.Read(result->after)), "+I(1, 'w', 10)@3 +I(2, 'y', 7)@1 +I(9, 'q', 1)@4 ");
}

TEST(MergeTreeCompactRewriterTest, SeveralSectionsIntoOneOutputInKeyOrder) {
  test::TempDir dir;
  Bucket b(dir.path() + "/t", {});
  LevelFilePtr low = b.Write({Rec(1, "a", 1, 0), Rec(2, "b", 2, 1)});
  LevelFilePtr high = b.Write({Rec(10, "c", 3, 2), Rec(11, "d", 4, 3)});
  auto result =
      b.rewriter->Rewrite(1, true, {{SortedRun::FromSingle(low)}, {SortedRun::FromSingle(high)}});
  ASSERT_OK(result);
  ASSERT_EQ(result->after.size(), 1u);
  EXPECT_EQ(result->after[0].row_count, 4);
}

TEST(MergeTreeCompactRewriterTest, MissingInputFailsNamingItAndLeavesNoOutput) {
  test::TempDir dir;
  Bucket b(dir.path() + "/t", {});
  LevelFilePtr f = b.Write({Rec(1, "a", 1, 0)});
  LevelFilePtr g = b.Write({Rec(1, "b", 1, 1)});
  ASSERT_OK(
      b.table->io()->Delete(BucketPath(b.table->path(), "", 0) + "/" + g->meta.file_name, false));
  EXPECT_TRUE(test::HasError(
      b.rewriter->Rewrite(1, true, {{SortedRun::FromSingle(f), SortedRun::FromSingle(g)}}),
      StatusCode::kNotFound, {g->meta.file_name}));
  // Only the input that still exists is left in the bucket.
  std::vector<std::string> left;
  for (const auto& entry :
       std::filesystem::directory_iterator(BucketPath(b.table->path(), "", 0))) {
    left.push_back(entry.path().filename().string());
  }
  EXPECT_EQ(left, (std::vector<std::string>{f->meta.file_name}));
}

TEST(MergeTreeCompactRewriterTest, TableWritesCompactAndReadAsTheModel) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto table = test::CreateTestTable(path, KvFields(), {}, {"k"},
                                     {{"bucket", "1"}, {"num-sorted-run.compaction-trigger", "2"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  std::map<int64_t, ValueList> model;
  for (int64_t commit = 1; commit <= 6; ++commit) {
    auto write = test::OpenCompactingWrite(path);
    std::vector<ValueList> rows;
    std::vector<RowKind> kinds;
    for (int64_t k = commit; k < commit + 5; ++k) {
      ValueList row = {Value::Int64(k), Value::String("c" + std::to_string(commit)),
                       Value::Int64(commit * 100 + k)};
      rows.push_back(row);
      kinds.push_back(RowKind::kInsert);
      model[k] = row;
    }
    rows.push_back({Value::Int64(commit - 1), Value::Null(), Value::Null()});
    kinds.push_back(RowKind::kDelete);
    model.erase(commit - 1);
    ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds));
    ASSERT_OK(test::Commit(path, write.get(), commit));
    ASSERT_OK(write->Close());
    EXPECT_EQ(test::ReadAll(path), test::RenderModel(model)) << "commit " << commit;
  }
  // Compaction kept the bucket at no more than the trigger's number of runs, above level 0.
  std::vector<DataFileMeta> live = test::LiveFiles(path);
  int level0 = 0;
  for (const DataFileMeta& f : live) level0 += f.level == 0 ? 1 : 0;
  EXPECT_LE(level0, 2);
  EXPECT_LT(level0, static_cast<int>(live.size()));
  Status st = CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value());
  EXPECT_OK(st);

  // A full compaction on demand leaves one run on the max level without deletes.
  auto write = test::OpenCompactingWrite(path);
  ASSERT_OK(write->Compact(EmptySerializedRow(), 0, /*full_compaction=*/true));
  ASSERT_OK(test::Commit(path, write.get(), 7));
  ASSERT_OK(write->Close());
  EXPECT_EQ(test::ReadAll(path), test::RenderModel(model));
  for (const DataFileMeta& f : test::LiveFiles(path)) {
    EXPECT_EQ(f.level, 2) << f.file_name;
    EXPECT_EQ(f.delete_row_count, 0) << f.file_name;
  }
}

TEST(MergeTreeCompactRewriterTest, DeletionVectorTablesCompactAsJavaAllows) {
  test::TempDir dir;
  // Every merge engine but first-row, with sequence.field and the changelog producers none,
  // input and lookup (dv_scenario and changelog_scenario test them).
  for (const TableOptions& options :
       {TableOptions{{"merge-engine", "aggregation"}}, TableOptions{{"sequence.field", "n"}},
        TableOptions{{"merge-engine", "partial-update"}, {"changelog-producer", "lookup"}},
        TableOptions{{"changelog-producer", "input"}}}) {
    const std::string path = dir.path() + "/t" + options[0].second;
    TableOptions with_dv = options;
    with_dv.push_back({"bucket", "1"});
    with_dv.push_back({"deletion-vectors.enabled", "true"});
    auto table = test::CreateTestTable(path, KvFields(), {}, {"k"}, with_dv);
    EXPECT_OK(MakeMergeTreeCompactManagerFactory(table)) << options[0].second;
  }
  // Full-compaction changelog is refused, in the schema and as a dynamic option (Java's words).
  auto dedup = test::CreateTestTable(dir.path() + "/d", KvFields(), {}, {"k"},
                                     {{"bucket", "1"}, {"deletion-vectors.enabled", "true"}});
  auto full = FileStoreTable::Open(LocalFileIO(), dedup->path(), kMainBranch,
                                   {{"changelog-producer", "full-compaction"}});
  ASSERT_OK(full);
  EXPECT_TRUE(test::HasError(MakeMergeTreeCompactManagerFactory(*full), StatusCode::kNotSupported,
                             {dedup->path(), "deletion-vectors.enabled",
                              "changelog-producer full-compaction", "NONE/INPUT/LOOKUP"}));
  // write-only tables never compact: no manager.
  auto table = test::CreateTestTable(dir.path() + "/w", KvFields(), {}, {"k"},
                                     {{"bucket", "1"}, {"write-only", "true"}});
  auto factory = MakeMergeTreeCompactManagerFactory(table);
  ASSERT_OK(factory);
  auto writers = DataFileWriterFactory::Make(table->io(), table->schema_ptr(), table->options(),
                                             BucketPath(table->path(), "", 0))
                     .value();
  auto manager = (*factory)(EmptySerializedRow(), 0, {}, writers);
  ASSERT_OK(manager);
  EXPECT_EQ(*manager, nullptr);
}

// `rows` (all +I unless `kinds` says) written through a compacting write and committed as
// commit `commit`.
void CommitRows(const std::string& path, const DataTypePtr& row_type, int64_t commit,
                const std::vector<ValueList>& rows, std::vector<RowKind> kinds = {}) {
  if (kinds.empty()) kinds.assign(rows.size(), RowKind::kInsert);
  auto write = test::OpenCompactingWrite(path);
  ASSERT_OK(test::WriteRows(write.get(), row_type, rows, kinds));
  ASSERT_OK(test::Commit(path, write.get(), commit));
  ASSERT_OK(write->Close());
}

// The rows of snapshot `id` read as a streaming read does (`changelog-producer` tables: its
// changelog), "<kind> <row>" sorted.
std::vector<std::string> Changelog(const std::string& path, int64_t id) {
  std::vector<std::string> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  ScanOptions scan;
  scan.version = TableVersion::SnapshotId(id);
  scan.mode = ScanMode::kDelta;
  auto plan = PlanScan(*table, scan);
  EXPECT_OK(plan);
  if (!plan.ok()) return out;
  SplitReadOptions options;
  options.with_row_kind = true;
  for (DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(*table, table->schema_ptr(), split, options);
    EXPECT_OK(reader);
    if (!reader.ok()) return out;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        ValueList row = batch.GetRow(i).list();
        const std::string kind = row[0].bytes();
        out.push_back(kind + " " + Value::Row(ValueList(row.begin() + 1, row.end())).DebugString());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(MergeTreeCompactRewriterTest, DeletionVectorLookupChangelogCompactionDoesBothInOnePass) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto table = test::CreateTestTable(path, KvFields(), {}, {"k"},
                                     {{"bucket", "1"},
                                      {"deletion-vectors.enabled", "true"},
                                      {"changelog-producer", "lookup"},
                                      {"merge-engine", "partial-update"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  CommitRows(path, row_type, 1,
             {{Value::Int64(1), Value::String("a"), Value::Int64(1)},
              {Value::Int64(2), Value::String("x"), Value::Int64(2)}});
  // A partial row for key 1: its merged value takes n from it, v from the row above.
  CommitRows(path, row_type, 2, {{Value::Int64(1), Value::Null(), Value::Int64(5)}});

  auto reopened = FileStoreTable::Open(LocalFileIO(), path).value();
  auto latest = reopened->SelectSnapshot(TableVersion::Latest());
  ASSERT_OK(latest);
  ASSERT_TRUE(latest->has_value());
  const Snapshot& compact = **latest;
  // The compaction of commit 2's level-0 file wrote the changelog against the looked-up value
  // and the deletion vector of the row it superseded, in one snapshot.
  EXPECT_EQ(compact.commit_kind, CommitKind::kCompact);
  ASSERT_TRUE(compact.changelog_manifest_list);
  ASSERT_TRUE(compact.index_manifest);
  EXPECT_EQ(Changelog(path, compact.id),
            (std::vector<std::string>{"+U (1, 'a', 5)", "-U (1, 'a', 1)"}));
  auto plan = PlanScan(*reopened, ScanOptions{});
  ASSERT_OK(plan);
  int deletion_files = 0;
  std::vector<std::string> rows;
  for (const DataSplit& split : plan->splits) {
    EXPECT_TRUE(split.raw_convertible);
    for (const auto& dv : split.deletion_files) deletion_files += dv ? 1 : 0;
    ASSERT_TRUE(test::AppendSplitRows(*reopened, split, &rows));
  }
  EXPECT_EQ(deletion_files, 1);
  std::sort(rows.begin(), rows.end());
  EXPECT_EQ(rows, (std::vector<std::string>{"(1, 'a', 5)", "(2, 'x', 2)"}));
  EXPECT_OK(CheckTable(*reopened));
}

// Every record of the live files above level 0, with its file's level.
std::vector<std::pair<int, KeyValue>> RecordsAboveLevel0(const std::string& path) {
  std::vector<std::pair<int, KeyValue>> out;
  auto table = FileStoreTable::Open(LocalFileIO(), path).value();
  for (const DataFileMeta& meta : test::LiveFiles(path)) {
    if (meta.level == 0) continue;
    for (KeyValue& kv : ReadFileRecords(*table, meta)) out.emplace_back(meta.level, std::move(kv));
  }
  return out;
}

// Java reads a lookup table's key as its record of the lowest level above 0 merged with its
// level-0 records only (LookupMergeFunction): every record above level 0 must hold the key's
// whole value. A level-0 file that a compaction moves to a middle level, under a run holding
// the key's older value, must be rewritten with that value merged in (Java
// LookupMergeTreeCompactRewriter.upgradeStrategy: CHANGELOG_WITH_REWRITE), and first-row must
// not keep a key already above.
TEST(MergeTreeCompactRewriterTest, LookupUpgradeToMiddleLevelKeepsWholeValuesAsJava) {
  test::TempDir dir;
  struct Case {
    std::string engine;
    TableOptions options;
    std::string key1;  // key 1's row, its record of the lowest level above 0 too
  };
  for (const Case& c :
       {Case{"aggregation",
             {{"merge-engine", "aggregation"}, {"fields.n.aggregate-function", "sum"}},
             "(1, 'b', 3)"},
        Case{"partial-update", {{"merge-engine", "partial-update"}}, "(1, 'a', 2)"},
        Case{"first-row", {{"merge-engine", "first-row"}}, "(1, 'a', 1)"}}) {
    SCOPED_TRACE(c.engine);
    const std::string path = dir.path() + "/" + c.engine;
    TableOptions options = c.options;
    options.push_back({"bucket", "1"});
    options.push_back({"changelog-producer", "lookup"});
    auto table = test::CreateTestTable(path, KvFields(), {}, {"k"}, options);
    const DataTypePtr row_type = table->schema().LogicalRowType();
    // Commit 1 goes to the max level; commit 2's level-0 file, much smaller than that run, goes
    // to the level below it.
    std::vector<ValueList> rows = {{Value::Int64(1), Value::String("a"), Value::Int64(1)}};
    for (int64_t k = 100; k < 200; ++k) {
      rows.push_back({Value::Int64(k), Value::String("filler"), Value::Int64(k)});
    }
    CommitRows(path, row_type, 1, rows);
    CommitRows(path, row_type, 2,
               {{Value::Int64(1), c.engine == "partial-update" ? Value::Null() : Value::String("b"),
                 Value::Int64(2)},
                {Value::Int64(3), Value::String("y"), Value::Int64(3)}});
    std::set<int> levels;
    std::optional<std::pair<int, KeyValue>> key1;
    for (auto& [level, kv] : RecordsAboveLevel0(path)) {
      levels.insert(level);
      if (kv.key[0].int64() == 1 && (!key1 || level < key1->first)) key1.emplace(level, kv);
    }
    EXPECT_EQ(levels.size(), 2u) << "commit 2 did not reach a middle level";
    ASSERT_TRUE(key1);
    EXPECT_EQ(Value::Row(key1->second.value).DebugString(), c.key1) << "level " << key1->first;
    std::vector<std::string> key1_rows;
    const std::vector<std::string> all = test::ReadAll(path);
    for (const std::string& row : all) {
      if (row.rfind("(1, ", 0) == 0) key1_rows.push_back(row);
    }
    EXPECT_EQ(key1_rows, std::vector<std::string>{c.key1});
    EXPECT_EQ(all.size(), 102u);
    EXPECT_OK(CheckTable(*FileStoreTable::Open(LocalFileIO(), path).value()));
  }
}

// First-row's lookup changelog gives the kept record with its own kind (Java
// FirstRowMergeFunctionWrapper adds the merged record itself as the changelog).
TEST(MergeTreeCompactRewriterTest, FirstRowLookupChangelogKeepsTheRecordKind) {
  test::TempDir dir;
  const std::string path = dir.path() + "/t";
  auto table = test::CreateTestTable(
      path, KvFields(), {}, {"k"},
      {{"bucket", "1"}, {"changelog-producer", "lookup"}, {"merge-engine", "first-row"}});
  const DataTypePtr row_type = table->schema().LogicalRowType();
  CommitRows(path, row_type, 1,
             {{Value::Int64(1), Value::String("a"), Value::Int64(1)},
              {Value::Int64(2), Value::String("b"), Value::Int64(2)}},
             {RowKind::kUpdateAfter, RowKind::kInsert});
  auto latest =
      FileStoreTable::Open(LocalFileIO(), path).value()->SelectSnapshot(TableVersion::Latest());
  ASSERT_OK(latest);
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ(Changelog(path, (*latest)->id),
            (std::vector<std::string>{"+I (2, 'b', 2)", "+U (1, 'a', 1)"}));
}

}  // namespace
}  // namespace sluice
