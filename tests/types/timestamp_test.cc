#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "sluice/value.h"

namespace sluice {
namespace {

TEST(Timestamp, FromEpochMicrosAndNanosFloorTowardsThePast) {
  EXPECT_EQ(Timestamp::FromEpochMicros(-1), (Timestamp{-1, 999000}));
  EXPECT_EQ(Timestamp::FromEpochMicros(1234567), (Timestamp{1234, 567000}));
  EXPECT_EQ(Timestamp::FromEpochNanos(-1), (Timestamp{-1, 999999}));
  EXPECT_EQ(Timestamp::FromEpochNanos(1000001), (Timestamp{1, 1}));
}

TEST(Timestamp, FromEpochMicrosAndNanosTakeEveryInt64) {
  // Arrow data may hold any value (the slots of nulls included); no overflow at the ends.
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(Timestamp::FromEpochMicros(kMin), (Timestamp{kMin / 1000 - 1, 192000}));
  EXPECT_EQ(Timestamp::FromEpochMicros(kMax), (Timestamp{kMax / 1000, 807000}));
  EXPECT_EQ(Timestamp::FromEpochNanos(kMin), (Timestamp{kMin / 1000000 - 1, 224192}));
  EXPECT_EQ(Timestamp::FromEpochNanos(kMax), (Timestamp{kMax / 1000000, 775807}));
}

}  // namespace
}  // namespace sluice
