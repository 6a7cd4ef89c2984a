// FollowUpScanner: the plans of a streaming read after its first one, one snapshot at a time
// (Java FollowUpScanner):
//
//   DeltaFollowUpScanner      tables without a changelog producer: APPEND snapshots only, their
//                             delta files (COMPACT snapshots change no row; OVERWRITE ones are
//                             skipped unless `streaming-read-append-overwrite`).
//   ChangelogFollowUpScanner  `changelog-producer` input / full-compaction / lookup: snapshots
//                             with a changelog manifest list, their changelog.
//
// Both plan through PlanScan with ScanMode::kDelta, which reads delta or changelog files as the
// table produces them (scan_planner.h); this layer only decides which snapshots to plan.
//
// Thread safety: stateless after construction.
#pragma once

#include <memory>

#include "sluice/meta/snapshot.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

class FollowUpScanner {
 public:
  virtual ~FollowUpScanner() = default;
  virtual bool ShouldScanSnapshot(const Snapshot& snapshot) const = 0;
  // The changes of `snapshot`, restricted as `base` is.
  Result<ScanPlan> Scan(const FileStoreTable& table, const Snapshot& snapshot,
                        const ScanOptions& base) const;
  // The changes of an OVERWRITE snapshot (Java getOverwriteChangesPlan): of an append table
  // the files it added, as inserts; of a primary-key table the diff of the buckets it replaced
  // to the snapshot before (diff_scan.h), NotFound naming that snapshot when it has expired.
  Result<ScanPlan> OverwriteChangesPlan(const FileStoreTable& table, const Snapshot& snapshot,
                                        const ScanOptions& base) const;
};

class DeltaFollowUpScanner final : public FollowUpScanner {
 public:
  bool ShouldScanSnapshot(const Snapshot& snapshot) const override {
    return snapshot.commit_kind == CommitKind::kAppend;
  }
};

class ChangelogFollowUpScanner final : public FollowUpScanner {
 public:
  bool ShouldScanSnapshot(const Snapshot& snapshot) const override {
    return snapshot.changelog_manifest_list.has_value();
  }
};

// The scanner of the table's `changelog-producer`.
std::unique_ptr<FollowUpScanner> CreateFollowUpScanner(const FileStoreTable& table);

}  // namespace sluice
