// Cross-partition upsert tables (bucket = -1, primary key `id` without the partition key `p`)
// written by Sluice, read by Java: six `sluice write` runs (each a new process, so each
// bootstraps its key index from the table) of upserts and deletes whose keys land in random
// partitions, so keys keep moving; after every write Java, Sluice and the model (deduplicate:
// the last row of a key wherever it arrived, -D deletes it) agree, each key is read from one
// bucket of one partition, and `sluice check` (keys checked in one place) is clean; at the end
// Java reads every snapshot as Sluice does. (Flink writes such a table and Sluice writes on
// it in flink_test.cc: Java's table API has no cross-partition assigner of its own.)
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
      {"id", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
  shape.primary_keys = {"id"};
  shape.partition_keys = {"p"};
  shape.merge_engine = "deduplicate";
  return shape;
}

class CrossPartitionRun {
 public:
  CrossPartitionRun(const std::string& warehouse, uint64_t seed)
      : table_(warehouse, "xp", Shape()), rng_(seed) {}

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(
        table_.Create("--column 'id BIGINT NOT NULL' --column 'p INT NOT NULL' --column 'v STRING'"
                      " --primary-key id --partition p --option dynamic-bucket.target-row-num=4"));
    for (int i = 0; i < 6; ++i) {
      SluiceWrite(i > 0);
      if (::testing::Test::HasFailure()) return;
    }
    table_.VerifySnapshots();
    ++Counts().scenarios;
  }

 private:
  void SluiceWrite(bool deletes) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(10, 40)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, 24)(rng_)},
                            {"p", std::uniform_int_distribution<int>(0, 3)(rng_)},
                            {"v", "s" + std::to_string(++written_)}};
      if (deletes && std::uniform_int_distribution<int>(0, 5)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    ASSERT_TRUE(table_.SluiceWrite(rows));
    const std::string what = "sluice write " + std::to_string(written_);
    table_.CompareLatest("latest after " + what, table_.ModelRows());
    table_.ExpectOnePlacePerKey(what);
  }

  InteropTable table_;
  std::mt19937_64 rng_;
  int64_t written_ = 0;
};

TEST(Interop, CrossPartitionTablesWrittenBySluiceReadByJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  CrossPartitionRun(warehouse.path(), 20261203).Run();
}

}  // namespace
}  // namespace sluice::test
