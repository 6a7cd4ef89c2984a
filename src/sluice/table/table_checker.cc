#include "sluice/table/table_checker.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "sluice/base/json_reader.h"
#include "sluice/base/string_util.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/index/hash_index_file.h"
#include "sluice/io/stats_mode.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/row/binary_row.h"
#include "sluice/row_kind.h"
#include "sluice/table/deletion_vector_row_check.h"
#include "sluice/table/sink/conflict_detection.h"
#include "sluice/table/sink/index_bootstrap.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

// Field ids of the system columns of primary-key data files (Java SpecialFields).
constexpr int32_t kSequenceNumberFieldId = 2147483646;
constexpr int32_t kValueKindFieldId = 2147483645;
constexpr int32_t kRowIdFieldId = 2147483642;
// Since Paimon 1.0 the `_KEY_*` columns are collected as truncate(128) whatever the table mode.
constexpr int32_t kSystemColumnTruncateLength = 128;

// A snapshot key Java needs in every snapshot it reads (non-null in Snapshot's constructor).
constexpr std::string_view kRequiredSnapshotKeys[] = {
    "version",         "id",         "schemaId",         "baseManifestList", "deltaManifestList",
    "commitUser",      "commitKind", "commitIdentifier", "timeMillis",       "totalRecordCount",
    "deltaRecordCount"};

bool IsFloating(const DataType& type) {
  return type.root() == TypeRoot::kFloat || type.root() == TypeRoot::kDouble;
}

bool IsNaN(const Value& v) {
  return v.kind() == Value::Kind::kFloat ? std::isnan(v.float32()) : std::isnan(v.float64());
}

// What re-reading a file gives for one column.
struct ActualStats {
  std::optional<Value> min;
  std::optional<Value> max;
  // Floating columns: the bounds of the values other than NaN (Parquet and ORC writers leave
  // NaN out of their statistics; Java's own collectors, used for Avro, order it last).
  std::optional<Value> min_no_nan;
  std::optional<Value> max_no_nan;
  int64_t null_count = 0;

  void Add(const Value& v, const DataType& type) {
    if (v.is_null()) {
      ++null_count;
      return;
    }
    if (!min || CompareValues(v, *min, type) < 0) min = v;
    if (!max || CompareValues(v, *max, type) > 0) max = v;
    if (IsFloating(type) && !IsNaN(v)) {
      if (!min_no_nan || CompareValues(v, *min_no_nan, type) < 0) min_no_nan = v;
      if (!max_no_nan || CompareValues(v, *max_no_nan, type) > 0) max_no_nan = v;
    }
  }
};

// The min and max a collector in `mode` records for `actual`: {min, max}, each nullopt when it
// records null. `skip_nan`: the format's statistics leave NaN out (Parquet, ORC).
std::pair<std::optional<Value>, std::optional<Value>> ExpectedBounds(const ActualStats& actual,
                                                                     const DataType& type,
                                                                     StatsMode mode,
                                                                     bool skip_nan) {
  if (mode.kind == StatsMode::Kind::kNone || mode.kind == StatsMode::Kind::kCounts || !actual.min) {
    return {std::nullopt, std::nullopt};
  }
  if (skip_nan && IsFloating(type)) return {actual.min_no_nan, actual.max_no_nan};
  ColumnStats kept = ApplyStatsMode({actual.min, actual.max, actual.null_count}, mode, type);
  return {kept.min, kept.max};
}

std::string Render(const std::optional<Value>& v) { return v ? v->DebugString() : "null"; }

int CompareKeys(const ValueList& a, const ValueList& b, const std::vector<DataField>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    int c = CompareValues(a[i], b[i], *fields[i].type);
    if (c != 0) return c;
  }
  return 0;
}

DataTypePtr NullableRow(const std::vector<DataField>& fields) {
  std::vector<DataField> out = fields;
  for (DataField& f : out) f.type = f.type->WithNullable(true);
  return DataType::Row(std::move(out));
}

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
  Status ReadDataFile(const std::string& path, const ManifestEntry& entry,
                      const TableSchema& schema);
  void CompareStats(const std::string& path, std::string_view which, const SimpleStats& stats,
                    const std::vector<DataField>& columns, const std::vector<ActualStats>& actual,
                    const std::vector<std::vector<StatsMode>>& modes, bool orc_file = false,
                    bool floats_skip_nan = false);
  // The stats mode of each of `columns` in a file at `level` whose value columns are
  // `all_columns` (io's StatsModesOfColumns, the writer's rule); a malformed mode option is an
  // InvalidArgument naming it.
  Result<std::vector<StatsMode>> ValueStatsModes(const std::vector<std::string>& columns,
                                                 const std::vector<std::string>& all_columns,
                                                 int32_t level, bool avro_file) const;

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
  const std::vector<DataField>& fields = partition_type_->fields();
  if (fields.empty()) return;
  std::vector<ActualStats> actual(fields.size());
  for (const ManifestEntry& e : entries) {
    Result<ValueList> values = DecodeSerializedBinaryRow(e.partition, *partition_type_);
    if (!values.ok()) {
      Problem("manifest " + path + ": partition of " + e.file.file_name + ": " +
              values.status().ToString());
      return;
    }
    for (size_t i = 0; i < fields.size(); ++i) actual[i].Add((*values)[i], *fields[i].type);
  }
  const std::vector<std::vector<StatsMode>> modes(fields.size(), {StatsMode::Full()});
  CompareStats("manifest " + path, "partition", meta.partition_stats, fields, actual, modes);
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
  Status st = ReadDataFile(path, entry, **schema);
  if (!st.ok()) {
    Problem("data file " + path + ": " + st.ToString());
    return;
  }
  ++report_->files_read;
}

Result<std::vector<StatsMode>> Checker::ValueStatsModes(const std::vector<std::string>& columns,
                                                        const std::vector<std::string>& all_columns,
                                                        int32_t level, bool avro_file) const {
  const CoreOptions& options = table_.options();
  SLUICE_ASSIGN_OR_RETURN(auto per_level, StatsModesPerLevel(options));
  std::optional<std::string> level_mode;
  if (auto it = per_level.find(level); it != per_level.end()) level_mode = it->second;
  SLUICE_ASSIGN_OR_RETURN(StatsMode table_mode,
                          StatsMode::Parse(level_mode.value_or(options.metadata_stats_mode())));
  // Java assigns modes over all value columns in order (the first-N limit counts them).
  SLUICE_ASSIGN_OR_RETURN(std::vector<StatsMode> all_modes,
                          StatsModesOfColumns(options, all_columns, avro_file, level_mode));
  std::map<std::string, StatsMode> by_name;
  for (size_t i = 0; i < all_columns.size(); ++i) by_name[all_columns[i]] = all_modes[i];
  std::vector<StatsMode> modes;
  for (const std::string& name : columns) {
    auto it = by_name.find(name);
    modes.push_back(it != by_name.end() ? it->second : table_mode);
  }
  return modes;
}

void Checker::CompareStats(const std::string& who, std::string_view which, const SimpleStats& stats,
                           const std::vector<DataField>& columns,
                           const std::vector<ActualStats>& actual,
                           const std::vector<std::vector<StatsMode>>& modes, bool orc_file,
                           bool floats_skip_nan) {
  const DataTypePtr row_type = NullableRow(columns);
  Result<ValueList> mins = DecodeSerializedBinaryRow(stats.min_values, *row_type);
  Result<ValueList> maxs = DecodeSerializedBinaryRow(stats.max_values, *row_type);
  if (!mins.ok() || !maxs.ok()) {
    Problem(who + ": " + std::string(which) + " stats rows do not decode as " +
            std::to_string(columns.size()) +
            " columns: " + (!mins.ok() ? mins.status() : maxs.status()).ToString());
    return;
  }
  if (stats.null_counts && stats.null_counts->size() != columns.size()) {
    Problem(who + ": " + std::string(which) + " stats have " +
            std::to_string(stats.null_counts->size()) + " null counts for " +
            std::to_string(columns.size()) + " columns");
    return;
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const DataField& column = columns[i];
    const std::string name = std::string(which) + " column '" + column.name + "'";
    if (stats.null_counts && (*stats.null_counts)[i] &&
        *(*stats.null_counts)[i] != actual[i].null_count) {
      Problem(who + ": " + name + " records " + std::to_string(*(*stats.null_counts)[i]) +
              " nulls, the file holds " + std::to_string(actual[i].null_count));
    }
    // Complex types carry no bounds (Java leaves them null); unknown bounds are sound.
    if (column.type->IsNested()) continue;
    // Java's ORC statistics of TIMESTAMP WITH LOCAL TIME ZONE columns are shifted by the
    // writing JVM's time zone (legacy timestamp mode): not comparable with the values.
    if (orc_file && column.type->root() == TypeRoot::kTimestampLtz) continue;
    const Value& min = (*mins)[i];
    const Value& max = (*maxs)[i];
    if (min.is_null() && max.is_null()) continue;
    bool matched = false;
    std::pair<std::optional<Value>, std::optional<Value>> expected;
    for (const StatsMode& mode : modes[i]) {
      expected = ExpectedBounds(actual[i], *column.type, mode, floats_skip_nan);
      auto same = [&](const Value& recorded, const std::optional<Value>& want) {
        if (recorded.is_null()) return true;
        if (!want) return false;
        // A zero bound may carry either sign: Parquet writes a zero min as -0.0 and a zero
        // max as +0.0 whatever the data holds.
        if (IsFloating(*column.type) && !IsNaN(recorded) && !IsNaN(*want)) {
          return recorded.kind() == Value::Kind::kFloat ? recorded.float32() == want->float32()
                                                        : recorded.float64() == want->float64();
        }
        return ValuesEqual(recorded, *want, *column.type);
      };
      if (same(min, expected.first) && same(max, expected.second)) {
        matched = true;
        break;
      }
    }
    if (!matched) {
      Problem(who + ": " + name + " records min " + min.DebugString() + ", max " +
              max.DebugString() + "; the file gives min " + Render(expected.first) + ", max " +
              Render(expected.second));
    }
  }
}

Status Checker::ReadDataFile(const std::string& path, const ManifestEntry& entry,
                             const TableSchema& schema) {
  const DataFileMeta& meta = entry.file;
  const bool primary_key = !schema.primary_keys().empty();

  // The value columns the file holds: the schema's, or only `_WRITE_COLS` when recorded.
  std::vector<DataField> value_fields;
  if (meta.write_cols) {
    for (const std::string& name : *meta.write_cols) {
      if (name == "_ROW_ID") {
        value_fields.push_back(
            {kRowIdFieldId, name, DataType::BigInt(), std::nullopt, std::nullopt});
        continue;
      }
      if (name == "_SEQUENCE_NUMBER") {
        value_fields.push_back(
            {kSequenceNumberFieldId, name, DataType::BigInt(), std::nullopt, std::nullopt});
        continue;
      }
      const DataField* f = schema.FieldByName(name);
      if (f == nullptr) {
        return Status::Corruption("write column '" + name + "' is not in schema " +
                                  std::to_string(schema.id()));
      }
      value_fields.push_back(*f);
    }
  } else {
    value_fields = schema.fields();
  }
  std::vector<DataField> read_fields;
  if (primary_key) {
    read_fields.push_back({kSequenceNumberFieldId, "_SEQUENCE_NUMBER", DataType::BigInt(false),
                           std::nullopt, std::nullopt});
    read_fields.push_back(
        {kValueKindFieldId, "_VALUE_KIND", DataType::TinyInt(false), std::nullopt, std::nullopt});
  }
  const size_t value_offset = read_fields.size();
  read_fields.insert(read_fields.end(), value_fields.begin(), value_fields.end());
  const DataTypePtr read_type = DataType::Row(read_fields);

  // Value stats columns: `_VALUE_STATS_COLS` when recorded, else every value column.
  std::vector<std::string> value_names;
  for (const DataField& f : value_fields) value_names.push_back(f.name);
  const std::vector<std::string> stats_names = meta.value_stats_cols.value_or(value_names);
  std::vector<DataField> stats_fields;
  std::vector<size_t> stats_index;
  for (const std::string& name : stats_names) {
    auto it = std::find(value_names.begin(), value_names.end(), name);
    if (it == value_names.end()) {
      return Status::Corruption("value stats column '" + name + "' is not a column of the file");
    }
    stats_index.push_back(value_offset + static_cast<size_t>(it - value_names.begin()));
    stats_fields.push_back(value_fields[static_cast<size_t>(it - value_names.begin())]);
  }
  // Key columns: the trimmed primary key, read from the value columns (the `_KEY_*` copies
  // hold the same values and are absent in thin mode).
  std::vector<DataField> key_fields;
  std::vector<size_t> key_index;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    auto it = std::find(value_names.begin(), value_names.end(), name);
    if (it == value_names.end()) break;
    key_index.push_back(value_offset + static_cast<size_t>(it - value_names.begin()));
    key_fields.push_back(value_fields[static_cast<size_t>(it - value_names.begin())]);
  }
  const bool check_keys = primary_key && key_fields.size() == schema.trimmed_primary_keys().size();

  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, table_.io()->OpenForRead(path));
  std::shared_ptr<RandomAccessFile> shared = std::move(file);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const FileFormat> format, DetectFileFormat(*shared));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FormatReader> reader,
                          format->CreateReader(shared, read_type, ReaderOptions{}));

  std::vector<ActualStats> value_stats(stats_fields.size());
  std::vector<ActualStats> key_stats(key_fields.size());
  // Postpone-bucket files hold records as written, unsorted: Java records their first and
  // last keys as min and max (KeyValueDataFileWriter).
  const bool unsorted = entry.bucket == kPostponeBucket;
  std::optional<ValueList> min_key, max_key;
  std::optional<int64_t> min_seq, max_seq;
  int64_t rows = 0;
  int64_t deletes = 0;
  ColumnBatch batch(read_type);
  ValueList key;
  DataTypePtr key_row_type;
  std::set<int32_t> key_hashes;  // dynamic buckets: of every key the file holds
  while (true) {
    batch.Clear();
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    const int64_t n = batch.num_rows();
    rows += n;
    for (size_t c = 0; c < stats_fields.size(); ++c) {
      const ColumnVector& column = *batch.column(static_cast<int>(stats_index[c]));
      for (int64_t r = 0; r < n; ++r) value_stats[c].Add(column.GetValue(r), *stats_fields[c].type);
    }
    if (!primary_key) continue;
    const ColumnVector& seq = *batch.column(0);
    const ColumnVector& kind = *batch.column(1);
    for (int64_t r = 0; r < n; ++r) {
      const int64_t s = seq.GetValue(r).AsInt64();
      min_seq = std::min(min_seq.value_or(s), s);
      max_seq = std::max(max_seq.value_or(s), s);
      const int64_t k = kind.GetValue(r).AsInt64();
      if (k == RowKindToByte(RowKind::kUpdateBefore) || k == RowKindToByte(RowKind::kDelete)) {
        ++deletes;
      }
    }
    if (!check_keys) continue;
    for (int64_t r = 0; r < n; ++r) {
      key.clear();
      for (size_t c = 0; c < key_fields.size(); ++c) {
        key.push_back(batch.column(static_cast<int>(key_index[c]))->GetValue(r));
        key_stats[c].Add(key.back(), *key_fields[c].type);
      }
      if (unsorted) {
        if (!min_key) min_key = key;
        max_key = key;
      } else {
        if (!min_key || CompareKeys(key, *min_key, key_fields) < 0) min_key = key;
        if (!max_key || CompareKeys(key, *max_key, key_fields) > 0) max_key = key;
      }
      if (dynamic_bucket_) {
        if (key_row_type == nullptr) key_row_type = DataType::Row(key_fields);
        SLUICE_ASSIGN_OR_RETURN(std::string bytes, EncodeBinaryRow(key, *key_row_type));
        SLUICE_ASSIGN_OR_RETURN(BinaryRowView view,
                                BinaryRowView::Make(bytes, static_cast<int>(key.size())));
        key_hashes.insert(view.HashCode());
      }
    }
  }
  if (dynamic_bucket_ && check_keys) file_key_hashes_[path] = std::move(key_hashes);

  if (rows != meta.row_count) {
    Problem("data file " + path + " holds " + std::to_string(rows) +
            " rows, its manifest entry records " + std::to_string(meta.row_count));
  }
  const std::string who = "data file " + path;
  const bool avro_file = format->identifier() == "avro";
  SLUICE_ASSIGN_OR_RETURN(std::vector<StatsMode> modes,
                          ValueStatsModes(stats_names, value_names, meta.level, avro_file));
  std::vector<std::vector<StatsMode>> value_modes;
  // In thin mode (`data-file.thin-mode`) the value columns that double as key columns are
  // collected as system columns, truncate(128).
  const std::string* thin = table_.options().Find("data-file.thin-mode");
  const bool thin_mode = primary_key && thin != nullptr && AsciiToLower(*thin) == "true";
  for (size_t i = 0; i < modes.size(); ++i) {
    value_modes.push_back({modes[i]});
    if (thin_mode &&
        std::find(schema.trimmed_primary_keys().begin(), schema.trimmed_primary_keys().end(),
                  stats_names[i]) != schema.trimmed_primary_keys().end()) {
      value_modes.back().push_back(StatsMode::Truncate(kSystemColumnTruncateLength));
    }
  }
  const bool orc_file = format->identifier() == "orc";
  const bool floats_skip_nan = !avro_file;
  CompareStats(who, "value", meta.value_stats, stats_fields, value_stats, value_modes, orc_file,
               floats_skip_nan);

  if (!primary_key) {
    if (meta.delete_row_count && *meta.delete_row_count != 0) {
      Problem(who + ": delete row count " + std::to_string(*meta.delete_row_count) +
              " in an append table");
    }
    return Status::OK();
  }
  if (min_seq && (*min_seq != meta.min_sequence_number || *max_seq != meta.max_sequence_number)) {
    Problem(who + ": sequence numbers run " + std::to_string(*min_seq) + ".." +
            std::to_string(*max_seq) + ", its manifest entry records " +
            std::to_string(meta.min_sequence_number) + ".." +
            std::to_string(meta.max_sequence_number));
  }
  if (meta.delete_row_count && *meta.delete_row_count != deletes) {
    Problem(who + ": holds " + std::to_string(deletes) +
            " -U/-D rows, its manifest entry records a delete row count of " +
            std::to_string(*meta.delete_row_count));
  }
  if (!check_keys || rows == 0) return Status::OK();
  auto check_key = [&](std::string_view which, const std::string& serialized,
                       const ValueList& actual) {
    Result<ValueList> recorded = DecodeSerializedBinaryRow(serialized, *NullableRow(key_fields));
    if (!recorded.ok()) {
      Problem(who + ": " + std::string(which) +
              " key does not decode: " + recorded.status().ToString());
    } else if (CompareKeys(*recorded, actual, key_fields) != 0) {
      Problem(who + ": " + std::string(which) + " key is " + Value::Row(*recorded).DebugString() +
              ", the file gives " + Value::Row(actual).DebugString());
    }
  };
  check_key("min", meta.min_key, *min_key);
  check_key("max", meta.max_key, *max_key);
  // Key stats are collected in full (before 1.0 in the table mode, since as truncate(128)).
  std::vector<std::string> key_names;
  for (const DataField& f : key_fields) key_names.push_back(f.name);
  SLUICE_ASSIGN_OR_RETURN(std::vector<StatsMode> table_modes,
                          ValueStatsModes(key_names, value_names, meta.level, avro_file));
  std::vector<std::vector<StatsMode>> key_modes;
  for (const StatsMode& m : table_modes) {
    key_modes.push_back({StatsMode::Full(), StatsMode::Truncate(kSystemColumnTruncateLength), m});
  }
  CompareStats(who, "key", meta.key_stats, key_fields, key_stats, key_modes, orc_file,
               floats_skip_nan);
  return Status::OK();
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
