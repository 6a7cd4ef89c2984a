// Dynamic-bucket tables (bucket = -1) between Sluice and Java: Sluice creates and writes one
// (upserts and deletes over partitions, several buckets per partition), Java reads every
// snapshot as Sluice and the model do; Java then writes into it through its hash index
// (HashBucketAssigner, as Flink's assigner operator) and every key stays in the bucket Sluice
// gave it; Sluice writes on after Java, and `sluice check` (hash index checks included) is
// clean after every write.
#include <gtest/gtest.h>

#include <map>
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
  shape.primary_keys = {"id", "p"};
  shape.partition_keys = {"p"};
  shape.merge_engine = "deduplicate";
  return shape;
}

class DynamicBucketRun {
 public:
  DynamicBucketRun(const std::string& warehouse, uint64_t seed)
      : table_(warehouse, "dyn", Shape()), rng_(seed) {}

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(table_.Create(
        "--column 'id BIGINT NOT NULL' --column 'p INT NOT NULL' --column 'v STRING'"
        " --primary-key id,p --partition p --option dynamic-bucket.target-row-num=4"));
    for (int i = 0; i < 4; ++i) {
      Write("s");
      if (::testing::Test::HasFailure()) return;
    }
    const std::map<std::string, int32_t> before = KeyBuckets();
    for (int i = 0; i < 2; ++i) {
      Write("j");
      if (::testing::Test::HasFailure()) return;
    }
    // Every key Sluice placed is where Java's writes found it.
    const std::map<std::string, int32_t> after = KeyBuckets();
    for (const auto& [key, bucket] : before) {
      auto it = after.find(key);
      if (it == after.end()) continue;  // deleted since
      ++Counts().reads_compared;
      if (it->second != bucket) {
        ++Counts().mismatches;
        ADD_FAILURE() << "key " << key << " moved from bucket " << bucket << " to " << it->second
                      << " when Java wrote";
      }
    }
    Write("s");
    table_.VerifySnapshots();
    ++Counts().scenarios;
  }

 private:
  // A batch of upserts and deletes by `writer` ("s": sluice write, "j": Java's), then the
  // comparisons.
  void Write(const std::string& writer) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(10, 40)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, 24)(rng_)},
                            {"p", std::uniform_int_distribution<int>(0, 2)(rng_)},
                            {"v", writer + std::to_string(++written_)}};
      if (std::uniform_int_distribution<int>(0, 5)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    const std::string what = writer == "j" ? "java write" : "sluice write";
    ASSERT_TRUE(writer == "j" ? table_.JavaWrite(rows) : table_.SluiceWrite(rows));
    table_.CompareLatest("latest after " + what, table_.ModelRows());
    table_.ExpectOnePlacePerKey(what);
  }

  // Key -> the bucket Sluice reads it from (its first, when in several).
  std::map<std::string, int32_t> KeyBuckets() {
    std::map<std::string, int32_t> out;
    for (const auto& [key, places] : table_.KeyPlaces()) {
      out[key] = places.begin()->second;
    }
    return out;
  }

  InteropTable table_;
  std::mt19937_64 rng_;
  int64_t written_ = 0;
};

TEST(Interop, DynamicBucketTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  DynamicBucketRun(warehouse.path(), 20261202).Run();
}

}  // namespace
}  // namespace sluice::test
