// Turns per-column statistics into the SimpleStats record of a DataFileMeta (Java
// SimpleStatsConverter): min and max rows encoded as BinaryRows of the columns' types made
// nullable, and a null count per column.
//
// Dense store (`metadata.stats-dense-store`, Java toBinaryDenseMode) leaves out columns whose
// statistics are all unknown (no min, no max, no null count) and names the kept columns in
// `_VALUE_STATS_COLS`; when no column was left out the list is absent.
//
// Thread safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/simple_stats.h"
#include "sluice/result.h"
#include "sluice/types/column_stats.h"

namespace sluice {

struct ConvertedStats {
  SimpleStats stats;
  // The kept columns when dense store dropped any (DataFileMeta::value_stats_cols).
  std::optional<std::vector<std::string>> columns;
};

// Every column, in order (toBinaryAllMode). REQUIRES: stats.size() == fields.size().
Result<SimpleStats> ToSimpleStatsAllMode(const std::vector<ColumnStats>& stats,
                                         const std::vector<DataField>& fields);

// toBinary: dense or all mode. REQUIRES: stats.size() == fields.size().
Result<ConvertedStats> ToSimpleStats(const std::vector<ColumnStats>& stats,
                                     const std::vector<DataField>& fields, bool dense_store);

// The statistics of append files' keys (Java SimpleStats.EMPTY_STATS): empty rows, no counts.
SimpleStats EmptySimpleStats();

}  // namespace sluice
