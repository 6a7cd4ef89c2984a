// Corpus sweep (scenario). The manifest list records the committer writes (ManifestFileWriter)
// against Java's: every manifest of the corpus tables is rewritten from its entries, and the
// ManifestFileMeta Sluice computes (entry counts, partition statistics, schema id, bucket and level
// ranges) must equal the one Java recorded in the manifest list.

#include <gtest/gtest.h>

#include <set>

#include "sluice/format/file_format_registry.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/manifest_file_writer.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/file_store_table.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(CommitManifestMetaTest, RewrittenCorpusManifestsMatchJavasManifestListRecords) {
  auto io = LocalFileIO();
  std::set<std::string> table_dirs;
  for (const auto& path :
       test::ListFilesRecursive(test::CompatTablesDir(), [](const std::string& p) {
         return p.find("/snapshot/snapshot-") != std::string::npos &&
                p.find("/branch/") == std::string::npos;
       })) {
    table_dirs.insert(path.substr(0, path.find("/snapshot/snapshot-")));
  }
  ASSERT_GT(table_dirs.size(), 50u);
  test::TempDir tmp;
  ASSERT_OK(io->MkDirs(tmp.path() + "/manifest"));
  MetaFileNamer namer;
  int tables = 0;
  int manifests = 0;
  int stats_bytes_equal = 0;
  int with_ranges = 0;
  for (const auto& dir : table_dirs) {
    auto table = FileStoreTable::Open(io, dir);
    if (!table.ok()) continue;  // e.g. a table whose schema this build cannot open
    ++tables;
    auto snapshots = (*table)->snapshot_manager().ListSnapshots();
    ASSERT_OK(snapshots) << dir;
    auto format = FileFormatByName((*table)->options().manifest_format());
    ASSERT_OK(format);
    ManifestFileWriterOptions options;
    options.format = *format;
    options.partition_type = (*table)->schema().LogicalPartitionType();
    options.target_file_size = int64_t{1} << 40;
    ManifestFileWriter writer(io, tmp.path(), options, &namer);
    std::set<std::string> seen;
    for (const auto& s : *snapshots) {
      for (const std::string& list : {s.base_manifest_list, s.delta_manifest_list}) {
        auto metas = ReadManifestList(*io, ManifestFilePath(dir, list));
        ASSERT_OK(metas) << dir << "/" << list;
        for (const auto& java : *metas) {
          if (!seen.insert(java.file_name).second) continue;
          auto entries = ReadManifestFile(*io, ManifestFilePath(dir, java.file_name));
          ASSERT_OK(entries);
          if (entries->empty()) continue;
          auto written = writer.Write(*entries);
          ASSERT_OK(written);
          ASSERT_EQ(written->size(), 1u);
          const ManifestFileMeta& ours = (*written)[0];
          ++manifests;
          const std::string where = dir + "/manifest/" + java.file_name;
          EXPECT_EQ(ours.num_added_files, java.num_added_files) << where;
          EXPECT_EQ(ours.num_deleted_files, java.num_deleted_files) << where;
          EXPECT_EQ(ours.schema_id, java.schema_id) << where;
          if (java.min_bucket) {
            ++with_ranges;
            EXPECT_EQ(ours.min_bucket, java.min_bucket) << where;
            EXPECT_EQ(ours.max_bucket, java.max_bucket) << where;
            EXPECT_EQ(ours.min_level, java.min_level) << where;
            EXPECT_EQ(ours.max_level, java.max_level) << where;
          }
          EXPECT_EQ(ours.partition_stats.null_counts, java.partition_stats.null_counts) << where;
          if (ours.partition_stats == java.partition_stats) {
            ++stats_bytes_equal;
            continue;
          }
          // Older Java writers encode null non-compact fields differently (NullReservation);
          // the values must still agree.
          const DataType& type = *options.partition_type;
          auto our_min = DecodeSerializedBinaryRow(ours.partition_stats.min_values, type);
          auto java_min = DecodeSerializedBinaryRow(java.partition_stats.min_values, type);
          auto our_max = DecodeSerializedBinaryRow(ours.partition_stats.max_values, type);
          auto java_max = DecodeSerializedBinaryRow(java.partition_stats.max_values, type);
          ASSERT_OK(our_min) << where;
          ASSERT_OK(java_min) << where;
          ASSERT_OK(our_max) << where;
          ASSERT_OK(java_max) << where;
          EXPECT_EQ(*our_min, *java_min) << where;
          EXPECT_EQ(*our_max, *java_max) << where;
        }
      }
    }
  }
  EXPECT_GT(tables, 50);
  EXPECT_GT(manifests, 100);
  std::cout << manifests << " manifests of " << tables << " tables: " << stats_bytes_equal
            << " with byte-equal partition statistics, " << with_ranges
            << " with bucket / level ranges\n";
}

}  // namespace
}  // namespace sluice
