// Test harness shared by the read-path tests: translates a cases.jsonl `read` object into a
// scan plan and split reads, reads every row and renders it as cases.jsonl encodes rows.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/predicate/predicate_parser.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "sluice/value_json.h"
#include "test_util.h"

namespace sluice::test {

// One JSON value per row; FLOAT and DOUBLE as doubles (11 == 11.0), FLOAT rounded to float32.
inline nlohmann::json Normalize(nlohmann::json row, const std::vector<std::string>& column_types) {
  for (size_t i = 0; i < row.size() && i < column_types.size(); ++i) {
    if (column_types[i].rfind("FLOAT", 0) == 0 && row[i].is_number()) {
      row[i] = static_cast<double>(static_cast<float>(row[i].get<double>()));
    } else if (column_types[i].rfind("DOUBLE", 0) == 0 && row[i].is_number()) {
      row[i] = row[i].get<double>();
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

// The corpus table of a case, on the branch its `read` names (main by default).
inline Result<std::shared_ptr<FileStoreTable>> OpenCaseTable(const nlohmann::json& json,
                                                             DynamicOptions dynamic = {}) {
  return FileStoreTable::Open(
      LocalFileIO(), CompatTablesDir() + "/" + json["table"].get<std::string>(),
      json["read"].value("branch", std::string(kMainBranch)), std::move(dynamic));
}

inline Result<CaseRead> TranslateRead(const nlohmann::json& json) {
  const auto& read = json["read"];
  DynamicOptions dynamic;
  if (read.contains("options")) {
    for (auto& [k, v] : read["options"].items()) dynamic[k] = v.get<std::string>();
  }
  CaseRead out;
  SLUICE_ASSIGN_OR_RETURN(out.table, OpenCaseTable(json, std::move(dynamic)));
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
  out.read.session_time_zone = read.value("session_timezone", std::string());
  return out;
}

// Reads every row of the case as a rendered JSON row.
// Fills per-split read options (e.g. deleted positions) before a split is read.
using PrepareSplitRead =
    std::function<Status(const FileStoreTable&, const DataSplit&, SplitReadOptions*)>;

inline Result<std::vector<std::string>> ReadCaseRows(const nlohmann::json& json,
                                                     const std::vector<std::string>& column_types,
                                                     const PrepareSplitRead& prepare = nullptr) {
  SLUICE_ASSIGN_OR_RETURN(CaseRead c, TranslateRead(json));
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*c.table, c.scan));
  std::vector<std::string> rows;
  // A delta read's rows start with their row kind.
  c.read.with_row_kind = !json["columns"].empty() && json["columns"][0] == "_ROW_KIND";
  for (DataSplit& split : plan.splits) {
    SplitReadOptions options = c.read;
    if (prepare) SLUICE_RETURN_NOT_OK(prepare(*c.table, split, &options));
    SLUICE_ASSIGN_OR_RETURN(auto reader, OpenSplitReader(*c.table, c.read_schema, std::move(split),
                                                         std::move(options)));
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
        rows.push_back(Normalize(nlohmann::json::parse(text), column_types).dump());
      }
    }
  }
  return rows;
}

}  // namespace sluice::test
