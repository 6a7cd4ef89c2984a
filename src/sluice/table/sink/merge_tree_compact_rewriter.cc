#include "sluice/table/sink/merge_tree_compact_rewriter.h"

#include "sluice/lsm/compaction_options.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/lsm/merge_tree_compact_manager.h"
#include "sluice/table/sink/sorted_run_merge_reader.h"

namespace sluice {

Result<std::unique_ptr<MergeTreeCompactRewriter>> MergeTreeCompactRewriter::Make(
    std::shared_ptr<const FileStoreTable> table, std::string partition,
    std::shared_ptr<DataFileWriterFactory> writers) {
  auto schema_ptr = std::make_shared<const TableSchema>(writers->schema());
  const TableSchema& schema = *schema_ptr;
  SLUICE_ASSIGN_OR_RETURN(CoreOptions options,
                          CoreOptions::FromSchema(schema, table->dynamic_options()));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge_function,
                          CreateMergeFunction(schema, options));
  SLUICE_ASSIGN_OR_RETURN(KeyValueMergeOrder order, KeyValueMergeOrder::Make(schema, options));
  const bool first_row = options.merge_engine() == MergeEngine::kFirstRow;
  std::unique_ptr<MergeTreeCompactRewriter> rewriter(new MergeTreeCompactRewriter(
      std::move(table), std::move(partition), std::move(writers), std::move(schema_ptr),
      std::move(merge_function), std::move(order)));
  rewriter->first_row_ = first_row;
  return rewriter;
}

Result<CompactResult> MergeTreeCompactRewriter::Rewrite(
    int output_level, bool drop_delete, const std::vector<std::vector<SortedRun>>& sections) {
  std::unique_ptr<SortedRunMergeReader> higher;
  higher_record_.reset();
  if (first_row_ && !higher_runs_.empty()) {
    SLUICE_ASSIGN_OR_RETURN(
        higher,
        SortedRunMergeReader::Open(*table_, schema_, partition_,
                                   writers_->path_factory().bucket_path(), higher_runs_, &order_));
    KeyValue kv;
    SLUICE_ASSIGN_OR_RETURN(bool has, higher->Next(&kv));
    if (has) higher_record_ = std::move(kv);
  }
  std::unique_ptr<RollingDataFileWriter> writer =
      writers_->NewKeyValueWriter(output_level, FileSource::kCompact);
  CompactResult result;
  for (const std::vector<SortedRun>& section : sections) {
    Status st = MergeSection(section, drop_delete, higher.get(), writer.get());
    if (!st.ok()) {
      writer->Abort();
      return st;
    }
    for (const SortedRun& run : section) {
      for (const LevelFilePtr& file : run.files()) result.before.push_back(file->meta);
    }
  }
  Result<std::vector<DataFileMeta>> after = writer->Close();
  if (!after.ok()) {
    writer->Abort();
    return after.status();
  }
  result.after = std::move(after).value();
  return result;
}

Status MergeTreeCompactRewriter::MergeSection(const std::vector<SortedRun>& runs, bool drop_delete,
                                              SortedRunMergeReader* higher,
                                              RollingDataFileWriter* writer) {
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<SortedRunMergeReader> reader,
      SortedRunMergeReader::Open(*table_, schema_, partition_,
                                 writers_->path_factory().bucket_path(), runs, &order_));
  // Records of the current key: the first is held until a second shows up, so that a key with
  // one record skips the merge function.
  KeyValue first;
  KeyValue next;
  int64_t count = 0;
  // Sections come in key order, so the higher runs are walked once alongside them.
  auto in_higher_runs = [&](const ValueList& key) -> Result<bool> {
    while (higher_record_) {
      const int c = order_.CompareKeys(higher_record_->key, key);
      if (c == 0) return true;
      if (c > 0) return false;
      KeyValue kv;
      SLUICE_ASSIGN_OR_RETURN(bool has, higher->Next(&kv));
      if (has) {
        higher_record_ = std::move(kv);
      } else {
        higher_record_.reset();
      }
    }
    return false;
  };
  auto emit = [&](const KeyValue& kv) -> Status {
    if (drop_delete && IsRetract(kv.kind)) return Status::OK();
    if (higher != nullptr) {
      SLUICE_ASSIGN_OR_RETURN(bool present, in_higher_runs(kv.key));
      if (present) return Status::OK();
    }
    return writer->Write(kv);
  };
  auto finish_key = [&]() -> Status {
    if (count == 0) return Status::OK();
    if (count == 1) return emit(first);
    std::optional<KeyValue> merged = merge_function_->GetResultKeepingDeletes();
    return merged ? emit(*merged) : Status::OK();
  };
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool has, reader->Next(&next));
    if (!has) break;
    if (count > 0 && order_.CompareKeys(first.key, next.key) == 0) {
      if (count == 1) {
        merge_function_->Reset();
        SLUICE_RETURN_NOT_OK(merge_function_->Add(first));
      }
      SLUICE_RETURN_NOT_OK(merge_function_->Add(std::move(next)));
      ++count;
      continue;
    }
    SLUICE_RETURN_NOT_OK(finish_key());
    first = std::move(next);
    count = 1;
  }
  return finish_key();
}

Result<CompactManagerFactory> MakeMergeTreeCompactManagerFactory(
    std::shared_ptr<const FileStoreTable> table, bool background) {
  const CompactionOptions options =
      CompactionOptions::From(table->options(), /*has_primary_key=*/true);
  // Java compacts deletion-vector tables with the lookup rewriter, which reads files under
  // their deletion vectors and writes new ones: merging files without them would bring deleted
  // rows back into aggregations and leave readers, who do not merge such tables, duplicates.
  if (!options.write_only && table->options().deletion_vectors_enabled()) {
    return Status::NotSupported(
        "compaction of primary-key tables with deletion-vectors.enabled is not supported yet "
        "(issue 6)");
  }
  return CompactManagerFactory(
      [table, options, background](const std::string& partition, int32_t bucket,
                                   const std::vector<DataFileMeta>& restored_files,
                                   const std::shared_ptr<DataFileWriterFactory>& file_writers)
          -> Result<std::unique_ptr<CompactManager>> {
        if (options.write_only) return std::unique_ptr<CompactManager>();
        SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeTreeCompactRewriter> rewriter,
                                MergeTreeCompactRewriter::Make(table, partition, file_writers));
        SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeTreeCompactManager> manager,
                                MergeTreeCompactManager::Make(
                                    options, file_writers->schema().LogicalTrimmedPrimaryKeysType(),
                                    restored_files, std::move(rewriter), background));
        return std::unique_ptr<CompactManager>(std::move(manager));
      });
}

}  // namespace sluice
