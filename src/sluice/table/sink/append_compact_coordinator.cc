#include "sluice/table/sink/append_compact_coordinator.h"

#include <algorithm>
#include <map>

#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compaction_options.h"
#include "sluice/meta/file_entry_merger.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/meta/option_value.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/append_compact_rewriter.h"

namespace sluice {

namespace {

constexpr int64_t kDefaultOpenFileCost = 4LL << 20;  // source.split.open-file-cost

struct PartitionFiles {
  int32_t total_buckets = -1;
  std::vector<DataFileMeta> files;
};

// The live files of the latest snapshot per partition (optionally of one partition).
Result<std::map<std::string, PartitionFiles>> LiveFiles(
    const FileStoreTable& table, const std::optional<std::string>& partition) {
  std::map<std::string, PartitionFiles> result;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table.SelectSnapshot(TableVersion::Latest()));
  if (!latest) return result;
  FileIO& io = *table.io();
  FileEntryMerger merger;
  for (const std::string* list : {&latest->base_manifest_list, &latest->delta_manifest_list}) {
    if (list->empty()) continue;
    SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestFileMeta> manifests,
                            ReadManifestList(io, ManifestFilePath(table.path(), *list)));
    for (const ManifestFileMeta& manifest : manifests) {
      SLUICE_ASSIGN_OR_RETURN(
          std::vector<ManifestEntry> entries,
          ReadManifestFile(io, ManifestFilePath(table.path(), manifest.file_name)));
      SLUICE_RETURN_NOT_OK(merger.AddAll(std::move(entries)));
    }
  }
  for (ManifestEntry& entry : std::move(merger).Finish()) {
    if (entry.kind != FileKind::kAdd) continue;
    if (partition && entry.partition != *partition) continue;
    PartitionFiles& p = result[entry.partition];
    p.total_buckets = entry.total_buckets;
    p.files.push_back(std::move(entry.file));
  }
  return result;
}

void SortBySequence(std::vector<DataFileMeta>* files) {
  std::sort(files->begin(), files->end(), [](const DataFileMeta& a, const DataFileMeta& b) {
    return a.min_sequence_number < b.min_sequence_number;
  });
}

}  // namespace

Result<std::vector<AppendCompactTask>> PlanAppendCompaction(
    const FileStoreTable& table, const std::optional<std::string>& partition,
    bool full_compaction) {
  if (table.schema().is_primary_key_table() || table.options().bucket() != -1) {
    return Status::InvalidArgument("table " + table.path() +
                                   " is not a bucket-unaware append table (bucket = -1)");
  }
  if (table.options().deletion_vectors_enabled()) {
    return Status::NotSupported("compaction of bucket-unaware append table " + table.path() +
                                " with deletion vectors");
  }
  const CompactionOptions compaction =
      CompactionOptions::From(table.options(), /*has_primary_key=*/false);
  int64_t open_file_cost = kDefaultOpenFileCost;
  if (const std::string* text = table.options().Find("source.split.open-file-cost")) {
    SLUICE_ASSIGN_OR_RETURN(open_file_cost,
                            ParseMemorySizeOption("source.split.open-file-cost", *text));
  }
  const int64_t target = compaction.target_file_size;
  const int64_t small = compaction.compaction_file_size();
  const size_t min_files =
      full_compaction ? 2 : static_cast<size_t>(std::max(compaction.min_file_num, 2));

  SLUICE_ASSIGN_OR_RETURN(auto live, LiveFiles(table, partition));
  std::vector<AppendCompactTask> tasks;
  for (auto& [row, p] : live) {
    std::vector<DataFileMeta> candidates;
    for (DataFileMeta& f : p.files) {
      if (f.file_size < small) candidates.push_back(std::move(f));
    }
    // Smallest first, so that one bin gathers as many small files as it can (stable: files of
    // one size keep their sequence order).
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const DataFileMeta& a, const DataFileMeta& b) {
                       if (a.file_size != b.file_size) return a.file_size < b.file_size;
                       return a.min_sequence_number < b.min_sequence_number;
                     });
    AppendCompactTask bin{row, p.total_buckets, {}};
    int64_t bin_size = 0;
    auto drain = [&]() {
      SortBySequence(&bin.files);
      tasks.push_back(std::move(bin));
      bin = AppendCompactTask{row, p.total_buckets, {}};
      bin_size = 0;
    };
    for (DataFileMeta& f : candidates) {
      bin_size += f.file_size + open_file_cost;
      bin.files.push_back(std::move(f));
      if (bin.files.size() > 1 && bin_size >= target * 2) drain();
    }
    if (bin.files.size() >= min_files) drain();
  }
  return tasks;
}

Result<CommitMessageImpl> RunAppendCompactTask(const FileStoreTable& table,
                                               const AppendCompactTask& task) {
  SLUICE_ASSIGN_OR_RETURN(std::string bucket_path,
                          table.path_factory().BucketPathOfSerialized(task.partition, 0));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<DataFileWriterFactory> writers,
                          DataFileWriterFactory::Make(table.io(), table.schema_ptr(),
                                                      table.options(), std::move(bucket_path)));
  CommitMessageImpl message;
  message.partition = task.partition;
  message.bucket = 0;
  message.total_buckets = task.total_buckets;
  SLUICE_ASSIGN_OR_RETURN(message.compact.compact_after,
                          RewriteAppendFiles(table, task.partition, 0, writers, task.files));
  message.compact.compact_before = task.files;
  return message;
}

}  // namespace sluice
