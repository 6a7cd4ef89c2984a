#include "sluice/meta/consumer_manager.h"

#include <gtest/gtest.h>

#include <limits>

#include "sluice/fs/fault_injection_file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

class ConsumerManagerTest : public ::testing::Test {
 protected:
  test::TempDir dir_;
  std::shared_ptr<FileIO> io_ = LocalFileIO();
  std::string table_ = dir_.path() + "/t";
};

TEST(ConsumerTest, JsonIsJacksonsAndRoundTrips) {
  Consumer consumer{42};
  EXPECT_EQ(consumer.ToJson(), "{\n  \"nextSnapshot\" : 42\n}");
  ASSERT_OK_AND_ASSIGN(Consumer back, Consumer::FromJson(consumer.ToJson()));
  EXPECT_EQ(back, consumer);
}

TEST(ConsumerTest, UnknownKeysAreIgnored) {
  ASSERT_OK_AND_ASSIGN(Consumer c, Consumer::FromJson(R"({"other": 1, "nextSnapshot": 7})"));
  EXPECT_EQ(c.next_snapshot, 7);
}

TEST(ConsumerTest, MalformedContentIsCorruptionNamingTheField) {
  EXPECT_TRUE(test::HasError(Consumer::FromJson("{}"), StatusCode::kCorruption,
                             {"missing field", "nextSnapshot"}));
  EXPECT_TRUE(test::HasError(Consumer::FromJson(R"({"nextSnapshot": "x"})"),
                             StatusCode::kCorruption, {"nextSnapshot"}));
  EXPECT_TRUE(test::HasError(Consumer::FromJson("[1]"), StatusCode::kCorruption, {"object"}));
  EXPECT_TRUE(test::HasError(Consumer::FromJson("{\"nextSn"), StatusCode::kCorruption));
}

TEST_F(ConsumerManagerTest, ResetLoadDelete) {
  ConsumerManager manager(io_, table_);
  ASSERT_OK_AND_ASSIGN(auto missing, manager.LoadConsumer("a"));
  EXPECT_FALSE(missing.has_value());
  ASSERT_OK(manager.ResetConsumer("a", Consumer{3}));
  EXPECT_EQ(test::ReadFileOrFail(table_ + "/consumer/consumer-a"), "{\n  \"nextSnapshot\" : 3\n}");
  ASSERT_OK(manager.ResetConsumer("a", Consumer{5}));
  ASSERT_OK_AND_ASSIGN(auto loaded, manager.LoadConsumer("a"));
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->next_snapshot, 5);
  ASSERT_OK(manager.DeleteConsumer("a"));
  ASSERT_OK(manager.DeleteConsumer("a"));
  ASSERT_OK_AND_ASSIGN(loaded, manager.LoadConsumer("a"));
  EXPECT_FALSE(loaded.has_value());
}

TEST_F(ConsumerManagerTest, ListsConsumersAndTheirMinimum) {
  ConsumerManager manager(io_, table_);
  ASSERT_OK_AND_ASSIGN(auto none, manager.MinNextSnapshot());
  EXPECT_FALSE(none.has_value());
  ASSERT_OK_AND_ASSIGN(auto no_ids, manager.ListAllIds());
  EXPECT_TRUE(no_ids.empty());
  ASSERT_OK(manager.ResetConsumer("b", Consumer{9}));
  ASSERT_OK(manager.ResetConsumer("a", Consumer{4}));
  ASSERT_OK(manager.ResetConsumer("c", Consumer{12}));
  // Not a consumer file: skipped.
  ASSERT_OK(io_->WriteFileAtomic(table_ + "/consumer/other", "x", true));
  ASSERT_OK_AND_ASSIGN(auto ids, manager.ListAllIds());
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c"}));
  ASSERT_OK_AND_ASSIGN(auto all, manager.Consumers());
  EXPECT_EQ(all, (std::map<std::string, int64_t>{{"a", 4}, {"b", 9}, {"c", 12}}));
  ASSERT_OK_AND_ASSIGN(auto min, manager.MinNextSnapshot());
  EXPECT_EQ(min, 4);
}

TEST_F(ConsumerManagerTest, BranchesHaveTheirOwnConsumers) {
  ConsumerManager main(io_, table_);
  ConsumerManager branch(io_, table_, "b1");
  ASSERT_OK(branch.ResetConsumer("x", Consumer{2}));
  EXPECT_EQ(test::ReadFileOrFail(table_ + "/branch/branch-b1/consumer/consumer-x"),
            Consumer{2}.ToJson());
  ASSERT_OK_AND_ASSIGN(auto ids, main.ListAllIds());
  EXPECT_TRUE(ids.empty());
}

TEST_F(ConsumerManagerTest, ExpireDeletesConsumersNotUpdatedSince) {
  ConsumerManager manager(io_, table_);
  ASSERT_OK(manager.ResetConsumer("old", Consumer{1}));
  ASSERT_OK_AND_ASSIGN(FileStatus status, io_->GetStatus(manager.consumer_path("old")));
  // Nothing was modified before the file itself.
  ASSERT_OK_AND_ASSIGN(auto kept, manager.Expire(status.modification_time_ms));
  EXPECT_TRUE(kept.empty());
  ASSERT_OK_AND_ASSIGN(auto expired, manager.Expire(status.modification_time_ms + 1));
  EXPECT_EQ(expired, (std::vector<std::string>{"old"}));
  ASSERT_OK_AND_ASSIGN(auto ids, manager.ListAllIds());
  EXPECT_TRUE(ids.empty());
}

// A deleted consumer must not come back after a power loss: it would hold expiry back.
TEST(ConsumerManagerPowerLossTest, DeletionsSurviveAPowerLoss) {
  auto io = std::make_shared<FaultInjectionFileIO>(std::make_shared<MemoryFileIO>());
  ConsumerManager manager(io, "/wh/db.db/t");
  for (const char* id : {"a", "b", "c"}) ASSERT_OK(manager.ResetConsumer(id, Consumer{1}));
  ASSERT_OK(io->DropUnsynced());
  ASSERT_OK_AND_ASSIGN(auto ids, manager.ListAllIds());
  EXPECT_EQ(ids, (std::vector<std::string>{"a", "b", "c"})) << "written durably";

  ASSERT_OK(manager.DeleteConsumer("a"));
  ASSERT_OK_AND_ASSIGN(auto expired, manager.Expire(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(expired, (std::vector<std::string>{"b", "c"}));
  ASSERT_OK(io->DropUnsynced());
  ASSERT_OK_AND_ASSIGN(ids, manager.ListAllIds());
  EXPECT_TRUE(ids.empty()) << "deleted consumers came back: " << ids.size();
  // Deleting from a table without consumers is fine.
  EXPECT_OK(ConsumerManager(io, "/wh/db.db/none").DeleteConsumer("x"));
}

TEST_F(ConsumerManagerTest, CorruptFileIsCorruptionNamingThePath) {
  ConsumerManager manager(io_, table_);
  ASSERT_OK(io_->WriteFileAtomic(manager.consumer_path("bad"), "{\"nextSnapshot\": ", true));
  EXPECT_TRUE(
      test::HasError(manager.LoadConsumer("bad"), StatusCode::kCorruption, {"consumer-bad"}));
  EXPECT_TRUE(test::HasError(manager.MinNextSnapshot(), StatusCode::kCorruption, {"consumer-bad"}));
}

TEST_F(ConsumerManagerTest, IdsThatAreNotFileNamesAreRefused) {
  ConsumerManager manager(io_, table_);
  EXPECT_TRUE(test::HasError(manager.ResetConsumer("", Consumer{1}), StatusCode::kInvalidArgument,
                             {"empty"}));
  EXPECT_TRUE(
      test::HasError(manager.LoadConsumer("a/b"), StatusCode::kInvalidArgument, {"a/b", "'/'"}));
}

}  // namespace
}  // namespace sluice
