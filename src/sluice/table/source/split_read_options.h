// SplitReadOptions: what a split read produces: which columns, which rows.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/predicate/predicate.h"

namespace sluice {

struct SplitReadOptions {
  // Output columns by read-schema name, in this order; empty means every column.
  std::vector<std::string> projection;
  // Rows for which this predicate (over the read schema's row type) is not true are dropped.
  PredicatePtr filter;
  int64_t batch_size = 4096;
  // Per data file of the split (same order), the sorted positions of its deleted rows (from a
  // deletion vector); empty, or nullopt for a file, means nothing deleted.
  std::vector<std::optional<std::vector<int64_t>>> deleted_positions;
  // Session time zone (IANA name) for casts between TIMESTAMP and TIMESTAMP_LTZ and to/from
  // strings; empty means UTC.
  std::string session_time_zone;
  // Adds a leading `_ROW_KIND` STRING column (`+I`, `-U`, `+U`, `-D`) to every batch: what a
  // streaming delta read returns.
  bool with_row_kind = false;
  // Leaves out -U and -D records of streaming splits (a batch read of incremental changes).
  bool drop_retractions = false;
  // A primary-key merge keeps keys whose merged row is a retraction (-D / -U) instead of
  // dropping them (Java forceKeepDelete, what $audit_log and $binlog read).
  bool keep_delete = false;
};

}  // namespace sluice
