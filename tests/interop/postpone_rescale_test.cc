// Postpone-bucket tables (bucket = -2) and rescale between Sluice and Java:
//   - postpone: Sluice and Java both write into the postpone bucket (Java through its
//     PostponeBucketFileStoreWrite); neither reader sees those rows until `sluice compact`
//     replays Java's files and Sluice's into real buckets; then Java reads the model's rows,
//     as does Sluice, and `sluice check` is clean;
//   - rescale: a fixed-bucket table written by both, rescaled by `sluice rescale` (one
//     partition, then the whole table): Java reads the same rows after each rescale, and every
//     snapshot (the layouts before included) reads the same in Java and Sluice.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <random>

#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class PostponeRun {
 public:
  PostponeRun(std::string warehouse, std::string table, uint64_t seed)
      : warehouse_(std::move(warehouse)), table_(std::move(table)), rng_(seed) {
    columns_ = {
        {"k", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
  }

  bool Create(const std::string& options) {
    return SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
                    table_ + " create-database") &&
           SluiceOk("create-table " + Where() +
                        " --column 'k BIGINT NOT NULL' --column 'p INT NOT NULL'"
                        " --column 'v STRING' --primary-key k,p --partition p" +
                        options,
                    table_ + " create-table");
  }

  std::string Where() const {
    return ShellQuote("interop_db." + table_) + " --warehouse " + ShellQuote(warehouse_);
  }
  std::string Dir() const { return warehouse_ + "/interop_db.db/" + table_; }
  nlohmann::json JavaCommand(const std::string& cmd) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", "interop_db." + table_}};
  }

  // Rows written by `writer`; applied to the pending model.
  std::vector<nlohmann::json> Batch(const std::string& writer) {
    std::vector<nlohmann::json> rows;
    for (int i = 0; i < 30; ++i) {
      nlohmann::json row = {{"k", std::uniform_int_distribution<int64_t>(0, 19)(rng_)},
                            {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                            {"v", writer + std::to_string(++written_)}};
      if (std::uniform_int_distribution<int>(0, 5)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
      const auto key = std::make_pair(row["k"].get<int64_t>(), row["p"].get<int32_t>());
      if (row.contains("_ROW_KIND")) {
        pending_.erase(key);
      } else {
        nlohmann::json value = row;
        pending_[key] = NormalizeRow(value, columns_);
      }
    }
    return rows;
  }

  bool SluiceWrite() {
    const std::vector<nlohmann::json> rows = Batch("s");
    const std::string input = warehouse_ + "/" + table_ + "-input.jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    return SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                    table_ + " sluice write");
  }

  bool JavaWrite() {
    nlohmann::json write = JavaCommand("write");
    write["rows"] = Batch("j");
    OracleAnswer answer = Oracle()->Call(write);
    if (!answer.ok()) {
      ++Counts().mismatches;
      ADD_FAILURE() << table_ << ": Java write failed: " << answer.error();
      return false;
    }
    return true;
  }

  // The rows become what both readers must see.
  void Publish() { visible_ = pending_; }

  void Compare(const std::string& what) {
    std::vector<std::string> model;
    for (const auto& [key, row] : visible_) model.push_back(row);
    std::sort(model.begin(), model.end());
    SameRows(table_ + " " + what, JavaRead(JavaCommand("read"), columns_),
             SluiceRead(Where(), columns_), &model);
    ++Counts().reads_compared;
    SluiceOk("check " + ShellQuote(Dir()), table_ + " check after " + what);
  }

  void VerifySnapshots() {
    for (int64_t id : SnapshotIds(Dir())) {
      nlohmann::json command = JavaCommand("read");
      command["snapshot"] = id;
      SameRows(table_ + " snapshot " + std::to_string(id), JavaRead(command, columns_),
               SluiceRead(Where() + " --snapshot " + std::to_string(id), columns_), nullptr);
      ++Counts().snapshots_compared;
    }
    Counts().files_compared += DataFileCount(Dir());
  }

 private:
  std::string warehouse_;
  std::string table_;
  std::mt19937_64 rng_;
  std::vector<Column> columns_;
  std::map<std::pair<int64_t, int32_t>, std::string> pending_;
  std::map<std::pair<int64_t, int32_t>, std::string> visible_;
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
