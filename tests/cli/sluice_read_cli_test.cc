// Drives `sluice read`: a sample of cases.jsonl (the first case of every format and mode, and
// the first using each `read` key: filter, projection, partition, bucket, options, session
// time zone, path remap, branch, schema id) read with `--format jsonl`, the case's `read` object
// mapped one to one onto flags, rows compared as multisets. Plus a tag (on a copy of a corpus
// table with a tag added), csv and table output, and errors on stderr with exit status 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "table/case_read_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using nlohmann::json;

using test::CommandResult;
using test::RunSluice;

// POSIX shell single quoting.
std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// The `sluice read` flags of a case's `read` object, one flag per key.
std::string FlagsForRead(const json& read) {
  std::string flags;
  if (read.contains("snapshot") && !read["snapshot"].is_null()) {
    flags += " --snapshot " + std::to_string(read["snapshot"].get<int64_t>());
  }
  if (read.contains("tag")) flags += " --tag " + Quote(read["tag"]);
  if (read.contains("branch")) flags += " --branch " + Quote(read["branch"]);
  if (read.contains("schema_id")) {
    flags += " --schema-id " + std::to_string(read["schema_id"].get<int64_t>());
  }
  if (read.contains("projection")) {
    std::string list;
    for (const auto& column : read["projection"]) {
      list += (list.empty() ? "" : ",") + column.get<std::string>();
    }
    flags += " --select " + Quote(list);
  }
  if (read.contains("filter")) flags += " --where " + Quote(read["filter"]);
  if (read.contains("partition")) {
    std::string spec;
    for (auto& [k, v] : read["partition"].items()) {
      spec += (spec.empty() ? "" : ",") + k + "=" + v.get<std::string>();
    }
    flags += " --partition " + Quote(spec);
  }
  if (read.contains("bucket")) flags += " --bucket " + std::to_string(read["bucket"].get<int>());
  if (read.contains("mode")) {
    std::string mode = read["mode"];
    std::replace(mode.begin(), mode.end(), '_', '-');
    flags += " --mode " + mode;
  }
  if (read.contains("options")) {
    for (auto& [k, v] : read["options"].items()) {
      flags += " --option " + Quote(k + "=" + v.get<std::string>());
    }
  }
  if (read.contains("session_timezone")) flags += " --timezone " + Quote(read["session_timezone"]);
  if (read.contains("path_remap")) {
    for (auto& [k, v] : read["path_remap"].items()) {
      flags += " --path-remap " + Quote(k + "=" + v.get<std::string>());
    }
  }
  return flags;
}

std::vector<json> LoadCases() {
  std::vector<json> cases;
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) cases.push_back(json::parse(line));
  }
  return cases;
}

// The first case of every format x mode, and the first case using each read key.
std::vector<json> SampleCases() {
  std::vector<json> sample;
  std::set<std::string> seen;
  for (const json& c : LoadCases()) {
    const std::string id = c["id"];
    const std::string format = id.substr(0, id.find('/'));
    std::vector<std::string> keys = {format + ":" + c["read"].value("mode", std::string("batch"))};
    for (auto& [key, value] : c["read"].items()) {
      if (key != "snapshot" && key != "mode") keys.push_back(key);
    }
    bool wanted = false;
    for (const std::string& key : keys) wanted = seen.insert(key).second || wanted;
    if (wanted) sample.push_back(c);
  }
  return sample;
}

std::vector<std::string> ExpectedRows(const json& c) {
  const auto types = c["column_types"].get<std::vector<std::string>>();
  std::vector<std::string> rows;
  for (const auto& row : c["rows"]) rows.push_back(test::Normalize(row, types).dump());
  std::sort(rows.begin(), rows.end());
  return rows;
}

// jsonl output -> rows in the case's column order, normalized and sorted.
std::vector<std::string> JsonLinesRows(const std::string& out, const json& c) {
  const auto types = c["column_types"].get<std::vector<std::string>>();
  std::vector<std::string> rows;
  std::istringstream lines(out);
  std::string line;
  while (std::getline(lines, line)) {
    const json object = json::parse(line);
    json row = json::array();
    for (const auto& column : c["columns"]) row.push_back(object.at(column.get<std::string>()));
    EXPECT_EQ(object.size(), c["columns"].size()) << line;
    rows.push_back(test::Normalize(row, types).dump());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(SluiceReadCliTest, SampleOfCasesReadsTheirRowsAsJsonLines) {
  const std::vector<json> sample = SampleCases();
  ASSERT_GE(sample.size(), 10u);
  int passed = 0;
  for (const json& c : sample) {
    const std::string table = test::CompatTablesDir() + "/" + c["table"].get<std::string>();
    const std::string args = "read " + Quote(table) + FlagsForRead(c["read"]) + " --format jsonl";
    CommandResult r = RunSluice(args);
    EXPECT_EQ(r.exit_code, 0) << c["id"] << ": sluice " << args << "\n" << r.err;
    if (r.exit_code != 0) continue;
    const auto rows = JsonLinesRows(r.out, c);
    EXPECT_EQ(rows, ExpectedRows(c)) << c["id"] << ": sluice " << args;
    if (rows == ExpectedRows(c)) ++passed;
  }
  std::cout << passed << " of " << sample.size() << " sampled cases passed through sluice read\n";
}

TEST(SluiceReadCliTest, TagReadsTheTaggedSnapshot) {
  // The corpus has no tags: tag snapshot 1 of a copy (a tag file is the snapshot's JSON).
  test::TempDir dir;
  const std::string copy = dir.path() + "/append_09";
  std::filesystem::copy(test::CompatTablesDir() + "/parquet/append_09.db/append_09", copy,
                        std::filesystem::copy_options::recursive);
  std::filesystem::create_directory(copy + "/tag");
  std::filesystem::copy_file(copy + "/snapshot/snapshot-1", copy + "/tag/tag-first");
  json snapshot_case;
  for (const json& c : LoadCases()) {
    if (c["id"] == "parquet/append_09/snapshot-1") snapshot_case = c;
  }
  ASSERT_FALSE(snapshot_case.is_null());
  CommandResult r = RunSluice("read " + Quote(copy) + " --tag first --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(JsonLinesRows(r.out, snapshot_case), ExpectedRows(snapshot_case));
  r = RunSluice("read " + Quote(copy) + " --tag second --format jsonl");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("second"), std::string::npos) << r.err;
}

TEST(SluiceReadCliTest, WarehouseIdentifierCsvAndTable) {
  const std::string warehouse = test::CompatTablesDir() + "/parquet";
  CommandResult r = RunSluice("read append_09.append_09 --warehouse " + Quote(warehouse) +
                              " --snapshot 1 --select f0,f3 --where \"f0 = 'Alice'\" --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "f0,f3\r\nAlice,11.1\r\n");
  r = RunSluice("read append_09.append_09 --warehouse " + Quote(warehouse) +
                " --snapshot 1 --select f0,f3 --where \"f0 = 'Alice'\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| f0    | f3   |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("| Alice | 11.1 |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 row"), std::string::npos) << r.out;
  r = RunSluice("read append_09.append_09 --warehouse " + Quote(warehouse) +
                " --select f0,f3 --where \"f0 = 'Nobody'\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("| f0 | f3 |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 rows"), std::string::npos) << r.out;
  r = RunSluice("read append_09.append_09 --warehouse " + Quote(warehouse) +
                " --limit 2 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2);
}

TEST(SluiceReadCliTest, ErrorsGoToStderrWithExitStatusOne) {
  const std::string table = Quote(test::CompatTablesDir() + "/parquet/append_09.db/append_09");
  const std::map<std::string, std::string> cases = {
      {"read /no/such/table", "/no/such/table"},
      {"read db.nope --warehouse /no/such/warehouse", "db.nope"},
      {"read " + table + " --snapshot 99", "99"},
      {"read " + table + " --branch nobranch", "nobranch"},
      {"read " + table + " --select f0,nocolumn", "nocolumn"},
      {"read " + table + " --where 'nocolumn > 1'", "nocolumn"},
      {"read " + table + " --format xml", "xml"},
      {"read " + table + " --mode sideways", "sideways"},
      {"read " + table + " --option novalue", "novalue"},
  };
  for (const auto& [args, name] : cases) {
    CommandResult r = RunSluice(args);
    EXPECT_EQ(r.exit_code, 1) << args;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
    EXPECT_NE(r.err.find(name), std::string::npos) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace sluice
