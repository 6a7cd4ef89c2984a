// ScanReport: what one sluice_scan of a statement planned, for EXPLAIN and `sluice sql
// --verbose`: the filter pushed into Sluice's scan planning and the data files it left.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace sluice::sql {

struct ScanReport {
  // `db.t` (or `db.t$snapshots`: a system table, which is not planned).
  std::string table;
  // The where-expression (read_builder.h) pushed into the scan; empty when none.
  std::string filter;
  std::optional<int64_t> snapshot_id;
  int64_t splits = 0;
  // Data files planned with the filter.
  int64_t files = 0;
  // Data files planned without it (SqlOptions::report_pruning), else nullopt.
  std::optional<int64_t> files_unfiltered;

  // One line: `db.t: snapshot 3, filter a > 1, 2 splits, 2 of 8 files (6 pruned)`.
  std::string ToString() const;
};

}  // namespace sluice::sql
