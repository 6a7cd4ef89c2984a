// CoalesceReadRanges: which requests a vectored read of several ranges makes.

#include "sluice/fs/read_range.h"

#include <gtest/gtest.h>

#include <vector>

namespace sluice {
namespace {

using Ranges = std::vector<ReadRange>;

TEST(ReadRangeTest, MergesRangesCloserThanTheGap) {
  CoalesceOptions options{100, 1000};
  // Unsorted input; 40 bytes apart, then 101 bytes apart.
  EXPECT_EQ(CoalesceReadRanges({{200, 50}, {100, 60}, {351, 10}}, options),
            (Ranges{{100, 150}, {351, 10}}));
  // Adjacent ranges are one request.
  EXPECT_EQ(CoalesceReadRanges({{0, 10}, {10, 10}, {20, 10}}, options), (Ranges{{0, 30}}));
}

TEST(ReadRangeTest, DropsEmptyRangesAndCoveredDuplicates) {
  CoalesceOptions options{0, 1000};
  EXPECT_EQ(CoalesceReadRanges({{5, 0}, {10, 20}, {10, 20}, {15, 5}, {40, -1}}, options),
            (Ranges{{10, 20}}));
  EXPECT_EQ(CoalesceReadRanges({}, options), Ranges{});
  // Overlapping ranges merge even without a gap allowance.
  EXPECT_EQ(CoalesceReadRanges({{10, 20}, {25, 10}}, options), (Ranges{{10, 25}}));
}

TEST(ReadRangeTest, MergedRequestsStayUnderTheMaximumSize) {
  CoalesceOptions options{1 << 20, 100};
  // Close together, but 3 x 40 bytes is past the maximum: two requests.
  EXPECT_EQ(CoalesceReadRanges({{0, 40}, {40, 40}, {80, 40}}, options),
            (Ranges{{0, 80}, {80, 40}}));
  // A range larger than the maximum is cut into pieces.
  EXPECT_EQ(CoalesceReadRanges({{0, 250}, {600, 10}}, options),
            (Ranges{{0, 100}, {100, 100}, {200, 50}, {600, 10}}));
  // An overlap that cannot merge leaves only its new bytes to fetch.
  EXPECT_EQ(CoalesceReadRanges({{0, 90}, {50, 100}}, options), (Ranges{{0, 90}, {90, 60}}));
}

TEST(ReadRangeTest, EveryByteOfEveryRangeIsInExactlyOneRequest) {
  CoalesceOptions options{7, 50};
  Ranges ranges;
  for (int i = 0; i < 200; ++i) ranges.push_back(ReadRange{(i * 37) % 997, 1 + (i * 13) % 29});
  Ranges requests = CoalesceReadRanges(ranges, options);
  for (size_t i = 1; i < requests.size(); ++i) {
    EXPECT_LE(requests[i - 1].end(), requests[i].offset);
  }
  for (const ReadRange& r : ranges) {
    for (int64_t b = r.offset; b < r.end(); ++b) {
      int holders = 0;
      for (const ReadRange& q : requests) holders += q.offset <= b && b < q.end();
      EXPECT_EQ(holders, 1) << "byte " << b;
    }
  }
}

}  // namespace
}  // namespace sluice
