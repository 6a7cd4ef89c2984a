// Dynamic-bucket tables (bucket = -1) between Sluice and Java: Sluice creates and writes one
// (upserts and deletes over partitions, several buckets per partition), Java reads every
// snapshot as Sluice and the model do; Java then writes into it through its hash index
// (HashBucketAssigner, as Flink's assigner operator) and every key stays in the bucket Sluice
// gave it; Sluice writes on after Java, and `sluice check` (hash index checks included) is
// clean after every write.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class DynamicBucketRun {
 public:
  DynamicBucketRun(const std::string& warehouse, uint64_t seed)
      : warehouse_(warehouse), rng_(seed) {
    columns_ = {
        {"id", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
  }

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
                         "dynamic_bucket create-database"));
    ASSERT_TRUE(SluiceOk("create-table " + Where() +
                             " --column 'id BIGINT NOT NULL' --column 'p INT NOT NULL'"
                             " --column 'v STRING' --primary-key id,p --partition p"
                             " --option dynamic-bucket.target-row-num=4",
                         "dynamic_bucket create-table"));
    for (int i = 0; i < 4; ++i) {
      SluiceWrite();
      if (::testing::Test::HasFailure()) return;
    }
    const std::map<std::pair<int64_t, int32_t>, int32_t> before = KeyBuckets();
    for (int i = 0; i < 2; ++i) {
      JavaWrite();
      if (::testing::Test::HasFailure()) return;
    }
    // Every key Sluice placed is where Java's writes found it.
    const std::map<std::pair<int64_t, int32_t>, int32_t> after = KeyBuckets();
    for (const auto& [key, bucket] : before) {
      auto it = after.find(key);
      if (it == after.end()) continue;  // deleted since
      ++Counts().reads_compared;
      if (it->second != bucket) {
        ++Counts().mismatches;
        ADD_FAILURE() << "key (" << key.first << ", " << key.second << ") moved from bucket "
                      << bucket << " to " << it->second << " when Java wrote";
      }
    }
    SluiceWrite();
    VerifySnapshots();
    ++Counts().scenarios;
  }

 private:
  std::string Where() const {
    return ShellQuote("interop_db.dyn") + " --warehouse " + ShellQuote(warehouse_);
  }
  std::string Dir() const { return warehouse_ + "/interop_db.db/dyn"; }
  nlohmann::json JavaCommand(const std::string& cmd) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", "interop_db.dyn"}};
  }

  std::vector<nlohmann::json> Batch(const std::string& writer) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(10, 40)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, 24)(rng_)},
                            {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                            {"v", writer + std::to_string(++written_)}};
      if (std::uniform_int_distribution<int>(0, 5)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    return rows;
  }

  void Apply(const std::vector<nlohmann::json>& rows) {
    for (const nlohmann::json& row : rows) {
      const auto key = std::make_pair(row["id"].get<int64_t>(), row["p"].get<int32_t>());
      if (row.contains("_ROW_KIND")) {
        model_.erase(key);
      } else {
        nlohmann::json value = row;
        model_[key] = NormalizeRow(value, columns_);
      }
    }
  }

  std::vector<std::string> Model() const {
    std::vector<std::string> out;
    for (const auto& [key, row] : model_) out.push_back(row);
    std::sort(out.begin(), out.end());
    return out;
  }

  void SluiceWrite() {
    const std::vector<nlohmann::json> rows = Batch("s");
    const std::string input = warehouse_ + "/dynamic-bucket-input.jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    ASSERT_TRUE(SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                         "dynamic_bucket sluice write"));
    Apply(rows);
    AfterWrite("sluice write");
  }

  void JavaWrite() {
    const std::vector<nlohmann::json> rows = Batch("j");
    nlohmann::json write = JavaCommand("write");
    write["rows"] = rows;
    OracleAnswer answer = Oracle()->Call(write);
    if (!answer.ok()) {
      ++Counts().mismatches;
      ADD_FAILURE() << "dynamic_bucket: Java write failed: " << answer.error();
      return;
    }
    Apply(rows);
    AfterWrite("java write");
  }

  void AfterWrite(const std::string& what) {
    const std::vector<std::string> model = Model();
    SameRows("dynamic_bucket latest after " + what, JavaRead(JavaCommand("read"), columns_),
             SluiceRead(Where(), columns_), &model);
    ++Counts().reads_compared;
    SluiceOk("check " + ShellQuote(Dir()), "dynamic_bucket check after " + what);
    for (const auto& [key, buckets] : KeyBucketSets()) {
      if (buckets.size() != 1) {
        ++Counts().mismatches;
        ADD_FAILURE() << "after " << what << " key (" << key.first << ", " << key.second
                      << ") is in " << buckets.size() << " buckets";
      }
    }
  }

  // (id, p) -> the buckets Sluice reads it from (`sluice read --bucket b`).
  std::map<std::pair<int64_t, int32_t>, std::set<int32_t>> KeyBucketSets() {
    std::map<std::pair<int64_t, int32_t>, std::set<int32_t>> out;
    size_t seen = 0;
    for (int32_t bucket = 0; seen < model_.size() && bucket < 64; ++bucket) {
      ReadRows rows = SluiceRead(Where() + " --bucket " + std::to_string(bucket), columns_);
      if (!rows.rows) {
        ADD_FAILURE() << "sluice read --bucket " << bucket << ": " << rows.error;
        return out;
      }
      for (const std::string& line : *rows.rows) {
        const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
        if (!row.is_object()) continue;
        auto& buckets = out[{row["id"].get<int64_t>(), row["p"].get<int32_t>()}];
        if (buckets.empty()) ++seen;
        buckets.insert(bucket);
      }
    }
    return out;
  }
  std::map<std::pair<int64_t, int32_t>, int32_t> KeyBuckets() {
    std::map<std::pair<int64_t, int32_t>, int32_t> out;
    for (const auto& [key, buckets] : KeyBucketSets()) out[key] = *buckets.begin();
    return out;
  }

  void VerifySnapshots() {
    for (int64_t id : SnapshotIds(Dir())) {
      nlohmann::json command = JavaCommand("read");
      command["snapshot"] = id;
      SameRows("dynamic_bucket snapshot " + std::to_string(id), JavaRead(command, columns_),
               SluiceRead(Where() + " --snapshot " + std::to_string(id), columns_), nullptr);
      ++Counts().snapshots_compared;
    }
    Counts().files_compared += DataFileCount(Dir());
  }

  std::string warehouse_;
  std::mt19937_64 rng_;
  std::vector<Column> columns_;
  std::map<std::pair<int64_t, int32_t>, std::string> model_;
  int64_t written_ = 0;
};

TEST(Interop, DynamicBucketTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  DynamicBucketRun(warehouse.path(), 20261202).Run();
}

}  // namespace
}  // namespace sluice::test
