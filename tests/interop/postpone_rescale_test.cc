// Postpone-bucket tables (bucket = -2) and rescale between Sluice and Java:
//   - postpone: Sluice and Java both write into the postpone bucket (Java through its
//     PostponeBucketFileStoreWrite); neither reader sees those rows until `sluice compact`
//     replays Java's files and Sluice's into real buckets; then Java reads the model's rows,
//     as does Sluice, and `sluice check` is clean;
//   - rescale: a fixed-bucket table written by both, rescaled by `sluice rescale` (one
//     partition, then the whole table): Java reads the same rows after each rescale, and every
//     snapshot (the layouts before included) reads the same in Java and Sluice.
#include <gtest/gtest.h>

#include <random>

#include "interop/interop_harness.h"
#include "interop/interop_table.h"
#include "test_util.h"

namespace sluice::test {
namespace {

TableShape Shape() {
  TableShape shape;
  shape.columns = {
      {"k", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
  shape.primary_keys = {"k", "p"};
  shape.partition_keys = {"p"};
  shape.merge_engine = "deduplicate";
  return shape;
}

// A table both sides write; what readers must see is published separately from what was
// written (a postpone bucket's rows are invisible until a compaction).
class PostponeRun {
 public:
  PostponeRun(std::string warehouse, std::string table, uint64_t seed)
      : table_(std::move(warehouse), std::move(table), Shape()), rng_(seed) {}

  bool Create(const std::string& options) {
    return table_.Create(
        "--column 'k BIGINT NOT NULL' --column 'p INT NOT NULL' --column 'v STRING'"
        " --primary-key k,p --partition p" +
        options);
  }

  std::string Where() const { return table_.Where(); }
  bool SluiceWrite() { return table_.SluiceWrite(Batch("s")); }
  bool JavaWrite() { return table_.JavaWrite(Batch("j")); }
  // The rows written so far become what both readers must see.
  void Publish() { visible_ = table_.ModelRows(); }
  void Compare(const std::string& what) { table_.CompareLatest(what, visible_); }
  void VerifySnapshots() { table_.VerifySnapshots(); }

 private:
  std::vector<nlohmann::json> Batch(const std::string& writer) {
    std::vector<nlohmann::json> rows;
    for (int i = 0; i < 30; ++i) {
      nlohmann::json row = {{"k", std::uniform_int_distribution<int64_t>(0, 19)(rng_)},
                            {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                            {"v", writer + std::to_string(++written_)}};
      if (std::uniform_int_distribution<int>(0, 5)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    return rows;
  }

  InteropTable table_;
  std::mt19937_64 rng_;
  std::vector<std::string> visible_;
  int64_t written_ = 0;
};

TEST(Interop, PostponeBucketTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  PostponeRun run(warehouse.path(), "postpone", 20261203);
  ASSERT_TRUE(run.Create(" --option bucket=-2 --option postpone.default-bucket-num=2"));
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(run.SluiceWrite());
    ASSERT_TRUE(run.JavaWrite());
    run.Compare("writes before compaction (round " + std::to_string(round) + ")");
    ASSERT_TRUE(SluiceOk("compact " + run.Where(), "postpone sluice compact"));
    run.Publish();
    run.Compare("sluice compact (round " + std::to_string(round) + ")");
  }
  run.VerifySnapshots();
  ++Counts().scenarios;
}

TEST(Interop, RescaleBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  PostponeRun run(warehouse.path(), "rescaled", 20261204);
  ASSERT_TRUE(run.Create(" --option bucket=2"));
  ASSERT_TRUE(run.SluiceWrite());
  ASSERT_TRUE(run.JavaWrite());
  ASSERT_TRUE(run.SluiceWrite());
  run.Publish();
  run.Compare("writes");
  ASSERT_TRUE(
      SluiceOk("rescale " + run.Where() + " --bucket 5 --partition p=1", "rescale one partition"));
  run.Compare("sluice rescale p=1 to 5 buckets");
  ASSERT_TRUE(SluiceOk("rescale " + run.Where() + " --bucket 3", "rescale the table"));
  run.Compare("sluice rescale to 3 buckets");
  run.VerifySnapshots();
  ++Counts().scenarios;
}

}  // namespace
}  // namespace sluice::test
