// TableModel: what a table should hold, computed from the rows committed into it, for the
// interop scenarios' three-way comparison (Java's rows, Sluice's rows, the model's).
//
// Append tables keep every inserted row. Primary-key tables keep one row per key, merged the
// way their merge engine merges: deduplicate (the last row, or the one with the greatest
// `sequence.field`; -D deletes), partial-update (non-null fields overwrite; a sequence group's
// fields move together when the group's sequence field is not older), aggregation (per field
// sum / max / min / last_value / last_non_null_value / first_non_null_value), first-row (the
// first row). Overwrite replaces the partitions the new rows fall in.
//
// Thread safety: not thread-safe.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "interop/column_type.h"

namespace sluice::test {

struct TableShape {
  std::vector<Column> columns;
  std::vector<std::string> primary_keys;
  std::vector<std::string> partition_keys;
  // "" for append tables; else deduplicate, partial-update, aggregation or first-row.
  std::string merge_engine;
  std::string sequence_field;
  // partial-update: sequence field -> the fields it protects.
  std::map<std::string, std::vector<std::string>> sequence_groups;
  // aggregation: field -> function (fields not named use last_non_null_value).
  std::map<std::string, std::string> aggregate_functions;

  const Column* Find(const std::string& name) const;
};

class TableModel {
 public:
  explicit TableModel(TableShape shape) : shape_(std::move(shape)) {}

  // Commits `rows` (objects keyed by column name, with an optional `_ROW_KIND`).
  void Apply(const std::vector<nlohmann::json>& rows, bool overwrite);

  // Schema changes, applied to the rows held (a renamed column keeps its values, an added one
  // is null, a dropped one goes).
  void AddColumn(const Column& column);
  void RenameColumn(const std::string& from, const std::string& to);
  void DropColumn(const std::string& name);
  void ChangeColumnType(const std::string& name, const DataTypePtr& type);

  // The rows held, each NormalizeRow'd, sorted.
  std::vector<std::string> Rows() const;
  const TableShape& shape() const { return shape_; }

 private:
  std::string KeyOf(const nlohmann::json& row) const;
  std::string PartitionOf(const nlohmann::json& row) const;
  void Merge(const nlohmann::json& row, std::map<std::string, nlohmann::json>* keyed) const;
  template <typename F>
  void ForEachRow(F f);

  TableShape shape_;
  std::vector<nlohmann::json> appended_;
  std::map<std::string, nlohmann::json> keyed_;
};

}  // namespace sluice::test
