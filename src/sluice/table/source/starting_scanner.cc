#include "sluice/table/source/starting_scanner.h"

#include <limits>

namespace sluice {

namespace {

using Kind = StartingScanResult::Kind;

StartingScanResult NoSnapshot() { return StartingScanResult{}; }

StartingScanResult NextSnapshot(int64_t id) {
  StartingScanResult result;
  result.kind = Kind::kNextSnapshot;
  result.next_snapshot_id = id;
  return result;
}

// The full plan of snapshot `id` (Java ReadPlanStartingScanner).
Result<StartingScanResult> ScanFull(const FileStoreTable& table, const ScanOptions& base,
                                    int64_t id) {
  ScanOptions options = base;
  options.version = TableVersion::SnapshotId(id);
  options.mode = ScanMode::kStreamFull;
  StartingScanResult result;
  result.kind = Kind::kScanned;
  SLUICE_ASSIGN_OR_RETURN(result.plan, PlanScan(table, options));
  return result;
}

// Java FullStartingScanner: the latest snapshot in full.
class FullStartingScanner final : public StartingScanner {
 public:
  explicit FullStartingScanner(const FileStoreTable& table) : table_(table) {}
  Result<StartingScanResult> Scan(const ScanOptions& base) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest,
                            table_.snapshot_manager().LatestSnapshotId());
    if (!latest) return NoSnapshot();
    return ScanFull(table_, base, *latest);
  }

 private:
  const FileStoreTable& table_;
};

// Java ContinuousLatestStartingScanner: the snapshots after the latest one at start.
class ContinuousLatestStartingScanner final : public StartingScanner {
 public:
  ContinuousLatestStartingScanner(const FileStoreTable& table, std::optional<int64_t> at_start)
      : table_(table), at_start_(at_start) {}
  Result<StartingScanResult> Scan(const ScanOptions&) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest,
                            table_.snapshot_manager().LatestSnapshotId());
    if (!latest) return NoSnapshot();
    // A table empty at start is read from its first snapshot.
    return NextSnapshot(at_start_ ? *latest + 1 : Snapshot::kFirstSnapshotId);
  }

 private:
  const FileStoreTable& table_;
  std::optional<int64_t> at_start_;
};

// Java ContinuousFromSnapshotStartingScanner: from `id`, or the earliest snapshot if later.
class ContinuousFromSnapshotStartingScanner final : public StartingScanner {
 public:
  ContinuousFromSnapshotStartingScanner(const FileStoreTable& table, int64_t id)
      : table_(table), id_(id) {}
  Result<StartingScanResult> Scan(const ScanOptions&) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest,
                            table_.snapshot_manager().EarliestSnapshotId());
    if (!earliest) return NoSnapshot();
    return NextSnapshot(std::max(id_, *earliest));
  }

 private:
  const FileStoreTable& table_;
  int64_t id_;
};

// Java ContinuousFromSnapshotFullStartingScanner.
class ContinuousFromSnapshotFullStartingScanner final : public StartingScanner {
 public:
  ContinuousFromSnapshotFullStartingScanner(const FileStoreTable& table, int64_t id)
      : table_(table), id_(id) {}
  Result<StartingScanResult> Scan(const ScanOptions& base) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest,
                            table_.snapshot_manager().EarliestSnapshotId());
    if (!earliest) return NoSnapshot();
    return ScanFull(table_, base, std::max(id_, *earliest));
  }

 private:
  const FileStoreTable& table_;
  int64_t id_;
};

// Java ContinuousFromTimestampStartingScanner.
class ContinuousFromTimestampStartingScanner final : public StartingScanner {
 public:
  ContinuousFromTimestampStartingScanner(const FileStoreTable& table, int64_t millis)
      : table_(table), millis_(millis) {}
  Result<StartingScanResult> Scan(const ScanOptions&) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> before,
                            EarlierThanTimeMillis(table_.snapshot_manager(), millis_));
    if (!before) return NoSnapshot();
    return NextSnapshot(*before + 1);
  }

 private:
  const FileStoreTable& table_;
  int64_t millis_;
};

// Java CompactedStartingScanner / FullCompactedStartingScanner: the latest compacted snapshot
// (LatestCompactedSnapshot), else the latest, in full.
class CompactedStartingScanner final : public StartingScanner {
 public:
  explicit CompactedStartingScanner(const FileStoreTable& table) : table_(table) {}
  Result<StartingScanResult> Scan(const ScanOptions& base) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> compacted, LatestCompactedSnapshot(table_));
    if (compacted) return ScanFull(table_, base, *compacted);
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest,
                            table_.snapshot_manager().LatestSnapshotId());
    if (!latest) return NoSnapshot();
    return ScanFull(table_, base, *latest);
  }

 private:
  const FileStoreTable& table_;
};

// Java FileCreationTimeStartingScanner: the latest snapshot's files created from `millis` on.
class FileCreationTimeStartingScanner final : public StartingScanner {
 public:
  FileCreationTimeStartingScanner(const FileStoreTable& table, int64_t millis)
      : table_(table), millis_(millis) {}
  Result<StartingScanResult> Scan(const ScanOptions& base) override {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest,
                            table_.snapshot_manager().LatestSnapshotId());
    if (!latest) return NoSnapshot();
    ScanOptions options = base;
    options.min_file_creation_millis = millis_;
    return ScanFull(table_, options, *latest);
  }

 private:
  const FileStoreTable& table_;
  int64_t millis_;
};

Result<int64_t> RequiredSnapshotId(const CoreOptions& options, std::string_view mode) {
  if (!options.scan_snapshot_id()) {
    return Status::InvalidArgument("option 'scan.snapshot-id' must be set when 'scan.mode' is " +
                                   std::string(mode));
  }
  return *options.scan_snapshot_id();
}

}  // namespace

Result<std::optional<int64_t>> EarlierThanTimeMillis(const SnapshotManager& snapshots,
                                                     int64_t time_millis) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
  if (!latest) return std::optional<int64_t>();
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest, snapshots.EarliestSnapshot());
  if (!earliest) return std::optional<int64_t>(*latest - 1);
  if (earliest->time_millis >= time_millis) return std::optional<int64_t>(earliest->id - 1);
  int64_t low = earliest->id;
  int64_t high = *latest;
  while (low < high) {
    const int64_t mid = low + (high - low + 1) / 2;
    SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots.LoadSnapshot(mid));
    if (snapshot.time_millis < time_millis) {
      low = mid;
    } else {
      high = mid - 1;
    }
  }
  return std::optional<int64_t>(low);
}

Result<int64_t> RequiredMillis(const std::optional<int64_t>& value, std::string_view option,
                               std::string_view mode) {
  if (!value) {
    return Status::InvalidArgument("option '" + std::string(option) +
                                   "' must be set when 'scan.mode' is " + std::string(mode));
  }
  return *value;
}

Result<std::optional<int64_t>> LatestCompactedSnapshot(const FileStoreTable& table) {
  const CoreOptions& options = table.options();
  std::optional<int32_t> delta_commits;
  if (options.changelog_producer() == ChangelogProducer::kFullCompaction ||
      options.full_compaction_delta_commits()) {
    delta_commits = options.full_compaction_delta_commits().value_or(1);
  }
  const SnapshotManager& snapshots = table.snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> earliest, snapshots.EarliestSnapshotId());
  if (!latest || !earliest) return std::optional<int64_t>();
  for (int64_t id = *latest; id >= *earliest; --id) {
    Result<Snapshot> snapshot = snapshots.LoadSnapshot(id);
    if (!snapshot.ok()) {
      if (snapshot.status().IsNotFound()) continue;  // expired meanwhile
      return snapshot.status();
    }
    if (snapshot->commit_kind != CommitKind::kCompact) continue;
    // Java isFullCompactedIdentifier: a full compaction's commit identifier.
    if (!delta_commits || snapshot->commit_identifier % *delta_commits == 0 ||
        snapshot->commit_identifier == std::numeric_limits<int64_t>::max()) {
      return std::optional<int64_t>(id);
    }
  }
  return std::optional<int64_t>();
}

Result<std::optional<int64_t>> CreationTimestampStartSnapshot(const FileStoreTable& table,
                                                              int64_t millis) {
  const SnapshotManager& snapshots = table.snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest, snapshots.EarliestSnapshot());
  if (!earliest || earliest->time_millis >= millis) return std::optional<int64_t>();
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> before, EarlierThanTimeMillis(snapshots, millis));
  if (!before) return std::optional<int64_t>();
  SLUICE_ASSIGN_OR_RETURN(bool exists, snapshots.SnapshotExists(*before + 1));
  if (!exists) return std::optional<int64_t>();
  return std::optional<int64_t>(*before + 1);
}

Result<std::unique_ptr<StartingScanner>> CreateStartingScanner(const FileStoreTable& table,
                                                               std::optional<int64_t> resume_at) {
  const CoreOptions& options = table.options();
  if (resume_at) {
    return std::unique_ptr<StartingScanner>(
        new ContinuousFromSnapshotStartingScanner(table, *resume_at));
  }
  const StartupMode mode = options.startup_mode();
  const std::string_view name = StartupModeName(mode);
  switch (mode) {
    case StartupMode::kDefault:
    case StartupMode::kLatestFull:
      return std::unique_ptr<StartingScanner>(new FullStartingScanner(table));
    case StartupMode::kLatest: {
      SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest,
                              table.snapshot_manager().LatestSnapshotId());
      return std::unique_ptr<StartingScanner>(new ContinuousLatestStartingScanner(table, latest));
    }
    case StartupMode::kCompactedFull:
      return std::unique_ptr<StartingScanner>(new CompactedStartingScanner(table));
    case StartupMode::kFromTimestamp: {
      int64_t millis = 0;
      if (options.scan_timestamp_millis()) {
        millis = *options.scan_timestamp_millis();
      } else if (options.scan_timestamp()) {
        SLUICE_ASSIGN_OR_RETURN(TableVersion version,
                                TableVersion::AsOf(*options.scan_timestamp()));
        millis = version.time_millis;
      } else {
        return Status::InvalidArgument(
            "option 'scan.timestamp-millis' or 'scan.timestamp' must be set when 'scan.mode' is "
            "from-timestamp");
      }
      return std::unique_ptr<StartingScanner>(
          new ContinuousFromTimestampStartingScanner(table, millis));
    }
    case StartupMode::kFromFileCreationTime: {
      SLUICE_ASSIGN_OR_RETURN(int64_t millis,
                              RequiredMillis(options.scan_file_creation_time_millis(),
                                             "scan.file-creation-time-millis", name));
      return std::unique_ptr<StartingScanner>(new FileCreationTimeStartingScanner(table, millis));
    }
    case StartupMode::kFromSnapshot: {
      if (!options.scan_snapshot_id()) {
        if (options.Find("scan.tag-name") != nullptr || options.Find("scan.watermark") != nullptr) {
          return Status::InvalidArgument(
              "cannot scan from a tag or a watermark in streaming mode (options 'scan.tag-name', "
              "'scan.watermark'); use 'scan.snapshot-id'");
        }
      }
      SLUICE_ASSIGN_OR_RETURN(int64_t id, RequiredSnapshotId(options, name));
      return std::unique_ptr<StartingScanner>(new ContinuousFromSnapshotStartingScanner(table, id));
    }
    case StartupMode::kFromSnapshotFull: {
      SLUICE_ASSIGN_OR_RETURN(int64_t id, RequiredSnapshotId(options, name));
      return std::unique_ptr<StartingScanner>(
          new ContinuousFromSnapshotFullStartingScanner(table, id));
    }
    case StartupMode::kIncremental:
      return Status::InvalidArgument(
          "cannot read incremental in streaming mode: 'scan.mode' incremental and "
          "'incremental-between*' are options of batch reads");
    case StartupMode::kFromCreationTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(int64_t millis, RequiredMillis(options.scan_creation_time_millis(),
                                                             "scan.creation-time-millis", name));
      SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> start,
                              CreationTimestampStartSnapshot(table, millis));
      if (start) {
        return std::unique_ptr<StartingScanner>(
            new ContinuousFromSnapshotStartingScanner(table, *start));
      }
      return std::unique_ptr<StartingScanner>(new FileCreationTimeStartingScanner(table, millis));
    }
  }
  return Status::Internal("unknown scan.mode");
}

}  // namespace sluice
