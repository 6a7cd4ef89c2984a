// Lifecycle stress test (labelled scenario): a writer commits continuously through the public
// API with automatic snapshot expiry after every commit (snapshot.num-retained.min 2, max 4,
// time-retained 1 ms) and tags every few commits; a streaming consumer follows snapshot by
// snapshot recording its progress in a consumer file; a batch reader time-travels to random
// tags. No reader ever meets a missing file its tag or consumer protects (every read succeeds
// and equals the model of that snapshot). At the end the table checks clean, the files on disk
// are exactly the referenced ones, and orphan cleanup removes the planted old orphans and
// nothing else.

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "api/api_test_util.h"
#include "maintenance/maintenance_test_util.h"
#include "sluice/api/api_access.h"
#include "sluice/catalog.h"
#include "sluice/meta/consumer_manager.h"
#include "sluice/read_builder.h"
#include "sluice/table.h"
#include "sluice/table_commit.h"
#include "sluice/table_maintenance.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"
#include "types/field_util.h"

namespace sluice {
namespace {

constexpr int kCommits = 40;
constexpr int kTagEvery = 5;
constexpr int kKeys = 30;
constexpr int64_t kTwoDays = 2LL * 24 * 3600 * 1000;

using Model = std::map<int64_t, std::string>;

std::vector<std::string> Render(const Model& model) {
  std::vector<std::string> out;
  for (const auto& [k, v] : model) {
    out.push_back(Value::Row({Value::Int64(k), Value::String(v)}).DebugString());
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<std::string>> ReadRows(const ReadBuilder& read) {
  std::vector<std::string> out;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, test::ReaderOf(read));
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) out.push_back(batch.GetRow(i).DebugString());
  }
  std::sort(out.begin(), out.end());
  return out;
}

class LifecycleScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {test::Field(0, "k", DataType::BigInt(false)),
                    test::Field(1, "v", DataType::String())};
    spec.primary_keys = {"k"};
    spec.options = {{"bucket", "2"},
                    {"num-sorted-run.compaction-trigger", "2"},
                    {"snapshot.num-retained.min", "2"},
                    {"snapshot.num-retained.max", "4"},
                    {"snapshot.time-retained", "1 ms"}};
    ASSERT_OK(catalog.CreateTable("db.t", spec));
    auto table = catalog.GetTable("db.t");
    ASSERT_OK(table);
    table_ = std::make_unique<Table>(*table);
  }

  // The model of snapshot `id`, if the writer has recorded it.
  std::optional<std::vector<std::string>> ModelOf(int64_t id) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = models_.find(id);
    if (it == models_.end()) return std::nullopt;
    return it->second;
  }

  void Writer() {
    Model model;
    std::mt19937 rng(7);
    WriteBuilder builder = table_->NewWriteBuilder().WithCommitUser("writer");
    auto commit = builder.NewCommit();
    ASSERT_OK(commit);
    for (int i = 1; i <= kCommits; ++i) {
      auto write = builder.NewWrite();
      ASSERT_OK(write);
      ColumnBatch batch((*write)->input_type());
      for (int j = 0; j < 4; ++j) {
        const int64_t k = static_cast<int64_t>(rng() % kKeys);
        const std::string v = "c" + std::to_string(i) + "-" + std::to_string(j);
        ASSERT_OK(batch.AppendRow({Value::Int64(k), Value::String(v)}));
        model[k] = v;
      }
      ASSERT_OK((*write)->Write(batch));
      auto messages = (*write)->PrepareCommit(i);
      ASSERT_OK(messages);
      ASSERT_OK((*write)->Close());
      auto result = (*commit)->Commit(std::move(*messages), i);
      ASSERT_OK(result);
      ASSERT_OK(result->maintenance_failed);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        for (int64_t id : result->snapshot_ids) models_[id] = Render(model);
      }
      if (i % kTagEvery == 0) {
        const int64_t id = result->snapshot_ids.back();
        auto fs_table = ApiAccess::FileStoreTableOf(*table_);
        test::WriteTag(*fs_table, "tag-" + std::to_string(i), id);
        std::lock_guard<std::mutex> lock(mutex_);
        tags_.emplace_back("tag-" + std::to_string(i), id);
      }
    }
    done_ = true;
  }

  // Follows the snapshots one by one as a consumer: reads snapshot `next`, then records next+1.
  void Consumer() {
    ConsumerManager consumers(ApiAccess::FileStoreTableOf(*table_)->io(), table_->path());
    int64_t next = 1;
    ASSERT_OK(consumers.ResetConsumer("follower", ::sluice::Consumer{next}));
    while (!done_ || ModelOf(next)) {
      std::optional<std::vector<std::string>> expected = ModelOf(next);
      if (!expected) {
        std::this_thread::yield();
        continue;
      }
      auto rows = ReadRows(table_->NewReadBuilder().WithSnapshot(next));
      ASSERT_OK(rows) << "the consumer's snapshot " << next;
      EXPECT_EQ(*rows, *expected) << "snapshot " << next;
      ++next;
      ++consumer_reads_;
      ASSERT_OK(consumers.ResetConsumer("follower", ::sluice::Consumer{next}));
    }
  }

  // Reads random tags while the writer runs.
  void TagReader() {
    std::mt19937 rng(11);
    while (!done_) {
      std::pair<std::string, int64_t> tag;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (tags_.empty()) {
          tag.second = 0;
        } else {
          tag = tags_[rng() % tags_.size()];
        }
      }
      if (tag.second == 0) {
        std::this_thread::yield();
        continue;
      }
      auto rows = ReadRows(table_->NewReadBuilder().WithTag(tag.first));
      ASSERT_OK(rows) << "tag " << tag.first;
      EXPECT_EQ(*rows, *ModelOf(tag.second)) << "tag " << tag.first;
      ++tag_reads_;
    }
  }

  test::TempDir dir_;
  std::unique_ptr<Table> table_;
  std::mutex mutex_;
  std::map<int64_t, std::vector<std::string>> models_;
  std::vector<std::pair<std::string, int64_t>> tags_;
  std::atomic<bool> done_{false};
  std::atomic<int64_t> consumer_reads_{0};
  std::atomic<int64_t> tag_reads_{0};
};

TEST_F(LifecycleScenarioTest, ReadersNeverMissAProtectedFileAndCleanupIsExact) {
  std::thread writer([this] { Writer(); });
  std::thread consumer([this] { Consumer(); });
  std::thread reader([this] { TagReader(); });
  writer.join();
  done_ = true;
  consumer.join();
  reader.join();
  EXPECT_GT(consumer_reads_.load(), 0);
  EXPECT_GT(tag_reads_.load(), 0);

  // The consumer has read everything: expiry may now take all but the newest snapshots.
  auto fs_table = ApiAccess::FileStoreTableOf(*table_);
  auto expired = ExpireSnapshots(*table_);
  ASSERT_OK(expired);
  auto snapshots = table_->Snapshots();
  ASSERT_OK(snapshots);
  EXPECT_LE(snapshots->size(), 4u);
  for (const auto& [name, id] : tags_) {
    auto rows = ReadRows(table_->NewReadBuilder().WithTag(name));
    ASSERT_OK(rows) << name;
    EXPECT_EQ(*rows, *ModelOf(id)) << name;
  }
  auto report = table_->Check();
  ASSERT_OK(report);
  for (const std::string& problem : report->problems) ADD_FAILURE() << problem;
  const std::set<std::string> referenced = test::ReferencedFiles(*fs_table);
  EXPECT_EQ(test::FilesOnDisk(table_->path()), referenced);

  // Orphans: old ones in a bucket, in manifest/ and in snapshot/; a young one in a bucket.
  const std::vector<std::string> old_orphans{table_->path() + "/bucket-0/data-lost.parquet",
                                             table_->path() + "/manifest/manifest-lost-0",
                                             table_->path() + "/snapshot/.snapshot-99.tmp"};
  for (const std::string& path : old_orphans) {
    std::ofstream(path) << "x";
    test::Age(path, kTwoDays);
  }
  // Referenced files are as old: only references may keep them.
  for (const std::string& path : referenced) test::Age(path, kTwoDays);
  const std::string young = table_->path() + "/bucket-1/data-in-flight.parquet";
  std::ofstream(young) << "x";
  auto removed = RemoveOrphanFiles(*table_);
  ASSERT_OK(removed);
  std::vector<std::string> expected = old_orphans;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(removed->files, expected);
  std::set<std::string> left = test::FilesOnDisk(table_->path());
  EXPECT_EQ(left.erase(young), 1u);
  EXPECT_EQ(left, referenced);
  report = table_->Check();
  ASSERT_OK(report);
  EXPECT_TRUE(report->ok());
}

}  // namespace
}  // namespace sluice
