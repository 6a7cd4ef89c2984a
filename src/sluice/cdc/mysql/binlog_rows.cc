#include "sluice/cdc/mysql/binlog_rows.h"

#include <string>
#include <utility>

#include "sluice/cdc/mysql/binlog_cursor.h"
#include "sluice/cdc/mysql/binlog_event_type.h"

namespace sluice {

namespace {

std::string EventContext(const BinlogRowsEvent& event) {
  return "binlog " + BinlogEventTypeName(event.event_type) + " at log_pos " +
         std::to_string(event.log_pos);
}

std::string TableName(const BinlogTableMap& table) {
  return "`" + table.database + "`.`" + table.table + "`";
}

// Indexes of the columns an image holds.
std::vector<size_t> PresentColumns(const std::vector<bool>& present) {
  std::vector<size_t> out;
  for (size_t i = 0; i < present.size(); ++i) {
    if (present[i]) out.push_back(i);
  }
  return out;
}

// One image: a null bitmap over the present columns, then the values of those not null.
Status ReadImage(BinlogCursor* in, const BinlogRowsEvent& event, size_t row,
                 const std::vector<size_t>& present, std::span<const BinlogColumnFormat> formats,
                 const TimeZone* zone, std::vector<std::optional<std::string>>* values) {
  const BinlogTableMap& table = *event.table;
  values->assign(table.columns.size(), std::nullopt);
  std::string_view nulls;
  if (!in->ReadBytes((present.size() + 7) / 8, &nulls)) {
    return Status::Corruption(EventContext(event) + ": " + TableName(table) + " row " +
                              std::to_string(row) + ": the null bitmap is truncated");
  }
  for (size_t k = 0; k < present.size(); ++k) {
    if ((static_cast<uint8_t>(nulls[k / 8]) >> (k % 8) & 1) != 0) continue;
    const size_t c = present[k];
    const BinlogColumn& column = table.columns[c];
    Status st =
        ReadBinlogValue(in, column, formats.empty() ? nullptr : &formats[c], zone, &(*values)[c]);
    if (!st.ok()) {
      return st.WithContext(EventContext(event) + ": " + TableName(table) + " column " +
                            std::to_string(c) + (column.name ? " `" + *column.name + "`" : "") +
                            " (" + BinlogColumnTypeName(column.real_type) + ") row " +
                            std::to_string(row));
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::vector<BinlogRow>> DecodeBinlogRows(const BinlogRowsEvent& event,
                                                std::span<const BinlogColumnFormat> formats,
                                                const TimeZone* server_zone) {
  std::vector<BinlogRow> rows;
  if (event.table == nullptr) {
    if (!event.rows.empty()) {
      return Status::Corruption(EventContext(event) + ": rows of table id " +
                                std::to_string(event.table_id) + ", which no TABLE_MAP names");
    }
    return rows;
  }
  const BinlogTableMap& table = *event.table;
  if (!table.rows_status.ok()) return table.rows_status;
  if (!formats.empty() && formats.size() != table.columns.size()) {
    return Status::InvalidArgument(EventContext(event) + ": " + std::to_string(formats.size()) +
                                   " column formats for " + TableName(table) + ", which has " +
                                   std::to_string(table.columns.size()) + " columns");
  }
  const bool has_before = event.kind != BinlogRowsKind::kWrite;
  const bool has_after = event.kind != BinlogRowsKind::kDelete;
  if ((has_before && event.before_columns.size() != table.columns.size()) ||
      (has_after && event.after_columns.size() != table.columns.size())) {
    return Status::Corruption(EventContext(event) + ": the columns-present bitmap of " +
                              TableName(table) + " does not cover its " +
                              std::to_string(table.columns.size()) + " columns");
  }
  const std::vector<size_t> before = PresentColumns(event.before_columns);
  const std::vector<size_t> after = PresentColumns(event.after_columns);
  BinlogCursor in(event.rows);
  while (in.remaining() > 0) {
    const size_t start = in.offset();
    BinlogRow& row = rows.emplace_back();
    if (has_before) {
      SLUICE_RETURN_NOT_OK(
          ReadImage(&in, event, rows.size() - 1, before, formats, server_zone, &row.before));
    }
    if (has_after) {
      SLUICE_RETURN_NOT_OK(
          ReadImage(&in, event, rows.size() - 1, after, formats, server_zone, &row.after));
    }
    if (in.offset() == start) {  // images of no columns: the bytes left are not rows
      return Status::Corruption(EventContext(event) + ": " + TableName(table) + " has " +
                                std::to_string(in.remaining()) +
                                " bytes after rows that hold no columns");
    }
  }
  return rows;
}

}  // namespace sluice
