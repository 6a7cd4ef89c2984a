// StatsEvolution: reads one data file's statistics (SimpleStats of a manifest entry) as
// statistics of the fields of the read schema, matching fields by id across schema versions
// (Java SimpleStatsEvolution):
//
//   - the stats columns are the file's `value_stats_cols` when recorded (dense stats), else all
//     fields of the schema the file was written with (its `_SCHEMA_ID`); key stats use the
//     trimmed primary keys;
//   - a read field the file's schema does not have was added later: every row reads null
//     (null count = row count, no bounds);
//   - a field whose type changed since, or that has no stats column, has unknown stats (its
//     bounds would need a cast whose order may differ, so they never prune).
//
// Thread safety: immutable after Make; share freely.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/simple_stats.h"
#include "sluice/meta/table_schema.h"
#include "sluice/types/column_stats.h"

namespace sluice {

class StatsEvolution {
 public:
  // `read_fields`: the fields statistics are wanted for. `stats_columns`: names (in
  // `file_schema`) of the stats columns, in stats-row order.
  static StatsEvolution Make(const std::vector<DataField>& read_fields,
                             const TableSchema& file_schema,
                             const std::vector<std::string>& stats_columns);

  // Statistics of read field i at index i, filled for the indexes in `wanted` (others stay
  // unknown). Stats rows that do not decode (an arity that does not match the stats columns,
  // garbled bytes) leave the affected fields unknown: pruning then keeps the file.
  std::vector<ColumnStats> Evolve(const SimpleStats& stats, int64_t row_count,
                                  std::span<const int> wanted) const;

 private:
  static constexpr int kAllNull = -1;  // the field did not exist when the file was written
  static constexpr int kUnknown = -2;  // no usable stats column

  struct Source {
    int stats_index = kUnknown;
    DataTypePtr type;
  };

  std::vector<Source> sources_;
  int stats_arity_ = 0;
};

}  // namespace sluice
