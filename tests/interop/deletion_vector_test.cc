// Primary-key tables with deletion vectors between Sluice and Java: Sluice creates and writes
// one (upserts and deletes over two buckets; its compactions mark replaced rows in deletion
// vectors), Java reads every snapshot as Sluice and the model do; Java then writes into it (its
// lookup compaction reading and replacing Sluice's deletion-vector index files), Sluice reads
// what Java wrote and writes on after it; `sluice check` (deletion-vector rows included) is
// clean after every write, and `sluice get` answers every model key as the model does.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <random>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class DeletionVectorRun {
 public:
  DeletionVectorRun(const std::string& warehouse, uint64_t seed)
      : warehouse_(warehouse), rng_(seed) {
    columns_ = {{"id", DataType::BigInt(false)}, {"v", DataType::String()}};
  }

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
                         "deletion_vector create-database"));
    ASSERT_TRUE(SluiceOk("create-table " + Where() +
                             " --column 'id BIGINT NOT NULL' --column 'v STRING'"
                             " --primary-key id --option bucket=2"
                             " --option deletion-vectors.enabled=true"
                             " --option num-sorted-run.compaction-trigger=2",
                         "deletion_vector create-table"));
    for (int i = 0; i < 5; ++i) {
      SluiceWrite();
      if (::testing::Test::HasFailure()) return;
    }
    for (int i = 0; i < 2; ++i) {
      JavaWrite();
      if (::testing::Test::HasFailure()) return;
    }
    for (int i = 0; i < 2; ++i) {
      SluiceWrite();
      if (::testing::Test::HasFailure()) return;
    }
    VerifySnapshots();
    ++Counts().scenarios;
  }

 private:
  std::string Where() const {
    return ShellQuote("interop_db.dv") + " --warehouse " + ShellQuote(warehouse_);
  }
  std::string Dir() const { return warehouse_ + "/interop_db.db/dv"; }
  nlohmann::json JavaCommand(const std::string& cmd) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", "interop_db.dv"}};
  }

  std::vector<nlohmann::json> Batch(const std::string& writer) {
    std::vector<nlohmann::json> rows;
    const int n = std::uniform_int_distribution<int>(10, 40)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = {{"id", std::uniform_int_distribution<int64_t>(0, 39)(rng_)},
                            {"v", writer + std::to_string(++written_)}};
      if (std::uniform_int_distribution<int>(0, 4)(rng_) == 0) row["_ROW_KIND"] = "-D";
      rows.push_back(row);
    }
    return rows;
  }

  void Apply(const std::vector<nlohmann::json>& rows) {
    for (const nlohmann::json& row : rows) {
      const int64_t key = row["id"].get<int64_t>();
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
    const std::string input = warehouse_ + "/deletion-vector-input.jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    ASSERT_TRUE(SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl",
                         "deletion_vector sluice write"));
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
      ADD_FAILURE() << "deletion_vector: Java write failed: " << answer.error();
      return;
    }
    Apply(rows);
    AfterWrite("java write");
  }

  void AfterWrite(const std::string& what) {
    const std::vector<std::string> model = Model();
    SameRows("deletion_vector latest after " + what, JavaRead(JavaCommand("read"), columns_),
             SluiceRead(Where(), columns_), &model);
    ++Counts().reads_compared;
    SluiceOk("check " + ShellQuote(Dir()), "deletion_vector check after " + what);
    // Point lookups of every key ever written answer as the model.
    std::string keys;
    for (int64_t id = 0; id < 40; ++id) keys += " --key id=" + std::to_string(id);
    std::string out;
    if (!SluiceOk("get " + Where() + keys + " --format jsonl", "deletion_vector get", &out)) return;
    std::vector<std::string> got;
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) continue;
      nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
      got.push_back(NormalizeRow(row, columns_));
    }
    std::sort(got.begin(), got.end());
    ++Counts().reads_compared;
    if (got != model) {
      ++Counts().mismatches;
      std::vector<std::string> extra, missing;
      std::set_difference(got.begin(), got.end(), model.begin(), model.end(),
                          std::back_inserter(extra));
      std::set_difference(model.begin(), model.end(), got.begin(), got.end(),
                          std::back_inserter(missing));
      ADD_FAILURE() << "deletion_vector: sluice get after " << what << " returned " << got.size()
                    << " rows, the model has " << model.size()
                    << "; not in the model: " << testing::PrintToString(extra)
                    << "; missing: " << testing::PrintToString(missing) << "; table " << Dir();
    }
  }

  void VerifySnapshots() {
    for (int64_t id : SnapshotIds(Dir())) {
      nlohmann::json command = JavaCommand("read");
      command["snapshot"] = id;
      SameRows("deletion_vector snapshot " + std::to_string(id), JavaRead(command, columns_),
               SluiceRead(Where() + " --snapshot " + std::to_string(id), columns_), nullptr);
      ++Counts().snapshots_compared;
    }
    Counts().files_compared += DataFileCount(Dir());
  }

  std::string warehouse_;
  std::mt19937_64 rng_;
  std::vector<Column> columns_;
  std::map<int64_t, std::string> model_;
  int64_t written_ = 0;
};

TEST(Interop, DeletionVectorTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  DeletionVectorRun(warehouse.path(), 20261212).Run();
}

}  // namespace
}  // namespace sluice::test
