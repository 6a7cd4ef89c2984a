// The ROWS events of row-based binary logging (WRITE / UPDATE / DELETE_ROWS, v1 as MariaDB
// writes them, v2 as MySQL 8 does): the rows a statement changed in one table, each as the
// values of the columns the event's columns-present bitmap names (binlog_row_image = FULL:
// every column; MINIMAL: the key columns of a before image, the changed columns of an after
// image). BinlogDecoder (binlog_event.h) splits an event into a BinlogRowsEvent without
// looking at the rows; DecodeBinlogRows turns them into text, which needs the column facts
// (unsigned, charset, ENUM / SET members) that the TABLE_MAP event may not carry.
//
// Thread safety: values; DecodeBinlogRows is a pure function.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sluice/cdc/mysql/binlog_table_map.h"
#include "sluice/cdc/mysql/binlog_value.h"
#include "sluice/result.h"
#include "sluice/types/time_zone.h"

namespace sluice {

enum class BinlogRowsKind : uint8_t { kWrite, kUpdate, kDelete };

struct BinlogRowsEvent {
  BinlogRowsKind kind = BinlogRowsKind::kWrite;
  // Where the event came from, for messages: its event type and log_pos.
  uint8_t event_type = 0;
  uint32_t log_pos = 0;
  uint64_t table_id = 0;
  // Bit 0 (STMT_END_F): the statement's last rows event.
  uint16_t flags = 0;
  // The TABLE_MAP event this one follows; null only for an empty event of an unknown table
  // (MySQL's dummy event that ends a statement whose rows were all filtered out).
  std::shared_ptr<const BinlogTableMap> table;
  // The columns each image holds, one flag per table column: a write has an after image, a
  // delete a before image, an update both.
  std::vector<bool> before_columns;
  std::vector<bool> after_columns;
  // The row images, not decoded yet.
  std::string rows;

  bool statement_end() const { return (flags & 1) != 0; }
};

// One changed row. An image has one entry per table column: the value's text, or nullopt for
// SQL NULL and for a column the image does not hold (see the event's *_columns). A write has
// only `after`, a delete only `before`, an update both.
struct BinlogRow {
  std::vector<std::optional<std::string>> before;
  std::vector<std::optional<std::string>> after;
};

// The rows of `event` as text (binlog_value.h says which text per type). `formats` is empty or
// has one entry per column of the table map: the caller's knowledge of each column, used where
// the TABLE_MAP event carries no optional metadata; `server_zone` (null: UTC) shows TIMESTAMP
// values. Errors name the event (type, log_pos), the table, the column and the row:
// Corruption for rows that do not parse, NotSupported for types Sluice does not decode,
// InvalidArgument for `formats` of another column count and for ENUM / SET members that
// neither the event nor `formats` gives.
Result<std::vector<BinlogRow>> DecodeBinlogRows(const BinlogRowsEvent& event,
                                                std::span<const BinlogColumnFormat> formats,
                                                const TimeZone* server_zone);

}  // namespace sluice
