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
#include "sluice/table/source/column_cast.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/value_json.h"
#include "table/case_read_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::Normalize;
using test::ReadCaseRows;

// Cases of the subset this reader cannot pass yet, with the reason.
const std::map<std::string, std::string> kExpectedFailures = {};

bool InSubset(const FileStoreTable& table) {
  return !table.schema().is_primary_key_table() && !table.options().deletion_vectors_enabled() &&
         !table.options().data_evolution_enabled() &&
         table.schema().OptionOr("row-tracking.enabled", "false") != "true";
}

TEST(RawSplitReaderTest, AppendCasesReadTheirRows) {
  std::ifstream in(test::CompatDir() + "/cases.jsonl");
  ASSERT_TRUE(in.good());
  std::string line;
  int passed = 0, failed = 0;
  std::set<std::string> subset_ids;
  std::set<std::string> seen_failures;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto json = nlohmann::json::parse(line);
    const std::string id = json["id"];
    auto table = test::OpenCaseTable(json);
    ASSERT_OK(table) << id;
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

int64_t TotalRowsOf(const ScanPlan& plan) {
  int64_t rows = 0;
  for (const auto& split : plan.splits) rows += split.RowCount();
  return rows;
}

std::vector<std::string> RowsOf(ColumnBatch& batch) {
  std::vector<std::string> rows;
  for (int64_t r = 0; r < batch.num_rows(); ++r)
    rows.push_back(ValueToJson(batch.GetRow(r), *batch.schema()));
  return rows;
}

std::string CastOne(const DataTypePtr& from, const Value& value, const DataTypePtr& to,
                    Status* status) {
  ColumnVector in(from);
  EXPECT_OK(in.AppendValue(value));
  in.AppendNull();
  ColumnVector out(to);
  *status = CastColumn(in, "c", &out);
  if (!status->ok()) return "";
  EXPECT_EQ(out.size(), 2);
  EXPECT_TRUE(out.IsNull(1));
  return out.IsNull(0) ? "null" : ValueToJson(out.GetValue(0), *to);
}

TEST(CastTest, AllowedTypeChanges) {
  Status st;
  EXPECT_EQ(CastOne(DataType::Int(), Value::Int32(-7), DataType::BigInt(), &st), "-7");
  EXPECT_EQ(CastOne(DataType::Int(), Value::Int32(42), DataType::String(), &st), "\"42\"");
  EXPECT_EQ(CastOne(DataType::String(), Value::String(" 12 "), DataType::Int(), &st), "12");
  EXPECT_EQ(CastOne(DataType::String(), Value::String("No"), DataType::Boolean(), &st), "false");
  // DECIMAL(5, 2) 1.235 -> DECIMAL(6, 3) and back rounds half up; overflow is null.
  EXPECT_EQ(CastOne(DataType::Decimal(5, 2), Value::FromDecimal(Decimal{12345, 5, 2}),
                    DataType::Decimal(6, 3), &st),
            "\"123.450\"");
  EXPECT_EQ(CastOne(DataType::Decimal(6, 3), Value::FromDecimal(Decimal{1235, 6, 3}),
                    DataType::Decimal(5, 2), &st),
            "\"1.24\"");
  EXPECT_EQ(CastOne(DataType::Decimal(6, 3), Value::FromDecimal(Decimal{-1235, 6, 3}),
                    DataType::Decimal(5, 2), &st),
            "\"-1.24\"");
  EXPECT_EQ(CastOne(DataType::Decimal(6, 2), Value::FromDecimal(Decimal{123456, 6, 2}),
                    DataType::Decimal(4, 2), &st),
            "null");
  EXPECT_EQ(CastOne(DataType::Timestamp(9), Value::FromTimestamp(Timestamp{-1, 999999}),
                    DataType::Timestamp(0), &st),
            "\"1969-12-31 23:59:59\"");
  EXPECT_EQ(CastOne(DataType::Date(), Value::Int32(4), DataType::Timestamp(9), &st),
            "\"1970-01-05 00:00:00.000000000\"");
  EXPECT_EQ(CastOne(DataType::String(), Value::String("2024-11-26 06:38:56.001"),
                    DataType::Timestamp(6), &st),
            "\"2024-11-26 06:38:56.001000\"");
  EXPECT_OK(st);
}

TEST(CastTest, ImpossibleCastsNameColumnAndTypes) {
  EXPECT_TRUE(test::HasError(
      CheckCastSupported(*DataType::Array(DataType::Int()), *DataType::Int(), "tags"),
      StatusCode::kNotSupported, {"column 'tags'", "ARRAY<INT>"}));
  EXPECT_TRUE(test::HasError(CheckCastSupported(*DataType::Bytes(), *DataType::Int(), "b"),
                             StatusCode::kNotSupported, {"column 'b'", "BYTES to INT"}));
  EXPECT_TRUE(
      test::HasError(CheckCastSupported(*DataType::SmallInt(), *DataType::Timestamp(3), "ts"),
                     StatusCode::kNotSupported, {"column 'ts'", "SMALLINT to TIMESTAMP(3)"}));
  Status st;
  CastOne(DataType::String(), Value::String("12x"), DataType::Int(), &st);
  EXPECT_TRUE(test::HasError(st, StatusCode::kInvalidArgument, {"'12x'", "STRING to INT"}));
}

// Deleted positions drop exactly those rows of their file; other files are untouched.
TEST(RawSplitReaderTest, DeletedPositionsDropRows) {
  auto table = FileStoreTable::Open(LocalFileIO(),
                                    test::CompatTablesDir() + "/parquet/append_09.db/append_09");
  ASSERT_OK(table);
  auto plan = PlanScan(**table, ScanOptions{});
  ASSERT_OK(plan);
  const DataSplit* split = nullptr;
  for (const auto& s : plan->splits) {
    if (s.data_files.size() >= 1 && s.data_files[0].row_count >= 3) split = &s;
  }
  ASSERT_NE(split, nullptr);
  auto read_all = [&](SplitReadOptions options) {
    std::vector<std::string> rows;
    auto reader = RawSplitReader::Open(**table, (*table)->schema_ptr(), *split, options);
    EXPECT_OK(reader);
    if (!reader.ok()) return rows;
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (auto& row : RowsOf(batch)) rows.push_back(row);
    }
    return rows;
  };
  const std::vector<std::string> all = read_all({});
  ASSERT_EQ(static_cast<int64_t>(all.size()), split->RowCount());
  SplitReadOptions options;
  options.deleted_positions.resize(split->data_files.size());
  options.deleted_positions[0] = std::vector<int64_t>{0, 2};
  std::vector<std::string> expected = all;
  expected.erase(expected.begin() + 2);
  expected.erase(expected.begin());
  EXPECT_EQ(read_all(options), expected);

  options.deleted_positions.push_back(std::nullopt);
  EXPECT_TRUE(test::HasError(RawSplitReader::Open(**table, (*table)->schema_ptr(), *split, options),
                             StatusCode::kInvalidArgument, {"deleted positions given for"}));
  SplitReadOptions projection;
  projection.projection = {"f0", "nope"};
  EXPECT_TRUE(
      test::HasError(RawSplitReader::Open(**table, (*table)->schema_ptr(), *split, projection),
                     StatusCode::kInvalidArgument, {"projected column 'nope' is not in schema"}));
}

// Files written under schema 1 read under the older schema 0: f4 TIMESTAMP(9) -> DATE,
// f1 STRING -> TIMESTAMP(9), f0 BOOLEAN -> STRING, f6 (added in schema 1) is not read.
TEST(RawSplitReaderTest, ReadsNewerFilesUnderAnOlderSchema) {
  auto table =
      FileStoreTable::Open(LocalFileIO(), test::CompatTablesDir() +
                                              "/parquet/append_table_alter_table_with_cast.db/"
                                              "append_table_alter_table_with_cast");
  ASSERT_OK(table);
  auto schema0 = (*table)->SchemaById(0);
  ASSERT_OK(schema0);
  auto plan = PlanScan(**table, ScanOptions{});
  ASSERT_OK(plan);
  int64_t rows = 0;
  std::set<std::string> f4_values;
  for (const auto& split : plan->splits) {
    SplitReadOptions options;
    options.projection = {"f4", "f0"};
    auto reader = RawSplitReader::Open(**table, *schema0, split, options);
    ASSERT_OK(reader);
    ASSERT_EQ((*reader)->output_type()->fields()[0].type->root(), TypeRoot::kDate);
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      ASSERT_OK(more);
      if (!*more) break;
      rows += batch.num_rows();
      for (int64_t r = 0; r < batch.num_rows(); ++r) {
        f4_values.insert(ValueToJson(batch.column(0)->GetValue(r), *batch.column(0)->type()));
      }
    }
  }
  EXPECT_EQ(rows, TotalRowsOf(*plan));
  // 1970-01-05 00:00:00 (TIMESTAMP(9) in schema 1) is day 4 as a DATE.
  EXPECT_EQ(f4_values.count("\"1970-01-05\""), 1u);
}

// A garbled or truncated data file is an error naming the file, never a crash.
TEST(RawSplitReaderTest, GarbledDataFileIsNamed) {
  auto table = FileStoreTable::Open(LocalFileIO(),
                                    test::CompatTablesDir() + "/parquet/append_09.db/append_09");
  ASSERT_OK(table);
  auto plan = PlanScan(**table, ScanOptions{});
  ASSERT_OK(plan);
  ASSERT_TRUE(!plan->splits.empty());
  test::TempDir dir;
  DataSplit split = plan->splits[0];
  const std::string original = test::ReadFileOrFail(split.data_file_paths[0]);
  for (const std::string& content :
       {original.substr(0, original.size() / 2), std::string(original.size(), 'x'),
        original.substr(0, 4) + std::string(original.size() - 8, '\0') +
            original.substr(original.size() - 4)}) {
    const std::string path = dir.path() + "/garbled.parquet";
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out << content;
    }
    split.data_file_paths[0] = path;
    auto reader = RawSplitReader::Open(**table, (*table)->schema_ptr(), split, {});
    ASSERT_OK(reader);
    ColumnBatch batch((*reader)->output_type());
    Status status;
    for (int i = 0; i < 1000; ++i) {
      auto more = (*reader)->Next(&batch);
      if (!more.ok()) {
        status = more.status();
        break;
      }
      if (!*more) break;
    }
    EXPECT_TRUE(test::HasError(status, StatusCode::kCorruption, {path}));
  }
}

}  // namespace
}  // namespace sluice
