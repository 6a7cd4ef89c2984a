#include "sluice/cdc/source_offsets.h"

#include <gtest/gtest.h>

#include <limits>

#include "test_util.h"

namespace sluice {
namespace {

TEST(SourceOffsetsTest, RoundTrip) {
  SourceOffsets offsets;
  offsets.next["orders-0"] = 42;
  offsets.next["orders-1"] = 0;
  offsets.next["my-topic-with-dashes-12"] = std::numeric_limits<int64_t>::max();
  offsets.next["quote\"and\\slash-3"] = 7;
  std::string json = offsets.ToJson();
  ASSERT_OK_AND_ASSIGN(SourceOffsets back, SourceOffsets::FromJson(json));
  EXPECT_EQ(back.next, offsets.next);
  EXPECT_EQ(back.ToJson(), json);
}

TEST(SourceOffsetsTest, EmptyRoundTrip) {
  SourceOffsets offsets;
  EXPECT_EQ(offsets.ToJson(), "{}");
  ASSERT_OK_AND_ASSIGN(SourceOffsets back, SourceOffsets::FromJson("{}"));
  EXPECT_TRUE(back.next.empty());
}

TEST(SourceOffsetsTest, ToJsonIsSortedBySplit) {
  SourceOffsets offsets;
  offsets.next["b-0"] = 2;
  offsets.next["a-1"] = 1;
  EXPECT_EQ(offsets.ToJson(), R"({"a-1":1,"b-0":2})");
}

TEST(SourceOffsetsTest, NextAndCovers) {
  ASSERT_OK_AND_ASSIGN(SourceOffsets offsets, SourceOffsets::FromJson(R"({ "t-0" : 10 })"));
  EXPECT_EQ(offsets.Next("t-0"), 10);
  EXPECT_EQ(offsets.Next("t-1"), -1);
  EXPECT_TRUE(offsets.Covers("t-0", 9));
  EXPECT_FALSE(offsets.Covers("t-0", 10));
  EXPECT_FALSE(offsets.Covers("t-1", 0));
}

TEST(SourceOffsetsTest, AdvanceToMovesEachSplitForwardOnly) {
  SourceOffsets offsets;
  offsets.next = {{"t-0", 10}, {"t-1", 4}};
  SourceOffsets consumed;
  consumed.next = {{"t-0", 7}, {"t-1", 9}, {"t-2", 0}};
  offsets.AdvanceTo(consumed);
  EXPECT_EQ(offsets.next, (std::map<std::string, int64_t>{{"t-0", 10}, {"t-1", 9}, {"t-2", 0}}));
}

TEST(SourceOffsetsTest, CorruptInput) {
  EXPECT_TRUE(
      test::HasError(SourceOffsets::FromJson(""), StatusCode::kCorruption, {"source offsets"}));
  EXPECT_TRUE(test::HasError(SourceOffsets::FromJson(R"({"t-0": 1)"), StatusCode::kCorruption,
                             {"source offsets", "{\"t-0\": 1"}));
  EXPECT_TRUE(test::HasError(SourceOffsets::FromJson("[1, 2]"), StatusCode::kCorruption,
                             {"source offsets", "offsets"}));
  EXPECT_TRUE(test::HasError(SourceOffsets::FromJson(R"({"t-0": "12"})"), StatusCode::kCorruption,
                             {"t-0"}));
  EXPECT_TRUE(
      test::HasError(SourceOffsets::FromJson(R"({"t-0": 1.5})"), StatusCode::kCorruption, {"t-0"}));
  EXPECT_TRUE(test::HasError(SourceOffsets::FromJson(R"({"t-0": -3})"), StatusCode::kCorruption,
                             {"t-0", "negative offset -3"}));
  EXPECT_TRUE(test::HasError(SourceOffsets::FromJson(R"({"t-0": null})"), StatusCode::kCorruption,
                             {"t-0"}));
  EXPECT_TRUE(test::HasError(SourceOffsets::FromJson(R"({"t-0": 99999999999999999999})"),
                             StatusCode::kCorruption, {"t-0"}));
}

TEST(SourceOffsetsTest, LongCorruptTextIsShortened) {
  std::string text = "{\"t-0\": [" + std::string(1000, '1');
  auto result = SourceOffsets::FromJson(text);
  ASSERT_TRUE(test::HasError(result, StatusCode::kCorruption, {"..."}));
  EXPECT_LT(result.status().message().size(), 600u);
}

}  // namespace
}  // namespace sluice
