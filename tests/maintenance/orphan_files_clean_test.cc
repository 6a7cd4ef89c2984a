// Orphan-file cleanup (LocalOrphanFilesClean): planted orphans older than the bound go (data,
// manifest, index, statistics and temporary snapshot files), younger ones and every referenced
// file stay; a dry run lists and keeps; tags and branches protect their files.

#include "sluice/maintenance/orphan_files_clean.h"

#include <gtest/gtest.h>

#include <fstream>

#include "maintenance/maintenance_test_util.h"
#include "sluice/maintenance/expire_snapshots.h"

namespace sluice {
namespace {

using test::FilesOnDisk;
using test::ReferencedFiles;

constexpr int64_t kTwoDays = 2LL * 24 * 3600 * 1000;

std::vector<ValueList> Batch(const std::string& dt, int i) {
  return {{Value::String(dt), Value::Int64(0), Value::String("u" + std::to_string(i))},
          {Value::String(dt), Value::Int64(i), Value::String("v" + std::to_string(i))}};
}

void Plant(const std::string& path, int64_t age_ms) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << "orphan";
  if (age_ms > 0) test::Age(path, age_ms);
}

class OrphanFilesCleanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.path() + "/t";
    test::CreateKvTable(path_, /*partitioned=*/true);
    for (int i = 1; i <= 3; ++i) {
      ASSERT_OK(test::WriteAndCommit(LocalFileIO(), path_, true, Batch("a", i), i));
    }
    // Every real file is old too: only references keep them.
    for (const std::string& file : test::ListFilesRecursive(path_)) test::Age(file, kTwoDays);
  }
  std::shared_ptr<FileStoreTable> Table() {
    auto table = FileStoreTable::Open(LocalFileIO(), path_);
    EXPECT_OK(table);
    return *table;
  }
  Result<OrphanFiles> Clean(bool dry_run) {
    return LocalOrphanFilesClean(
               Table(), CurrentTimeMillis() - LocalOrphanFilesClean::kDefaultOlderThanMillis,
               dry_run)
        .Clean();
  }

  test::TempDir dir_;
  std::string path_;
};

TEST_F(OrphanFilesCleanTest, RemovesOldOrphansOnlyAndDryRunListsThem) {
  const std::vector<std::string> old_orphans{
      path_ + "/dt=a/bucket-0/data-orphan-0.parquet",
      path_ + "/dt=b/bucket-0/data-orphan-1.parquet",  // a partition no snapshot has
      path_ + "/manifest/manifest-orphan-0",
      path_ + "/manifest/manifest-list-orphan-0",
      path_ + "/index/index-orphan-0",
      path_ + "/statistics/stat-orphan-0",
      path_ + "/snapshot/.snapshot-9.tmp",
  };
  for (const std::string& p : old_orphans) Plant(p, kTwoDays);
  const std::string young = path_ + "/dt=a/bucket-0/data-in-flight.parquet";
  Plant(young, 0);
  const std::set<std::string> referenced = ReferencedFiles(*Table());

  ASSERT_OK_AND_ASSIGN(OrphanFiles listed, Clean(/*dry_run=*/true));
  std::vector<std::string> expected = old_orphans;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(listed.files, expected);
  EXPECT_EQ(listed.bytes, static_cast<int64_t>(6 * old_orphans.size()));
  for (const std::string& p : old_orphans) EXPECT_TRUE(std::filesystem::exists(p)) << p;

  ASSERT_OK_AND_ASSIGN(OrphanFiles removed, Clean(/*dry_run=*/false));
  EXPECT_EQ(removed.files, expected);
  for (const std::string& p : old_orphans) EXPECT_FALSE(std::filesystem::exists(p)) << p;
  EXPECT_TRUE(std::filesystem::exists(young));
  EXPECT_FALSE(std::filesystem::exists(path_ + "/dt=b")) << "the empty partition folder stays";
  std::set<std::string> left = FilesOnDisk(path_);
  left.erase(young);
  EXPECT_EQ(left, referenced);
  test::ExpectCheckClean(*Table());
  EXPECT_TRUE(std::filesystem::exists(SnapshotPath(path_, 1)));
}

TEST_F(OrphanFilesCleanTest, TagKeepsTheFilesOfAnExpiredSnapshot) {
  test::WriteTag(*Table(), "t1", 1);
  const std::vector<std::string> tagged =
      test::ReadAll(path_, LocalFileIO(), TableVersion::Tag("t1"));
  // After the expiry only the tag refers to snapshot 1's files: cleanup must keep them.
  ExpireConfig config;
  config.snapshot_retain_min = 1;
  config.snapshot_retain_max = 1;
  config.snapshot_time_retain_millis = 0;
  ASSERT_OK(ExpireSnapshotsImpl(Table()).Expire(config, CurrentTimeMillis()));
  for (const std::string& file : test::ListFilesRecursive(path_)) test::Age(file, kTwoDays);
  ASSERT_OK_AND_ASSIGN(OrphanFiles removed, Clean(/*dry_run=*/false));
  EXPECT_TRUE(removed.files.empty());
  EXPECT_EQ(test::ReadAll(path_, LocalFileIO(), TableVersion::Tag("t1")), tagged);
  EXPECT_EQ(FilesOnDisk(path_), ReferencedFiles(*Table()));
}

}  // namespace
}  // namespace sluice
