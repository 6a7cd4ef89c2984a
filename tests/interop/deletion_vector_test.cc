// Primary-key tables with deletion vectors between Sluice and Java: Sluice creates and writes
// one (upserts and deletes over two buckets; its compactions mark replaced rows in deletion
// vectors), Java reads every snapshot as Sluice and the model do; Java then writes into it (its
// lookup compaction reading and replacing Sluice's deletion-vector index files), Sluice reads
// what Java wrote and writes on after it; `sluice check` (deletion-vector rows included) is
// clean after every write, and `sluice get` answers every model key as the model does. A second
// table does the same with `changelog-producer = lookup` beside the deletion vectors (Sluice's
// lookup compaction writes both in one pass; Java's compacts over them).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <sstream>

#include "interop/interop_harness.h"
#include "interop/interop_table.h"
#include "test_util.h"

namespace sluice::test {
namespace {

constexpr int64_t kKeys = 40;

TableShape Shape() {
  TableShape shape;
  shape.columns = {{"id", DataType::BigInt(false)}, {"v", DataType::String()}};
  shape.primary_keys = {"id"};
  shape.merge_engine = "deduplicate";
  return shape;
}

class DeletionVectorRun {
 public:
  // `options`: more `--option k=v` of the table.
  DeletionVectorRun(const std::string& warehouse, const std::string& name, uint64_t seed,
                    std::string options = "")
      : table_(warehouse, name, Shape()), rng_(seed), options_(std::move(options)) {}

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(table_.Create(
        "--column 'id BIGINT NOT NULL' --column 'v STRING' --primary-key id --option bucket=2"
        " --option deletion-vectors.enabled=true --option num-sorted-run.compaction-trigger=2" +
        options_));
    for (const char* writer : {"s", "s", "s", "s", "s", "j", "j", "s", "s"}) {
      const std::vector<nlohmann::json> rows = Batch(writer);
      const bool java = writer[0] == 'j';
      ASSERT_TRUE(java ? table_.JavaWrite(rows) : table_.SluiceWrite(rows));
      AfterWrite(java ? "java write" : "sluice write");
      if (::testing::Test::HasFailure()) return;
    }
    table_.VerifySnapshots();
    ++Counts().scenarios;
  }

 private:
  std::vector<nlohmann::json> Batch(const std::string& writer) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(10, 40)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, kKeys - 1)(rng_)},
                            {"v", writer + std::to_string(++written_)}};
      if (std::uniform_int_distribution<int>(0, 4)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    return rows;
  }

  void AfterWrite(const std::string& what) {
    const std::vector<std::string> model = table_.ModelRows();
    table_.CompareLatest("latest after " + what, model);
    // Point lookups of every key ever written answer as the model.
    std::string keys;
    for (int64_t id = 0; id < kKeys; ++id) keys += " --key id=" + std::to_string(id);
    std::string out;
    if (!SluiceOk("get " + table_.Where() + keys + " --format jsonl", "deletion_vector get",
                  &out)) {
      return;
    }
    std::vector<std::string> got;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
      got.push_back(NormalizeRow(row, table_.columns()));
    }
    std::sort(got.begin(), got.end());
    ++Counts().reads_compared;
    if (got != model) {
      std::vector<std::string> extra, missing;
      std::set_difference(got.begin(), got.end(), model.begin(), model.end(),
                          std::back_inserter(extra));
      std::set_difference(model.begin(), model.end(), got.begin(), got.end(),
                          std::back_inserter(missing));
      ++Counts().mismatches;
      ADD_FAILURE() << "deletion_vector: sluice get after " << what << " returned " << got.size()
                    << " rows, the model has " << model.size()
                    << "; not in the model: " << testing::PrintToString(extra)
                    << "; missing: " << testing::PrintToString(missing) << "; table "
                    << table_.Dir();
    }
  }

  InteropTable table_;
  std::mt19937_64 rng_;
  std::string options_;
  int64_t written_ = 0;
};

TEST(Interop, DeletionVectorTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  DeletionVectorRun(warehouse.path(), "dv", 20261212).Run();
  TempDir lookup_warehouse;
  DeletionVectorRun(lookup_warehouse.path(), "dv_lookup", 20261213,
                    " --option changelog-producer=lookup")
      .Run();
}

}  // namespace
}  // namespace sluice::test
