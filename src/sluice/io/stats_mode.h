// StatsMode: how much of a column's statistics a data file's DataFileMeta keeps (Java
// SimpleColStatsCollector.from and StatsCollectorFactories), and the rule applying it to the
// statistics a FormatWriter collected.
//
//   none         no min, no max, no null count
//   counts       null count only
//   truncate(N)  strings and binaries cut to N characters / bytes (the max rounded up), others
//                exact; a max that cannot be rounded up drops min and max of the column
//   full         exact min, max and null count
//
// Thread safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/core_options.h"
#include "sluice/result.h"
#include "sluice/types/column_stats.h"

namespace sluice {

struct StatsMode {
  enum class Kind : unsigned char { kNone, kCounts, kTruncate, kFull };
  Kind kind = Kind::kFull;
  int32_t truncate_length = 0;  // kTruncate

  static StatsMode None() { return {Kind::kNone, 0}; }
  static StatsMode Full() { return {Kind::kFull, 0}; }
  static StatsMode Truncate(int32_t n) { return {Kind::kTruncate, n}; }
  // "none", "counts", "full", "truncate(N)" with N > 0, case-insensitive. InvalidArgument
  // naming the text otherwise.
  static Result<StatsMode> Parse(std::string_view text);

  bool operator==(const StatsMode&) const = default;
};

// Java SpecialFields.isSystemField: `_KEY_*` columns and the reserved system column names
// (`_SEQUENCE_NUMBER`, `_VALUE_KIND`, `_LEVEL`, `rowkind`, `_ROW_ID`).
bool IsSystemFieldName(std::string_view name);

// The mode of each column of a data file (StatsCollectorFactories.createStatsFactories):
// `fields.<name>.stats-mode` first; then system columns get truncate(128) (not in Avro files,
// createStatsFactoriesForAvro); then `metadata.stats-keep-first-n-columns` turns the columns
// after the first N user columns to none; else `metadata.stats-mode`.
// `table_mode` replaces `metadata.stats-mode` when given (a level's mode, see
// StatsModesPerLevel).
Result<std::vector<StatsMode>> StatsModesOfColumns(const CoreOptions& options,
                                                   const std::vector<std::string>& column_names,
                                                   bool avro_file,
                                                   std::optional<std::string> table_mode = {});

// `metadata.stats-mode.per.level` ("<level>:<mode>,..."): the table mode of key-value files
// at the levels it names (KeyValueFileWriterFactory). InvalidArgument for a malformed map.
Result<std::map<int32_t, std::string>> StatsModesPerLevel(const CoreOptions& options);

// The statistics `stats` of a column of `type` as `mode` keeps them.
ColumnStats ApplyStatsMode(const ColumnStats& stats, StatsMode mode, const DataType& type);

}  // namespace sluice
