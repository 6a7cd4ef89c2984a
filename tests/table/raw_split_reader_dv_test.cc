// RawSplitReader with real deletion vectors: every batch read of cases.jsonl on a table with
// deletion vectors (and no data evolution) whose splits are all raw-convertible (append tables,
// and primary-key tables whose files all sit above level 0, so each key is stored once) reads
// its exact rows when each file's deletion vector becomes the reader's deleted positions
// (OpenSplitReader loads them from the split's deletion files).
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>

#include "table/case_read_util.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(RawSplitReaderDeletionVectorTest, RawConvertibleCasesReadTheirRows) {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in.good());
  std::string line;
  int passed = 0, needs_merge = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line);
    const std::string id = json["id"];
    const auto& read = json["read"];
    if (read.contains("mode") && read["mode"] != "batch") continue;
    auto c = test::TranslateRead(json);
    ASSERT_OK(c) << id;
    const FileStoreTable& table = *c->table;
    if (!table.options().deletion_vectors_enabled() || table.options().data_evolution_enabled()) {
      continue;
    }
    auto plan = PlanScan(table, c->scan);
    ASSERT_OK(plan) << id;
    bool raw = true;
    for (const auto& split : plan->splits) raw = raw && split.raw_convertible;
    if (!raw) {
      ++needs_merge;  // level-0 files: merge-on-read, not this reader
      continue;
    }
    const auto column_types = json["column_types"].get<std::vector<std::string>>();
    std::vector<std::string> expected;
    for (const auto& row : json["rows"]) {
      expected.push_back(test::Normalize(row, column_types).dump());
    }
    std::sort(expected.begin(), expected.end());
    auto rows = test::ReadCaseRows(json, column_types);
    ASSERT_OK(rows) << id;
    std::sort(rows->begin(), rows->end());
    EXPECT_EQ(*rows, expected) << id;
    if (*rows == expected) ++passed;
  }
  EXPECT_GE(passed, 10);
  std::cout << "deletion-vector cases: " << passed << " read their rows; " << needs_merge
            << " need a merge read\n";
}

}  // namespace
}  // namespace sluice
