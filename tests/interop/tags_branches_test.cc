// Tags and branches between Sluice and Java (issue #14): Sluice tags a table, branches it from a
// tag, writes on the branch and on main, merges the branch into main (`sluice call`), and Java
// reads every tag, the branch and the merged main as Sluice does; Java tags and branches the
// table in turn and Sluice reads what Java made. Then the system tables' columns and types
// (Sluice's ReadSystemTable) equal Java's (SystemTableLoader) for the same table.
#include <gtest/gtest.h>

#include <fstream>

#include "interop/interop_harness.h"
#include "sluice/catalog.h"
#include "sluice/system_tables.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class TagsBranchesRun {
 public:
  explicit TagsBranchesRun(std::string warehouse) : warehouse_(std::move(warehouse)) {
    columns_ = {
        {"id", DataType::BigInt(false)}, {"p", DataType::Int(false)}, {"v", DataType::String()}};
  }

  void Run() {
    if (Oracle() == nullptr) return;
    ASSERT_TRUE(SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
                         "tags create-database"));
    ASSERT_TRUE(SluiceOk("create-table " + Where("interop_db.tb") +
                             " --column 'id BIGINT NOT NULL' --column 'p INT NOT NULL'"
                             " --column 'v STRING' --primary-key id,p --partition p"
                             " --option bucket=2",
                         "tags create-table"));
    Write("interop_db.tb", {{1, 0, "a"}, {2, 1, "b"}});
    Call("create_tag table=interop_db.tb tag=t1");
    Call("create_tag table=interop_db.tb tag=t1_retained time_retained='1 d'");
    Call("create_branch table=interop_db.tb branch=dev tag=t1");
    Write("interop_db.tb$branch_dev", {{3, 2, "dev"}, {4, 2, "dev"}});
    Write("interop_db.tb", {{5, 3, "main"}, {1, 0, "main"}});
    Compare("tag t1", {{"tag", "t1"}}, " --tag t1");
    Compare("tag t1_retained", {{"tag", "t1_retained"}}, " --tag t1_retained");
    Compare("branch dev", {{"branch", "dev"}}, " --branch dev");
    Compare("main before merge", {}, "");
    Call("merge_branch table=interop_db.tb branch=dev");
    Compare("main after merge", {}, "");
    ++Counts().scenarios;

    // Java tags the merged main and branches from its tag; Sluice reads both.
    OracleAnswer tag = Oracle()->Call(
        JavaCommand("create_tag", {{"tag", "java_tag"}, {"snapshot", LatestSnapshot()}}));
    ASSERT_FALSE(tag.head.contains("error")) << tag.head.dump();
    OracleAnswer branch = Oracle()->Call(
        JavaCommand("create_branch", {{"new_branch", "java_branch"}, {"from_tag", "java_tag"}}));
    ASSERT_FALSE(branch.head.contains("error")) << branch.head.dump();
    Compare("java tag", {{"tag", "java_tag"}}, " --tag java_tag");
    Compare("java branch", {{"branch", "java_branch"}}, " --branch java_branch");
    ++Counts().scenarios;

    for (const std::string& name : SystemTableNames()) {
      CompareSystemTableType("interop_db.tb$" + name);
    }
    CompareSystemTableType("sys.all_table_options");
    ++Counts().scenarios;
  }

 private:
  std::string Where(const std::string& table) const {
    return ShellQuote(table) + " --warehouse " + ShellQuote(warehouse_);
  }

  nlohmann::json JavaCommand(const std::string& cmd, const nlohmann::json& extra = {}) const {
    nlohmann::json command = {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", "interop_db.tb"}};
    for (auto it = extra.begin(); it != extra.end(); ++it) command[it.key()] = it.value();
    return command;
  }

  int64_t LatestSnapshot() const {
    const std::vector<int64_t> ids = SnapshotIds(warehouse_ + "/interop_db.db/tb");
    return ids.empty() ? 0 : ids.back();
  }

  void Write(const std::string& table,
             const std::vector<std::tuple<int64_t, int, std::string>>& rows) {
    const std::string input = warehouse_ + "/tags-input.jsonl";
    {
      std::ofstream out(input);
      for (const auto& [id, p, v] : rows) {
        out << nlohmann::json{{"id", id}, {"p", p}, {"v", v}}.dump() << "\n";
      }
    }
    ASSERT_TRUE(
        SluiceOk("write " + Where(table) + " --input " + ShellQuote(input) + " --format jsonl",
                 "tags write " + table));
  }

  void Call(const std::string& args) {
    ASSERT_TRUE(
        SluiceOk("call " + args + " --warehouse " + ShellQuote(warehouse_), "call " + args));
  }

  void Compare(const std::string& what, const nlohmann::json& java_extra,
               const std::string& sluice_flags) {
    SameRows("tags/branches " + what, JavaRead(JavaCommand("read", java_extra), columns_),
             SluiceRead(Where("interop_db.tb") + sluice_flags, columns_), nullptr);
    ++Counts().reads_compared;
  }

  void CompareSystemTableType(const std::string& id) {
    OracleAnswer answer = Oracle()->Call(JavaCommand("system_table_type", {{"table", id}}));
    ASSERT_FALSE(answer.head.contains("error")) << id << ": " << answer.head.dump();
    std::vector<std::string> java;
    for (const auto& f : answer.head["fields"]) java.push_back(f.get<std::string>());
    auto rows = ReadSystemTable(Catalog::Filesystem(warehouse_), id);
    ASSERT_TRUE(rows.ok()) << id << ": " << rows.status().ToString();
    std::vector<std::string> sluice;
    for (const DataField& f : rows->schema()->fields()) {
      sluice.push_back(f.name + " " + f.type->ToString());
    }
    ++Counts().reads_compared;
    if (java != sluice) {
      ++Counts().mismatches;
      std::string j, s;
      for (const auto& x : java) j += x + ", ";
      for (const auto& x : sluice) s += x + ", ";
      ADD_FAILURE() << id << " columns differ:\n  java:   " << j << "\n  sluice: " << s;
    }
  }

  std::string warehouse_;
  std::vector<Column> columns_;
};

TEST(Interop, TagsBranchesMergeAndSystemTablesBetweenSluiceAndJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  TagsBranchesRun(warehouse.path()).Run();
}

}  // namespace
}  // namespace sluice::test
