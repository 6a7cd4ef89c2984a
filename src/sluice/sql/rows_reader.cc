#include "sluice/sql/rows_reader.h"

#include <memory>

namespace sluice::sql {

std::unique_ptr<RowsReader> RowsReader::Lines(const std::string& name,
                                              const std::vector<std::string>& lines) {
  ColumnBatch rows(
      DataType::Row({DataField{0, name, DataType::String(false), std::nullopt, std::nullopt}}));
  for (const std::string& line : lines) {
    // A STRING value always fits a STRING column.
    rows.AppendRow({Value::String(line)}).IgnoreError();
  }
  return std::make_unique<RowsReader>(std::move(rows));
}

}  // namespace sluice::sql
