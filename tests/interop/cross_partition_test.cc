// Cross-partition upsert tables (bucket = -1, primary key `id` without the partition key `p`)
// written by Sluice, read by Java: six `sluice write` runs (each a new process, so each
// bootstraps its key index from the table) of upserts and deletes whose keys land in random
// partitions, so keys keep moving; after every write Java, Sluice and the model (deduplicate:
// the last row of a key wherever it arrived, -D deletes it) agree, each key is read from one
// bucket of one partition, and `sluice check` (keys checked in one place) is clean; at the end
// Java reads every snapshot as Sluice does. (Flink writes such a table and Sluice writes on
// it in flink_test.cc: Java's table API has no cross-partition assigner of its own.)
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class CrossPartitionRun {
 public:
  CrossPartitionRun(const std::string& warehouse, uint64_t seed)
      : warehouse_(warehouse), rng_(seed), model_(Shape()) {}

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
                         "cross_partition create-database"));
    ASSERT_TRUE(SluiceOk("create-table " + Where() +
                             " --column 'id BIGINT NOT NULL' --column 'p INT NOT NULL'"
                             " --column 'v STRING' --primary-key id --partition p"
                             " --option dynamic-bucket.target-row-num=4",
                         "cross_partition create-table"));
    for (int i = 0; i < 6; ++i) {
      SluiceWrite(i > 0);
      if (::testing::Test::HasFailure()) return;
    }
    VerifySnapshots();
    ++Counts().scenarios;
  }

 private:
  static TableShape Shape() {
    TableShape shape;
    shape.columns = {
        {"id", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
    shape.primary_keys = {"id"};
    shape.partition_keys = {"p"};
    shape.merge_engine = "deduplicate";
    return shape;
  }
  std::string Where() const {
    return ShellQuote("interop_db.xp") + " --warehouse " + ShellQuote(warehouse_);
  }
  std::string Dir() const { return warehouse_ + "/interop_db.db/xp"; }
  nlohmann::json JavaCommand(const std::string& cmd) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", "interop_db.xp"}};
  }

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
    const std::string input = warehouse_ + "/cross-partition-input.jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    ASSERT_TRUE(SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                         "cross_partition sluice write"));
    model_.Apply(rows, false);
    const std::vector<std::string> model = model_.Rows();
    SameRows("cross_partition latest after sluice write " + std::to_string(written_),
             JavaRead(JavaCommand("read"), model_.shape().columns),
             SluiceRead(Where(), model_.shape().columns), &model);
    ++Counts().reads_compared;
    SluiceOk("check " + ShellQuote(Dir()), "cross_partition check");
    CheckOnePlacePerKey();
  }

  // Each key is read from one bucket (`sluice read --bucket b`) of one partition.
  void CheckOnePlacePerKey() {
    std::map<int64_t, std::set<std::pair<int32_t, int32_t>>> places;
    for (int32_t bucket = 0; bucket < 16; ++bucket) {
      ReadRows rows =
          SluiceRead(Where() + " --bucket " + std::to_string(bucket), model_.shape().columns);
      if (!rows.rows) {
        ADD_FAILURE() << "sluice read --bucket " << bucket << ": " << rows.error;
        return;
      }
      for (const std::string& line : *rows.rows) {
        const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
        if (!row.is_object()) continue;
        places[row["id"].get<int64_t>()].insert({row["p"].get<int32_t>(), bucket});
      }
    }
    for (const auto& [id, where] : places) {
      if (where.size() != 1) {
        ++Counts().mismatches;
        ADD_FAILURE() << "key " << id << " is read from " << where.size() << " places";
      }
    }
  }

  void VerifySnapshots() {
    for (int64_t id : SnapshotIds(Dir())) {
      nlohmann::json command = JavaCommand("read");
      command["snapshot"] = id;
      SameRows("cross_partition snapshot " + std::to_string(id),
               JavaRead(command, model_.shape().columns),
               SluiceRead(Where() + " --snapshot " + std::to_string(id), model_.shape().columns),
               nullptr);
      ++Counts().snapshots_compared;
    }
    Counts().files_compared += DataFileCount(Dir());
  }

  std::string warehouse_;
  std::mt19937_64 rng_;
  TableModel model_;
  int64_t written_ = 0;
};

TEST(Interop, CrossPartitionTablesWrittenBySluiceReadByJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  CrossPartitionRun(warehouse.path(), 20261203).Run();
}

}  // namespace
}  // namespace sluice::test
