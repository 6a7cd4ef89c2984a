// RowsReader: rows made in memory as a BatchReader (what CALL and INSERT report, EXPLAIN's plan
// with the scans' pruning appended), so every statement's result prints one way.
//
// Thread safety: not thread-safe; one consumer.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/batch_reader.h"

namespace sluice::sql {

class RowsReader : public BatchReader {
 public:
  explicit RowsReader(ColumnBatch rows) : rows_(std::move(rows)), type_(rows_->schema()) {}

  // One STRING column `name` holding `lines`.
  static std::unique_ptr<RowsReader> Lines(const std::string& name,
                                           const std::vector<std::string>& lines);

  const DataTypePtr& output_type() const override { return type_; }
  Result<bool> Next(ColumnBatch* batch) override {
    if (!rows_ || rows_->num_rows() == 0) return false;
    *batch = std::move(*rows_);
    rows_.reset();
    return true;
  }

 private:
  std::optional<ColumnBatch> rows_;
  DataTypePtr type_;
};

}  // namespace sluice::sql
