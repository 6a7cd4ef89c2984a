#include "sluice/index/cross_partition_bucket_assigner.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(CrossPartitionBucketAssignerTest, FillsTheSmallestBucketBelowTheTargetFirst) {
  CrossPartitionBucketAssigner assigner(/*target_row_num=*/2, /*num_assigners=*/1, 0);
  EXPECT_EQ(assigner.AssignBucket(0), 0);
  EXPECT_EQ(assigner.AssignBucket(0), 0);
  EXPECT_EQ(assigner.AssignBucket(0), 1);
  EXPECT_EQ(assigner.AssignBucket(1), 0);  // partitions count apart
  assigner.Decrement(0, 0);                // a key left bucket 0
  EXPECT_EQ(assigner.AssignBucket(0), 0);
  EXPECT_EQ(assigner.AssignBucket(0), 1);
  EXPECT_EQ(assigner.AssignBucket(0), 2);
}

TEST(CrossPartitionBucketAssignerTest, StartsFromBootstrappedCountsAndOwnsOnlyItsBuckets) {
  CrossPartitionBucketAssigner assigner(/*target_row_num=*/2, /*num_assigners=*/2, 1);
  assigner.BootstrapBucket(0, 1);
  assigner.BootstrapBucket(0, 1);
  assigner.BootstrapBucket(0, 5);
  EXPECT_EQ(assigner.AssignBucket(0), 5);  // bucket 1 is full
  EXPECT_EQ(assigner.AssignBucket(0), 3);  // the smallest odd id not used
  EXPECT_EQ(assigner.AssignBucket(0), 3);
  EXPECT_EQ(assigner.AssignBucket(0), 7);
}

}  // namespace
}  // namespace sluice
