// Every deletion vector of the corpus: each DELETION_VECTORS range of every index manifest reads,
// its cardinality is the manifest's `_CARDINALITY`, and serializing it gives back Java's bytes;
// the deletion files the scan planner attaches read, hold positions inside their data files,
// and remove exactly the rows the READMEs say.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "sluice/column_batch.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/index/deletion_vector.h"
#include "sluice/index/deletion_vector_index_file.h"
#include "sluice/index/deletion_vector_reader.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

bool IsIndexManifest(const std::string& path) {
  return fs::path(path).filename().string().rfind("index-manifest-", 0) == 0;
}

// Index files by name under a .db folder (main table, external paths, bucket folders).
std::map<std::string, std::string> IndexFilesByName(const fs::path& db_dir) {
  std::map<std::string, std::string> by_name;
  for (const auto& path : test::ListFilesRecursive(db_dir.string())) {
    const std::string name = fs::path(path).filename().string();
    if (name.rfind("index-", 0) == 0 && !IsIndexManifest(path)) by_name.emplace(name, path);
  }
  return by_name;
}

TEST(DeletionVectorCorpusTest, EveryIndexManifestRangeReadsAndRoundTrips) {
  auto io = LocalFileIO();
  std::set<std::pair<std::string, int64_t>> vectors;
  int manifests = 0, ranges = 0, with_cardinality = 0, empty_files = 0, files_rebuilt = 0;
  for (const auto& manifest : test::ListFilesRecursive(test::CompatTablesDir(), IsIndexManifest)) {
    // <db>/<table>/manifest/index-manifest-*, or inside a branch of the table.
    fs::path db_dir = fs::path(manifest).parent_path();
    while (!db_dir.empty() && db_dir.extension() != ".db") db_dir = db_dir.parent_path();
    ASSERT_FALSE(db_dir.empty()) << manifest;
    const auto index_files = IndexFilesByName(db_dir);
    auto entries = ReadIndexManifest(*io, manifest);
    ASSERT_OK(entries);
    ++manifests;
    for (const auto& entry : *entries) {
      if (entry.index_type != "DELETION_VECTORS") continue;
      auto found = index_files.find(entry.file_name);
      ASSERT_NE(found, index_files.end()) << entry.file_name << " of " << manifest;
      const std::string content = test::ReadFileOrFail(found->second);
      ASSERT_FALSE(content.empty());
      EXPECT_EQ(content[0], 1) << found->second;
      EXPECT_EQ(static_cast<int64_t>(content.size()), entry.file_size) << found->second;
      if (content.size() == 1) ++empty_files;
      ASSERT_TRUE(entry.deletion_vectors.has_value()) << found->second;
      EXPECT_EQ(static_cast<int64_t>(entry.deletion_vectors->size()), entry.row_count);
      std::vector<DeletionVector> read;
      for (const auto& range : *entry.deletion_vectors) {
        ++ranges;
        const DeletionFile file{found->second, range.offset, range.length, range.cardinality};
        auto dv = ReadDeletionVector(*io, file);
        ASSERT_OK(dv);
        EXPECT_FALSE(dv->IsEmpty());
        if (range.cardinality) {
          ++with_cardinality;
          EXPECT_EQ(dv->Cardinality(), *range.cardinality) << found->second;
        }
        const std::string bytes = dv->Serialize();
        EXPECT_EQ(dv->ManifestLength(static_cast<int64_t>(bytes.size())), range.length);
        EXPECT_EQ(bytes, content.substr(static_cast<size_t>(range.offset), bytes.size()))
            << found->second << " at " << range.offset;
        vectors.emplace(found->second, range.offset);
        read.push_back(std::move(*dv));
      }
      // Rewriting the file's vectors gives Java's file and manifest ranges back (cardinality
      // aside: older writers left it null).
      std::vector<std::pair<std::string, DeletionVector*>> to_write;
      for (size_t i = 0; i < read.size(); ++i) {
        to_write.emplace_back((*entry.deletion_vectors)[i].data_file_name, &read[i]);
      }
      auto rebuilt = BuildDeletionVectorIndexFile(to_write);
      ASSERT_OK(rebuilt);
      EXPECT_EQ(rebuilt->content, content) << found->second;
      ASSERT_EQ(rebuilt->ranges.size(), entry.deletion_vectors->size());
      for (size_t i = 0; i < read.size(); ++i) {
        DeletionVectorMeta expected = (*entry.deletion_vectors)[i];
        if (!expected.cardinality) expected.cardinality = read[i].Cardinality();
        EXPECT_EQ(rebuilt->ranges[i], expected) << found->second;
      }
      ++files_rebuilt;
    }
  }
  std::cout << manifests << " index manifests, " << ranges << " deletion-vector ranges ("
            << vectors.size() << " distinct vectors, " << with_cardinality
            << " with _CARDINALITY), " << empty_files << " empty index files, " << files_rebuilt
            << " index files rebuilt byte for byte\n";
  EXPECT_GE(manifests, 20);
  EXPECT_GE(vectors.size(), 30u);
}

std::string TablePath(const std::string& relative) {
  return test::CompatTablesDir() + "/" + relative;
}

// Deleted positions of every deletion file of a batch plan; each must lie inside its data file.
int64_t DeletedRows(FileIO& io, const ScanPlan& plan) {
  int64_t deleted = 0;
  for (const auto& split : plan.splits) {
    for (size_t i = 0; i < split.deletion_files.size(); ++i) {
      if (!split.deletion_files[i]) continue;
      auto dv = ReadDeletionVector(io, *split.deletion_files[i]);
      EXPECT_OK(dv);
      if (!dv.ok()) continue;
      const auto positions = dv->ToSortedPositions();
      EXPECT_FALSE(positions.empty());
      if (!positions.empty()) {
        EXPECT_LT(positions.back(), split.data_files[i].row_count) << split.data_files[i].file_name;
      }
      deleted += dv->Cardinality();
    }
  }
  return deleted;
}

// README: 9 rows (snapshots 1-2); snapshot 3 deletes Tony and updates Alice, and the compaction of
// snapshot 4 marks their old rows in deletion vectors; snapshots 5 and 6 add only level-0 files.
TEST(DeletionVectorCorpusTest, ScanAndReadDvMarksTonyAndAlice) {
  auto io = LocalFileIO();
  for (const std::string format : {"parquet", "orc"}) {
    SCOPED_TRACE(format);
    auto table = FileStoreTable::Open(
        io, TablePath(format + "/pk_table_scan_and_read_dv.db/pk_table_scan_and_read_dv"));
    ASSERT_OK(table);
    std::map<int64_t, std::pair<int64_t, int64_t>> planned_and_deleted;
    for (int64_t id = 1; id <= 6; ++id) {
      ScanOptions options;
      options.version = TableVersion::SnapshotId(id);
      auto plan = PlanScan(**table, options);
      ASSERT_OK(plan);
      int64_t planned = 0;
      for (const auto& split : plan->splits) planned += split.RowCount();
      planned_and_deleted[id] = {planned, DeletedRows(*io, *plan)};
    }
    EXPECT_EQ(planned_and_deleted[1], std::make_pair(int64_t{0}, int64_t{0}));
    EXPECT_EQ(planned_and_deleted[2], std::make_pair(int64_t{9}, int64_t{0}));
    for (int64_t id = 4; id <= 6; ++id) {
      // Tony's row and Alice's old row are deleted; 8 rows stay live.
      EXPECT_EQ(planned_and_deleted[id], std::make_pair(int64_t{10}, int64_t{2})) << id;
    }
    // The deleted positions hold exactly those rows.
    ScanOptions options;
    options.version = TableVersion::SnapshotId(4);
    auto plan = PlanScan(**table, options);
    ASSERT_OK(plan);
    const DataTypePtr name_type = (*table)->schema().ProjectedRowType({"f0", "f3"});
    std::multiset<std::string> deleted_rows;
    for (const auto& split : plan->splits) {
      for (size_t i = 0; i < split.deletion_files.size(); ++i) {
        if (!split.deletion_files[i]) continue;
        auto dv = ReadDeletionVector(*io, *split.deletion_files[i]);
        ASSERT_OK(dv);
        auto file_format = FileFormatByName(format);
        ASSERT_OK(file_format);
        auto file = io->OpenForRead(split.data_file_paths[i]);
        ASSERT_OK(file);
        ReaderOptions reader_options;
        reader_options.row_positions = dv->ToSortedPositions();
        auto reader = (*file_format)->CreateReader(std::move(*file), name_type, reader_options);
        ASSERT_OK(reader);
        ColumnBatch batch(name_type);
        while (true) {
          auto more = (*reader)->Next(&batch);
          ASSERT_OK(more);
          if (!*more) break;
          for (int64_t row = 0; row < batch.num_rows(); ++row) {
            deleted_rows.insert(std::string(batch.column(0)->GetBytes(row)) + " " +
                                std::to_string(batch.column(1)->data<double>()[row]));
          }
        }
      }
    }
    EXPECT_EQ(deleted_rows, (std::multiset<std::string>{"Alice 11.100000", "Tony 14.100000"}));
  }
}

// Every batch plan of every snapshot of every corpus table with deletion vectors: the attached
// deletion files read and stay inside their data files.
TEST(DeletionVectorCorpusTest, EveryPlannedDeletionFileReads) {
  auto io = LocalFileIO();
  int tables = 0, plans = 0;
  int64_t deleted = 0;
  for (const auto& schema :
       test::ListFilesRecursive(test::CompatTablesDir(), [](const std::string& path) {
         return path.find("/branch/") == std::string::npos &&
                fs::path(path).parent_path().filename() == "schema" &&
                fs::path(path).filename() == "schema-0";
       })) {
    const std::string table_dir = fs::path(schema).parent_path().parent_path().string();
    auto table = FileStoreTable::Open(io, table_dir);
    ASSERT_OK(table);
    if (!(*table)->options().deletion_vectors_enabled()) continue;
    ++tables;
    auto ids = (*table)->snapshot_manager().ListSnapshotIds();
    ASSERT_OK(ids);
    for (int64_t id : *ids) {
      ScanOptions options;
      options.version = TableVersion::SnapshotId(id);
      // Where the corpus keeps the files Java wrote to an external path (cases.jsonl).
      options.path_remap.emplace_back("FILE:/tmp/external", "../external");
      auto plan = PlanScan(**table, options);
      ASSERT_OK(plan) << table_dir << " snapshot " << id;
      ++plans;
      deleted += DeletedRows(*io, *plan);
    }
  }
  std::cout << tables << " tables with deletion vectors, " << plans << " batch plans, " << deleted
            << " deleted positions read\n";
  EXPECT_GE(tables, 10);
  EXPECT_GT(deleted, 0);
}

}  // namespace
}  // namespace sluice
