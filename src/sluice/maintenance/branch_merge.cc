#include "sluice/maintenance/branch_merge.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "sluice/base/uuid.h"
#include "sluice/meta/branch_manager.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/live_files.h"
#include "sluice/table/sink/conflict_detection.h"
#include "sluice/table/sink/file_store_commit.h"

namespace sluice {

namespace {

// The files one side added and removed since the merge base.
struct SideChanges {
  std::vector<ManifestEntry> added;
  std::vector<ManifestEntry> removed;
  std::vector<IndexManifestEntry> index_added;
  std::vector<IndexManifestEntry> index_removed;

  bool empty() const {
    return added.empty() && removed.empty() && index_added.empty() && index_removed.empty();
  }
};

struct LiveFiles {
  std::vector<ManifestEntry> data;
  std::vector<IndexManifestEntry> index;
};

std::string IndexIdentifier(const IndexManifestEntry& e) {
  return e.partition + '\0' + std::to_string(e.bucket) + '\0' + e.file_name;
}

Result<LiveFiles> ReadLive(const FileStoreTable& table, const std::optional<Snapshot>& snapshot) {
  LiveFiles live;
  if (!snapshot) return live;
  SLUICE_ASSIGN_OR_RETURN(live.data, ReadLiveDataFiles(*table.io(), table.path(), *snapshot));
  SLUICE_ASSIGN_OR_RETURN(live.index, ReadLiveIndexFiles(*table.io(), table.path(), *snapshot));
  return live;
}

template <typename Entry, typename Key>
void Difference(const std::vector<Entry>& from, const std::vector<Entry>& minus, Key key,
                std::vector<Entry>* out) {
  std::unordered_set<std::string> keys;
  for (const Entry& e : minus) keys.insert(key(e));
  for (const Entry& e : from) {
    if (!keys.count(key(e))) out->push_back(e);
  }
}

SideChanges Changes(const LiveFiles& base, const LiveFiles& latest) {
  SideChanges c;
  Difference(latest.data, base.data, FileEntryIdentifier, &c.added);
  Difference(base.data, latest.data, FileEntryIdentifier, &c.removed);
  Difference(latest.index, base.index, IndexIdentifier, &c.index_added);
  Difference(base.index, latest.index, IndexIdentifier, &c.index_removed);
  return c;
}

// Where two sides' changes meet: a partition and bucket (bucket -1 standing for the whole
// partition of a dynamic-bucket table).
struct Unit {
  std::string partition;
  int32_t bucket = 0;
  bool operator<(const Unit& o) const {
    return partition != o.partition ? partition < o.partition : bucket < o.bucket;
  }
};

// The file names each side changed in each unit.
using UnitFiles = std::map<Unit, std::vector<std::string>>;

class ConflictFinder {
 public:
  ConflictFinder(const TableSchema& schema, const CoreOptions& options)
      : primary_key_(schema.is_primary_key_table()),
        whole_partition_(primary_key_ && (options.bucket() == -1 || schema.CrossPartitionUpdate())),
        partition_type_(schema.LogicalPartitionType()) {}

  // A description of every conflict; empty when the two sides merge.
  std::vector<std::string> Find(const SideChanges& source, const SideChanges& target) const {
    std::vector<std::string> conflicts;
    if (primary_key_) {
      Overlaps(UnitsOf(source, /*with_data=*/true), UnitsOf(target, /*with_data=*/true),
               &conflicts);
    } else {
      std::unordered_set<std::string> target_removed;
      for (const auto& e : target.removed) target_removed.insert(FileEntryIdentifier(e));
      for (const auto& e : source.removed) {
        if (target_removed.count(FileEntryIdentifier(e))) {
          conflicts.push_back("file " + e.file.file_name + " (partition {" +
                              DescribePartition(e.partition, *partition_type_) + "}, bucket " +
                              std::to_string(e.bucket) + ") was removed on both sides");
        }
      }
      Overlaps(UnitsOf(source, /*with_data=*/false), UnitsOf(target, /*with_data=*/false),
               &conflicts);
    }
    return conflicts;
  }

 private:
  Unit UnitOf(const std::string& partition, int32_t bucket) const {
    return Unit{partition, whole_partition_ ? -1 : bucket};
  }

  UnitFiles UnitsOf(const SideChanges& c, bool with_data) const {
    UnitFiles units;
    if (with_data) {
      for (const auto* list : {&c.added, &c.removed}) {
        for (const auto& e : *list)
          units[UnitOf(e.partition, e.bucket)].push_back(e.file.file_name);
      }
    }
    for (const auto* list : {&c.index_added, &c.index_removed}) {
      for (const auto& e : *list) units[UnitOf(e.partition, e.bucket)].push_back(e.file_name);
    }
    return units;
  }

  void Overlaps(const UnitFiles& source, const UnitFiles& target,
                std::vector<std::string>* conflicts) const {
    for (const auto& [unit, files] : source) {
      auto it = target.find(unit);
      if (it == target.end()) continue;
      std::string where = "partition {" + DescribePartition(unit.partition, *partition_type_) + "}";
      if (unit.bucket != -1 || !whole_partition_)
        where += ", bucket " + std::to_string(unit.bucket);
      conflicts->push_back(where + ": the branch changed " + Join(files) + "; the target changed " +
                           Join(it->second));
    }
  }

  static std::string Join(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  bool primary_key_;
  bool whole_partition_;
  DataTypePtr partition_type_;
};

// The snapshot property value of `key`, if any.
std::optional<std::string> Property(const Snapshot& s, std::string_view key) {
  if (!s.properties) return std::nullopt;
  for (const auto& [k, v] : *s.properties) {
    if (k == key) return v;
  }
  return std::nullopt;
}

// The last merge of `branch` recorded in the target, if any (newest first).
Result<std::optional<Snapshot>> LastRecordedMerge(const FileStoreTable& target,
                                                  const std::string& branch) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, target.snapshot_manager().ListSnapshotIds());
  for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot s, target.snapshot_manager().LoadSnapshot(*it));
    if (Property(s, kMergeBranchProperty) == branch) return std::optional<Snapshot>(std::move(s));
  }
  return std::optional<Snapshot>();
}

bool SameContent(const Snapshot& a, const Snapshot& b) {
  return a.base_manifest_list == b.base_manifest_list &&
         a.delta_manifest_list == b.delta_manifest_list && a.index_manifest == b.index_manifest;
}

// The branch snapshot the changes of both sides are taken from; nullopt for an empty table (a
// branch created without a snapshot).
Result<std::optional<Snapshot>> FindMergeBase(const FileStoreTable& target,
                                              const FileStoreTable& source) {
  const std::optional<Snapshot> empty;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> recorded,
                          LastRecordedMerge(target, source.branch()));
  if (recorded) {
    const std::string value = *Property(*recorded, kMergeBranchSnapshotProperty);
    int64_t id = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), id);
    if (error != std::errc() || end != value.data() + value.size()) {
      return Status::Corruption(
          "snapshot " + std::to_string(recorded->id) + " of " + target.path() + ": property " +
          std::string(kMergeBranchSnapshotProperty) + " is not an id: '" + value + "'");
    }
    Result<Snapshot> source_base = source.snapshot_manager().LoadSnapshot(id);
    if (!source_base.ok()) {
      return source_base.status().WithContext("the last merge of branch '" + source.branch() +
                                              "' (target snapshot " + std::to_string(recorded->id) +
                                              ")");
    }
    return std::optional<Snapshot>(*std::move(source_base));
  }
  // The fork point: the oldest snapshot the branch holds, kept by a snapshot file or a tag.
  std::optional<Snapshot> fork;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> earliest,
                          source.snapshot_manager().EarliestSnapshot());
  fork = earliest;
  SLUICE_ASSIGN_OR_RETURN(auto source_tags, source.tag_manager().ListTags());
  if (!source_tags.empty() && (!fork || source_tags.front().second.snapshot.id < fork->id)) {
    fork = source_tags.front().second.snapshot;
  }
  if (!fork) return empty;  // no snapshot: nothing to merge
  // Copied from the target (created from a tag or snapshot), or the branch's own first commit
  // (created empty): the target's snapshot (or tag) of that id tells.
  SLUICE_ASSIGN_OR_RETURN(bool target_has, target.snapshot_manager().SnapshotExists(fork->id));
  if (target_has) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot on_target, target.snapshot_manager().LoadSnapshot(fork->id));
    // A different snapshot of that id: the branch started empty.
    return SameContent(on_target, *fork) ? fork : empty;
  }
  SLUICE_ASSIGN_OR_RETURN(auto target_tags, target.tag_manager().ListTags());
  for (const auto& [name, tag] : target_tags) {
    if (tag.snapshot.id == fork->id && SameContent(tag.snapshot, *fork)) return fork;
  }
  return Status::Conflict("cannot find where branch '" + source.branch() + "' forked from " +
                          target.path() + " (branch '" + target.branch() + "'): snapshot " +
                          std::to_string(fork->id) +
                          " is gone from the target and no tag keeps it");
}

// The schema ids the source adds on top of the target's; Conflict when the target's schemas
// are not a prefix of the source's (the target's schema changed since the fork).
Result<std::vector<int64_t>> SchemasToCopy(const FileStoreTable& target,
                                           const FileStoreTable& source) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> target_ids, target.schema_manager().ListSchemaIds());
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> source_ids, source.schema_manager().ListSchemaIds());
  const std::set<int64_t> source_set(source_ids.begin(), source_ids.end());
  for (int64_t id : target_ids) {
    bool same = false;
    if (source_set.count(id)) {
      SLUICE_ASSIGN_OR_RETURN(std::string a,
                              target.io()->ReadFile(target.schema_manager().schema_path(id)));
      SLUICE_ASSIGN_OR_RETURN(std::string b,
                              source.io()->ReadFile(source.schema_manager().schema_path(id)));
      same = a == b;
    }
    if (!same) {
      return Status::Conflict("cannot merge branch '" + source.branch() + "' into '" +
                              target.branch() + "' of " + target.path() +
                              ": the target's schema changed since the fork (schema " +
                              std::to_string(id) + ")");
    }
  }
  const int64_t latest = target_ids.empty() ? -1 : target_ids.back();
  std::vector<int64_t> copy;
  for (int64_t id : source_ids) {
    if (id > latest) copy.push_back(id);
  }
  return copy;
}

// One commit message per partition and bucket holding the source's changes.
std::vector<CommitMessageImpl> MessagesOf(const SideChanges& c) {
  std::map<std::pair<std::string, int32_t>, CommitMessageImpl> by_bucket;
  auto message = [&](const std::string& partition, int32_t bucket) -> CommitMessageImpl& {
    CommitMessageImpl& m = by_bucket[{partition, bucket}];
    m.partition = partition;
    m.bucket = bucket;
    return m;
  };
  for (const auto& e : c.added) {
    CommitMessageImpl& m = message(e.partition, e.bucket);
    m.total_buckets = e.total_buckets;
    m.data.new_files.push_back(e.file);
  }
  for (const auto& e : c.removed) {
    CommitMessageImpl& m = message(e.partition, e.bucket);
    if (m.total_buckets == 0) m.total_buckets = e.total_buckets;
    m.data.deleted_files.push_back(e.file);
  }
  for (const auto& e : c.index_added)
    message(e.partition, e.bucket).data.new_index_files.push_back(e);
  for (const auto& e : c.index_removed) {
    message(e.partition, e.bucket).data.deleted_index_files.push_back(e);
  }
  std::vector<CommitMessageImpl> out;
  for (auto& [key, m] : by_bucket) out.push_back(std::move(m));
  return out;
}

}  // namespace

Result<BranchMergeResult> MergeBranch(const std::shared_ptr<const FileStoreTable>& target,
                                      std::string_view source_branch) {
  const std::string source_name = NormalizeBranch(source_branch);
  if (source_name == target->branch()) {
    return Status::InvalidArgument("cannot merge branch '" + source_name + "' into itself");
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> source, target->OnBranch(source_name));
  for (const FileStoreTable* t : {target.get(), static_cast<const FileStoreTable*>(source.get())}) {
    if (t->options().row_tracking_enabled() || t->options().data_evolution_enabled()) {
      return Status::NotSupported("cannot merge branches of " + target->path() +
                                  ": row ids of row-tracking tables are assigned per branch");
    }
  }
  BranchMergeResult result;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> source_latest,
                          source->snapshot_manager().LatestSnapshot());
  if (!source_latest) return result;
  result.branch_snapshot_id = source_latest->id;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> base, FindMergeBase(*target, *source));
  if (base) result.base_snapshot_id = base->id;
  if (base && base->id == source_latest->id) return result;  // nothing new

  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> schemas, SchemasToCopy(*target, *source));
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> target_latest,
                          target->snapshot_manager().LatestSnapshot());
  SLUICE_ASSIGN_OR_RETURN(LiveFiles source_base, ReadLive(*source, base));
  SLUICE_ASSIGN_OR_RETURN(LiveFiles source_now, ReadLive(*source, source_latest));
  SLUICE_ASSIGN_OR_RETURN(LiveFiles target_now, ReadLive(*target, target_latest));
  // A three-way merge: both sides' changes are taken against the branch's base, which the target
  // also holds (the fork, or what the last merge brought over). The target's changes therefore
  // include those it made before the last merge, which the branch never saw.
  const SideChanges source_changes = Changes(source_base, source_now);
  const SideChanges target_changes = Changes(source_base, target_now);

  const std::vector<std::string> conflicts =
      ConflictFinder(target->schema(), target->options()).Find(source_changes, target_changes);
  if (!conflicts.empty()) {
    std::string message = "cannot merge branch '" + source_name + "' into '" + target->branch() +
                          "' of " + target->path() + ": both changed the same files or buckets";
    for (const auto& c : conflicts) message += "; " + c;
    return Status::Conflict(message + "; nothing was changed");
  }
  if (source_changes.empty() && schemas.empty()) return result;

  // The branch's later schemas first: the merged snapshot may name the newest of them.
  for (int64_t id : schemas) {
    SLUICE_RETURN_NOT_OK(CopyFileDurably(*target->io(), source->schema_manager().schema_path(id),
                                         target->schema_manager().schema_path(id),
                                         /*overwrite=*/false));
  }
  result.schemas_copied = schemas;
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> reopened,
                          target->Reload(target->dynamic_options()));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                          FileStoreCommit::Make(reopened, "sluice-merge-" + NewUuidV4()));
  ManifestCommittable committable;
  committable.messages = MessagesOf(source_changes);
  committable.properties = {
      {std::string(kMergeBranchProperty), source_name},
      {std::string(kMergeBranchSnapshotProperty), std::to_string(source_latest->id)}};
  if (committable.messages.empty()) {
    // Only schemas came along: an empty commit would record nothing, so the merge point stays.
    return result;
  }
  SLUICE_ASSIGN_OR_RETURN(CommitResult committed, commit->Commit(committable));
  if (!committed.snapshot_ids.empty()) result.snapshot_id = committed.snapshot_ids.back();
  result.files_added = static_cast<int64_t>(source_changes.added.size());
  result.files_removed = static_cast<int64_t>(source_changes.removed.size());
  result.index_files_added = static_cast<int64_t>(source_changes.index_added.size());
  result.index_files_removed = static_cast<int64_t>(source_changes.index_removed.size());
  return result;
}

}  // namespace sluice
