// Rescale: changes the bucket count of a fixed-bucket table, or of some of its partitions, by
// rewriting them (Java's `rescale` procedure, RescaleAction): the rows of the partitions as
// of the latest snapshot are read and written again with `bucket` = N as an INSERT OVERWRITE
// of the same partitions, one OVERWRITE snapshot, so a reader sees the old layout or the new,
// never a mix. New files carry `_TOTAL_BUCKETS` N; the table's `bucket` option is left alone
// (as in Java: set it first with ALTER TABLE to rescale the whole table for later writes, or
// later writes into a rescaled partition are refused as Java refuses them).
//
// Thread safety: one call rewrites; commits by others during it are overwritten (Java guards
// the same race with strict commit mode, which Sluice's commit does not have yet).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sluice/partition_spec.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct RescaleOptions {
  int32_t bucket = 0;       // the new bucket count, > 0
  PartitionSpec partition;  // the partitions rewritten (a spec Java accepts); empty: all
  std::string commit_user;  // empty: a fresh UUID
};

struct RescaleResult {
  int64_t snapshot_id = 0;      // the OVERWRITE snapshot
  int64_t rows = 0;             // rows rewritten
  int32_t previous_bucket = 0;  // `_TOTAL_BUCKETS` of the first rewritten file before
};

// InvalidArgument for a bucket count below 1, a table that is not a fixed-bucket table
// (`bucket` = -1 tables assign their buckets themselves; postpone tables are compacted into
// buckets), a table without snapshot, or a spec matching no data file.
Result<RescaleResult> Rescale(const std::shared_ptr<const FileStoreTable>& table,
                              const RescaleOptions& options);

}  // namespace sluice
