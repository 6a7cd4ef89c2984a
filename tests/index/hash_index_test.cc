// The HASH index file, the per-bucket index maintainer and the dynamic bucket assigners
// (Java HashIndexFile, DynamicBucketIndexMaintainer, PartitionIndex, HashBucketAssigner,
// SimpleHashBucketAssigner).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/index/bucket_assigner.h"
#include "sluice/index/dynamic_bucket_index_maintainer.h"
#include "sluice/index/hash_index_file.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(HashIndexFileTest, BigEndianIntsRoundTrip) {
  test::TempDir dir;
  const std::string path = dir.path() + "/index/index-u-0";
  const std::vector<int32_t> hashes = {1, -1, 0x01020304, INT32_MIN};
  ASSERT_OK_AND_ASSIGN(IndexManifestEntry entry, WriteHashIndexFile(*LocalFileIO(), path, hashes));
  EXPECT_EQ(entry.index_type, "HASH");
  EXPECT_EQ(entry.file_name, "index-u-0");
  EXPECT_EQ(entry.file_size, 16);
  EXPECT_EQ(entry.row_count, 4);
  EXPECT_FALSE(entry.deletion_vectors.has_value());
  const std::string bytes = test::ReadFileOrFail(path);
  ASSERT_EQ(bytes.size(), 16u);
  EXPECT_EQ(bytes.substr(8, 4), std::string("\x01\x02\x03\x04", 4));  // big-endian
  EXPECT_EQ(bytes.substr(4, 4), std::string(4, '\xff'));
  ASSERT_OK_AND_ASSIGN(std::vector<int32_t> read, ReadHashIndexFile(*LocalFileIO(), path));
  EXPECT_EQ(read, hashes);
}

TEST(HashIndexFileTest, TruncatedFileIsCorruptionNamingIt) {
  test::TempDir dir;
  const std::string path = dir.path() + "/index-bad";
  ASSERT_OK(LocalFileIO()->WriteFileAtomic(path, std::string(7, 'x'), false));
  EXPECT_TRUE(test::HasError(ReadHashIndexFile(*LocalFileIO(), path), StatusCode::kCorruption,
                             {"index-bad", "7 bytes"}));
}

TEST(DynamicBucketIndexMaintainerTest, RewritesTheWholeSetWhenAHashIsAdded) {
  IndexManifestEntry restored;
  restored.index_type = "HASH";
  restored.file_name = "index-old";
  DynamicBucketIndexMaintainer maintainer(restored, {5, 6});
  std::vector<std::vector<int32_t>> written;
  auto writer = [&](const std::vector<int32_t>& hashes) -> Result<IndexManifestEntry> {
    written.push_back(hashes);
    IndexManifestEntry e;
    e.index_type = "HASH";
    e.file_name = "index-new-" + std::to_string(written.size());
    e.row_count = static_cast<int64_t>(hashes.size());
    return e;
  };
  // A known hash (a second row of a key, or a delete of it) changes nothing.
  maintainer.NotifyNewRecord(5);
  ASSERT_OK_AND_ASSIGN(auto none, maintainer.PrepareCommit(writer));
  EXPECT_TRUE(none.new_files.empty());
  EXPECT_TRUE(written.empty());

  maintainer.NotifyNewRecord(7);
  maintainer.NotifyNewRecord(7);
  ASSERT_OK_AND_ASSIGN(auto first, maintainer.PrepareCommit(writer));
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(written[0], (std::vector<int32_t>{5, 6, 7}));
  ASSERT_EQ(first.new_files.size(), 1u);
  ASSERT_EQ(first.deleted_files.size(), 1u);
  EXPECT_EQ(first.deleted_files[0].file_name, "index-old");
  EXPECT_EQ(first.deleted_files[0].kind, FileKind::kDelete);

  // The next commit replaces the file the previous one wrote.
  maintainer.NotifyNewRecord(8);
  ASSERT_OK_AND_ASSIGN(auto second, maintainer.PrepareCommit(writer));
  ASSERT_EQ(second.deleted_files.size(), 1u);
  EXPECT_EQ(second.deleted_files[0].file_name, "index-new-1");
  EXPECT_EQ(written[1], (std::vector<int32_t>{5, 6, 7, 8}));
}

TEST(BucketAssignerTest, ComputeAssignerIsJavas) {
  // (Math.abs(p % channels) + Math.abs(k % assigners)) % channels, Java's truncating %.
  EXPECT_EQ(ComputeAssigner(-7, 5, 3, 2), 2);
  EXPECT_EQ(ComputeAssigner(7, -5, 3, 3), (1 + 2) % 3);
  EXPECT_EQ(ComputeAssigner(INT32_MIN, INT32_MIN, 4, 4), 0);
  EXPECT_EQ(ComputeAssigner(123, 456, 1, 1), 0);
  EXPECT_TRUE(IsMyBucket(5, 2, 1));
  EXPECT_FALSE(IsMyBucket(4, 2, 1));
}

BucketAssignerOptions Options(int64_t target, int32_t max_buckets = -1) {
  BucketAssignerOptions o;
  o.target_row_num = target;
  o.max_buckets = max_buckets;
  return o;
}

TEST(BucketAssignerTest, FillsBucketsToTheTargetThenOpensTheNext) {
  HashBucketAssigner assigner(Options(3), [](const std::string&) {
    return Result<std::vector<BucketHashes>>(std::vector<BucketHashes>{});
  });
  std::vector<int32_t> buckets;
  for (int32_t h = 0; h < 7; ++h) {
    ASSERT_OK_AND_ASSIGN(int32_t b, assigner.Assign("p", 0, h * 1000));
    buckets.push_back(b);
  }
  EXPECT_EQ(buckets, (std::vector<int32_t>{0, 0, 0, 1, 1, 1, 2}));
  // A known key keeps its bucket; another partition starts from bucket 0.
  ASSERT_OK_AND_ASSIGN(int32_t again, assigner.Assign("p", 0, 3000));
  EXPECT_EQ(again, 1);
  ASSERT_OK_AND_ASSIGN(int32_t other, assigner.Assign("q", 0, 3000));
  EXPECT_EQ(other, 0);
}

TEST(BucketAssignerTest, RestoredKeysKeepTheirBucketAndFullBucketsStayFull) {
  int loads = 0;
  HashBucketAssigner assigner(Options(2), [&](const std::string& partition) {
    ++loads;
    EXPECT_EQ(partition, "p");
    return Result<std::vector<BucketHashes>>(
        std::vector<BucketHashes>{{0, {10, 11}}, {1, {12}}, {3, {13, 14}}});
  });
  ASSERT_OK_AND_ASSIGN(int32_t b, assigner.Assign("p", 0, 13));
  EXPECT_EQ(b, 3);
  ASSERT_OK_AND_ASSIGN(b, assigner.Assign("p", 0, 10));
  EXPECT_EQ(b, 0);
  // New keys: bucket 1 has room for one, then the smallest unused id (2), then 4.
  ASSERT_OK_AND_ASSIGN(b, assigner.Assign("p", 0, 20));
  EXPECT_EQ(b, 1);
  ASSERT_OK_AND_ASSIGN(b, assigner.Assign("p", 0, 21));
  EXPECT_EQ(b, 2);
  ASSERT_OK_AND_ASSIGN(b, assigner.Assign("p", 0, 22));
  EXPECT_EQ(b, 2);
  ASSERT_OK_AND_ASSIGN(b, assigner.Assign("p", 0, 23));
  EXPECT_EQ(b, 4);
  EXPECT_EQ(loads, 1);
}

TEST(BucketAssignerTest, MaxBucketsBoundsTheBuckets) {
  HashBucketAssigner assigner(Options(1, 2), [](const std::string&) {
    return Result<std::vector<BucketHashes>>(std::vector<BucketHashes>{});
  });
  std::map<int32_t, int32_t> bucket_of;
  for (int32_t h = 0; h < 50; ++h) {
    ASSERT_OK_AND_ASSIGN(int32_t b, assigner.Assign("p", 0, h));
    EXPECT_GE(b, 0);
    EXPECT_LT(b, 2);
    bucket_of[h] = b;
  }
  for (const auto& [h, b] : bucket_of) {
    ASSERT_OK_AND_ASSIGN(int32_t again, assigner.Assign("p", 0, h));
    EXPECT_EQ(again, b);
  }
}

TEST(BucketAssignerTest, AnAssignerWithoutABucketUnderTheBoundFails) {
  // max-buckets = 1 leaves bucket 0 only, which assigner 1 of 2 does not own.
  BucketAssignerOptions o = Options(10, 1);
  o.num_channels = 2;
  o.num_assigners = 2;
  o.assign_id = 1;
  HashBucketAssigner assigner(o, [](const std::string&) {
    return Result<std::vector<BucketHashes>>(std::vector<BucketHashes>{});
  });
  EXPECT_TRUE(test::HasError(assigner.Assign("p", 0, 1), StatusCode::kInvalidArgument,
                             {"dynamic-bucket.max-buckets"}));
}

TEST(BucketAssignerTest, ParallelAssignersOwnDisjointBucketsAndKeys) {
  constexpr int32_t kWriters = 3;
  std::vector<std::unique_ptr<HashBucketAssigner>> assigners;
  for (int32_t id = 0; id < kWriters; ++id) {
    BucketAssignerOptions o = Options(4);
    o.num_channels = kWriters;
    o.num_assigners = kWriters;
    o.assign_id = id;
    assigners.push_back(std::make_unique<HashBucketAssigner>(o, [](const std::string&) {
      return Result<std::vector<BucketHashes>>(std::vector<BucketHashes>{});
    }));
  }
  const int32_t partition_hash = -12345;
  std::map<int32_t, std::set<int32_t>> buckets_of_writer;
  for (int32_t h = -200; h < 200; ++h) {
    const int32_t owner = ComputeAssigner(partition_hash, h, kWriters, kWriters);
    for (int32_t id = 0; id < kWriters; ++id) {
      Result<int32_t> b = assigners[static_cast<size_t>(id)]->Assign("p", partition_hash, h);
      if (id != owner) {
        EXPECT_TRUE(test::HasError(b, StatusCode::kInvalidArgument, {"bucket assigner"}));
        continue;
      }
      ASSERT_OK(b);
      EXPECT_TRUE(IsMyBucket(*b, kWriters, id)) << *b;
      buckets_of_writer[id].insert(*b);
    }
  }
  EXPECT_EQ(buckets_of_writer.size(), 3u);
}

TEST(BucketAssignerTest, FewerInitialBucketsThanWritersUseOnlyThatManyAssigners) {
  // initial-buckets = 1 with 2 writers (2 channels, 1 assigner): every key of a partition goes
  // to one writer.
  std::set<int32_t> owners;
  for (int32_t h = 0; h < 100; ++h) owners.insert(ComputeAssigner(77, h, 2, 1));
  EXPECT_EQ(owners.size(), 1u);
}

TEST(SimpleHashBucketAssignerTest, IgnoresTheIndexAndFillsOneBucketAtATime) {
  SimpleHashBucketAssigner assigner(Options(2));
  std::vector<int32_t> buckets;
  for (int32_t h : {1, 2, 1, 3, 4, 5}) {
    ASSERT_OK_AND_ASSIGN(int32_t b, assigner.Assign("p", 0, h));
    buckets.push_back(b);
  }
  EXPECT_EQ(buckets, (std::vector<int32_t>{0, 0, 0, 1, 1, 2}));
}

}  // namespace
}  // namespace sluice
