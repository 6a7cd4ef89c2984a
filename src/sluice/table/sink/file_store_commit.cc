#include "sluice/table/sink/file_store_commit.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/index/bucketed_dv_maintainer.h"
#include "sluice/index/hash_index_file.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/hint_file.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/option_value.h"
#include "sluice/predicate/literal.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/conflict_detection.h"
#include "sluice/table/sink/index_manifest_file_handler.h"
#include "sluice/table/table_metric_group.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ManifestEntry MakeEntry(FileKind kind, const CommitMessageImpl& message, int32_t default_buckets,
                        const DataFileMeta& file) {
  ManifestEntry entry;
  entry.kind = kind;
  entry.partition = message.partition;
  entry.bucket = message.bucket;
  entry.total_buckets = message.total_buckets != 0 ? message.total_buckets : default_buckets;
  entry.file = file;
  return entry;
}

IndexManifestEntry MakeIndexEntry(FileKind kind, const CommitMessageImpl& message,
                                  const IndexManifestEntry& file) {
  IndexManifestEntry entry = file;
  entry.kind = kind;
  entry.partition = message.partition;
  entry.bucket = message.bucket;
  return entry;
}

int64_t RecordCount(const std::vector<ManifestEntry>& entries, FileKind kind) {
  int64_t n = 0;
  for (const auto& e : entries) {
    if (e.kind == kind) n += e.file.row_count;
  }
  return n;
}

}  // namespace

FileStoreCommit::FileStoreCommit(std::shared_ptr<const FileStoreTable> table,
                                 std::string commit_user)
    : table_(std::move(table)), commit_user_(std::move(commit_user)) {}

Result<std::unique_ptr<FileStoreCommit>> FileStoreCommit::Make(
    std::shared_ptr<const FileStoreTable> table, std::string commit_user) {
  if (commit_user.empty()) return Status::InvalidArgument("commit user must not be empty");
  std::unique_ptr<FileStoreCommit> commit(new FileStoreCommit(std::move(table), commit_user));
  SLUICE_RETURN_NOT_OK(commit->Init());
  return commit;
}

Status FileStoreCommit::Init() {
  const TableSchema& schema = table_->schema();
  const CoreOptions& options = table_->options();
  partition_type_ = schema.LogicalPartitionType();
  if (schema.is_primary_key_table()) key_type_ = schema.LogicalTrimmedPrimaryKeysType();
  SLUICE_ASSIGN_OR_RETURN(manifest_format_, FileFormatByName(options.manifest_format()));
  manifest_writer_options_.compression = options.manifest_compression();
  manifest_writer_options_.compression_level = options.file_compression_zstd_level();
  merge_options_.target_file_size = options.manifest_target_file_size();
  merge_options_.merge_min_count = options.manifest_merge_min_count();
  merge_options_.full_compaction_threshold_size = options.manifest_full_compaction_threshold_size();
  max_retries_ = options.commit_max_retries();
  timeout_ms_ = options.commit_timeout_millis();
  if (options.commit_min_retry_wait_millis()) {
    min_retry_wait_ms_ = *options.commit_min_retry_wait_millis();
  }
  if (options.commit_max_retry_wait_millis()) {
    max_retry_wait_ms_ = *options.commit_max_retry_wait_millis();
  }
  return Status::OK();
}

Result<int64_t> FileStoreCommit::LatestSchemaId() const {
  SLUICE_ASSIGN_OR_RETURN(auto ids, table_->schema_manager().ListSchemaIds());
  if (ids.empty()) return Status::NotFound("table " + table_->path() + " has no schema");
  return ids.back();
}

Result<std::optional<int64_t>> FileStoreCommit::LatestIdentifierOfUser() {
  if (last_identifier_) return *last_identifier_;
  const SnapshotManager& snapshots = table_->snapshot_manager();
  SLUICE_ASSIGN_OR_RETURN(auto ids, snapshots.ListSnapshotIds());
  std::optional<int64_t> found;
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
    auto snapshot = snapshots.LoadSnapshot(*it);
    if (!snapshot.ok()) {
      if (snapshot.status().IsNotFound()) continue;  // expired meanwhile
      return snapshot.status();
    }
    if (snapshot->commit_user == commit_user_) {
      found = snapshot->commit_identifier;
      break;
    }
  }
  last_identifier_ = found;
  return found;
}

Result<bool> FileStoreCommit::AlreadyCommitted(int64_t identifier) {
  // Batch commits are one-shot (Java BatchTableCommit does not filter): no history lookup.
  if (identifier == Snapshot::kBatchCommitIdentifier) return false;
  SLUICE_ASSIGN_OR_RETURN(auto last, LatestIdentifierOfUser());
  return last.has_value() && identifier <= *last;
}

Result<std::vector<int64_t>> FileStoreCommit::FilterCommitted(std::vector<int64_t> identifiers) {
  std::sort(identifiers.begin(), identifiers.end());
  SLUICE_ASSIGN_OR_RETURN(auto last, LatestIdentifierOfUser());
  if (!last) return identifiers;
  std::vector<int64_t> out;
  for (int64_t id : identifiers) {
    if (id > *last) out.push_back(id);
  }
  return out;
}

Result<std::vector<ManifestEntry>> FileStoreCommit::ReadLiveEntries(
    const Snapshot& snapshot, const std::function<bool(const std::string&)>& partition_filter,
    const std::set<std::string>* partitions) {
  FileIO& io = *table_->io();
  const std::string& table = table_->path();
  std::vector<ValueList> wanted;
  const bool prune = partitions && !partition_type_->fields().empty();
  if (prune) {
    for (const auto& p : *partitions) {
      SLUICE_ASSIGN_OR_RETURN(auto values, DecodeSerializedBinaryRow(p, *partition_type_));
      wanted.push_back(std::move(values));
    }
  }
  std::vector<ManifestFileMeta> manifests;
  for (const std::string* list : {&snapshot.base_manifest_list, &snapshot.delta_manifest_list}) {
    SLUICE_ASSIGN_OR_RETURN(auto metas, ReadManifestList(io, ManifestFilePath(table, *list)));
    for (auto& m : metas) {
      if (prune && !ManifestMayHoldPartitions(m, wanted, *partition_type_)) continue;
      manifests.push_back(std::move(m));
    }
  }
  FileEntryMerger merger;
  for (const auto& meta : manifests) {
    SLUICE_ASSIGN_OR_RETURN(auto entries,
                            ReadManifestFile(io, ManifestFilePath(table, meta.file_name)));
    for (auto& e : entries) {
      if (partition_filter && !partition_filter(e.partition)) continue;
      if (partitions && !partitions->count(e.partition)) continue;
      SLUICE_RETURN_NOT_OK_CTX(merger.Add(std::move(e)),
                               "snapshot " + std::to_string(snapshot.id) + " of " + table);
    }
  }
  std::vector<ManifestEntry> live = std::move(merger).Finish();
  live.erase(std::remove_if(live.begin(), live.end(),
                            [](const ManifestEntry& e) { return e.kind != FileKind::kAdd; }),
             live.end());
  return live;
}

Result<CommitResult> FileStoreCommit::Commit(const ManifestCommittable& committable) {
  const int64_t start_ms = NowMillis();
  BeginCommitMetrics();
  CommitResult result;
  SLUICE_ASSIGN_OR_RETURN(result.skipped, AlreadyCommitted(committable.identifier));
  if (result.skipped) return result;
  const int32_t buckets = table_->options().bucket();
  ChangeSet append;
  ChangeSet compact;
  for (const CommitMessageImpl& m : committable.messages) {
    for (const auto& f : m.data.new_files) {
      append.table_files.push_back(MakeEntry(FileKind::kAdd, m, buckets, f));
    }
    for (const auto& f : m.data.deleted_files) {
      append.table_files.push_back(MakeEntry(FileKind::kDelete, m, buckets, f));
    }
    for (const auto& f : m.data.changelog_files) {
      append.changelog_files.push_back(MakeEntry(FileKind::kAdd, m, buckets, f));
    }
    for (const auto& f : m.data.new_index_files) {
      append.index_files.push_back(MakeIndexEntry(FileKind::kAdd, m, f));
    }
    for (const auto& f : m.data.deleted_index_files) {
      append.index_files.push_back(MakeIndexEntry(FileKind::kDelete, m, f));
    }
    for (const auto& f : m.compact.compact_before) {
      compact.table_files.push_back(MakeEntry(FileKind::kDelete, m, buckets, f));
    }
    for (const auto& f : m.compact.compact_after) {
      compact.table_files.push_back(MakeEntry(FileKind::kAdd, m, buckets, f));
    }
    for (const auto& f : m.compact.changelog_files) {
      compact.changelog_files.push_back(MakeEntry(FileKind::kAdd, m, buckets, f));
    }
    for (const auto& f : m.compact.new_index_files) {
      compact.index_files.push_back(MakeIndexEntry(FileKind::kAdd, m, f));
    }
    for (const auto& f : m.compact.deleted_index_files) {
      compact.index_files.push_back(MakeIndexEntry(FileKind::kDelete, m, f));
    }
  }

  if (!append.table_files.empty() || !append.changelog_files.empty() ||
      !append.index_files.empty()) {
    // Java: an append that deletes files or carries deletion vectors is an OVERWRITE commit
    // and must be checked for conflicts; plain appends cannot conflict.
    bool deletes = false;
    for (const auto& e : append.table_files) deletes |= e.kind == FileKind::kDelete;
    for (const auto& e : append.index_files) deletes |= e.index_type == kDeletionVectorsIndexType;
    const CommitKind kind = deletes ? CommitKind::kOverwrite : CommitKind::kAppend;
    bool outcome_unknown = false;
    SLUICE_RETURN_NOT_OK(
        TryCommit([&](const std::optional<Snapshot>&) -> Result<ChangeSet> { return append; }, kind,
                  deletes, committable, &result, &outcome_unknown));
  }
  if (!compact.table_files.empty() || !compact.changelog_files.empty() ||
      !compact.index_files.empty()) {
    SLUICE_RETURN_NOT_OK(CommitCompaction(compact, committable, &result));
  }
  ReportCommitMetrics(start_ms, result);
  return result;
}

Status FileStoreCommit::CommitCompaction(const ChangeSet& compact,
                                         const ManifestCommittable& committable,
                                         CommitResult* result) {
  bool outcome_unknown = false;
  Status st = TryCommit(
      [&](const std::optional<Snapshot>&) -> Result<ChangeSet> { return compact; },
      CommitKind::kCompact, /*check_conflicts=*/true, committable, result, &outcome_unknown);
  if (st.ok()) return st;
  // The compaction's new files are nobody's once its snapshot certainly did not land; after
  // an unknown outcome a snapshot may name them, so they stay (orphans at worst).
  if (!outcome_unknown) {
    result->compaction_files_deleted = DeleteCompactionOutput(committable);
  }
  if (result->snapshot_ids.empty()) return st;  // nothing committed: the commit failed
  // The data landed: a compaction that lost a race (or failed) is work a later compaction
  // redoes, never a failed write. Its inputs are still live, or compacted by the winner.
  result->compaction_dropped = st;
  return Status::OK();
}

int64_t FileStoreCommit::DeleteCompactionOutput(const ManifestCommittable& committable) {
  FileIO& io = *table_->io();
  int64_t deleted = 0;
  auto remove = [&](const std::string& path) {
    // Best effort: a file left behind is an orphan no snapshot names.
    if (io.Delete(path, /*recursive=*/false).ok()) ++deleted;
  };
  for (const CommitMessageImpl& m : committable.messages) {
    if (m.compact.compact_after.empty() && m.compact.changelog_files.empty() &&
        m.compact.new_index_files.empty()) {
      continue;
    }
    Result<std::string> bucket_path =
        table_->path_factory().BucketPathOfSerialized(m.partition, m.bucket);
    if (!bucket_path.ok()) continue;
    // Never a file the compaction reused: an upgraded file stays live at its old level.
    for (const DataFileMeta* f : m.compact.WrittenFiles()) {
      remove(f->external_path ? *f->external_path : JoinPath(*bucket_path, f->file_name));
    }
    for (const IndexManifestEntry& f : m.compact.new_index_files) {
      remove(f.external_path ? *f.external_path : JoinPath(IndexDir(table_->path()), f.file_name));
    }
  }
  return deleted;
}

Result<std::function<bool(const std::string&)>> FileStoreCommit::PartitionSpecMatcher(
    const PartitionSpec& spec) const {
  // Spec values as typed values (nullopt = the default partition name, i.e. null).
  const auto& fields = partition_type_->fields();
  const std::string& default_name = table_->options().partition_default_name();
  std::vector<std::pair<size_t, std::optional<Value>>> wanted;
  for (const auto& [key, text] : spec) {
    auto it = std::find_if(fields.begin(), fields.end(),
                           [&](const DataField& f) { return f.name == key; });
    if (it == fields.end()) {
      return Status::InvalidArgument("partition spec key '" + key +
                                     "' is not a partition key of table " + table_->path());
    }
    const size_t index = static_cast<size_t>(it - fields.begin());
    if (text == default_name) {
      wanted.emplace_back(index, std::nullopt);
      continue;
    }
    Literal literal;
    literal.kind = Literal::Kind::kString;
    literal.text = text;
    auto value = ConvertLiteral(literal, *it->type);
    if (!value.ok()) return value.status().WithContext("partition spec " + key + "=" + text);
    wanted.emplace_back(index, std::move(*value));
  }
  auto type = partition_type_;
  return std::function<bool(const std::string&)>(
      [type, wanted = std::move(wanted)](const std::string& p) {
        auto values = DecodeSerializedBinaryRow(p, *type);
        if (!values.ok()) return false;
        for (const auto& [index, value] : wanted) {
          const Value& v = (*values)[index];
          if (!value) {
            if (!v.is_null()) return false;
          } else if (v.is_null() || !ValuesEqual(v, *value, *type->fields()[index].type)) {
            return false;
          }
        }
        return true;
      });
}

Result<CommitResult> FileStoreCommit::Overwrite(
    const ManifestCommittable& committable, const std::optional<PartitionSpec>& static_partition) {
  const int64_t start_ms = NowMillis();
  BeginCommitMetrics();
  CommitResult result;
  SLUICE_ASSIGN_OR_RETURN(result.skipped, AlreadyCommitted(committable.identifier));
  if (result.skipped) return result;
  const int32_t buckets = table_->options().bucket();
  std::vector<ManifestEntry> new_files;
  std::vector<IndexManifestEntry> new_index;
  ChangeSet compact;
  for (const CommitMessageImpl& m : committable.messages) {
    for (const auto& f : m.data.new_files) {
      new_files.push_back(MakeEntry(FileKind::kAdd, m, buckets, f));
    }
    for (const auto& f : m.data.deleted_files) {
      new_files.push_back(MakeEntry(FileKind::kDelete, m, buckets, f));
    }
    for (const auto& f : m.data.new_index_files) {
      new_index.push_back(MakeIndexEntry(FileKind::kAdd, m, f));
    }
    for (const auto& f : m.data.deleted_index_files) {
      new_index.push_back(MakeIndexEntry(FileKind::kDelete, m, f));
    }
    for (const auto& f : m.compact.compact_before) {
      compact.table_files.push_back(MakeEntry(FileKind::kDelete, m, buckets, f));
    }
    for (const auto& f : m.compact.compact_after) {
      compact.table_files.push_back(MakeEntry(FileKind::kAdd, m, buckets, f));
    }
    for (const auto& f : m.compact.new_index_files) {
      compact.index_files.push_back(MakeIndexEntry(FileKind::kAdd, m, f));
    }
    for (const auto& f : m.compact.deleted_index_files) {
      compact.index_files.push_back(MakeIndexEntry(FileKind::kDelete, m, f));
    }
  }

  // Which partitions are replaced: nullptr = the whole table.
  std::function<bool(const std::string&)> selected;
  std::shared_ptr<std::set<std::string>> dynamic_partitions;  // dynamic mode: these only
  bool skip_overwrite = false;
  const bool partitioned = !partition_type_->fields().empty();
  if (!static_partition && partitioned) {
    if (new_files.empty()) {
      skip_overwrite = true;  // dynamic mode: no new data replaces nothing
    } else {
      dynamic_partitions = std::make_shared<std::set<std::string>>();
      for (const auto& e : new_files) dynamic_partitions->insert(e.partition);
    }
  } else if (static_partition && !static_partition->empty()) {
    SLUICE_ASSIGN_OR_RETURN(selected, PartitionSpecMatcher(*static_partition));
    for (const auto& e : new_files) {
      if (!selected(e.partition)) {
        return Status::InvalidArgument("Trying to overwrite a partition of table " +
                                       table_->path() + ", but the changes in partition {" +
                                       DescribePartition(e.partition, *partition_type_) +
                                       "} do not belong to this partition");
      }
    }
  }

  if (!skip_overwrite) {
    const bool postpone = table_->options().bucket() == kPostponeBucket;
    auto provider = [&](const std::optional<Snapshot>& latest) -> Result<ChangeSet> {
      ChangeSet changes;
      if (latest) {
        SLUICE_ASSIGN_OR_RETURN(auto live,
                                ReadLiveEntries(*latest, selected, dynamic_partitions.get()));
        for (auto& e : live) {
          if (!postpone && e.bucket < 0) continue;
          e.kind = FileKind::kDelete;
          changes.table_files.push_back(std::move(e));
        }
        if (latest->index_manifest) {
          SLUICE_ASSIGN_OR_RETURN(
              auto index,
              ReadIndexManifest(*table_->io(),
                                ManifestFilePath(table_->path(), *latest->index_manifest)));
          for (auto& e : index) {
            if (selected && !selected(e.partition)) continue;
            if (dynamic_partitions && !dynamic_partitions->count(e.partition)) continue;
            e.kind = FileKind::kDelete;
            changes.index_files.push_back(std::move(e));
          }
        }
      }
      changes.table_files.insert(changes.table_files.end(), new_files.begin(), new_files.end());
      changes.index_files.insert(changes.index_files.end(), new_index.begin(), new_index.end());
      return changes;
    };
    bool outcome_unknown = false;
    SLUICE_RETURN_NOT_OK(TryCommit(provider, CommitKind::kOverwrite, /*check_conflicts=*/true,
                                   committable, &result, &outcome_unknown));
  }
  if (!compact.table_files.empty() || !compact.index_files.empty()) {
    SLUICE_RETURN_NOT_OK(CommitCompaction(compact, committable, &result));
  }
  ReportCommitMetrics(start_ms, result);
  return result;
}

Result<CommitResult> FileStoreCommit::DropPartitions(const std::vector<PartitionSpec>& partitions) {
  const int64_t start_ms = NowMillis();
  BeginCommitMetrics();
  CommitResult result;
  if (partitions.empty()) return result;
  std::vector<std::function<bool(const std::string&)>> matchers;
  for (const PartitionSpec& spec : partitions) {
    SLUICE_ASSIGN_OR_RETURN(auto matcher, PartitionSpecMatcher(spec));
    matchers.push_back(std::move(matcher));
  }
  auto selected = [&matchers](const std::string& partition) {
    return std::any_of(matchers.begin(), matchers.end(),
                       [&](const auto& matcher) { return matcher(partition); });
  };
  auto provider = [&](const std::optional<Snapshot>& latest) -> Result<ChangeSet> {
    ChangeSet changes;
    if (!latest) return changes;
    SLUICE_ASSIGN_OR_RETURN(auto live, ReadLiveEntries(*latest, selected));
    for (auto& e : live) {
      e.kind = FileKind::kDelete;
      changes.table_files.push_back(std::move(e));
    }
    if (latest->index_manifest) {
      SLUICE_ASSIGN_OR_RETURN(
          auto index, ReadIndexManifest(*table_->io(),
                                        ManifestFilePath(table_->path(), *latest->index_manifest)));
      for (auto& e : index) {
        if (!selected(e.partition)) continue;
        e.kind = FileKind::kDelete;
        changes.index_files.push_back(std::move(e));
      }
    }
    return changes;
  };
  // Nothing live in the partitions: no snapshot.
  SLUICE_ASSIGN_OR_RETURN(auto latest, table_->snapshot_manager().LatestSnapshot());
  SLUICE_ASSIGN_OR_RETURN(ChangeSet now, provider(latest));
  if (now.table_files.empty() && now.index_files.empty()) return result;
  ManifestCommittable committable;
  bool outcome_unknown = false;
  SLUICE_RETURN_NOT_OK(TryCommit(provider, CommitKind::kOverwrite, /*check_conflicts=*/true,
                                 committable, &result, &outcome_unknown));
  ReportCommitMetrics(start_ms, result);
  return result;
}

void FileStoreCommit::WithMetricRegistry(MetricRegistryImpl* registry) {
  metrics_ = registry == nullptr
                 ? nullptr
                 : std::make_unique<CommitMetrics>(TableMetricGroup(registry, table_->path()));
}

void FileStoreCommit::ReportCommitMetrics(int64_t start_ms, const CommitResult& result) const {
  if (metrics_) metrics_->ReportCommit(NowMillis() - start_ms, result.attempts);
}

void FileStoreCommit::SleepBeforeRetry(int retry) const {
  double wait = static_cast<double>(min_retry_wait_ms_);
  for (int i = 0; i < retry && wait < static_cast<double>(max_retry_wait_ms_); ++i) wait *= 2;
  int64_t wait_ms = std::min(static_cast<int64_t>(wait), max_retry_wait_ms_);
  thread_local std::mt19937_64 rng(std::random_device{}());
  const int64_t jitter_bound = std::max<int64_t>(1, wait_ms / 5);
  wait_ms += static_cast<int64_t>(rng() % static_cast<uint64_t>(jitter_bound));
  std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
}

Status FileStoreCommit::TryCommit(const ChangesProvider& provider, CommitKind kind,
                                  bool check_conflicts, const ManifestCommittable& committable,
                                  CommitResult* result, bool* outcome_unknown) {
  *outcome_unknown = false;
  const int64_t start = NowMillis();
  std::optional<std::optional<int64_t>> previous_latest;
  Status last_cause;
  for (int retry = 0;; ++retry) {
    ++result->attempts;
    SLUICE_ASSIGN_OR_RETURN(auto latest, table_->snapshot_manager().LatestSnapshot());
    SLUICE_ASSIGN_OR_RETURN(ChangeSet changes, provider(latest));
    std::optional<int64_t> landed;
    bool retry_later = false;
    Status st = TryCommitOnce(changes, kind, check_conflicts, committable, latest, previous_latest,
                              &landed, &retry_later, outcome_unknown);
    if (landed) {
      if (metrics_) metrics_->AddSnapshot(kind, changes.table_files, changes.changelog_files);
      result->snapshot_ids.push_back(*landed);
      last_identifier_ = std::optional<int64_t>(committable.identifier);
      return Status::OK();
    }
    if (!retry_later) return st;
    // The race for the snapshot id was lost, or the snapshot write failed in a way that leaves
    // its outcome unknown (`st` says which).
    last_cause = st;
    previous_latest = latest ? std::optional<int64_t>(latest->id) : std::nullopt;
    const int64_t elapsed = NowMillis() - start;
    if (retry >= max_retries_ || (timeout_ms_ && elapsed > *timeout_ms_)) {
      return Status::Conflict(
          "commit to table " + table_->path() + " by user " + commit_user_ + " (identifier " +
          std::to_string(committable.identifier) + ", kind " + std::string(CommitKindName(kind)) +
          ") failed after " + std::to_string(retry) + " retries in " + std::to_string(elapsed) +
          " ms: other commits kept taking the next snapshot id; there may be commit "
          "conflicts between multiple jobs" +
          (last_cause.ok() ? std::string() : " (last error: " + last_cause.ToString() + ")"));
    }
    SleepBeforeRetry(retry);
  }
}

Status FileStoreCommit::TryCommitOnce(const ChangeSet& changes, CommitKind kind,
                                      bool check_conflicts, const ManifestCommittable& committable,
                                      const std::optional<Snapshot>& latest,
                                      const std::optional<std::optional<int64_t>>& previous_latest,
                                      std::optional<int64_t>* landed_id, bool* retry_later,
                                      bool* outcome_unknown) {
  const SnapshotManager& snapshots = table_->snapshot_manager();
  FileIO& io = *table_->io();
  const std::string& table = table_->path();

  // After an attempt whose outcome is unknown, the snapshot may have landed after all.
  if (previous_latest && latest) {
    const int64_t from = previous_latest->has_value() ? **previous_latest + 1 : 1;
    for (int64_t id = from; id <= latest->id; ++id) {
      auto s = snapshots.LoadSnapshot(id);
      if (!s.ok()) {
        if (s.status().IsNotFound()) continue;
        return s.status();
      }
      if (s->commit_user == commit_user_ && s->commit_identifier == committable.identifier &&
          s->commit_kind == kind) {
        *landed_id = id;
        return Status::OK();
      }
    }
  }
  // The earlier attempt, if any, is known now not to have landed.
  *outcome_unknown = false;

  const int64_t new_id = latest ? latest->id + 1 : Snapshot::kFirstSnapshotId;

  // Hash index files are checked in every commit, appends too: a writer that replaces a
  // bucket's hash index must replace the live one (conflict_detection.h).
  bool changes_hash_index = false;
  for (const auto& e : changes.index_files) changes_hash_index |= e.index_type == kHashIndexType;
  if (!check_conflicts && changes_hash_index && latest) {
    ConflictCheckContext context{partition_type_, key_type_, table, commit_user_};
    std::vector<IndexManifestEntry> live_index;
    if (latest->index_manifest) {
      SLUICE_ASSIGN_OR_RETURN(
          live_index, ReadIndexManifest(io, ManifestFilePath(table, *latest->index_manifest)));
    }
    SLUICE_RETURN_NOT_OK(CheckNoIndexConflicts(context, *latest, live_index, changes.index_files));
  }
  if (check_conflicts && latest) {
    std::set<std::string> changed;
    for (const auto& e : changes.table_files) changed.insert(e.partition);
    for (const auto& e : changes.index_files) {
      if (e.index_type == kDeletionVectorsIndexType) changed.insert(e.partition);
    }
    SLUICE_ASSIGN_OR_RETURN(auto base, ReadLiveEntries(*latest, nullptr, &changed));
    ConflictCheckContext context{partition_type_, key_type_, table, commit_user_};
    SLUICE_RETURN_NOT_OK(CheckNoConflicts(context, *latest, base, changes.table_files, kind));
    if (!changes.index_files.empty()) {
      std::vector<IndexManifestEntry> live_index;
      if (latest->index_manifest) {
        SLUICE_ASSIGN_OR_RETURN(
            live_index, ReadIndexManifest(io, ManifestFilePath(table, *latest->index_manifest)));
      }
      SLUICE_RETURN_NOT_OK(
          CheckNoIndexConflicts(context, *latest, live_index, changes.index_files));
    }
  }

  SLUICE_ASSIGN_OR_RETURN(const int64_t schema_id, LatestSchemaId());
  ManifestFileWriterOptions writer_options;
  writer_options.format = manifest_format_;
  writer_options.writer_options = manifest_writer_options_;
  writer_options.target_file_size = merge_options_.target_file_size;
  writer_options.partition_type = partition_type_;
  writer_options.latest_schema_id = schema_id;
  ManifestFileWriter writer(table_->io(), table, writer_options, &namer_);

  // Every file this attempt creates, deleted again when the attempt does not land.
  std::vector<std::string> created;
  auto cleanup = [&]() {
    // Best effort: the attempt's error is the one to report; a file left behind is an orphan.
    for (const auto& name : created) io.Delete(ManifestFilePath(table, name), false).IgnoreError();
  };
  auto write_list = [&](const std::vector<ManifestFileMeta>& metas,
                        std::string* name) -> Result<int64_t> {
    *name = namer_.NewManifestListName();
    SLUICE_ASSIGN_OR_RETURN(int64_t size,
                            WriteManifestList(io, ManifestFilePath(table, *name), *manifest_format_,
                                              manifest_writer_options_, metas));
    created.push_back(*name);
    return size;
  };

  Snapshot snapshot;
  auto prepare = [&]() -> Status {
    int64_t previous_total = 0;
    std::vector<ManifestFileMeta> base_before;
    if (latest) {
      for (const std::string* list : {&latest->base_manifest_list, &latest->delta_manifest_list}) {
        SLUICE_ASSIGN_OR_RETURN(auto metas, ReadManifestList(io, ManifestFilePath(table, *list)));
        base_before.insert(base_before.end(), metas.begin(), metas.end());
      }
      if (latest->total_record_count) {
        previous_total = *latest->total_record_count;
      } else {
        SLUICE_ASSIGN_OR_RETURN(auto live, ReadLiveEntries(*latest, nullptr));
        previous_total = RecordCount(live, FileKind::kAdd);
      }
    }
    std::vector<ManifestFileMeta> merged_new;
    auto base_after = MergeManifestFiles(base_before, &writer, merge_options_, &merged_new);
    for (const auto& m : merged_new) created.push_back(m.file_name);
    if (!base_after.ok()) return base_after.status();
    Step("manifests-merged");
    std::string base_list;
    SLUICE_ASSIGN_OR_RETURN(int64_t base_list_size, write_list(*base_after, &base_list));
    Step("base-list-written");

    std::vector<ManifestEntry> delta = changes.table_files;
    int64_t next_row_id = latest && latest->next_row_id ? *latest->next_row_id : 0;
    if (table_->options().row_tracking_enabled()) {
      // Java assignSnapshotId + assignRowTrackingMeta.
      for (auto& e : delta) {
        e.file.min_sequence_number = new_id;
        e.file.max_sequence_number = new_id;
        if (e.kind == FileKind::kAdd && e.file.file_source == FileSource::kAppend &&
            !e.file.first_row_id) {
          e.file.first_row_id = next_row_id;
          next_row_id += e.file.row_count;
        }
      }
    }
    const int64_t delta_records =
        RecordCount(delta, FileKind::kAdd) - RecordCount(delta, FileKind::kDelete);
    SLUICE_ASSIGN_OR_RETURN(auto delta_manifests, writer.Write(delta));
    for (const auto& m : delta_manifests) created.push_back(m.file_name);
    Step("manifests-written");
    std::string delta_list;
    SLUICE_ASSIGN_OR_RETURN(int64_t delta_list_size, write_list(delta_manifests, &delta_list));
    Step("delta-list-written");

    std::optional<std::string> changelog_list;
    std::optional<int64_t> changelog_list_size;
    if (!changes.changelog_files.empty()) {
      SLUICE_ASSIGN_OR_RETURN(auto metas, writer.Write(changes.changelog_files));
      for (const auto& m : metas) created.push_back(m.file_name);
      std::string name;
      SLUICE_ASSIGN_OR_RETURN(changelog_list_size, write_list(metas, &name));
      changelog_list = name;
    }

    std::optional<std::string> index_manifest = latest ? latest->index_manifest : std::nullopt;
    if (!changes.index_files.empty()) {
      std::vector<IndexManifestEntry> previous;
      if (index_manifest) {
        SLUICE_ASSIGN_OR_RETURN(previous,
                                ReadIndexManifest(io, ManifestFilePath(table, *index_manifest)));
      }
      const bool bucket_unaware =
          table_->options().bucket() == -1 && !table_->schema().is_primary_key_table();
      SLUICE_ASSIGN_OR_RETURN(
          auto combined,
          CombineIndexManifestEntries(std::move(previous), changes.index_files, bucket_unaware));
      const std::string name = namer_.NewIndexManifestName();
      SLUICE_RETURN_NOT_OK(WriteIndexManifest(io, ManifestFilePath(table, name), *manifest_format_,
                                              manifest_writer_options_, combined)
                               .status());
      created.push_back(name);
      index_manifest = name;
      Step("index-manifest-written");
    }

    snapshot.version = Snapshot::kCurrentVersion;
    snapshot.id = new_id;
    snapshot.schema_id = schema_id;
    snapshot.base_manifest_list = base_list;
    snapshot.base_manifest_list_size = base_list_size;
    snapshot.delta_manifest_list = delta_list;
    snapshot.delta_manifest_list_size = delta_list_size;
    snapshot.changelog_manifest_list = changelog_list;
    snapshot.changelog_manifest_list_size = changelog_list_size;
    snapshot.index_manifest = index_manifest;
    snapshot.commit_user = commit_user_;
    snapshot.commit_identifier = committable.identifier;
    snapshot.commit_kind = kind;
    snapshot.time_millis = NowMillis();
    snapshot.total_record_count = previous_total + delta_records;
    snapshot.delta_record_count = delta_records;
    // Java: ManifestEntry.nullableRecordCount, null (so not written) without changelog files.
    if (!changes.changelog_files.empty()) {
      snapshot.changelog_record_count = RecordCount(changes.changelog_files, FileKind::kAdd);
    }
    snapshot.watermark = committable.watermark;
    if (latest && latest->watermark &&
        (!snapshot.watermark || *latest->watermark > *snapshot.watermark)) {
      snapshot.watermark = latest->watermark;
    }
    // Table statistics are inherited while they were computed for the latest schema.
    if (latest && latest->statistics) {
      const std::string path = StatisticsFilePath(table, *latest->statistics);
      SLUICE_ASSIGN_OR_RETURN(std::string text, io.ReadFile(path));
      auto json = ParseJson(text);
      if (!json.ok()) return json.status().WithContext(path);
      const Json* stats_schema = FindMember(*json, "schemaId");
      if (!stats_schema) return Status::Corruption(path + ": no schemaId");
      SLUICE_ASSIGN_OR_RETURN(int64_t stats_schema_id, JsonToInt64(*stats_schema, "schemaId"));
      if (stats_schema_id == schema_id) snapshot.statistics = latest->statistics;
    }
    if (!committable.properties.empty()) snapshot.properties = committable.properties;
    snapshot.next_row_id = next_row_id;
    return Status::OK();
  };
  Status prepared = prepare();
  if (!prepared.ok()) {
    cleanup();
    return prepared.WithContext("preparing snapshot " + std::to_string(new_id) + " of " + table);
  }

  // The manifests must be as durable as the snapshot that will name them (file_io.h).
  Status synced = io.SyncDir(ManifestDir(table));
  if (!synced.ok()) {
    cleanup();
    return synced.WithContext("preparing snapshot " + std::to_string(new_id) + " of " + table);
  }

  Step("before-snapshot");
  // Under the catalog's lock of the table, if any (FileStoreTable::RunWithCatalogLock).
  std::optional<Status> attempted;
  Status locked = table_->RunWithCatalogLock([&] {
    attempted = io.WriteFileAtomic(snapshots.snapshot_path(new_id), snapshot.ToJson(), false);
    return Status::OK();
  });
  if (!attempted) {
    cleanup();
    return locked.WithContext("committing snapshot " + std::to_string(new_id) + " of " + table);
  }
  Status written = *attempted;  // a release failing after the write: the lock row expires
  if (written.IsAlreadyExists()) {
    cleanup();  // another committer took this id
    *retry_later = true;
    return written;
  }
  if (!written.ok()) {
    // The outcome is unknown: the files may be referenced by a snapshot that landed, so they
    // stay, and the next attempt first looks for this commit among the new snapshots.
    *retry_later = true;
    *outcome_unknown = true;
    return written;
  }
  Step("snapshot-written");
  *landed_id = new_id;
  // Hints only speed up finding snapshots; readers verify them, so a failed update is harmless.
  snapshots.CommitLatestHint(new_id).IgnoreError();
  if (new_id == Snapshot::kFirstSnapshotId) snapshots.CommitEarliestHint(new_id).IgnoreError();
  Step("hint-written");
  return Status::OK();
}

}  // namespace sluice
