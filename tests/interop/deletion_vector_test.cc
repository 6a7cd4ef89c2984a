// Primary-key tables with deletion vectors between Sluice and Java: Sluice creates and writes
// one (upserts and deletes over two buckets; its compactions mark replaced rows in deletion
// vectors), Java reads every snapshot as Sluice and the model do; Java then writes into it (its
// lookup compaction reading and replacing Sluice's deletion-vector index files), Sluice reads
// what Java wrote and writes on after it; `sluice check` (deletion-vector rows included) is
// clean after every write, and `sluice get` answers every model key as the model does. The same
// for `changelog-producer = lookup`, `sequence.field`, partial-update (with lookup changelog)
// and aggregation beside the deletion vectors: Sluice's compaction merges the looked-up value
// into its output and marks the looked-up row, Java's compacts over what Sluice wrote.
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

// One table of the test: its shape (merge engine, sequence field, aggregate functions), more
// `--option k=v`, whether its batches delete, and whether rows leave `v` / `n` null now and then
// (which the folding engines fill from the older rows).
struct DvTable {
  std::string name;
  TableShape shape;
  std::string options;
  bool deletes = true;
  bool nulls = false;
};

DvTable Table(std::string name, std::string engine = "deduplicate", std::string options = "") {
  DvTable t;
  t.name = std::move(name);
  t.shape.columns = {
      {"id", DataType::BigInt(false)}, {"v", DataType::String()}, {"n", DataType::BigInt()}};
  t.shape.primary_keys = {"id"};
  if (engine != "deduplicate") options += " --option merge-engine=" + engine;
  t.shape.merge_engine = std::move(engine);
  t.options = std::move(options);
  return t;
}

class DeletionVectorRun {
 public:
  DeletionVectorRun(const std::string& warehouse, DvTable t, uint64_t seed)
      : t_(std::move(t)), table_(warehouse, t_.name, t_.shape), rng_(seed) {}

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(table_.Create(
        "--column 'id BIGINT NOT NULL' --column 'v STRING' --column 'n BIGINT' --primary-key id"
        " --option bucket=2 --option deletion-vectors.enabled=true"
        " --option num-sorted-run.compaction-trigger=2" +
        t_.options));
    int write = 0;
    for (const char* writer : {"s", "s", "s", "s", "s", "j", "j", "s", "s"}) {
      const std::vector<nlohmann::json> rows = Batch(writer);
      const bool java = writer[0] == 'j';
      ASSERT_TRUE(java ? table_.JavaWrite(rows) : table_.SluiceWrite(rows));
      AfterWrite((java ? "java write " : "sluice write ") + std::to_string(++write));
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
                            {"v", writer + std::to_string(++written_)},
                            {"n", std::uniform_int_distribution<int64_t>(0, 9)(rng_)}};
      if (t_.nulls && rng_() % 3 == 0) row["v"] = nullptr;
      if (t_.nulls && rng_() % 3 == 0) row["n"] = nullptr;
      if (t_.deletes && std::uniform_int_distribution<int>(0, 4)(rng_) == 0) {
        row["_ROW_KIND"] = "-D";
      }
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

  DvTable t_;
  InteropTable table_;
  std::mt19937_64 rng_;
  int64_t written_ = 0;
};

TEST(Interop, DeletionVectorTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  std::vector<DvTable> tables = {
      Table("dv"), Table("dv_lookup", "deduplicate", " --option changelog-producer=lookup"),
      Table("dv_sequence_field", "deduplicate", " --option sequence.field=n"),
      Table("dv_partial_update", "partial-update", " --option changelog-producer=lookup"),
      Table("dv_aggregation", "aggregation", " --option fields.n.aggregate-function=sum")};
  tables[2].shape.sequence_field = "n";
  // The model keeps no sequence field of a deleted key: a delete that orders after a later
  // insert (Java deletes the key) would be missed.
  tables[2].deletes = false;
  for (DvTable* folding : {&tables[3], &tables[4]}) {
    // Java's partial-update refuses deletes by default; last_non_null_value cannot retract.
    folding->deletes = false;
    folding->nulls = true;
  }
  tables[4].shape.aggregate_functions["n"] = "sum";
  uint64_t seed = 20261212;
  for (DvTable& t : tables) {
    SCOPED_TRACE(t.name);
    TempDir warehouse;
    DeletionVectorRun(warehouse.path(), std::move(t), seed++).Run();
  }
}

}  // namespace
}  // namespace sluice::test
