// PlanDiff: the diff splits between two versions of a primary-key table (Java
// SnapshotReaderImpl.readIncrementalDiff / readChanges): for every partition and bucket whose
// live files differ, one split holding the files of both versions (before_files, data_files),
// read as the difference of their merged rows (diff_split_reader.h). Buckets with the same
// files at both versions are left out; files common to both are kept on both sides (Java drops
// them, which is only right when the merge keeps deletes), so the split's reader compares the
// two complete states.
//
// Used by `incremental-between-scan-mode = diff` (and two tags) and by streaming reads of an
// OVERWRITE snapshot under `streaming-read-overwrite`.
//
// Thread safety: a function; the table is only read.
#pragma once

#include <optional>

#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

// `before` nullopt: an empty table (everything in `after` is new). `base` restricts the
// partitions and buckets; its data filter is not used for pruning here (the reader applies
// it to the diff's rows). InvalidArgument for an append table.
Result<ScanPlan> PlanDiff(const FileStoreTable& table, const ScanOptions& base,
                          const std::optional<TableVersion>& before, const TableVersion& after);

}  // namespace sluice
