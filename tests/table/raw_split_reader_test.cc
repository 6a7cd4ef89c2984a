// RawSplitReader against the corpus: every cases.jsonl read of an append table without primary
// keys, deletion vectors or data evolution, planned with PlanScan and read split by split
// (schema evolution by field id, casts, partition values from the manifest), compared as
// multisets of JSON rows. Plus unit tests of casts, deleted positions and error messages.
#include "sluice/table/source/raw_split_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "sluice/predicate/predicate_parser.h"
#include "sluice/table/source/cast.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/types/value_json.h"
#include "test_util.h"

namespace sluice {
namespace {

// Cases of the subset this reader cannot pass yet, with the reason.
const std::map<std::string, std::string> kExpectedFailures = {
    {"parquet/append_with_cast_timestamp/latest-asia-shanghai",
     "casts between TIMESTAMP, TIMESTAMP_LTZ and integral seconds need the session time zone"},
};

bool InSubset(const FileStoreTable& table) {
  return !table.schema().is_primary_key_table() && !table.options().deletion_vectors_enabled() &&
         !table.options().data_evolution_enabled() &&
         table.schema().OptionOr("row-tracking.enabled", "false") != "true";
}

// One JSON value per row, FLOAT columns rounded to float32.
nlohmann::json Normalize(nlohmann::json row, const std::vector<std::string>& column_types) {
  for (size_t i = 0; i < row.size() && i < column_types.size(); ++i) {
    if (column_types[i].rfind("FLOAT", 0) == 0 && row[i].is_number()) {
      row[i] = static_cast<double>(static_cast<float>(row[i].get<double>()));
    }
  }
  return row;
}

struct CaseRead {
  std::shared_ptr<FileStoreTable> table;
  std::shared_ptr<const TableSchema> read_schema;
  ScanOptions scan;
  SplitReadOptions read;
};

Result<CaseRead> TranslateRead(const nlohmann::json& json) {
  const auto& read = json["read"];
  DynamicOptions dynamic;
  if (read.contains("options")) {
    for (auto& [k, v] : read["options"].items()) dynamic[k] = v.get<std::string>();
  }
  CaseRead out;
  const std::string branch = read.value("branch", std::string(kMainBranch));
  SLUICE_ASSIGN_OR_RETURN(out.table, FileStoreTable::Open(LocalFileIO(),
                                                          testing::CompatTablesDir() + "/" +
                                                              json["table"].get<std::string>(),
                                                          branch, dynamic));
  out.read_schema = out.table->schema_ptr();
  if (read.contains("schema_id")) {
    SLUICE_ASSIGN_OR_RETURN(out.read_schema,
                            out.table->SchemaById(read["schema_id"].get<int64_t>()));
  }
  if (read.contains("snapshot") && !read["snapshot"].is_null()) {
    out.scan.version = TableVersion::SnapshotId(read["snapshot"].get<int64_t>());
  }
  if (read.contains("mode")) {
    SLUICE_ASSIGN_OR_RETURN(out.scan.mode, ScanModeFromName(read["mode"].get<std::string>()));
  }
  if (read.contains("partition")) {
    for (auto& [k, v] : read["partition"].items()) {
      out.scan.partition_spec.emplace_back(k, v.get<std::string>());
    }
  }
  if (read.contains("bucket")) out.scan.bucket = read["bucket"].get<int32_t>();
  if (read.contains("path_remap")) {
    for (auto& [k, v] : read["path_remap"].items()) {
      out.scan.path_remap.emplace_back(k, v.get<std::string>());
    }
  }
  if (read.contains("filter")) {
    SLUICE_ASSIGN_OR_RETURN(out.scan.filter, ParsePredicate(read["filter"].get<std::string>(),
                                                            *out.read_schema->LogicalRowType()));
    out.read.filter = out.scan.filter;
  }
  if (read.contains("projection")) {
    out.read.projection = read["projection"].get<std::vector<std::string>>();
  }
  return out;
}

// Reads every row of the case as a rendered JSON row.
Result<std::vector<std::string>> ReadCaseRows(const nlohmann::json& json,
                                              const std::vector<std::string>& column_types) {
  if (json["read"].contains("session_timezone")) {
    return Status::NotSupported("session time zone " +
                                json["read"]["session_timezone"].get<std::string>());
  }
  SLUICE_ASSIGN_OR_RETURN(CaseRead c, TranslateRead(json));
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*c.table, c.scan));
  std::vector<std::string> rows;
  for (DataSplit& split : plan.splits) {
    SLUICE_ASSIGN_OR_RETURN(
        auto reader, RawSplitReader::Open(*c.table, c.read_schema, std::move(split), c.read));
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        std::string text = "[";
        for (int col = 0; col < batch.num_columns(); ++col) {
          if (col > 0) text += ", ";
          AppendValueJson(batch.column(col)->GetValue(r), *batch.column(col)->type(), &text);
        }
        text += "]";
        // Append tables hold inserts only: a delta read's _ROW_KIND column is "+I".
        if (!json["columns"].empty() && json["columns"][0] == "_ROW_KIND") {
          text.insert(1, batch.num_columns() > 0 ? "\"+I\", " : "\"+I\"");
        }
        rows.push_back(Normalize(nlohmann::json::parse(text), column_types).dump());
      }
    }
  }
  return rows;
}

TEST(RawSplitReaderTest, AppendCasesReadTheirRows) {
  std::ifstream in(testing::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in.good());
  std::string line;
  int passed = 0, failed = 0;
  std::set<std::string> subset_ids;
  std::set<std::string> seen_failures;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line);
    const std::string id = json["id"];
    auto table = FileStoreTable::Open(
        LocalFileIO(), testing::CompatTablesDir() + "/" + json["table"].get<std::string>(),
        json["read"].value("branch", std::string(kMainBranch)));
    ASSERT_TRUE(table.ok()) << id << ": " << table.status().ToString();
    if (!InSubset(**table)) continue;
    subset_ids.insert(id);
    const auto column_types = json["column_types"].get<std::vector<std::string>>();
    std::vector<std::string> expected;
    for (const auto& row : json["rows"]) expected.push_back(Normalize(row, column_types).dump());
    std::sort(expected.begin(), expected.end());
    auto rows = ReadCaseRows(json, column_types);
    std::string why;
    if (!rows.ok()) {
      why = rows.status().ToString();
    } else {
      std::sort(rows->begin(), rows->end());
      if (*rows != expected) {
        why = "rows differ: got " + std::to_string(rows->size()) + ", expected " +
              std::to_string(expected.size());
        for (size_t i = 0; i < rows->size() && i < expected.size(); ++i) {
          if ((*rows)[i] != expected[i]) {
            why += "; first difference: got " + (*rows)[i] + " expected " + expected[i];
            break;
          }
        }
      }
    }
    const bool expected_failure = kExpectedFailures.count(id) > 0;
    if (why.empty()) {
      ++passed;
      EXPECT_FALSE(expected_failure) << id << " passes: remove it from kExpectedFailures";
    } else {
      ++failed;
      seen_failures.insert(id);
      EXPECT_TRUE(expected_failure) << id << ": " << why;
    }
  }
  for (const auto& [id, reason] : kExpectedFailures) {
    EXPECT_TRUE(seen_failures.count(id) > 0) << id << " is not a failing case of the subset";
  }
  for (const char* required :
       {"parquet/append_table_with_alter_table/filter", "orc/append_table_with_alter_table/filter",
        "parquet/append_table_alter_table_with_cast/latest",
        "orc/append_table_alter_table_with_cast/latest",
        "parquet/append_with_empty_partition_with_empty_value/filter-f0-eq-empty"}) {
    EXPECT_TRUE(subset_ids.count(required) > 0) << required;
  }
  EXPECT_GE(passed + failed, 100);
  std::cout << "append cases: " << passed << " passed, " << failed << " failed (expected "
            << kExpectedFailures.size() << ")\n";
}

}  // namespace
}  // namespace sluice
