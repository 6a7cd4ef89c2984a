// CoreOptions: the streaming-read and consumer options (scan.mode and its Java resolution of
// `default`, consumer-id / consumer.*).
#include <gtest/gtest.h>

#include "sluice/meta/core_options.h"
#include "test_util.h"

namespace sluice {
namespace {

StartupMode ModeOf(const TableOptions& options) {
  Result<CoreOptions> o = CoreOptions::Make(options);
  EXPECT_OK(o);
  return o.ok() ? o->startup_mode() : StartupMode::kDefault;
}

TEST(CoreOptionsStreamingTest, DefaultStartupModeFollowsTheOtherScanOptions) {
  EXPECT_EQ(ModeOf({}), StartupMode::kLatestFull);
  EXPECT_EQ(ModeOf({{"scan.timestamp-millis", "5"}}), StartupMode::kFromTimestamp);
  EXPECT_EQ(ModeOf({{"scan.timestamp", "2024-01-01 00:00:00"}}), StartupMode::kFromTimestamp);
  EXPECT_EQ(ModeOf({{"scan.snapshot-id", "3"}}), StartupMode::kFromSnapshot);
  EXPECT_EQ(ModeOf({{"scan.tag-name", "t"}}), StartupMode::kFromSnapshot);
  EXPECT_EQ(ModeOf({{"scan.file-creation-time-millis", "9"}}), StartupMode::kFromFileCreationTime);
  EXPECT_EQ(ModeOf({{"incremental-between", "1,3"}}), StartupMode::kIncremental);
  // An explicit mode wins; `full` is the deprecated name of latest-full.
  EXPECT_EQ(ModeOf({{"scan.mode", "latest"}, {"scan.snapshot-id", "3"}}), StartupMode::kLatest);
  EXPECT_EQ(ModeOf({{"scan.mode", "FULL"}}), StartupMode::kLatestFull);
  EXPECT_EQ(ModeOf({{"scan.mode", "compacted-full"}}), StartupMode::kCompactedFull);
  EXPECT_EQ(StartupModeName(StartupMode::kFromSnapshotFull), "from-snapshot-full");
}

TEST(CoreOptionsStreamingTest, ValuesAreTyped) {
  ASSERT_OK_AND_ASSIGN(CoreOptions o, CoreOptions::Make({{"scan.snapshot-id", "7"},
                                                         {"scan.bounded.watermark", "100"},
                                                         {"streaming-read-overwrite", "true"},
                                                         {"consumer-id", "c1"},
                                                         {"consumer.expiration-time", "1 h"},
                                                         {"consumer.mode", "at-least-once"},
                                                         {"consumer.ignore-progress", "true"}}));
  EXPECT_EQ(o.scan_snapshot_id(), 7);
  EXPECT_EQ(o.scan_bounded_watermark(), 100);
  EXPECT_TRUE(o.streaming_read_overwrite());
  EXPECT_EQ(o.consumer_id(), "c1");
  EXPECT_EQ(o.consumer_expiration_time_millis(), 3600 * 1000);
  EXPECT_EQ(o.consumer_mode(), ConsumerMode::kAtLeastOnce);
  EXPECT_TRUE(o.consumer_ignore_progress());
  EXPECT_FALSE(o.consumer_changelog_only());

  ASSERT_OK_AND_ASSIGN(CoreOptions d, CoreOptions::Make({}));
  EXPECT_FALSE(d.consumer_id().has_value());
  EXPECT_EQ(d.consumer_mode(), ConsumerMode::kExactlyOnce);
  EXPECT_FALSE(d.streaming_read_overwrite());
}

TEST(CoreOptionsStreamingTest, BadValuesNameTheKey) {
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"scan.mode", "sideways"}}),
                             StatusCode::kInvalidArgument, {"scan.mode", "sideways", "latest"}));
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"consumer-id", ""}}), StatusCode::kInvalidArgument,
                             {"consumer-id", "empty"}));
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"consumer.mode", "twice"}}),
                             StatusCode::kInvalidArgument, {"consumer.mode", "twice"}));
  EXPECT_TRUE(test::HasError(CoreOptions::Make({{"scan.snapshot-id", "x"}}),
                             StatusCode::kInvalidArgument, {"scan.snapshot-id", "x"}));
}

}  // namespace
}  // namespace sluice
