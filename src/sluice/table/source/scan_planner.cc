#include "sluice/table/source/scan_planner.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <map>
#include <set>
#include <thread>
#include <unordered_map>

#include "sluice/base/string_util.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/predicate/literal.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/source/scan_metrics_reporter.h"
#include "sluice/table/source/stats_evolution.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

constexpr std::string_view kDeletionVectorsIndex = "DELETION_VECTORS";

// Statistics of a single known row: each value is its own min and max.
std::vector<ColumnStats> PointStats(const ValueList& values) {
  std::vector<ColumnStats> stats(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    stats[i].null_count = values[i].is_null() ? 1 : 0;
    if (!values[i].is_null()) {
      stats[i].min = values[i];
      stats[i].max = values[i];
    }
  }
  return stats;
}

// Statistics of a stats record whose columns are exactly the fields of `row_type`; fields that
// do not decode stay unknown.
std::vector<ColumnStats> DirectStats(const SimpleStats& stats, const DataType& row_type) {
  const int arity = row_type.num_fields();
  std::vector<ColumnStats> out(arity);
  auto min_row = BinaryRowView::FromSerialized(stats.min_values);
  auto max_row = BinaryRowView::FromSerialized(stats.max_values);
  const bool bounds =
      min_row.ok() && max_row.ok() && min_row->arity() == arity && max_row->arity() == arity;
  const bool nulls =
      stats.null_counts.has_value() && static_cast<int>(stats.null_counts->size()) == arity;
  for (int i = 0; i < arity; ++i) {
    if (nulls) out[i].null_count = (*stats.null_counts)[i];
    if (!bounds) continue;
    const DataType& type = *row_type.fields()[i].type;
    auto min = DecodeBinaryRowField(*min_row, i, type);
    auto max = DecodeBinaryRowField(*max_row, i, type);
    if (min.ok() && max.ok() && !min->is_null() && !max->is_null()) {
      out[i].min = std::move(*min);
      out[i].max = std::move(*max);
    }
  }
  return out;
}

std::string FileIdentifier(const ManifestEntry& entry) {
  const DataFileMeta& f = entry.file;
  std::string id;
  auto add = [&id](std::string_view part) {
    id += std::to_string(part.size());
    id += ':';
    id += part;
  };
  add(entry.partition);
  add(std::to_string(entry.bucket));
  add(std::to_string(f.level));
  add(f.file_name);
  add(std::to_string(f.extra_files.size()));
  for (const auto& extra : f.extra_files) add(extra);
  add(f.embedded_file_index ? "1" + *f.embedded_file_index : "0");
  add(f.external_path ? "1" + *f.external_path : "0");
  return id;
}

// Java Boolean.parseBoolean.
bool IsTrue(std::string_view text) { return EqualsIgnoreAsciiCase(text, "true"); }

bool WithoutDeleteRow(const DataFileMeta& file) {
  return file.delete_row_count.has_value() && *file.delete_row_count == 0;
}

class Planner {
 public:
  // With `list_partitions_only`, Run() stops after folding the entries and returns an empty
  // plan; live_partitions() then holds the partitions the table has under the partition
  // restrictions (Java listPartitions, which the fallback branch needs).
  Planner(const FileStoreTable& table, const ScanOptions& options,
          bool list_partitions_only = false)
      : table_(table),
        options_(options),
        schema_(table.schema()),
        list_partitions_only_(list_partitions_only) {}

  Result<ScanPlan> Run();
  // Partitions (serialized) of the live files after partition, bucket and level filtering.
  const std::set<std::string>& live_partitions() const { return live_partitions_; }

 private:
  Status Prepare();
  bool PartitionSelected(const ValueList& values) const;
  bool ManifestSelected(const ManifestFileMeta& meta) const;
  Result<std::vector<ManifestEntry>> ReadManifest(const ManifestFileMeta& meta) const;
  Result<std::vector<ManifestEntry>> ReadAndFold(const std::vector<ManifestFileMeta>& metas);
  Result<const StatsEvolution*> Evolution(const DataFileMeta& file, bool key_stats);
  Result<bool> FileMightMatch(const DataFileMeta& file, const PredicatePtr& predicate,
                              bool key_stats);
  // Drops the files of one bucket the data filter's statistics exclude.
  Status PruneByStats(std::vector<ManifestEntry*>* bucket_files);
  Status AttachDeletionFiles(const Snapshot& snapshot, std::vector<DataSplit>* splits) const;
  std::string Remap(const std::string& path) const;
  Result<std::string> BucketPathOf(const ValueList& partition_values, int32_t bucket) const;

  const FileStoreTable& table_;
  const ScanOptions& options_;
  const TableSchema& schema_;
  const bool list_partitions_only_;
  DataTypePtr partition_type_;
  PredicatePtr partition_exact_;    // over the partition type
  PredicatePtr partition_pruning_;  // over the partition type, implied by the data filter
  PredicatePtr key_filter_;         // over the row type, key fields only
  bool primary_key_ = false;
  bool deletion_vectors_ = false;
  bool first_row_ = false;
  bool level0_invisible_ = false;
  bool only_real_buckets_ = false;  // batch reads of postpone tables
  ScanMetrics metrics_;
  std::set<std::string> live_partitions_;
  std::map<std::string, StatsEvolution> evolutions_;
};

Status Planner::Prepare() {
  partition_type_ = schema_.LogicalPartitionType();
  const auto& keys = schema_.partition_keys();
  const std::string& default_name = table_.options().partition_default_name();
  std::vector<PredicatePtr> exact;
  for (const auto& [key, text] : options_.partition_spec) {
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      return Status::InvalidArgument("partition spec key '" + key +
                                     "' is not a partition key of table " + table_.path());
    }
    const int index = static_cast<int>(it - keys.begin());
    const DataTypePtr& type = partition_type_->fields()[index].type;
    if (text == default_name) {
      exact.push_back(Predicate::Leaf(PredicateOp::kIsNull, index, key, type));
      continue;
    }
    Literal literal;
    literal.kind = Literal::Kind::kString;
    literal.text = text;
    auto value = ConvertLiteral(literal, *type);
    if (!value.ok()) return value.status().WithContext("partition spec " + key + "=" + text);
    exact.push_back(Predicate::Leaf(PredicateOp::kEqual, index, key, type, {std::move(*value)}));
  }
  if (options_.partition_filter) exact.push_back(options_.partition_filter);
  if (!exact.empty()) partition_exact_ = Predicate::And(std::move(exact));

  primary_key_ = schema_.is_primary_key_table();
  deletion_vectors_ = table_.options().deletion_vectors_enabled();
  first_row_ = table_.options().merge_engine() == MergeEngine::kFirstRow;
  // The postpone bucket (level-0 files by design) is read only when asked for by number: by
  // the postpone compaction, never by a batch read (Java onlyReadRealBuckets).
  const bool postpone_bucket_asked = options_.bucket == kPostponeBucket;
  level0_invisible_ = primary_key_ && (deletion_vectors_ || first_row_) &&
                      options_.mode == ScanMode::kBatch && !postpone_bucket_asked;
  only_real_buckets_ = table_.options().bucket() == kPostponeBucket &&
                       options_.mode == ScanMode::kBatch && !postpone_bucket_asked;

  if (options_.filter) {
    const auto& fields = schema_.fields();
    std::vector<int> to_partition(fields.size(), -1);
    std::vector<int> to_key(fields.size(), -1);
    const auto& trimmed = schema_.trimmed_primary_keys();
    for (size_t i = 0; i < fields.size(); ++i) {
      auto p = std::find(keys.begin(), keys.end(), fields[i].name);
      if (p != keys.end()) to_partition[i] = static_cast<int>(p - keys.begin());
      if (std::find(trimmed.begin(), trimmed.end(), fields[i].name) != trimmed.end()) {
        to_key[i] = static_cast<int>(i);
      }
    }
    partition_pruning_ = options_.filter->RemapForPruning(to_partition);
    key_filter_ = options_.filter->RemapForPruning(to_key);
  }
  return Status::OK();
}

bool Planner::PartitionSelected(const ValueList& values) const {
  if (partition_exact_ && partition_exact_->Evaluate(values) != std::optional<bool>(true)) {
    return false;
  }
  if (partition_pruning_ && !partition_pruning_->MightMatch(1, PointStats(values))) return false;
  return true;
}

bool Planner::ManifestSelected(const ManifestFileMeta& meta) const {
  if (options_.bucket) {
    if (meta.min_bucket && *options_.bucket < *meta.min_bucket) return false;
    if (meta.max_bucket && *options_.bucket > *meta.max_bucket) return false;
  }
  if (level0_invisible_ && meta.max_level && *meta.max_level == 0) return false;
  if (only_real_buckets_ && meta.max_bucket && *meta.max_bucket < 0) return false;
  if (!partition_exact_ && !partition_pruning_) return true;
  const int64_t files = std::max<int64_t>(1, meta.num_added_files + meta.num_deleted_files);
  std::vector<ColumnStats> stats = DirectStats(meta.partition_stats, *partition_type_);
  if (partition_exact_ && !partition_exact_->MightMatch(files, stats)) return false;
  if (partition_pruning_ && !partition_pruning_->MightMatch(files, stats)) return false;
  return true;
}

Result<std::vector<ManifestEntry>> Planner::ReadManifest(const ManifestFileMeta& meta) const {
  const std::string path = ManifestFilePath(table_.path(), meta.file_name);
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadManifestFile(*table_.io(), path));
  std::vector<ManifestEntry> kept;
  kept.reserve(entries.size());
  std::unordered_map<std::string, bool> partition_verdicts;
  for (ManifestEntry& entry : entries) {
    if (options_.bucket && entry.bucket != *options_.bucket) continue;
    if (level0_invisible_ && entry.file.level == 0) continue;
    if (only_real_buckets_ && entry.bucket < 0) continue;
    if (partition_exact_ || partition_pruning_) {
      auto it = partition_verdicts.find(entry.partition);
      if (it == partition_verdicts.end()) {
        auto values = DecodeSerializedBinaryRow(entry.partition, *partition_type_);
        if (!values.ok()) {
          return values.status().WithContext("partition of data file " + entry.file.file_name +
                                             " in manifest " + path);
        }
        it = partition_verdicts.emplace(entry.partition, PartitionSelected(*values)).first;
      }
      if (!it->second) continue;
    }
    kept.push_back(std::move(entry));
  }
  return kept;
}

Result<std::vector<ManifestEntry>> Planner::ReadAndFold(
    const std::vector<ManifestFileMeta>& metas) {
  std::vector<const ManifestFileMeta*> selected;
  for (const auto& meta : metas) {
    ++metrics_.manifests_total;
    if (ManifestSelected(meta)) {
      selected.push_back(&meta);
    } else {
      ++metrics_.manifests_skipped;
    }
  }
  std::vector<std::vector<ManifestEntry>> results(selected.size());
  std::vector<Status> statuses(selected.size());
  std::atomic<size_t> next{0};
  auto work = [&]() {
    for (size_t i = next++; i < selected.size(); i = next++) {
      auto read = ReadManifest(*selected[i]);
      if (read.ok()) {
        results[i] = std::move(*read);
      } else {
        statuses[i] = read.status();
      }
    }
  };
  int threads =
      options_.num_threads > 0
          ? options_.num_threads
          : static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
  threads = static_cast<int>(std::min<size_t>(threads, selected.size()));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& thread : pool) thread.join();
  for (const Status& status : statuses) SLUICE_RETURN_NOT_OK(status);

  // Fold in manifest order (Java FileEntry.mergeEntries): an ADD must be new; a DELETE removes
  // the ADD before it. A DELETE with no ADD before it refers to a file outside the selection
  // (or an expired one) and has nothing to cancel.
  std::vector<ManifestEntry> live;
  std::unordered_map<std::string, size_t> index;  // identifier -> position in live
  std::vector<bool> removed;
  for (auto& entries : results) {
    metrics_.entries_read += static_cast<int64_t>(entries.size());
    for (ManifestEntry& entry : entries) {
      std::string id = FileIdentifier(entry);
      auto it = index.find(id);
      if (entry.kind == FileKind::kAdd) {
        if (it != index.end() && !removed[it->second]) {
          return Status::Corruption("data file " + entry.file.file_name + " (bucket " +
                                    std::to_string(entry.bucket) +
                                    ") is added twice in the manifests of table " + table_.path());
        }
        index[id] = live.size();
        live.push_back(std::move(entry));
        removed.push_back(false);
      } else if (it != index.end()) {
        removed[it->second] = true;
        index.erase(it);
      }
    }
  }
  std::vector<ManifestEntry> out;
  out.reserve(index.size());
  for (size_t i = 0; i < live.size(); ++i) {
    if (!removed[i]) out.push_back(std::move(live[i]));
  }
  return out;
}

Result<const StatsEvolution*> Planner::Evolution(const DataFileMeta& file, bool key_stats) {
  SLUICE_ASSIGN_OR_RETURN(auto file_schema, table_.SchemaById(file.schema_id));
  std::vector<std::string> columns;
  if (key_stats) {
    columns = file_schema->trimmed_primary_keys();
  } else if (file.value_stats_cols) {
    columns = *file.value_stats_cols;
  } else {
    columns = file_schema->FieldNames();
  }
  std::string cache_key = std::to_string(file.schema_id) + (key_stats ? "/k" : "/v");
  for (const auto& column : columns) cache_key += "/" + column;
  auto it = evolutions_.find(cache_key);
  if (it == evolutions_.end()) {
    it = evolutions_
             .emplace(cache_key, StatsEvolution::Make(schema_.fields(), *file_schema, columns))
             .first;
  }
  return &it->second;
}

Result<bool> Planner::FileMightMatch(const DataFileMeta& file, const PredicatePtr& predicate,
                                     bool key_stats) {
  SLUICE_ASSIGN_OR_RETURN(const StatsEvolution* evolution, Evolution(file, key_stats));
  std::vector<int> wanted = predicate->ReferencedFields();
  std::vector<ColumnStats> stats =
      evolution->Evolve(key_stats ? file.key_stats : file.value_stats, file.row_count, wanted);
  return predicate->MightMatch(file.row_count, stats);
}

Status Planner::PruneByStats(std::vector<ManifestEntry*>* bucket_files) {
  std::vector<ManifestEntry*>& files = *bucket_files;
  const size_t before = files.size();
  auto keep_if = [&](const PredicatePtr& predicate, bool key_stats) -> Status {
    std::vector<ManifestEntry*> kept;
    for (ManifestEntry* entry : files) {
      SLUICE_ASSIGN_OR_RETURN(bool keep, FileMightMatch(entry->file, predicate, key_stats));
      if (keep) kept.push_back(entry);
    }
    files = std::move(kept);
    return Status::OK();
  };
  if (!primary_key_) {
    SLUICE_RETURN_NOT_OK(keep_if(options_.filter, false));
  } else {
    // Java KeyValueFileStoreScan. Keys never change, so key statistics prune file by file.
    if (key_filter_) SLUICE_RETURN_NOT_OK(keep_if(key_filter_, true));
    // Value statistics prune single files only where files cannot overlap: batch reads of
    // deletion-vector and first-row tables (level > 0 only), or a bucket whose files are one
    // level > 0 run. Otherwise a merge needs every version of a key: the bucket is dropped
    // only when no file may match, and never for partial-update / aggregation merges
    // (their result mixes fields of several versions). Streaming deltas are not merged and
    // not pruned by value.
    if (options_.mode != ScanMode::kDelta) {
      if (level0_invisible_) SLUICE_RETURN_NOT_OK(keep_if(options_.filter, false));
      bool one_run = true;
      for (ManifestEntry* entry : files) {
        one_run = one_run && entry->file.level != 0 && entry->file.level == files[0]->file.level;
      }
      const MergeEngine engine = table_.options().merge_engine();
      if (files.size() <= 1 || one_run) {
        SLUICE_RETURN_NOT_OK(keep_if(options_.filter, false));
      } else if (deletion_vectors_ ||
                 (engine != MergeEngine::kPartialUpdate && engine != MergeEngine::kAggregation)) {
        bool any = false;
        for (ManifestEntry* entry : files) {
          SLUICE_ASSIGN_OR_RETURN(any, FileMightMatch(entry->file, options_.filter, false));
          if (any) break;
        }
        if (!any) files.clear();
      }
    }
  }
  metrics_.files_skipped_by_stats += static_cast<int64_t>(before - files.size());
  return Status::OK();
}

std::string Planner::Remap(const std::string& path) const {
  for (const auto& [prefix, replacement] : options_.path_remap) {
    if (path.compare(0, prefix.size(), prefix) == 0) {
      std::string base = !replacement.empty() && replacement[0] == '/'
                             ? replacement
                             : JoinPath(table_.path(), replacement);
      return JoinPath(base, path.substr(prefix.size()));
    }
  }
  return path;
}

Result<std::string> Planner::BucketPathOf(const ValueList& partition_values, int32_t bucket) const {
  return table_.path_factory().BucketPath(partition_values, bucket);
}

Status Planner::AttachDeletionFiles(const Snapshot& snapshot,
                                    std::vector<DataSplit>* splits) const {
  for (DataSplit& split : *splits) split.deletion_files.assign(split.data_files.size(), {});
  if (!snapshot.index_manifest) return Status::OK();
  const std::string path = ManifestFilePath(table_.path(), *snapshot.index_manifest);
  SLUICE_ASSIGN_OR_RETURN(auto entries, ReadIndexManifest(*table_.io(), path));
  // Live deletion-vector index files per (partition, bucket), folded by file name.
  std::map<std::pair<std::string, int32_t>, std::map<std::string, const IndexManifestEntry*>>
      index_files;
  for (const auto& entry : entries) {
    if (entry.index_type != kDeletionVectorsIndex) continue;
    auto& files = index_files[{entry.partition, entry.bucket}];
    if (entry.kind == FileKind::kAdd) {
      files[entry.file_name] = &entry;
    } else {
      files.erase(entry.file_name);
    }
  }
  const std::string* index_in_data_dir = table_.options().Find("index-file-in-data-file-dir");
  const bool in_data_dir = index_in_data_dir != nullptr && IsTrue(*index_in_data_dir);
  for (DataSplit& split : *splits) {
    auto found = index_files.find({split.partition, split.bucket});
    if (found == index_files.end()) continue;
    std::unordered_map<std::string, DeletionFile> by_data_file;
    for (const auto& [name, entry] : found->second) {
      std::string index_path = entry->external_path ? Remap(*entry->external_path)
                               : in_data_dir        ? JoinPath(split.bucket_path, name)
                                                    : IndexFilePath(table_.path(), name);
      if (!entry->deletion_vectors) continue;
      for (const auto& dv : *entry->deletion_vectors) {
        by_data_file[dv.data_file_name] =
            DeletionFile{index_path, dv.offset, dv.length, dv.cardinality};
      }
    }
    for (size_t i = 0; i < split.data_files.size(); ++i) {
      auto dv = by_data_file.find(split.data_files[i].file_name);
      if (dv != by_data_file.end()) split.deletion_files[i] = dv->second;
    }
  }
  return Status::OK();
}

Result<ScanPlan> Planner::Run() {
  ScanPlan plan;
  SLUICE_RETURN_NOT_OK(Prepare());
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot,
                          table_.SelectSnapshot(options_.version));
  if (!snapshot) return plan;
  plan.snapshot_id = snapshot->id;
  // A table with a changelog producer streams the changelog files of every snapshot that has
  // them (Java ChangelogFollowUpScanner), others the data files of APPEND snapshots (Java
  // DeltaFollowUpScanner), and of OVERWRITE snapshots when delta_of_overwrite.
  const bool changelog = options_.mode == ScanMode::kDelta &&
                         options_.delta_reads_changelog.value_or(
                             table_.options().changelog_producer() != ChangelogProducer::kNone);
  if (changelog
          ? !snapshot->changelog_manifest_list
          : options_.mode == ScanMode::kDelta && snapshot->commit_kind != CommitKind::kAppend &&
                !(options_.delta_of_overwrite && snapshot->commit_kind == CommitKind::kOverwrite)) {
    return plan;
  }

  std::vector<ManifestFileMeta> metas;
  std::vector<std::string> lists;
  if (changelog) {
    lists.push_back(*snapshot->changelog_manifest_list);
  } else {
    if (options_.mode != ScanMode::kDelta) lists.push_back(snapshot->base_manifest_list);
    lists.push_back(snapshot->delta_manifest_list);
  }
  for (const auto& list : lists) {
    SLUICE_ASSIGN_OR_RETURN(auto part,
                            ReadManifestList(*table_.io(), ManifestFilePath(table_.path(), list)));
    metas.insert(metas.end(), std::make_move_iterator(part.begin()),
                 std::make_move_iterator(part.end()));
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> entries, ReadAndFold(metas));
  if (options_.mode == ScanMode::kDelta) {
    std::erase_if(entries, [](const ManifestEntry& e) { return e.kind != FileKind::kAdd; });
  }
  if (options_.level_filter) {
    std::erase_if(entries,
                  [this](const ManifestEntry& e) { return !options_.level_filter(e.file.level); });
  }
  if (options_.min_file_creation_millis) {
    // The creation time is a wall-clock time, read as UTC (Java: the JVM's zone); files
    // without one (written before 0.9) count as old.
    std::erase_if(entries, [this](const ManifestEntry& e) {
      return !e.file.creation_time ||
             e.file.creation_time->millisecond < *options_.min_file_creation_millis;
    });
  }

  for (const ManifestEntry& entry : entries) live_partitions_.insert(entry.partition);
  if (list_partitions_only_) return plan;

  // Every file must refer to a schema that exists.
  for (const ManifestEntry& entry : entries) {
    auto file_schema = table_.SchemaById(entry.file.schema_id);
    if (!file_schema.ok()) {
      return file_schema.status().WithContext("data file " + entry.file.file_name + " of table " +
                                              table_.path() + " refers to schema " +
                                              std::to_string(entry.file.schema_id));
    }
  }

  // Group by (partition, bucket), keeping manifest order inside a group.
  std::map<std::pair<std::string, int32_t>, std::vector<ManifestEntry*>> groups;
  for (ManifestEntry& entry : entries) {
    groups[{entry.partition, entry.bucket}].push_back(&entry);
  }

  // Data-evolution tables stitch a row from several files, each holding some columns: a file's
  // statistics say nothing about the columns another file supplies, so files are not pruned.
  const bool prune_by_stats = options_.filter && !table_.options().data_evolution_enabled();
  for (auto& [key, group] : groups) {
    if (prune_by_stats) SLUICE_RETURN_NOT_OK(PruneByStats(&group));
    if (group.empty()) continue;

    DataSplit split;
    split.snapshot_id = snapshot->id;
    split.partition = key.first;
    split.bucket = key.second;
    split.total_buckets = group.front()->total_buckets;
    split.is_streaming = options_.mode == ScanMode::kDelta;
    SLUICE_ASSIGN_OR_RETURN(split.partition_values,
                            DecodeSerializedBinaryRow(key.first, *partition_type_));
    SLUICE_ASSIGN_OR_RETURN(split.bucket_path, BucketPathOf(split.partition_values, key.second));
    std::vector<DataFileMeta> files;
    files.reserve(group.size());
    for (ManifestEntry* entry : group) files.push_back(std::move(entry->file));
    // Changelog files are read in the order they were committed: the changes of one key
    // follow one another across the flushes and compactions of a commit.
    if (!changelog) {
      std::stable_sort(files.begin(), files.end(),
                       [this](const DataFileMeta& a, const DataFileMeta& b) {
                         if (primary_key_ && a.level != b.level) return a.level < b.level;
                         if (a.min_sequence_number != b.min_sequence_number) {
                           return a.min_sequence_number < b.min_sequence_number;
                         }
                         return a.file_name < b.file_name;
                       });
    }
    for (const DataFileMeta& file : files) {
      split.data_file_paths.push_back(file.external_path
                                          ? Remap(*file.external_path)
                                          : DataFilePath(split.bucket_path, file.file_name));
    }
    if (!primary_key_) {
      split.raw_convertible = true;
    } else if (split.is_streaming) {
      split.raw_convertible = false;  // Java splitForStreaming: never raw for merge trees
    } else {
      // Java MergeTreeSplitGenerator: files read raw when none is level 0 or holds deletes,
      // and they cannot overlap (deletion vectors, first-row, or a single level); else only
      // a lone file without deletes.
      bool no_level0_no_deletes = true;
      std::set<int32_t> levels;
      for (const DataFileMeta& file : files) {
        no_level0_no_deletes = no_level0_no_deletes && file.level != 0 && WithoutDeleteRow(file);
        levels.insert(file.level);
      }
      split.raw_convertible =
          (no_level0_no_deletes && (deletion_vectors_ || first_row_ || levels.size() == 1)) ||
          (files.size() == 1 && WithoutDeleteRow(files[0]));
    }
    split.data_files = std::move(files);
    plan.splits.push_back(std::move(split));
  }

  std::stable_sort(
      plan.splits.begin(), plan.splits.end(), [this](const DataSplit& a, const DataSplit& b) {
        for (size_t i = 0; i < a.partition_values.size() && i < b.partition_values.size(); ++i) {
          int c = CompareValues(a.partition_values[i], b.partition_values[i],
                                *partition_type_->fields()[i].type);
          if (c != 0) return c < 0;
        }
        return a.bucket < b.bucket;
      });
  // Streaming (delta) splits never carry deletion files; batch splits of every table with
  // deletion vectors do, append tables included (Java SnapshotReaderImpl.generateSplits).
  if (deletion_vectors_ && options_.mode != ScanMode::kDelta) {
    SLUICE_RETURN_NOT_OK(AttachDeletionFiles(*snapshot, &plan.splits));
  }
  plan.metrics = metrics_;
  return plan;
}

// The version of the fallback branch a read of `version` on the main branch sees: the same
// latest / tag / time; a snapshot id maps through its commit time, since the branches number
// their snapshots independently (Java FallbackReadFileStoreTable.rewriteOtherOptions).
Result<TableVersion> FallbackVersion(const FileStoreTable& main, const FileStoreTable& fallback,
                                     const TableVersion& version) {
  if (version.kind != TableVersion::Kind::kSnapshotId) return version;
  SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot,
                          main.snapshot_manager().LoadSnapshot(version.snapshot_id));
  SLUICE_ASSIGN_OR_RETURN(
      auto other, fallback.snapshot_manager().EarlierOrEqualTimeMillis(snapshot.time_millis));
  return TableVersion::SnapshotId(other ? other->id : Snapshot::kFirstSnapshotId);
}

// Java validateSchema: the branches must have the same fields, ignoring nullability.
Status CheckSameRowType(const FileStoreTable& main, const FileStoreTable& fallback) {
  const auto& a = main.schema().fields();
  const auto& b = fallback.schema().fields();
  bool same = a.size() == b.size();
  for (size_t i = 0; same && i < a.size(); ++i) {
    same = a[i].name == b[i].name && a[i].type->EqualsIgnoreNullable(*b[i].type);
  }
  if (same) return Status::OK();
  return Status::InvalidArgument(
      "branch " + main.branch() + " and its scan.fallback-branch " + fallback.branch() +
      " of table " + main.path() +
      " do not have the same row type: " + main.schema().LogicalRowType()->ToString() + " vs " +
      fallback.schema().LogicalRowType()->ToString());
}

}  // namespace

Result<ScanMode> ScanModeFromName(std::string_view name) {
  if (name == "batch") return ScanMode::kBatch;
  if (name == "stream_full") return ScanMode::kStreamFull;
  if (name == "delta") return ScanMode::kDelta;
  return Status::InvalidArgument("unknown scan mode '" + std::string(name) +
                                 "' (expected batch, stream_full or delta)");
}

namespace {

Result<ScanPlan> PlanScanUnreported(const FileStoreTable& table, const ScanOptions& options) {
  if (options.incremental) return PlanIncremental(table, options, *options.incremental);
  Planner main(table, options);
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, main.Run());
  std::shared_ptr<FileStoreTable> fallback_table = options.fallback_table;
  if (fallback_table == nullptr) {
    SLUICE_ASSIGN_OR_RETURN(fallback_table, FallbackTableOf(table, options.mode));
  }
  if (fallback_table == nullptr) return plan;
  // Partitions the main branch has under the partition restrictions alone are complete there
  // (a bucket or data filter does not make the fallback branch fill them).
  ScanOptions listing = options;
  listing.bucket.reset();
  Planner main_partitions(table, listing, /*list_partitions_only=*/true);
  SLUICE_RETURN_NOT_OK(main_partitions.Run().status());

  ScanOptions fallback_options = options;
  SLUICE_ASSIGN_OR_RETURN(fallback_options.version,
                          FallbackVersion(table, *fallback_table, options.version));
  Planner fallback(*fallback_table, fallback_options);
  SLUICE_ASSIGN_OR_RETURN(ScanPlan fallback_plan, fallback.Run());
  for (DataSplit& split : fallback_plan.splits) {
    if (main_partitions.live_partitions().count(split.partition) != 0) continue;
    split.from_fallback_branch = true;
    plan.splits.push_back(std::move(split));
  }
  return plan;
}

}  // namespace

Result<std::shared_ptr<FileStoreTable>> FallbackTableOf(const FileStoreTable& table,
                                                        ScanMode mode) {
  const auto& fallback_branch = table.options().scan_fallback_branch();
  if (!fallback_branch || fallback_branch->empty() || !IsMainBranch(table.branch()) ||
      mode != ScanMode::kBatch) {
    return std::shared_ptr<FileStoreTable>();
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> fallback,
                          table.OnBranch(*fallback_branch));
  SLUICE_RETURN_NOT_OK(CheckSameRowType(table, *fallback));
  return fallback;
}

Result<ScanPlan> PlanScan(const FileStoreTable& table, const ScanOptions& options) {
  if (options.metric_registry == nullptr) return PlanScanUnreported(table, options);
  const auto start = std::chrono::steady_clock::now();
  SLUICE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScanUnreported(table, options));
  ReportScan(options.metric_registry, table, plan,
             std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::steady_clock::now() - start)
                 .count());
  return plan;
}

}  // namespace sluice
