// Lifecycle stress test (labelled scenario), through the public API: a writer commits upserts
// and deletes into a primary-key table with automatic snapshot expiry after every commit
// (snapshot.num-retained.min 2, max 4; the default snapshot.time-retained of 1 h keeps every
// young snapshot up to the max, so what expires depends on counts, never on the clock) and
// compactions; it creates a tag every few commits (explicit CreateTag: main has no
// `tag.automatic-creation`). A streaming consumer with a `consumer-id` registered before the
// first commit follows with a random lag, recording its progress after every plan; a batch
// reader time-travels to a random tag after every commit. The steps interleave in one thread
// from a seeded generator, so a failure replays exactly.
//
// After every commit: the earliest snapshot is where Java's ExpireSnapshotsImpl puts it (the
// consumer's next snapshot, or the 4 newest, whichever keeps more); the consumer never meets an
// expired snapshot or a missing file and its folded changes equal the model of the snapshot it
// read; every tag read equals the model of its snapshot. At the end the table checks clean, the
// files on disk are exactly the referenced ones, and orphan cleanup removes planted orphans older
// than its threshold and nothing else.
//
// A second run makes the tags automatic: `tag.automatic-creation = watermark`, hourly, each
// commit's watermark 25 minutes on, `tag.num-retained-max` 3, so tags come and go at commit and
// a deleted tag takes the files only it kept (its snapshot long expired). The batch reader reads
// a random live tag after every commit; at the end the tags are the 3 newest periods, the table
// checks clean and the files on disk are exactly the referenced ones.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "api/api_test_util.h"
#include "api/stream_scenario/stream_test_util.h"
#include "maintenance/maintenance_test_util.h"
#include "sluice/api/api_access.h"
#include "sluice/table_maintenance.h"
#include "sluice/tags.h"

namespace sluice {
namespace {

constexpr int kCommits = 24;
constexpr int kTagEvery = 3;
constexpr int kKeys = 20;
constexpr int kRetainMax = 4;
constexpr int64_t kTwoDays = 2LL * 24 * 3600 * 1000;

using Model = std::map<int64_t, std::string>;

// The rows of a batch read, by key.
Result<Model> ReadModel(const ReadBuilder& read) {
  Model out;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, test::ReaderOf(read));
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) return out;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      out[batch.column(0)->GetValue(i).int64()] = std::string(batch.column(1)->GetValue(i).bytes());
    }
  }
}

// Applies the follower's "<kind> <id> <v>" lines of one plan to `model`.
void Fold(const std::vector<std::string>& lines, Model* model) {
  for (const std::string& line : lines) {
    std::istringstream in(line);
    std::string kind;
    int64_t id = 0;
    std::string v;
    in >> kind >> id >> v;
    if (kind == "+I" || kind == "+U") {
      (*model)[id] = v;
    } else {
      model->erase(id);
    }
  }
}

class LifecycleScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override { Create({}); }

  void Create(const std::vector<std::pair<std::string, std::string>>& extra) {
    std::vector<std::pair<std::string, std::string>> options{
        {"bucket", "2"},
        {"num-sorted-run.compaction-trigger", "2"},
        {"snapshot.num-retained.min", "2"},
        {"snapshot.num-retained.max", "4"},
        {"snapshot.expire.limit", "100"}};
    options.insert(options.end(), extra.begin(), extra.end());
    auto table = test::StreamTable::Create(dir_.path(), "t", /*primary_key=*/true, options);
    ASSERT_OK(table);
    table_ = std::make_unique<Table>(table->table());
  }

  // Commits 4 random upserts or deletes (with `watermark`); returns the snapshots made (APPEND,
  // maybe COMPACT).
  std::vector<int64_t> Commit(int i, std::optional<int64_t> watermark = std::nullopt) {
    WriteBuilder builder = table_->NewWriteBuilder();
    builder.WithCommitUser("writer");
    auto write = builder.NewWrite();
    EXPECT_OK(write);
    if (!write.ok()) return {};
    ColumnBatch batch((*write)->input_type());
    std::vector<RowKind> kinds;
    std::set<int64_t> keys;
    while (keys.size() < 4) keys.insert(static_cast<int64_t>(rng_() % kKeys));
    for (int64_t k : keys) {
      const bool remove = model_.count(k) != 0 && rng_() % 4 == 0;
      const std::string v = "c" + std::to_string(i) + "-" + std::to_string(k);
      EXPECT_OK(batch.AppendRow({Value::Int64(k), Value::String(v)}));
      kinds.push_back(remove ? RowKind::kDelete : RowKind::kInsert);
      if (remove) {
        model_.erase(k);
      } else {
        model_[k] = v;
      }
    }
    EXPECT_OK((*write)->Write(batch, kinds.data()));
    auto messages = (*write)->PrepareCommit(i);
    EXPECT_OK(messages);
    auto commit = builder.NewCommit();
    EXPECT_OK(commit);
    if (!messages.ok() || !commit.ok()) return {};
    auto result = (*commit)->Commit(std::move(*messages), i, watermark);
    EXPECT_OK(result);
    EXPECT_OK((*write)->Close());
    if (!result.ok()) return {};
    EXPECT_OK(result->maintenance_failed);
    EXPECT_OK(result->compaction_dropped);
    for (int64_t id : result->snapshot_ids) models_[id] = model_;
    return result->snapshot_ids;
  }

  // The consumer reads up to `plans` plans, folding each, and records its progress after each.
  void Follow(test::Follower& follower, int plans) {
    for (int p = 0; p < plans; ++p) {
      auto rows = follower.Next();
      ASSERT_OK(rows) << "the consumer at " << consumer_next_;
      if (!*rows) return;
      Fold(**rows, &followed_);
      const std::optional<int64_t> next = follower.scan().Checkpoint();
      ASSERT_TRUE(next.has_value());
      EXPECT_EQ(followed_, models_[*next - 1]) << "the consumer's snapshot " << *next - 1;
      ASSERT_OK(follower.scan().NotifyCheckpointComplete(next));
      consumer_next_ = *next;
      ++consumer_plans_;
    }
  }

  // The batch reader: a random tag, read against the model of its snapshot.
  void ReadRandomTag() {
    if (tags_.empty()) return;
    auto it = tags_.begin();
    std::advance(it, rng_() % tags_.size());
    auto rows = ReadModel(table_->NewReadBuilder().WithTag(it->first));
    ASSERT_OK(rows) << "tag " << it->first;
    EXPECT_EQ(*rows, models_[it->second]) << "tag " << it->first;
    ++tag_reads_;
  }

  // Every tag reads as the model of its snapshot.
  void ExpectEveryTagReadsItsModel() {
    for (const auto& [name, id] : tags_) {
      auto rows = ReadModel(table_->NewReadBuilder().WithTag(name));
      ASSERT_OK(rows) << name;
      EXPECT_EQ(*rows, models_[id]) << name;
    }
  }

  // The retained snapshot ids, oldest first.
  std::vector<int64_t> SnapshotIds() {
    std::vector<int64_t> ids;
    auto snapshots = table_->Snapshots();
    EXPECT_OK(snapshots);
    if (snapshots.ok()) {
      for (const SnapshotInfo& s : *snapshots) ids.push_back(s.id);
    }
    return ids;
  }

  // The tags of the table: name -> tagged snapshot id.
  std::map<std::string, int64_t> LiveTags() {
    std::map<std::string, int64_t> out;
    auto tags = ApiAccess::FileStoreTableOf(*table_)->tag_manager().ListTags();
    EXPECT_OK(tags);
    if (tags.ok()) {
      for (const auto& [name, tag] : *tags) out[name] = tag.snapshot.id;
    }
    return out;
  }

  test::TempDir dir_;
  std::unique_ptr<Table> table_;
  std::mt19937 rng_{20261202};
  Model model_;
  // The model of every snapshot made, by id.
  std::map<int64_t, Model> models_;
  // Tag name -> snapshot id.
  std::map<std::string, int64_t> tags_;
  Model followed_;
  int64_t consumer_next_ = 1;
  int consumer_plans_ = 0;
  int tag_reads_ = 0;
};

TEST_F(LifecycleScenarioTest, ReadersNeverMissAProtectedFileAndCleanupIsExact) {
  // The consumer registers at snapshot 1 before anything is committed, so no expiry can pass it.
  auto follower = test::Follower::Open(*table_, {{"consumer-id", "follower"}});
  ASSERT_OK(follower);
  ASSERT_OK(follower->scan().NotifyCheckpointComplete(int64_t{1}));

  int64_t earliest = 1;
  size_t most_retained = 0;
  for (int i = 1; i <= kCommits; ++i) {
    SCOPED_TRACE("commit " + std::to_string(i));
    const std::vector<int64_t> made = Commit(i);
    ASSERT_FALSE(made.empty());
    const int64_t latest = made.back();
    // Java's rule with a young table: keep the 4 newest, and everything from the consumer's
    // next snapshot on; an earliest snapshot never moves back.
    earliest = std::max(earliest, std::min(latest - kRetainMax + 1, consumer_next_));
    const std::vector<int64_t> ids = SnapshotIds();
    ASSERT_FALSE(ids.empty());
    EXPECT_EQ(ids.front(), earliest);
    EXPECT_EQ(ids.back(), latest);
    most_retained = std::max(most_retained, ids.size());
    if (i % kTagEvery == 0) {
      auto tagged = CreateTag(*table_, "tag-" + std::to_string(i));
      ASSERT_OK(tagged);
      EXPECT_EQ(*tagged, latest);
      tags_["tag-" + std::to_string(i)] = latest;
    }
    // The consumer lags: idle for the first commits, then 0 to 2 plans a commit.
    if (i > kCommits / 3) Follow(*follower, static_cast<int>(rng_() % 3));
    ReadRandomTag();
    if (HasFailure()) return;
  }
  // The consumer held snapshots back past the max, and expiry ran.
  EXPECT_GT(most_retained, static_cast<size_t>(kRetainMax));
  EXPECT_GT(earliest, 1);
  EXPECT_GT(tag_reads_, kCommits / 2);

  // The consumer catches up; expiry then keeps the 4 newest.
  Follow(*follower, kCommits * 2);
  EXPECT_EQ(followed_, model_);
  EXPECT_GT(consumer_plans_, kCommits / 2);
  ASSERT_OK(ExpireSnapshots(*table_));
  EXPECT_EQ(SnapshotIds().size(), static_cast<size_t>(kRetainMax));
  ExpectEveryTagReadsItsModel();
  auto report = table_->Check();
  ASSERT_OK(report);
  for (const std::string& problem : report->problems) ADD_FAILURE() << problem;
  auto fs_table = ApiAccess::FileStoreTableOf(*table_);
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
  EXPECT_FALSE(std::ifstream(table_->path() + "/snapshot/.snapshot-99.tmp").good());
  report = table_->Check();
  ASSERT_OK(report);
  EXPECT_TRUE(report->ok());
  ExpectEveryTagReadsItsModel();
}

// Watermark-driven hourly tags, the newest 3 kept.
class LifecycleAutoTagScenarioTest : public LifecycleScenarioTest {
 protected:
  void SetUp() override {
    Create({{"tag.automatic-creation", "watermark"},
            {"tag.creation-period", "hourly"},
            {"tag.num-retained-max", "3"}});
  }
};

TEST_F(LifecycleAutoTagScenarioTest, TagsComeAndGoAtCommitWithoutLosingAFile) {
  constexpr int64_t kStart = 1796169600000;  // 2026-12-02 00:00:00 UTC
  constexpr int64_t kStep = 25 * 60 * 1000;
  constexpr int kRetainedTags = 3;
  auto follower = test::Follower::Open(*table_, {{"consumer-id", "follower"}});
  ASSERT_OK(follower);
  ASSERT_OK(follower->scan().NotifyCheckpointComplete(int64_t{1}));
  std::set<std::string> ever;
  for (int i = 1; i <= kCommits; ++i) {
    SCOPED_TRACE("commit " + std::to_string(i));
    const int64_t watermark = kStart + i * kStep;
    ASSERT_FALSE(Commit(i, watermark).empty());
    tags_ = LiveTags();
    EXPECT_LE(tags_.size(), static_cast<size_t>(kRetainedTags));
    for (const auto& [name, id] : tags_) ever.insert(name);
    // The newest tag is the hour before the one the watermark is in.
    const int64_t hour = (watermark - kStart) / 3600000 - 1;
    char expected[16];
    std::snprintf(expected, sizeof(expected), "2026-12-%02d %02d", hour < 0 ? 1 : 2,
                  static_cast<int>(hour < 0 ? 23 : hour));
    ASSERT_FALSE(tags_.empty());
    EXPECT_EQ(tags_.rbegin()->first, expected);
    if (i > kCommits / 3) Follow(*follower, static_cast<int>(rng_() % 3));
    ReadRandomTag();
    if (HasFailure()) return;
  }
  // 24 commits 25 minutes apart span 10 hours: one tag each, the oldest deleted as they came.
  EXPECT_GE(ever.size(), 9u);
  EXPECT_EQ(tags_.size(), static_cast<size_t>(kRetainedTags));
  EXPECT_GT(tag_reads_, kCommits / 2);
  Follow(*follower, kCommits * 2);
  EXPECT_EQ(followed_, model_);
  ASSERT_OK(ExpireSnapshots(*table_));
  ExpectEveryTagReadsItsModel();
  auto report = table_->Check();
  ASSERT_OK(report);
  for (const std::string& problem : report->problems) ADD_FAILURE() << problem;
  auto fs_table = ApiAccess::FileStoreTableOf(*table_);
  EXPECT_EQ(test::FilesOnDisk(table_->path()), test::ReferencedFiles(*fs_table));
}

}  // namespace
}  // namespace sluice
