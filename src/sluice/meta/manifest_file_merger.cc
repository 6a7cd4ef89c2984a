#include "sluice/meta/manifest_file_merger.h"

#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>

#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/row/binary_row.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

namespace {

Result<std::vector<ManifestEntry>> ReadManifest(ManifestFileWriter* writer,
                                                const ManifestFileMeta& meta) {
  return ReadManifestFile(writer->io(), ManifestFilePath(writer->table_path(), meta.file_name));
}

// Writes `entries` and records the new files in `result` and `new_files`.
Status WriteMerged(ManifestFileWriter* writer, const std::vector<ManifestEntry>& entries,
                   std::vector<ManifestFileMeta>* result,
                   std::vector<ManifestFileMeta>* new_files) {
  SLUICE_ASSIGN_OR_RETURN(auto merged, writer->Write(entries));
  for (auto& meta : merged) {
    new_files->push_back(meta);
    result->push_back(std::move(meta));
  }
  return Status::OK();
}

Status MergeCandidates(ManifestFileWriter* writer, const std::vector<ManifestFileMeta>& candidates,
                       std::vector<ManifestFileMeta>* result,
                       std::vector<ManifestFileMeta>* new_files) {
  if (candidates.size() == 1) {
    result->push_back(candidates[0]);
    return Status::OK();
  }
  FileEntryMerger merger;
  for (const auto& meta : candidates) {
    SLUICE_ASSIGN_OR_RETURN(auto entries, ReadManifest(writer, meta));
    SLUICE_RETURN_NOT_OK_CTX(merger.AddAll(std::move(entries)), meta.file_name);
  }
  if (merger.size() == 0) return Status::OK();
  return WriteMerged(writer, std::move(merger).Finish(), result, new_files);
}

Result<std::vector<ManifestFileMeta>> MinorCompaction(const std::vector<ManifestFileMeta>& input,
                                                      ManifestFileWriter* writer,
                                                      const ManifestMergeOptions& options,
                                                      std::vector<ManifestFileMeta>* new_files) {
  std::vector<ManifestFileMeta> result;
  std::vector<ManifestFileMeta> candidates;
  int64_t total_size = 0;
  for (const auto& manifest : input) {
    total_size += manifest.file_size;
    candidates.push_back(manifest);
    if (total_size >= options.target_file_size) {
      SLUICE_RETURN_NOT_OK(MergeCandidates(writer, candidates, &result, new_files));
      candidates.clear();
      total_size = 0;
    }
  }
  if (static_cast<int64_t>(candidates.size()) >= options.merge_min_count) {
    SLUICE_RETURN_NOT_OK(MergeCandidates(writer, candidates, &result, new_files));
  } else {
    result.insert(result.end(), candidates.begin(), candidates.end());
  }
  return result;
}

// False when a full compaction is not due (or has nothing to merge); else `*result` holds the
// new base manifests.
Result<bool> FullCompaction(const std::vector<ManifestFileMeta>& input, ManifestFileWriter* writer,
                            const ManifestMergeOptions& options,
                            std::vector<ManifestFileMeta>* new_files,
                            std::vector<ManifestFileMeta>* result) {
  auto must_change = [&](const ManifestFileMeta& m) {
    return m.num_deleted_files > 0 || m.file_size < options.target_file_size;
  };
  int64_t total_delta_size = 0;
  for (const auto& m : input) {
    if (must_change(m)) total_delta_size += m.file_size;
  }
  if (total_delta_size < options.full_compaction_threshold_size) return false;

  // Every file some manifest deletes.
  std::unordered_set<std::string> deleted;
  std::set<std::string> deleted_partitions;
  for (const auto& m : input) {
    if (m.num_deleted_files == 0) continue;
    SLUICE_ASSIGN_OR_RETURN(auto entries, ReadManifest(writer, m));
    for (const auto& e : entries) {
      if (e.kind != FileKind::kDelete) continue;
      deleted.insert(FileEntryIdentifier(e));
      deleted_partitions.insert(e.partition);
    }
  }

  const DataTypePtr& partition_type = writer->options().partition_type;
  std::vector<ValueList> partitions;
  for (const auto& p : deleted_partitions) {
    SLUICE_ASSIGN_OR_RETURN(auto values, DecodeSerializedBinaryRow(p, *partition_type));
    partitions.push_back(std::move(values));
  }
  std::vector<const ManifestFileMeta*> to_merge;
  for (const auto& m : input) {
    if (must_change(m)) {
      to_merge.push_back(&m);
      continue;
    }
    const bool may_hold =
        !deleted.empty() && (partition_type->fields().empty() ||
                             ManifestMayHoldPartitions(m, partitions, *partition_type));
    if (may_hold) {
      to_merge.push_back(&m);
    } else {
      result->push_back(m);
    }
  }
  if (to_merge.size() <= 1) return false;

  std::vector<ManifestEntry> kept;
  for (const ManifestFileMeta* m : to_merge) {
    SLUICE_ASSIGN_OR_RETURN(auto entries, ReadManifest(writer, *m));
    bool require_change = must_change(*m);
    std::vector<ManifestEntry> live;
    live.reserve(entries.size());
    for (auto& e : entries) {
      if (e.kind == FileKind::kDelete) continue;
      if (deleted.count(FileEntryIdentifier(e))) {
        require_change = true;
      } else {
        live.push_back(std::move(e));
      }
    }
    if (require_change) {
      for (auto& e : live) kept.push_back(std::move(e));
    } else {
      result->push_back(*m);
    }
  }
  SLUICE_RETURN_NOT_OK(WriteMerged(writer, kept, result, new_files));
  return true;
}

}  // namespace

bool ManifestMayHoldPartitions(const ManifestFileMeta& meta,
                               const std::vector<ValueList>& partitions,
                               const DataType& partition_type) {
  auto mins = DecodeSerializedBinaryRow(meta.partition_stats.min_values, partition_type);
  auto maxs = DecodeSerializedBinaryRow(meta.partition_stats.max_values, partition_type);
  if (!mins.ok() || !maxs.ok()) return true;
  const auto& fields = partition_type.fields();
  const auto& null_counts = meta.partition_stats.null_counts;
  for (const auto& values : partitions) {
    bool may = true;
    for (size_t i = 0; i < fields.size() && may; ++i) {
      const Value& v = values[i];
      if (v.is_null()) {
        may = !null_counts || i >= null_counts->size() || !(*null_counts)[i] ||
              *(*null_counts)[i] > 0;
        continue;
      }
      const Value& lo = (*mins)[i];
      const Value& hi = (*maxs)[i];
      if (lo.is_null() || hi.is_null()) {
        // Every value of this field is null in the manifest (or the bounds are unknown).
        may = !null_counts || i >= null_counts->size() || !(*null_counts)[i];
        continue;
      }
      const DataType& type = *fields[i].type;
      may = CompareValues(v, lo, type) >= 0 && CompareValues(v, hi, type) <= 0;
    }
    if (may) return true;
  }
  return false;
}

Result<std::vector<ManifestFileMeta>> MergeManifestFiles(const std::vector<ManifestFileMeta>& input,
                                                         ManifestFileWriter* writer,
                                                         const ManifestMergeOptions& options,
                                                         std::vector<ManifestFileMeta>* new_files) {
  const size_t first_new = new_files->size();
  auto run = [&]() -> Result<std::vector<ManifestFileMeta>> {
    std::vector<ManifestFileMeta> full;
    SLUICE_ASSIGN_OR_RETURN(bool compacted,
                            FullCompaction(input, writer, options, new_files, &full));
    if (compacted) return full;
    return MinorCompaction(input, writer, options, new_files);
  };
  auto result = run();
  if (!result.ok()) {
    for (size_t i = first_new; i < new_files->size(); ++i) {
      // The merge's error is the one to report; a manifest left behind is an orphan.
      writer->io()
          .Delete(ManifestFilePath(writer->table_path(), (*new_files)[i].file_name), false)
          .IgnoreError();
    }
    new_files->resize(first_new);
  }
  return result;
}

}  // namespace sluice
