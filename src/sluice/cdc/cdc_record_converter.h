// CdcRecordConverter: change records of one table as rows of the table's row type (Java
// CdcRecordUtils.toGenericRow followed by TableWriteImpl's NOT NULL check), appended to a
// ColumnBatch with their RowKinds beside it.
//
// Java's semantics:
//   - a table column the record does not carry is NULL, as is one it carries as NULL (both are
//     also what the writer's default values apply to);
//   - a record field the table does not have fails the record: Java waits for the schema
//     update that adds it, and fails if none comes. Here: NotFound naming the field, so the
//     caller can reload the schema (a new converter) and retry;
//   - a value is cast with CastFromCdcValueString (cdc_value_cast.h); one that does not cast
//     fails the record (InvalidArgument naming the column, the value and the type);
//   - NULL in a NOT NULL column fails the record: "Cannot write null to non-null column(c)".
// A failed record appends nothing, so a caller that skips corrupt records keeps the batch.
//
// Field names resolve to columns through a cache keyed by the record's field list: a stream
// of records with the same columns in the same order costs one name comparison per field.
//
// Thread safety: not thread-safe (the cache); one converter per writer thread.
#pragma once

#include <string>
#include <vector>

#include "sluice/cdc/cdc_record.h"
#include "sluice/column_batch.h"
#include "sluice/result.h"
#include "sluice/row_kind.h"
#include "sluice/types/time_zone.h"

namespace sluice {

class CdcRecordConverter {
 public:
  // REQUIRES: row_type is a ROW. `local_zone` (not owned, may be null for UTC) must outlive
  // the converter: the zone of TIMESTAMP_LTZ text.
  explicit CdcRecordConverter(DataTypePtr row_type, const TimeZone* local_zone = nullptr);

  const DataTypePtr& row_type() const { return row_type_; }

  // Appends `record` as one row of `batch` and its kind to `kinds`; on error appends nothing.
  // REQUIRES: batch->schema() has row_type()'s layout.
  Status Append(const CdcRecord& record, ColumnBatch* batch, std::vector<RowKind>* kinds);

  // A new batch of row_type() holding `records`; fails on the first record that fails (its
  // status gets the record's position in `records`).
  struct Rows {
    ColumnBatch batch;
    std::vector<RowKind> kinds;
  };
  Result<Rows> Convert(const std::vector<CdcRecord>& records);

 private:
  // The table column of each field of a record field list (-1: the table has none).
  struct FieldLayout {
    std::vector<std::string> names;
    std::vector<int> columns;
  };
  static constexpr size_t kMaxLayouts = 8;

  const FieldLayout& LayoutOf(const CdcRecord& record);

  DataTypePtr row_type_;
  const TimeZone* local_zone_;
  std::vector<int> not_null_columns_;
  // Per column: whether it is an unbounded STRING, whose text is the value itself: such a value
  // goes from the record to the batch without a Value in between (the sync's hot path).
  std::vector<bool> text_columns_;
  // The other columns: the only ones whose Value in row_ is ever set.
  std::vector<int> value_columns_;
  std::vector<FieldLayout> layouts_;  // most recently added last
  ValueList row_;                     // the row being converted, reused
  // The text of each text column of the row being converted (null: NULL), reused.
  std::vector<const std::string*> texts_;
};

}  // namespace sluice
