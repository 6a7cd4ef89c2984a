#include "sluice/table/source/incremental_scan.h"

#include <charconv>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/table/file_store_table.h"
#include "sluice/table/source/diff_scan.h"
#include "sluice/table/source/scan_planner.h"

namespace sluice {

namespace {

// "a,b" split at its one comma; nullopt otherwise.
std::optional<std::pair<std::string, std::string>> SplitPair(std::string_view text) {
  const size_t comma = text.find(',');
  if (comma == std::string_view::npos || text.find(',', comma + 1) != std::string_view::npos) {
    return std::nullopt;
  }
  return std::make_pair(std::string(text.substr(0, comma)), std::string(text.substr(comma + 1)));
}

std::optional<int64_t> ParseId(std::string_view text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// How the range is read (`incremental-between-scan-mode`).
struct ReadKind {
  bool changelog = false;
  bool diff = false;
};

Result<ReadKind> ReadKindOf(const CoreOptions& options) {
  const std::string* mode = options.Find("incremental-between-scan-mode");
  const std::string_view value = mode == nullptr ? "auto" : std::string_view(*mode);
  if (value == "auto") return ReadKind{options.changelog_producer() != ChangelogProducer::kNone};
  if (value == "delta") return ReadKind{false};
  if (value == "changelog") return ReadKind{true};
  if (value == "diff") return ReadKind{false, true};
  return Status::InvalidArgument("option 'incremental-between-scan-mode' is '" +
                                 std::string(value) + "': expected auto, delta, changelog or diff");
}

IncrementalBetween Range(int64_t start, int64_t end, ReadKind kind) {
  IncrementalBetween range;
  range.start = start;
  range.end = end;
  range.changelog = kind.changelog;
  range.diff = kind.diff;
  return range;
}

// Java betweenSnapshotIds: start may be the earliest - 1, end at most the latest.
Result<std::optional<IncrementalBetween>> BetweenIds(const FileStoreTable& table, int64_t start,
                                                     int64_t end, ReadKind kind) {
  const SnapshotManager& snapshots = table.snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest, snapshots.EarliestSnapshot());
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
  if (!earliest || !latest || start == end) return std::optional<IncrementalBetween>();
  if (start < earliest->id - 1 || end > *latest) {
    return Status::InvalidArgument(
        "option 'incremental-between': the snapshot range (" + std::to_string(start) + ", " +
        std::to_string(end) + "] is outside the table's snapshots [" +
        std::to_string(earliest->id) + ", " + std::to_string(*latest) + "]");
  }
  return std::optional<IncrementalBetween>(Range(start, end, kind));
}

Result<std::optional<IncrementalBetween>> BetweenSnapshotsOrTags(const FileStoreTable& table,
                                                                 const std::string& text,
                                                                 ReadKind kind) {
  auto pair = SplitPair(text);
  if (!pair) {
    return Status::InvalidArgument("option 'incremental-between' is '" + text +
                                   "': expected a start (exclusive) and an end snapshot or tag, "
                                   "as '5,10'");
  }
  const TagManager& tags = table.tag_manager();
  SLUICE_ASSIGN_OR_RETURN(bool start_tag, tags.TagExists(pair->first));
  SLUICE_ASSIGN_OR_RETURN(bool end_tag, tags.TagExists(pair->second));
  if (start_tag && end_tag) {
    SLUICE_ASSIGN_OR_RETURN(Tag start, tags.LoadTag(pair->first));
    SLUICE_ASSIGN_OR_RETURN(Tag end, tags.LoadTag(pair->second));
    const std::string* to_snapshot = table.options().Find("incremental-between-tag-to-snapshot");
    if (to_snapshot != nullptr && *to_snapshot == "true") {
      return BetweenIds(table, start.snapshot.id, end.snapshot.id, kind);
    }
    // Java IncrementalDiffStartingScanner.betweenTags: the diff of the two tags.
    if (end.snapshot.id < start.snapshot.id) {
      return Status::InvalidArgument(
          "option 'incremental-between' is '" + text + "': tag '" + pair->second + "' (snapshot " +
          std::to_string(end.snapshot.id) + ") is before tag '" + pair->first + "' (snapshot " +
          std::to_string(start.snapshot.id) + ")");
    }
    if (start.snapshot.id == end.snapshot.id) return std::optional<IncrementalBetween>();
    IncrementalBetween range = Range(start.snapshot.id, end.snapshot.id, ReadKind{false, true});
    range.start_tag = pair->first;
    range.end_tag = pair->second;
    return std::optional<IncrementalBetween>(std::move(range));
  }
  const std::optional<int64_t> start = ParseId(pair->first);
  const std::optional<int64_t> end = ParseId(pair->second);
  if (!start || !end) {
    return Status::InvalidArgument("option 'incremental-between' is '" + text +
                                   "': found neither two tags nor two snapshot ids");
  }
  if (*end < *start) {
    return Status::InvalidArgument("option 'incremental-between' is '" + text +
                                   "': the end snapshot is before the start");
  }
  return BetweenIds(table, *start, *end, kind);
}

Result<std::optional<IncrementalBetween>> BetweenTimestamps(const FileStoreTable& table,
                                                            const std::string& text,
                                                            ReadKind kind) {
  auto pair = SplitPair(text);
  Result<TableVersion> start = pair ? TableVersion::AsOf(pair->first)
                                    : Result<TableVersion>(Status::InvalidArgument("no comma"));
  Result<TableVersion> end = pair ? TableVersion::AsOf(pair->second) : start;
  if (!start.ok() || !end.ok()) {
    return Status::InvalidArgument(
        "option 'incremental-between-timestamp' is '" + text +
        "': expected a start (exclusive) and an end time, epoch millis or 'YYYY-MM-DD HH:MM:SS'");
  }
  const int64_t from = start->time_millis;
  const int64_t to = end->time_millis;
  if (to < from) {
    return Status::InvalidArgument("option 'incremental-between-timestamp' is '" + text +
                                   "': the end time is before the start");
  }
  const SnapshotManager& snapshots = table.snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest, snapshots.EarliestSnapshot());
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest, snapshots.LatestSnapshot());
  if (!earliest || !latest || from == to || from > latest->time_millis ||
      to < earliest->time_millis) {
    return std::optional<IncrementalBetween>();
  }
  // Java IncrementalDeltaStartingScanner.betweenTimestamps.
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> at_start,
                          snapshots.EarlierOrEqualTimeMillis(from));
  // Java IncrementalDiffStartingScanner.betweenTimestamps compares with the earliest snapshot
  // when none is that old.
  const int64_t start_id = kind.diff ? (at_start ? at_start->id : earliest->id)
                           : !at_start || earliest->time_millis > from ? earliest->id - 1
                                                                       : at_start->id;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> at_end, snapshots.EarlierOrEqualTimeMillis(to));
  const int64_t end_id = at_end ? at_end->id : latest->id;
  if (start_id >= end_id) return std::optional<IncrementalBetween>();
  return std::optional<IncrementalBetween>(Range(start_id, end_id, kind));
}

}  // namespace

Result<std::optional<IncrementalBetween>> ResolveIncrementalBetween(const FileStoreTable& table) {
  const CoreOptions& options = table.options();
  SLUICE_ASSIGN_OR_RETURN(ReadKind kind, ReadKindOf(options));
  if (const std::string* between = options.Find("incremental-between")) {
    return BetweenSnapshotsOrTags(table, *between, kind);
  }
  if (const std::string* between = options.Find("incremental-between-timestamp")) {
    return BetweenTimestamps(table, *between, kind);
  }
  if (options.Find("incremental-to-auto-tag") != nullptr) {
    return Status::NotSupported(
        "option 'incremental-to-auto-tag' (the diff from the automatic tag before to the one "
        "named) is not supported; name both tags in 'incremental-between'");
  }
  return Status::InvalidArgument(
      "'scan.mode' is incremental but neither 'incremental-between' nor "
      "'incremental-between-timestamp' is set");
}

Result<ScanPlan> PlanIncremental(const FileStoreTable& table, const ScanOptions& base,
                                 const IncrementalBetween& range) {
  if (range.diff && range.end > range.start) {
    std::optional<TableVersion> before;
    if (range.start_tag) {
      before = TableVersion::Tag(*range.start_tag);
    } else {
      SLUICE_ASSIGN_OR_RETURN(bool exists, table.snapshot_manager().SnapshotExists(range.start));
      if (exists) before = TableVersion::SnapshotId(range.start);
    }
    const TableVersion after =
        range.end_tag ? TableVersion::Tag(*range.end_tag) : TableVersion::SnapshotId(range.end);
    return PlanDiff(table, base, before, after);
  }
  ScanPlan out;
  if (range.end > range.start) out.snapshot_id = range.end;
  // Files of one (partition, bucket) across the snapshots, in commit order.
  std::map<std::pair<std::string, int32_t>, DataSplit> by_bucket;
  std::vector<std::pair<std::string, int32_t>> order;
  for (int64_t id = range.start + 1; id <= range.end; ++id) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, table.snapshot_manager().LoadSnapshot(id));
    // Java: delta reads APPEND snapshots only, changelog reads all but OVERWRITE ones.
    if (range.changelog ? snapshot.commit_kind == CommitKind::kOverwrite
                        : snapshot.commit_kind != CommitKind::kAppend) {
      continue;
    }
    ScanOptions options = base;
    options.version = TableVersion::SnapshotId(id);
    options.mode = ScanMode::kDelta;
    options.delta_reads_changelog = range.changelog;
    options.incremental.reset();
    options.metric_registry = nullptr;  // the range's plan reports once, as a whole
    SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(table, options));
    for (DataSplit& split : plan.splits) {
      auto key = std::make_pair(split.partition, split.bucket);
      auto [it, inserted] = by_bucket.try_emplace(key, split);
      if (inserted) {
        order.push_back(std::move(key));
        continue;
      }
      DataSplit& into = it->second;
      for (size_t i = 0; i < split.data_files.size(); ++i) {
        into.data_files.push_back(std::move(split.data_files[i]));
        into.data_file_paths.push_back(std::move(split.data_file_paths[i]));
      }
    }
  }
  for (const auto& key : order) {
    DataSplit& split = by_bucket.at(key);
    split.snapshot_id = range.end;
    out.splits.push_back(std::move(split));
  }
  return out;
}

}  // namespace sluice
