#include "sluice/table/table_checker.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "sluice/base/json_reader.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/index/hash_index_file.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/deletion_vector_row_check.h"
#include "sluice/table/file_content_check.h"
#include "sluice/table/sink/conflict_detection.h"
#include "sluice/table/sink/index_bootstrap.h"

namespace sluice {

namespace {

// A snapshot key Java needs in every snapshot it reads (non-null in Snapshot's constructor).
constexpr std::string_view kRequiredSnapshotKeys[] = {
    "version",         "id",         "schemaId",         "baseManifestList", "deltaManifestList",
    "commitUser",      "commitKind", "commitIdentifier", "timeMillis",       "totalRecordCount",
    "deltaRecordCount"};

bool IsReadableFormat(std::string_view file_name) {
  std::optional<std::string> format = FormatFromFileName(file_name);
  return format && (*format == "parquet" || *format == "orc" || *format == "avro");
}

using FileKey = std::tuple<std::string, int32_t, int32_t, std::string>;

class Checker {
 public:
  Checker(const FileStoreTable& table, const CheckOptions& options, CheckReport* report)
      : table_(table), options_(options), report_(report) {}

  Status Run();

 private:
  void Problem(std::string line) {
    if (static_cast<int>(report_->problems.size()) < options_.max_problems) {
      report_->problems.push_back(std::move(line));
    }
  }
  bool Full() const { return static_cast<int>(report_->problems.size()) >= options_.max_problems; }

  std::string Remap(const std::string& path) const;
  // `<table>/[<data-file.path-directory>/]<partition path>bucket-<b>`, as the scan planner
  // computes it from the manifest's serialized partition.
  Result<std::string> BucketPathOf(const std::string& partition, int32_t bucket) const;
  // Existence and size; false (with a problem) when the file is missing or its size differs.
  bool CheckExists(const std::string& what, const std::string& path, std::optional<int64_t> size);
  Result<std::shared_ptr<const TableSchema>> Schema(int64_t id, const std::string& who);

  void CheckSnapshot(int64_t id);
  bool CheckSnapshotJson(int64_t id, const std::string& path);
  // The manifest list's metas (memoized); nullptr when it could not be read.
  const std::vector<ManifestFileMeta>* ManifestList(const std::string& name,
                                                    std::optional<int64_t> size);
  // The manifest's entries (memoized, checked against `meta` once); nullptr when unreadable.
  const std::vector<ManifestEntry>* Manifest(const ManifestFileMeta& meta);
  void CheckPartitionStats(const std::string& path, const ManifestFileMeta& meta,
                           const std::vector<ManifestEntry>& entries);
  // The index manifest's entries (memoized; its files checked once); nullptr when unreadable.
  const std::vector<IndexManifestEntry>* IndexManifest(const std::string& name);
  // Every deletion vector of the live index files names a live data file of its bucket.
  void CheckDeletionVectorTargets(const Snapshot& snapshot,
                                  const std::map<FileKey, const ManifestEntry*>& live);
  // Dynamic-bucket tables: each bucket's HASH file holds its row count of distinct hashes, no
  // hash is in two buckets of a partition, and every key of a live data file (as re-read) has
  // its hash in its bucket's HASH file (so each key lives in exactly one bucket).
  void CheckHashIndex(const Snapshot& snapshot,
                      const std::map<FileKey, const ManifestEntry*>& live);
  // Cross-partition upsert tables: no live key in two buckets (of one or two partitions).
  void CheckKeysInOnePlace(const Snapshot& snapshot);
  // Where an index file lies: its external path, its bucket directory
  // (`index-file-in-data-file-dir`) or the table's index/ directory.
  Result<std::string> IndexFilePathOf(const IndexManifestEntry& entry) const;
  void CheckDataFile(const ManifestEntry& entry);

  const FileStoreTable& table_;
  const CheckOptions& options_;
  CheckReport* report_;
  DataTypePtr partition_type_;

  std::map<std::string, std::optional<std::vector<ManifestFileMeta>>> manifest_lists_;
  std::map<std::string, std::optional<std::vector<ManifestEntry>>> manifests_;
  std::map<std::string, std::optional<std::vector<IndexManifestEntry>>> index_manifests_;
  // The live files after the last snapshot checked, for the next snapshot's base.
  std::optional<std::pair<int64_t, std::set<FileKey>>> previous_live_;
  std::set<std::string> index_files_;
  std::set<std::string> data_files_;
  bool dynamic_bucket_ = false;
  bool cross_partition_ = false;
  // Dynamic buckets: the key hashes of each data file read (by path), and the hashes of each
  // HASH file (by path; nullopt when unreadable).
  std::map<std::string, std::set<int32_t>> file_key_hashes_;
  std::map<std::string, std::optional<std::vector<int32_t>>> hash_files_;
  std::map<int64_t, std::shared_ptr<const TableSchema>> schemas_;
};

Result<std::string> Checker::BucketPathOf(const std::string& partition, int32_t bucket) const {
  return table_.path_factory().BucketPathOfSerialized(partition, bucket);
}

std::string Checker::Remap(const std::string& path) const {
  for (const auto& [prefix, replacement] : options_.path_remap) {
    if (path.compare(0, prefix.size(), prefix) == 0) {
      std::string base = !replacement.empty() && replacement[0] == '/'
                             ? replacement
                             : JoinPath(table_.path(), replacement);
      return JoinPath(base, std::string_view(path).substr(prefix.size()));
    }
  }
  return StripFileScheme(path);
}

bool Checker::CheckExists(const std::string& what, const std::string& path,
                          std::optional<int64_t> size) {
  Result<FileStatus> status = table_.io()->GetStatus(path);
  if (!status.ok()) {
    Problem(what + " " + path +
            (status.status().IsNotFound() ? " does not exist" : ": " + status.status().ToString()));
    return false;
  }
  if (size && status->size != *size) {
    Problem(what + " " + path + " has " + std::to_string(status->size) +
            " bytes, its metadata records " + std::to_string(*size));
    return false;
  }
  return true;
}

Result<std::shared_ptr<const TableSchema>> Checker::Schema(int64_t id, const std::string& who) {
  auto it = schemas_.find(id);
  if (it != schemas_.end()) {
    if (it->second == nullptr) return Status::NotFound("schema " + std::to_string(id));
    return it->second;
  }
  Result<std::shared_ptr<const TableSchema>> schema = table_.SchemaById(id);
  schemas_[id] = schema.ok() ? *schema : nullptr;
  if (!schema.ok()) {
    Problem(who + ": schema " + std::to_string(id) +
            " does not resolve: " + schema.status().ToString());
  }
  return schema;
}

Status Checker::Run() {
  partition_type_ = table_.schema().LogicalPartitionType();
  // HASH_DYNAMIC only: cross-partition upsert tables keep no hash index.
  dynamic_bucket_ = table_.schema().is_primary_key_table() && table_.options().bucket() == -1 &&
                    !table_.schema().CrossPartitionUpdate();
  cross_partition_ = table_.schema().is_primary_key_table() && table_.options().bucket() == -1 &&
                     table_.schema().CrossPartitionUpdate();
  const SnapshotManager& snapshots = table_.snapshot_manager();
  std::vector<int64_t> ids;
  if (options_.all_snapshots) {
    SLUICE_ASSIGN_OR_RETURN(ids, snapshots.ListSnapshotIds());
  } else {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
    if (latest) ids.push_back(*latest);
  }
  for (int64_t id : ids) {
    if (Full()) break;
    CheckSnapshot(id);
    ++report_->snapshots;
  }
  if (options_.read_data_files && !ids.empty() && !Full() &&
      table_.schema().is_primary_key_table() && table_.options().deletion_vectors_enabled()) {
    CheckDeletionVectorRows(table_, options_.path_remap,
                            [this](std::string line) { Problem(std::move(line)); });
  }
  return Status::OK();
}

bool Checker::CheckSnapshotJson(int64_t id, const std::string& path) {
  Result<std::string> text = table_.io()->ReadFile(path);
  if (!text.ok()) {
    Problem("snapshot " + path + ": " + text.status().ToString());
    return false;
  }
  Result<Json> json = ParseJson(*text);
  if (!json.ok() || !json->is_object()) {
    Problem("snapshot " + path + " is not a JSON object");
    return false;
  }
  bool ok = true;
  for (std::string_view key : kRequiredSnapshotKeys) {
    const Json* value = FindMember(*json, key);
    if (value == nullptr || value->is_null()) {
      Problem("snapshot " + path + " lacks the key '" + std::string(key) + "'");
      ok = false;
    }
  }
  return ok;
}

void Checker::CheckSnapshot(int64_t id) {
  const std::string path = table_.snapshot_manager().snapshot_path(id);
  if (!CheckSnapshotJson(id, path)) return;
  Result<Snapshot> loaded = table_.snapshot_manager().LoadSnapshot(id);
  if (!loaded.ok()) {
    Problem("snapshot " + path + ": " + loaded.status().ToString());
    return;
  }
  const Snapshot& snapshot = *loaded;
  if (snapshot.id != id) {
    Problem("snapshot " + path + " has id " + std::to_string(snapshot.id));
  }
  if (snapshot.version != Snapshot::kCurrentVersion) {
    Problem("snapshot " + path + " has version " + std::to_string(snapshot.version) +
            ", Java writes " + std::to_string(Snapshot::kCurrentVersion));
  }
  // Resolving records a problem when the schema is missing; the checker goes on regardless.
  Schema(snapshot.schema_id, "snapshot " + path).status().IgnoreError();

  const std::vector<ManifestFileMeta>* base =
      ManifestList(snapshot.base_manifest_list, snapshot.base_manifest_list_size);
  const std::vector<ManifestFileMeta>* delta =
      ManifestList(snapshot.delta_manifest_list, snapshot.delta_manifest_list_size);
  if (snapshot.changelog_manifest_list) {
    if (const auto* changelog = ManifestList(*snapshot.changelog_manifest_list,
                                             snapshot.changelog_manifest_list_size)) {
      for (const ManifestFileMeta& meta : *changelog) {
        if (const auto* entries = Manifest(meta)) {
          for (const ManifestEntry& entry : *entries) CheckDataFile(entry);
        }
      }
    }
  }
  if (snapshot.index_manifest) IndexManifest(*snapshot.index_manifest);
  if (snapshot.statistics) {
    CheckExists("statistics file", StatisticsFilePath(table_.path(), *snapshot.statistics),
                std::nullopt);
  }
  if (base == nullptr || delta == nullptr) return;

  // Fold base, then delta: what is live after this commit.
  std::map<FileKey, const ManifestEntry*> live;
  int64_t delta_added = 0;
  int64_t delta_deleted = 0;
  bool complete = true;
  auto fold = [&](const std::vector<ManifestFileMeta>& metas, bool is_delta) {
    for (const ManifestFileMeta& meta : metas) {
      const std::vector<ManifestEntry>* entries = Manifest(meta);
      if (entries == nullptr) {
        complete = false;
        continue;
      }
      const std::string manifest = ManifestFilePath(table_.path(), meta.file_name);
      for (const ManifestEntry& entry : *entries) {
        FileKey key{entry.partition, entry.bucket, entry.file.level, entry.file.file_name};
        if (entry.kind == FileKind::kAdd) {
          if (is_delta) delta_added += entry.file.row_count;
          if (!live.emplace(key, &entry).second) {
            Problem("manifest " + manifest + " adds " + entry.file.file_name + " (bucket " +
                    std::to_string(entry.bucket) + ", level " + std::to_string(entry.file.level) +
                    "), which snapshot " + std::to_string(id) + " already holds");
          }
        } else {
          if (is_delta) delta_deleted += entry.file.row_count;
          if (live.erase(key) == 0) {
            Problem("manifest " + manifest + " deletes " + entry.file.file_name + " (bucket " +
                    std::to_string(entry.bucket) + ", level " + std::to_string(entry.file.level) +
                    "), which no earlier entry of snapshot " + std::to_string(id) + " adds");
          }
        }
      }
    }
  };
  fold(*base, false);
  // The base of a snapshot is what the previous snapshot left live.
  if (complete && previous_live_ && previous_live_->first == id - 1) {
    std::set<FileKey> base_files;
    for (const auto& [key, entry] : live) base_files.insert(key);
    if (base_files != previous_live_->second) {
      std::string example;
      for (const FileKey& key : base_files) {
        if (previous_live_->second.count(key) == 0) example = std::get<3>(key) + " appears";
      }
      for (const FileKey& key : previous_live_->second) {
        if (base_files.count(key) == 0) example = std::get<3>(key) + " is missing";
      }
      Problem("snapshot " + path + ": its base manifest list " + snapshot.base_manifest_list +
              " does not hold the files snapshot " + std::to_string(id - 1) + " left live (" +
              example + ")");
    }
  }
  fold(*delta, true);
  previous_live_.reset();
  if (!complete) return;
  previous_live_.emplace(id, std::set<FileKey>());
  for (const auto& [key, entry] : live) previous_live_->second.insert(key);
  if (snapshot.index_manifest) CheckDeletionVectorTargets(snapshot, live);

  int64_t total = 0;
  for (const auto& [key, entry] : live) {
    total += entry->file.row_count;
    CheckDataFile(*entry);
  }
  if (dynamic_bucket_) CheckHashIndex(snapshot, live);
  if (cross_partition_ && options_.read_data_files) CheckKeysInOnePlace(snapshot);
  if (snapshot.total_record_count && *snapshot.total_record_count != total) {
    Problem("snapshot " + path + ": totalRecordCount is " +
            std::to_string(*snapshot.total_record_count) + ", its live files hold " +
            std::to_string(total) + " rows");
  }
  if (snapshot.delta_record_count && *snapshot.delta_record_count != delta_added - delta_deleted) {
    Problem("snapshot " + path + ": deltaRecordCount is " +
            std::to_string(*snapshot.delta_record_count) + ", its delta manifests add " +
            std::to_string(delta_added) + " and delete " + std::to_string(delta_deleted) + " rows");
  }
}

const std::vector<ManifestFileMeta>* Checker::ManifestList(const std::string& name,
                                                           std::optional<int64_t> size) {
  auto it = manifest_lists_.find(name);
  if (it != manifest_lists_.end()) return it->second ? &*it->second : nullptr;
  ++report_->manifests;
  const std::string path = ManifestFilePath(table_.path(), name);
  std::optional<std::vector<ManifestFileMeta>>& slot = manifest_lists_[name];
  if (!CheckExists("manifest list", path, size) && !table_.io()->Exists(path).ValueOr(false)) {
    return nullptr;
  }
  Result<std::vector<ManifestFileMeta>> metas = ReadManifestList(*table_.io(), path);
  if (!metas.ok()) {
    Problem("manifest list " + path + ": " + metas.status().ToString());
    return nullptr;
  }
  slot = std::move(*metas);
  return &*slot;
}

const std::vector<ManifestEntry>* Checker::Manifest(const ManifestFileMeta& meta) {
  auto it = manifests_.find(meta.file_name);
  if (it != manifests_.end()) return it->second ? &*it->second : nullptr;
  ++report_->manifests;
  const std::string path = ManifestFilePath(table_.path(), meta.file_name);
  std::optional<std::vector<ManifestEntry>>& slot = manifests_[meta.file_name];
  if (!CheckExists("manifest", path, meta.file_size) && !table_.io()->Exists(path).ValueOr(false)) {
    return nullptr;
  }
  Result<std::vector<ManifestEntry>> entries = ReadManifestFile(*table_.io(), path);
  if (!entries.ok()) {
    Problem("manifest " + path + ": " + entries.status().ToString());
    return nullptr;
  }
  int64_t added = 0;
  int64_t deleted = 0;
  std::optional<int32_t> min_bucket, max_bucket, min_level, max_level;
  for (const ManifestEntry& e : *entries) {
    (e.kind == FileKind::kAdd ? added : deleted) += 1;
    min_bucket = std::min(min_bucket.value_or(e.bucket), e.bucket);
    max_bucket = std::max(max_bucket.value_or(e.bucket), e.bucket);
    min_level = std::min(min_level.value_or(e.file.level), e.file.level);
    max_level = std::max(max_level.value_or(e.file.level), e.file.level);
  }
  if (added != meta.num_added_files || deleted != meta.num_deleted_files) {
    Problem("manifest " + path + " holds " + std::to_string(added) + " ADD and " +
            std::to_string(deleted) + " DELETE entries, its manifest list records " +
            std::to_string(meta.num_added_files) + " and " +
            std::to_string(meta.num_deleted_files));
  }
  auto check_range = [&](std::string_view what, const std::optional<int32_t>& recorded,
                         const std::optional<int32_t>& actual) {
    if (recorded && actual && *recorded != *actual) {
      Problem("manifest " + path + ": its manifest list records " + std::string(what) + " " +
              std::to_string(*recorded) + ", its entries have " + std::to_string(*actual));
    }
  };
  check_range("min bucket", meta.min_bucket, min_bucket);
  check_range("max bucket", meta.max_bucket, max_bucket);
  check_range("min level", meta.min_level, min_level);
  check_range("max level", meta.max_level, max_level);
  // Resolving records a problem when the schema is missing; the checker goes on regardless.
  Schema(meta.schema_id, "manifest " + path).status().IgnoreError();
  CheckPartitionStats(path, meta, *entries);
  slot = std::move(*entries);
  return &*slot;
}

void Checker::CheckPartitionStats(const std::string& path, const ManifestFileMeta& meta,
                                  const std::vector<ManifestEntry>& entries) {
  std::vector<std::string> problems;
  CheckManifestPartitionStats("manifest " + path, meta.partition_stats, *partition_type_, entries,
                              &problems);
  for (std::string& line : problems) Problem(std::move(line));
}

const std::vector<IndexManifestEntry>* Checker::IndexManifest(const std::string& name) {
  auto it = index_manifests_.find(name);
  if (it != index_manifests_.end()) return it->second ? &*it->second : nullptr;
  std::optional<std::vector<IndexManifestEntry>>& slot = index_manifests_[name];
  ++report_->manifests;
  const std::string path = ManifestFilePath(table_.path(), name);
  if (!CheckExists("index manifest", path, std::nullopt)) return nullptr;
  Result<std::vector<IndexManifestEntry>> entries = ReadIndexManifest(*table_.io(), path);
  if (!entries.ok()) {
    Problem("index manifest " + path + ": " + entries.status().ToString());
    return nullptr;
  }
  for (const IndexManifestEntry& e : *entries) {
    if (e.kind != FileKind::kAdd) continue;
    Result<std::string> file_or = IndexFilePathOf(e);
    if (!file_or.ok()) {
      Problem("index manifest " + path + ": " + e.file_name + ": " + file_or.status().ToString());
      continue;
    }
    const std::string& file = *file_or;
    if (!index_files_.insert(file).second) continue;
    ++report_->index_files;
    if (!CheckExists("index file", file, e.file_size)) continue;
    if (!e.deletion_vectors) continue;
    for (const DeletionVectorMeta& dv : *e.deletion_vectors) {
      if (dv.offset < 0 || dv.length < 0 ||
          static_cast<int64_t>(dv.offset) + dv.length > e.file_size) {
        Problem("index file " + file + ": the deletion vector of " + dv.data_file_name +
                " (offset " + std::to_string(dv.offset) + ", length " + std::to_string(dv.length) +
                ") lies outside its " + std::to_string(e.file_size) + " bytes");
      }
    }
  }
  slot = std::move(*entries);
  return &*slot;
}

Result<std::string> Checker::IndexFilePathOf(const IndexManifestEntry& e) const {
  if (e.external_path) return Remap(*e.external_path);
  return table_.path_factory().IndexFilePathOfSerialized(e.partition, e.bucket, e.file_name);
}

void Checker::CheckHashIndex(const Snapshot& snapshot,
                             const std::map<FileKey, const ManifestEntry*>& live) {
  const std::string snapshot_name = "snapshot " + std::to_string(snapshot.id);
  auto describe = [&](const std::string& partition, int32_t bucket) {
    return "bucket " + std::to_string(bucket) + " of partition {" +
           DescribePartition(partition, *partition_type_) + "}";
  };
  // (partition, bucket) -> the hashes of its HASH file.
  std::map<std::pair<std::string, int32_t>, const std::vector<int32_t>*> bucket_hashes;
  std::map<std::pair<std::string, int32_t>, std::string> bucket_file;
  if (snapshot.index_manifest) {
    const std::vector<IndexManifestEntry>* entries = IndexManifest(*snapshot.index_manifest);
    if (entries == nullptr) return;
    // partition -> hash -> bucket
    std::map<std::string, std::map<int32_t, int32_t>> owner;
    for (const IndexManifestEntry& e : *entries) {
      if (e.kind != FileKind::kAdd || e.index_type != kHashIndexType) continue;
      Result<std::string> path = IndexFilePathOf(e);
      if (!path.ok()) continue;  // reported by IndexManifest
      auto [slot, fresh] = hash_files_.try_emplace(*path);
      if (fresh) {
        Result<std::vector<int32_t>> hashes = ReadHashIndexFile(*table_.io(), *path);
        if (hashes.ok()) {
          slot->second = std::move(*hashes);
          std::set<int32_t> distinct(slot->second->begin(), slot->second->end());
          if (distinct.size() != slot->second->size()) {
            Problem("hash index file " + *path + " holds " +
                    std::to_string(slot->second->size() - distinct.size()) +
                    " repeated hashes (Java writes a set)");
          }
          if (static_cast<int64_t>(slot->second->size()) != e.row_count) {
            Problem("hash index file " + *path + " holds " + std::to_string(slot->second->size()) +
                    " hashes, its index manifest entry records " + std::to_string(e.row_count));
          }
        } else {
          Problem("hash index file " + *path + ": " + hashes.status().ToString());
        }
      }
      if (!slot->second) continue;
      const auto key = std::make_pair(e.partition, e.bucket);
      if (!bucket_file.emplace(key, e.file_name).second) {
        Problem(snapshot_name + ": " + describe(e.partition, e.bucket) +
                " has two hash index files, " + bucket_file[key] + " and " + e.file_name);
        continue;
      }
      bucket_hashes[key] = &*slot->second;
      std::map<int32_t, int32_t>& hash_owner = owner[e.partition];
      for (int32_t h : *slot->second) {
        auto [it, inserted] = hash_owner.emplace(h, e.bucket);
        if (!inserted && it->second != e.bucket) {
          Problem(snapshot_name + ": key hash " + std::to_string(h) + " is in the hash index of " +
                  describe(e.partition, e.bucket) + " and of bucket " + std::to_string(it->second) +
                  " (a key must live in one bucket)");
          break;
        }
      }
    }
  }
  for (const auto& [key, entry] : live) {
    const auto& [partition, bucket, level, file_name] = key;
    if (bucket < 0) {
      Problem(snapshot_name + ": data file " + file_name + " is in bucket " +
              std::to_string(bucket) + " of a dynamic-bucket table");
      continue;
    }
    Result<std::string> bucket_path = BucketPathOf(partition, bucket);
    if (!bucket_path.ok()) continue;
    const std::string path = entry->file.external_path ? Remap(*entry->file.external_path)
                                                       : DataFilePath(*bucket_path, file_name);
    auto hashes = file_key_hashes_.find(path);
    if (hashes == file_key_hashes_.end()) continue;  // not re-read
    auto index = bucket_hashes.find({partition, bucket});
    if (index == bucket_hashes.end()) {
      if (!hashes->second.empty()) {
        Problem(snapshot_name + ": data file " + file_name + " of " + describe(partition, bucket) +
                " holds keys but the bucket has no hash index");
      }
      continue;
    }
    const std::unordered_set<int32_t> in_index(index->second->begin(), index->second->end());
    for (int32_t h : hashes->second) {
      if (in_index.count(h) == 0) {
        Problem(snapshot_name + ": data file " + file_name + " of " + describe(partition, bucket) +
                " holds a key with hash " + std::to_string(h) + ", which the bucket's hash index " +
                bucket_file[{partition, bucket}] + " does not hold");
        break;
      }
    }
  }
}

void Checker::CheckKeysInOnePlace(const Snapshot& snapshot) {
  const DataTypePtr key_type = table_.schema().LogicalPrimaryKeysType();
  // key -> (partition, bucket) of its first sight.
  std::unordered_map<std::string, std::pair<std::string, int32_t>> where;
  IndexBootstrapOptions read;
  read.snapshot_id = snapshot.id;
  Status st = BootstrapKeys(
      table_, read,
      [&](const std::string& partition, int32_t bucket, std::string_view key) -> Status {
        auto [it, fresh] = where.try_emplace(std::string(key), partition, bucket);
        if (fresh) return Status::OK();
        Result<ValueList> values = DecodeBinaryRow(key, *key_type);
        Problem("snapshot " + std::to_string(snapshot.id) + ": primary key " +
                (values.ok() ? Value::Row(*values).DebugString() : std::string("(undecodable)")) +
                " is live in bucket " + std::to_string(it->second.second) + " of partition {" +
                DescribePartition(it->second.first, *partition_type_) + "} and in bucket " +
                std::to_string(bucket) + " of partition {" +
                DescribePartition(partition, *partition_type_) +
                "} (a cross-partition upsert table holds each key once)");
        return Full() ? Status::OutOfRange("enough problems") : Status::OK();
      });
  if (!st.ok() && st.code() != StatusCode::kOutOfRange) {
    Problem("snapshot " + std::to_string(snapshot.id) +
            ": reading its primary keys: " + st.ToString());
  }
}

void Checker::CheckDeletionVectorTargets(const Snapshot& snapshot,
                                         const std::map<FileKey, const ManifestEntry*>& live) {
  const std::vector<IndexManifestEntry>* entries = IndexManifest(*snapshot.index_manifest);
  if (entries == nullptr) return;
  std::map<std::tuple<std::string, int32_t, std::string>, const IndexManifestEntry*> index_files;
  for (const IndexManifestEntry& e : *entries) {
    auto key = std::make_tuple(e.partition, e.bucket, e.file_name);
    if (e.kind == FileKind::kAdd) {
      index_files[key] = &e;
    } else {
      index_files.erase(key);
    }
  }
  std::set<std::tuple<std::string, int32_t, std::string>> live_files;
  for (const auto& [key, entry] : live) {
    live_files.emplace(std::get<0>(key), std::get<1>(key), std::get<3>(key));
  }
  for (const auto& [key, e] : index_files) {
    if (!e->deletion_vectors) continue;
    for (const DeletionVectorMeta& dv : *e->deletion_vectors) {
      if (live_files.count({e->partition, e->bucket, dv.data_file_name}) == 0) {
        Problem("index file " + e->file_name + " of snapshot " + std::to_string(snapshot.id) +
                " holds a deletion vector of " + dv.data_file_name +
                ", which is not a live data file of bucket " + std::to_string(e->bucket));
      }
    }
  }
}

void Checker::CheckDataFile(const ManifestEntry& entry) {
  if (entry.kind != FileKind::kAdd || Full()) return;
  const DataFileMeta& file = entry.file;
  Result<std::string> bucket_path_or = BucketPathOf(entry.partition, entry.bucket);
  if (!bucket_path_or.ok()) {
    Problem("data file " + file.file_name + ": " + bucket_path_or.status().ToString());
    return;
  }
  const std::string& bucket_path = *bucket_path_or;
  const std::string path =
      file.external_path ? Remap(*file.external_path) : DataFilePath(bucket_path, file.file_name);
  if (!data_files_.insert(path).second) return;
  ++report_->data_files;

  Result<std::shared_ptr<const TableSchema>> schema = Schema(file.schema_id, "data file " + path);
  if (!CheckExists("data file", path, file.file_size)) return;
  for (const std::string& extra : file.extra_files) {
    CheckExists("extra file of data file " + path + ":", JoinPath(bucket_path, extra),
                std::nullopt);
  }
  if (file.min_sequence_number > file.max_sequence_number) {
    Problem("data file " + path + ": min sequence number " +
            std::to_string(file.min_sequence_number) + " > max " +
            std::to_string(file.max_sequence_number));
  }
  if (!options_.read_data_files || !schema.ok()) return;
  if (!IsReadableFormat(file.file_name)) {
    ++report_->files_not_read;
    return;
  }
  DataFileContentCheck content;
  Status st = CheckDataFileContent(table_, path, entry, **schema, dynamic_bucket_, &content);
  for (std::string& line : content.problems) Problem(std::move(line));
  if (!st.ok()) {
    Problem("data file " + path + ": " + st.ToString());
    return;
  }
  if (content.key_hashes) file_key_hashes_[path] = std::move(*content.key_hashes);
  ++report_->files_read;
}

}  // namespace

Result<CheckReport> RunTableCheck(const FileStoreTable& table, const CheckOptions& options) {
  CheckReport report;
  Checker checker(table, options, &report);
  SLUICE_RETURN_NOT_OK(checker.Run());
  return report;
}

Status CheckTable(const FileStoreTable& table, const CheckOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(CheckReport report, RunTableCheck(table, options));
  if (report.ok()) return Status::OK();
  std::string message = "table " + table.path() + " fails its structural check (" +
                        std::to_string(report.problems.size()) + " problems):";
  for (const std::string& line : report.problems) message += "\n  " + line;
  return Status::Corruption(std::move(message));
}

}  // namespace sluice
