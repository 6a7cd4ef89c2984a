// Every case of the compatibility corpus (../shared/compat/cases.jsonl) read through the public
// API (Table -> ReadBuilder -> TableScan -> TableRead), its `read` object mapped one to one
// onto the builder, rows compared as multisets (as lists when the case is ordered) after the
// corpus' normalization (FLOAT rounded to float32, DOUBLE to 15 significant digits). Prints
// "N passed, M failed, K skipped" and fails on any failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/read_builder.h"
#include "sluice/value_json.h"
#include "table/case_read_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using nlohmann::json;

// The corpus normalization (FLOAT rounded to float32), and DOUBLE rounded to 15 significant
// digits: some expected sums are the decimal their source test compared approximately
// (pk_table_with_mor lists 111.1 + 11.1 as 122.2; IEEE addition, Java's too, gives
// 122.19999999999999).
std::string NormalizeRow(const json& row, const std::vector<std::string>& types) {
  json out = test::Normalize(row, types);
  for (size_t i = 0; i < out.size() && i < types.size(); ++i) {
    if (types[i].rfind("DOUBLE", 0) == 0 && out[i].is_number_float()) {
      char text[32];
      std::snprintf(text, sizeof(text), "%.15g", out[i].get<double>());
      out[i] = std::strtod(text, nullptr);
    }
  }
  return out.dump();
}

Result<ReadBuilder> BuilderForCase(const json& c) {
  SLUICE_ASSIGN_OR_RETURN(
      Table table, Table::Open(test::CompatTablesDir() + "/" + c["table"].get<std::string>()));
  ReadBuilder read = table.NewReadBuilder();
  const json& r = c["read"];
  if (r.contains("snapshot") && !r["snapshot"].is_null()) read.WithSnapshot(r["snapshot"]);
  if (r.contains("tag")) read.WithTag(r["tag"]);
  if (r.contains("branch")) read.WithBranch(r["branch"]);
  if (r.contains("schema_id")) read.WithSchemaId(r["schema_id"]);
  if (r.contains("projection")) read.WithProjection(r["projection"]);
  if (r.contains("filter")) read.WithWhere(r["filter"]);
  if (r.contains("partition")) {
    std::vector<std::pair<std::string, std::string>> spec;
    for (auto& [k, v] : r["partition"].items()) spec.emplace_back(k, v.get<std::string>());
    read.WithPartition(std::move(spec));
  }
  if (r.contains("bucket")) read.WithBucket(r["bucket"]);
  if (r.contains("mode")) {
    SLUICE_ASSIGN_OR_RETURN(ScanMode mode, ScanModeFromName(r["mode"].get<std::string>()));
    read.WithMode(mode);
  }
  if (r.contains("options")) {
    for (auto& [k, v] : r["options"].items()) read.WithOption(k, v.get<std::string>());
  }
  if (r.contains("session_timezone")) read.WithSessionTimeZone(r["session_timezone"]);
  if (r.contains("path_remap")) {
    for (auto& [k, v] : r["path_remap"].items()) read.WithPathRemap(k, v.get<std::string>());
  }
  read.WithOrdered(c.value("ordered", false));
  return read;
}

// The case's rows as normalized JSON texts.
Result<std::vector<std::string>> ReadCase(const json& c, const std::vector<std::string>& types) {
  SLUICE_ASSIGN_OR_RETURN(ReadBuilder read, BuilderForCase(c));
  SLUICE_ASSIGN_OR_RETURN(TableScan scan, read.NewScan());
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
  SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
  const auto columns = c["columns"].get<std::vector<std::string>>();
  std::vector<std::string> names;
  for (const DataField& field : table_read.output_type()->fields()) names.push_back(field.name);
  if (names != columns) {
    return Status::Internal("columns " + json(names).dump() + ", expected " + json(columns).dump());
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                          table_read.CreateReader(std::move(plan.splits)));
  ColumnBatch batch(reader->output_type());
  std::vector<std::string> rows;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      std::string text = "[";
      for (int col = 0; col < batch.num_columns(); ++col) {
        if (col > 0) text += ", ";
        AppendValueJson(batch.column(col)->GetValue(row), *batch.column(col)->type(), &text);
      }
      text += "]";
      rows.push_back(NormalizeRow(json::parse(text), types));
    }
  }
  return rows;
}

TEST(CompatCasesTest, EveryCaseReadsItsRowsThroughThePublicApi) {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in.good()) << test::CompatDir();
  int passed = 0, failed = 0, skipped = 0;
  std::string line;
  std::vector<std::string> failures;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json c = json::parse(line);
    const std::string id = c["id"];
    const auto types = c["column_types"].get<std::vector<std::string>>();
    std::vector<std::string> expected;
    for (const auto& row : c["rows"]) expected.push_back(NormalizeRow(row, types));
    auto rows = ReadCase(c, types);
    std::string why;
    if (!rows.ok()) {
      why = rows.status().ToString();
    } else {
      if (!c.value("ordered", false)) {
        std::sort(rows->begin(), rows->end());
        std::sort(expected.begin(), expected.end());
      }
      if (*rows != expected) {
        why = "got " + std::to_string(rows->size()) + " rows, expected " +
              std::to_string(expected.size());
        for (size_t i = 0; i < std::max(rows->size(), expected.size()); ++i) {
          const std::string got = i < rows->size() ? (*rows)[i] : "(none)";
          const std::string want = i < expected.size() ? expected[i] : "(none)";
          if (got != want) {
            why +=
                "; first difference at " + std::to_string(i) + ": got " + got + " expected " + want;
            break;
          }
        }
      }
    }
    if (why.empty()) {
      ++passed;
    } else {
      ++failed;
      failures.push_back(id + ": " + why);
    }
  }
  for (const std::string& failure : failures) std::cout << "FAILED " << failure << "\n";
  std::cout << passed << " passed, " << failed << " failed, " << skipped << " skipped\n";
  EXPECT_EQ(failed, 0);
  EXPECT_EQ(passed + failed + skipped, 212);
}

}  // namespace
}  // namespace sluice
