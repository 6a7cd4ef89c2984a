// Streaming reads between Sluice and Java: Sluice writes an append table and a primary-key
// table (with a compaction and, on the append table, an overwrite in between), Java writes on,
// and for a sample of startup modes `sluice read --follow` prints the rows Java's own
// StreamTableScan (the oracle's stream_read, planned until it has caught up) returns.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class StreamReadRun {
 public:
  StreamReadRun(const std::string& warehouse, std::string table, bool primary_key)
      : warehouse_(warehouse), table_(std::move(table)), primary_key_(primary_key) {
    columns_ = {{"id", DataType::BigInt(false)}, {"v", DataType::String()}};
  }

  void Run() {
    if (Oracle() == nullptr) return;
    SluiceOk("create-database interop_db --warehouse " + ShellQuote(warehouse_),
             "stream create-database");
    ASSERT_TRUE(SluiceOk("create-table " + Where() +
                             " --column 'id BIGINT NOT NULL' --column 'v STRING'" +
                             (primary_key_ ? " --primary-key id --option bucket=2"
                                           : " --option bucket=2 --option bucket-key=id"),
                         "stream create-table"));
    SluiceWrite({{1, "a"}, {2, "b"}, {3, "c"}}, "");                            // snapshot 1
    SluiceWrite({{4, "d"}, {2, "b2"}}, "");                                     // 2
    ASSERT_TRUE(SluiceOk("compact " + Where() + " --full", "stream compact"));  // 3
    if (primary_key_) {
      SluiceWrite({{1, "a"}}, "-D");  // 4
    } else {
      SluiceWrite({{9, "o"}}, "", /*overwrite=*/true);  // 4
    }
    JavaWrite({{5, "j1"}, {6, "j2"}});
    SluiceWrite({{7, "s"}}, "");
    if (::testing::Test::HasFailure()) return;

    Compare({});
    Compare({{"scan.mode", "from-snapshot"}, {"scan.snapshot-id", "1"}});
    Compare({{"scan.mode", "from-snapshot-full"}, {"scan.snapshot-id", "2"}});
    Compare({{"scan.mode", "compacted-full"}});
    Compare({{"scan.mode", "latest"}});
    if (!primary_key_) {
      Compare({{"scan.mode", "from-snapshot"},
               {"scan.snapshot-id", "2"},
               {"streaming-read-append-overwrite", "true"}});
    }
    ++Counts().scenarios;
  }

 private:
  std::string Where() const {
    return ShellQuote("interop_db." + table_) + " --warehouse " + ShellQuote(warehouse_);
  }

  void SluiceWrite(const std::vector<std::pair<int64_t, std::string>>& rows,
                   const std::string& kind, bool overwrite = false) {
    const std::string input = warehouse_ + "/stream-input.jsonl";
    {
      std::ofstream out(input);
      for (const auto& [id, v] : rows) {
        nlohmann::json row = {{"id", id}, {"v", v}};
        if (!kind.empty()) row["_ROW_KIND"] = kind;
        out << row.dump() << "\n";
      }
    }
    SluiceOk("write " + Where() + " --input " + ShellQuote(input) + " --format jsonl" +
                 (overwrite ? " --overwrite" : ""),
             "stream sluice write");
  }

  void JavaWrite(const std::vector<std::pair<int64_t, std::string>>& rows) {
    nlohmann::json write = {
        {"cmd", "write"}, {"warehouse", warehouse_}, {"table", "interop_db." + table_}};
    write["rows"] = nlohmann::json::array();
    for (const auto& [id, v] : rows) write["rows"].push_back({{"id", id}, {"v", v}});
    OracleAnswer answer = Oracle()->Call(write);
    if (!answer.ok()) ADD_FAILURE() << "stream: Java write failed: " << answer.error();
  }

  void Compare(const std::vector<std::pair<std::string, std::string>>& options) {
    std::string what = "stream " + table_;
    nlohmann::json command = {
        {"cmd", "stream_read"}, {"warehouse", warehouse_}, {"table", "interop_db." + table_}};
    command["options"] = nlohmann::json::object();
    std::string flags;
    for (const auto& [key, value] : options) {
      command["options"][key] = value;
      flags += " --option " + ShellQuote(key + "=" + value);
      what += " " + key + "=" + value;
    }
    ReadRows java;
    OracleAnswer answer = Oracle()->Call(command);
    if (answer.ok()) {
      java.rows.emplace();
      for (const std::string& line : answer.rows) {
        nlohmann::json row = nlohmann::json::parse(line);
        row.erase("_PLAN");
        java.rows->push_back(NormalizeRow(row, columns_));
      }
      std::sort(java.rows->begin(), java.rows->end());
    } else {
      java.error = answer.error();
    }
    // Sluice stops after as many rows as Java gave; a follower short of rows is stopped by
    // SIGINT after 60 s (and then shows fewer).
    const size_t limit = java.rows ? java.rows->size() : 0;
    CommandResult result =
        RunShellCommand("timeout -s INT 60 " + BinaryDir() + "/sluice read " + Where() +
                        " --follow --limit " + std::to_string(limit) + flags + " --format jsonl");
    ReadRows sluice;
    if (result.exit_code != 0) {
      sluice.error = "exit " + std::to_string(result.exit_code);
    } else {
      sluice.rows.emplace();
      size_t start = 0;
      while (start < result.out.size()) {
        size_t end = result.out.find('\n', start);
        if (end == std::string::npos) end = result.out.size();
        if (end > start) {
          sluice.rows->push_back(
              NormalizeRow(nlohmann::json::parse(result.out.substr(start, end - start)), columns_));
        }
        start = end + 1;
      }
      std::sort(sluice.rows->begin(), sluice.rows->end());
    }
    SameRows(what, java, sluice, nullptr);
    ++Counts().reads_compared;
  }

  std::string warehouse_;
  std::string table_;
  bool primary_key_;
  std::vector<Column> columns_;
};

TEST(InteropStreamRead, AppendTable) {
  TempDir dir;
  StreamReadRun(dir.path(), "stream_append", false).Run();
}

TEST(InteropStreamRead, PrimaryKeyTable) {
  TempDir dir;
  StreamReadRun(dir.path(), "stream_pk", true).Run();
}

}  // namespace
}  // namespace sluice::test
