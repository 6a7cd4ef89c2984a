// Snapshot expiry between Sluice and Java (issue #14): a table written (and tagged at an early
// snapshot) by one engine is copied byte for byte; Java's ExpireSnapshotsImpl expires one copy
// and `sluice call expire_snapshots` the other with the same retention (2 snapshots, no time
// retention), and the two copies hold exactly the same files: snapshot files, hints,
// manifests, manifest lists and data files. Done for a Sluice-written and a Java-written table;
// then each engine reads the other's expired copy and the tag as it reads its own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "interop/column_type.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

namespace fs = std::filesystem;

// Every file under a table folder, relative to it.
std::set<std::string> FilesUnder(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) out.insert(fs::relative(it->path(), dir).string());
  }
  return out;
}

class ExpireRun {
 public:
  ExpireRun(std::string warehouse, bool sluice_writes)
      : warehouse_(std::move(warehouse)),
        sluice_writes_(sluice_writes),
        name_(sluice_writes ? "sluice_written" : "java_written"),
        columns_{{"id", DataType::BigInt(false)}, {"v", DataType::String()}} {}

  void Run() {
    if (Oracle() == nullptr) return;
    Create("ex." + name_);
    // Five writes of overlapping keys: with two sorted runs triggering a compaction, the later
    // writes compact away the files of the earlier ones, so expiry has files to delete.
    for (int i = 0; i < 5; ++i) {
      Write(i);
      if (::testing::Test::HasFailure()) return;
      if (i == 1) Tag();
    }
    const std::string a = warehouse_ + "/ex.db/" + name_;
    const std::string b = a + "_twin";
    fs::copy(a, b, fs::copy_options::recursive);
    ASSERT_EQ(FilesUnder(a), FilesUnder(b));
    const size_t before = FilesUnder(a).size();
    ASSERT_GT(SnapshotIds(a).size(), 3u) << name_;

    nlohmann::json expire = Command("expire", "ex." + name_);
    expire["retain_max"] = 2;
    expire["retain_min"] = 2;
    OracleAnswer answer = Oracle()->Call(expire);
    ASSERT_TRUE(answer.ok()) << name_ << ": Java expire: " << answer.error();
    ASSERT_TRUE(SluiceOk("call expire_snapshots table=ex." + name_ +
                             "_twin retain_max=2 retain_min=2 --warehouse " +
                             ShellQuote(warehouse_),
                         name_ + " sluice expire"));
    const std::set<std::string> java_left = FilesUnder(a);
    const std::set<std::string> sluice_left = FilesUnder(b);
    ++Counts().files_compared;
    EXPECT_LT(java_left.size(), before) << name_ << ": Java's expiry deleted nothing";
    EXPECT_EQ(SnapshotIds(a), SnapshotIds(b)) << name_;
    if (java_left != sluice_left) {
      ++Counts().mismatches;
      std::string only_java, only_sluice;
      for (const std::string& f : java_left) {
        if (!sluice_left.count(f)) only_java += "\n    " + f;
      }
      for (const std::string& f : sluice_left) {
        if (!java_left.count(f)) only_sluice += "\n    " + f;
      }
      ADD_FAILURE() << name_
                    << ": the expired copies differ\n  only after Java's expiry:" << only_java
                    << "\n  only after Sluice's expiry:" << only_sluice;
    }
    // Each engine reads the copy the other expired, latest and tag, as its own.
    for (const std::string& table : {name_, name_ + "_twin"}) {
      for (const std::string& tag : {std::string(), std::string("early")}) {
        nlohmann::json read = Command("read", "ex." + table);
        std::string flags;
        if (!tag.empty()) {
          read["tag"] = tag;
          flags = " --tag " + tag;
        }
        SameRows(
            name_ + " " + table + (tag.empty() ? " latest" : " tag " + tag),
            JavaRead(read, columns_),
            SluiceRead(ShellQuote("ex." + table) + " --warehouse " + ShellQuote(warehouse_) + flags,
                       columns_),
            nullptr);
        ++Counts().reads_compared;
      }
    }
    ++Counts().scenarios;
  }

 private:
  nlohmann::json Command(const std::string& cmd, const std::string& table) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", table}};
  }

  void Create(const std::string& table) {
    nlohmann::json create = Command("create_table", table);
    nlohmann::json fields = nlohmann::json::array();
    for (const Column& column : columns_) {
      fields.push_back({{"name", column.name}, {"type", PaimonJson(column.type)}});
    }
    create["fields"] = fields;
    create["primary_keys"] = {"id"};
    create["options"] = {{"bucket", "1"}, {"num-sorted-run.compaction-trigger", "2"}};
    OracleAnswer answer = Oracle()->Call(create);
    ASSERT_TRUE(answer.ok()) << name_ << ": create: " << answer.error();
  }

  void Write(int round) {
    nlohmann::json rows = nlohmann::json::array();
    for (int64_t id = round; id < round + 4; ++id) {
      rows.push_back({{"id", id % 6}, {"v", "r" + std::to_string(round)}});
    }
    if (!sluice_writes_) {
      nlohmann::json write = Command("write", "ex." + name_);
      write["rows"] = rows;
      OracleAnswer answer = Oracle()->Call(write);
      ASSERT_TRUE(answer.ok()) << name_ << ": Java write: " << answer.error();
      // Java's batch writes do not wait for compaction: compact, as a job would.
      answer = Oracle()->Call(Command("compact", "ex." + name_));
      ASSERT_TRUE(answer.ok()) << name_ << ": Java compact: " << answer.error();
      return;
    }
    const std::string input = warehouse_ + "/expire-input.jsonl";
    {
      std::ofstream out(input);
      for (const auto& row : rows) out << row.dump() << "\n";
    }
    ASSERT_TRUE(SluiceOk("write " + ShellQuote("ex." + name_) + " --warehouse " +
                             ShellQuote(warehouse_) + " --input " + ShellQuote(input) +
                             " --format jsonl",
                         name_ + " sluice write"));
  }

  // Tags the latest snapshot `early`.
  void Tag() {
    if (!sluice_writes_) {
      const std::vector<int64_t> ids = SnapshotIds(warehouse_ + "/ex.db/" + name_);
      ASSERT_FALSE(ids.empty());
      nlohmann::json tag = Command("create_tag", "ex." + name_);
      tag["tag"] = "early";
      tag["snapshot"] = ids.back();
      OracleAnswer answer = Oracle()->Call(tag);
      ASSERT_TRUE(answer.ok()) << name_ << ": Java tag: " << answer.error();
      return;
    }
    ASSERT_TRUE(SluiceOk(
        "call create_tag table=ex." + name_ + " tag=early --warehouse " + ShellQuote(warehouse_),
        name_ + " sluice tag"));
  }

  std::string warehouse_;
  bool sluice_writes_;
  std::string name_;
  std::vector<Column> columns_;
};

TEST(Interop, ExpiryOfJavaAndSluiceLeavesTheSameFiles) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  ASSERT_TRUE(SluiceOk("create-database ex --warehouse " + ShellQuote(warehouse.path()),
                       "expire create-database"));
  ExpireRun(warehouse.path(), /*sluice_writes=*/true).Run();
  ExpireRun(warehouse.path(), /*sluice_writes=*/false).Run();
}

}  // namespace
}  // namespace sluice::test
