// TableScan: plans the splits of one read (Java TableScan): selects the snapshot, prunes
// manifests by partition, bucket and statistics, and groups the live files into splits (one
// per partition and bucket, see split.h). Made by ReadBuilder::NewScan.
//
// Thread safety: immutable; Plan may be called concurrently (each call plans anew against
// the table as it is then, unless the request names a version).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/result.h"
#include "sluice/split.h"

namespace sluice {

struct ReadContext;

// The outcome of one TableScan::Plan (Java TableScan.Plan).
struct TableScanPlan {
  // The snapshot read; nullopt for a table without snapshots (then there are no splits).
  std::optional<int64_t> snapshot_id;
  std::vector<Split> splits;
};

class TableScan {
 public:
  Result<TableScanPlan> Plan() const;

 private:
  friend class ReadBuilder;
  explicit TableScan(std::shared_ptr<const ReadContext> context) : context_(std::move(context)) {}

  std::shared_ptr<const ReadContext> context_;
};

}  // namespace sluice
