// ReadColumns: which read-schema columns a primary-key split read decodes, and how its output
// batches are cut from them: an optional leading `_ROW_KIND` column, then the projection. Shared
// by the merge reader and the delta reader, which both produce rows in the "value" layout
// (decoded read-schema fields in schema order) before filtering and projecting.
//
// Thread safety: immutable after Make.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/meta/table_schema.h"
#include "sluice/predicate/predicate.h"
#include "sluice/result.h"
#include "sluice/table/source/split_read_options.h"

namespace sluice {

// Field id and name of the leading row-kind column of streaming reads.
inline constexpr int32_t kRowKindFieldId = 2147483643;
inline constexpr const char* kRowKindFieldName = "_ROW_KIND";

struct ReadColumns {
  // Decoded read-schema fields, in schema order.
  DataTypePtr value_type;
  // [_ROW_KIND STRING NOT NULL] + the projected fields.
  DataTypePtr output_type;
  // value_type column of each projected output column.
  std::vector<int> projection;
  // options.filter over value_type, or null.
  PredicatePtr filter;
  // The part of `filter` on the trimmed primary key only (over value_type), or null: the only
  // part that may skip rows before a merge, since it keeps or drops every version of a key.
  PredicatePtr key_filter;
  // value_type columns of the trimmed primary key, in key order.
  std::vector<int> key_columns;
  // value_type column of every read-schema field, -1 when not decoded.
  std::vector<int> schema_to_value;
  bool with_row_kind = false;

  // Decodes the projected and filtered columns, the trimmed primary key and `extra_fields`
  // (e.g. the sequence fields the merge orders by); every field when `all_fields` (merge
  // engines that need the full row). InvalidArgument naming an unknown projected or extra
  // column or an out-of-range filter field.
  static Result<ReadColumns> Make(const TableSchema& read_schema, const SplitReadOptions& options,
                                  bool all_fields,
                                  const std::vector<std::string>& extra_fields = {});

  // Appends source rows rows[0..n) (source is of value_type, or value_type followed by more
  // columns) to `out` (of output_type): the row kind kinds[rows[i]] (RowKind bytes) when
  // with_row_kind, then the projected columns.
  void AppendOutput(const ColumnBatch& source, const int64_t* rows, int64_t n, const int8_t* kinds,
                    ColumnBatch* out) const;
  // The same for rows of several sources (`num_sources` of them, null where unused): row i is
  // rows[i] of sources[indexes[i]], its row kind in column `kind_column` of that source.
  void AppendOutputFrom(const ColumnBatch* const* sources, size_t num_sources,
                        const uint32_t* indexes, const int64_t* rows, int64_t n, int kind_column,
                        ColumnBatch* out) const;
};

}  // namespace sluice
