#include "sluice/table/sink/changelog_merge_tree_rewriter.h"

#include "sluice/lsm/full_changelog_merge_function_wrapper.h"
#include "sluice/lsm/lookup/lookup_file_cache.h"
#include "sluice/lsm/lookup/lookup_options.h"
#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"
#include "sluice/lsm/lookup_changelog_range_reducer.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/table/source/lookup_levels_factory.h"

namespace sluice {

ChangelogMergeTreeRewriter::ChangelogMergeTreeRewriter(
    std::shared_ptr<const FileStoreTable> table, std::string partition,
    std::shared_ptr<DataFileWriterFactory> writers, Parts parts, int max_level,
    std::optional<RecordEqualiser> equaliser, std::optional<DeletionVectorHooks> deletion_vectors)
    : MergeTreeCompactRewriter(std::move(table), std::move(partition), std::move(writers),
                               std::move(parts)),
      max_level_(max_level),
      equaliser_(std::move(equaliser)),
      deletion_vectors_(std::move(deletion_vectors)) {}

Result<std::unique_ptr<ChangelogMergeTreeRewriter>> ChangelogMergeTreeRewriter::Make(
    std::shared_ptr<const FileStoreTable> table, std::string partition,
    std::shared_ptr<DataFileWriterFactory> writers, int max_level,
    std::optional<DeletionVectorHooks> deletion_vectors) {
  SLUICE_ASSIGN_OR_RETURN(Parts parts, MakeParts(*table, *writers));
  SLUICE_ASSIGN_OR_RETURN(std::optional<RecordEqualiser> equaliser,
                          RecordEqualiser::FromOptions(*parts.schema, parts.options));
  return std::unique_ptr<ChangelogMergeTreeRewriter>(new ChangelogMergeTreeRewriter(
      std::move(table), std::move(partition), std::move(writers), std::move(parts), max_level,
      std::move(equaliser), std::move(deletion_vectors)));
}

bool ChangelogMergeTreeRewriter::RewriteChangelog(
    int output_level, const std::vector<std::vector<SortedRun>>& sections) const {
  if (!lookup()) return output_level == max_level_;
  // Java rewriteLookupChangelog: level-0 records meet their committed value only above level 0.
  if (output_level == 0) return false;
  for (const std::vector<SortedRun>& runs : sections) {
    for (const SortedRun& run : runs) {
      for (const LevelFilePtr& file : run.files()) {
        if (file->meta.level == 0) return true;
      }
    }
  }
  return false;
}

Result<std::unique_ptr<ChangelogMergeFunctionWrapper>>
ChangelogMergeTreeRewriter::CreateMergeWrapper(int output_level) {
  if (!lookup()) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge_function,
                            CreateMergeFunction(*schema_, options_));
    return std::unique_ptr<ChangelogMergeFunctionWrapper>(
        new FullChangelogMergeFunctionWrapper(std::move(merge_function), max_level_, equaliser_));
  }
  SLUICE_ASSIGN_OR_RETURN(LookupLevels * levels, LookupLevelsOfHigherRuns());
  SLUICE_ASSIGN_OR_RETURN(KeyValueMergeOrder order, KeyValueMergeOrder::Make(*schema_, options_));
  const DeletionVectorHooks* hooks = deletion_vectors_ ? &*deletion_vectors_ : nullptr;
  auto lookup = [levels, start_level = output_level + 1,
                 hooks](const ValueList& key) -> Result<std::optional<KeyValue>> {
    SLUICE_ASSIGN_OR_RETURN(std::optional<PositionedKeyValue> hit,
                            levels->Lookup(key, start_level));
    if (!hit) return std::optional<KeyValue>();
    if (hooks != nullptr) {
      // The newest row above is the key's live one unless a vector deletes it: then the key
      // has no value there (every older row was superseded before it).
      if (hooks->is_deleted(hit->file_name, hit->row_position)) return std::optional<KeyValue>();
      hooks->supersede(hit->file_name, hit->row_position);
    }
    return std::optional<KeyValue>(std::move(hit->key_value));
  };
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<LookupChangelogMergeFunctionWrapper> wrapper,
                          LookupChangelogMergeFunctionWrapper::Make(
                              [this]() { return CreateMergeFunction(*schema_, options_); },
                              std::move(lookup), first_row_, equaliser_, std::move(order)));
  return std::unique_ptr<ChangelogMergeFunctionWrapper>(std::move(wrapper));
}

bool ChangelogMergeTreeRewriter::ReducesRanges() const {
  return produce_lookup_changelog() && !deletion_vectors_ && !equaliser_ &&
         merge_function_->picks_record() && merge_options_.sequence_columns.empty();
}

Status ChangelogMergeTreeRewriter::ReduceRangesWithChangelog(
    int output_level, const std::vector<SortedRun>& runs, bool drop_delete,
    RollingDataFileWriter* compact_writer, RollingDataFileWriter* changelog_writer) {
  LookupChangelogRangeReducer::Lookup lookup;
  if (!higher_runs_.empty()) {
    SLUICE_ASSIGN_OR_RETURN(LookupLevels * levels, LookupLevelsOfHigherRuns());
    lookup = [levels, start_level = output_level +
                                    1](const ValueList& key) -> Result<std::optional<KeyValue>> {
      SLUICE_ASSIGN_OR_RETURN(std::optional<PositionedKeyValue> hit,
                              levels->Lookup(key, start_level));
      if (!hit) return std::optional<KeyValue>();
      return std::optional<KeyValue>(std::move(hit->key_value));
    };
  }
  LookupChangelogRangeReducer::Options reducer_options;
  reducer_options.key_columns = merge_options_.key_columns;
  reducer_options.num_values = merge_options_.record_type->num_fields() - 2;
  reducer_options.output_level = output_level;
  reducer_options.first_row = first_row_;
  reducer_options.key_value_type = writers_->key_value_type();
  LookupChangelogRangeReducer reducer(std::move(reducer_options), merge_function_.get(),
                                      std::move(lookup));
  SortedRunMerge::Options options = merge_options_;
  options.drop_retractions = drop_delete;
  options.range_reducer = &reducer;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SectionMerge> merge,
                          OpenMerge(runs, std::move(options), merge_function_.get()));
  return WriteMerge(merge.get(), /*higher=*/nullptr, compact_writer, [&]() -> Status {
    ColumnBatch* changes = reducer.changelog();
    if (changes->num_rows() == 0) return Status::OK();
    Status st = changelog_writer->Write(*changes);
    changes->Clear();
    return st;
  });
}

Result<LookupLevels*> ChangelogMergeTreeRewriter::LookupLevelsOfHigherRuns() {
  if (lookup_levels_ == nullptr) {
    SLUICE_ASSIGN_OR_RETURN(LookupOptions lookup_options, LookupOptions::Make(options_));
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<LookupFileCache> cache,
                            LookupFileCache::Make(LocalFileIO(), "", lookup_options));
    SLUICE_ASSIGN_OR_RETURN(
        lookup_levels_, MakeLookupLevels(table_, schema_, partition_,
                                         writers_->path_factory().bucket_path(), std::move(cache)));
  }
  lookup_levels_->SetRuns(higher_runs_);
  return lookup_levels_.get();
}

Result<CompactResult> ChangelogMergeTreeRewriter::Rewrite(
    int output_level, bool drop_delete, const std::vector<std::vector<SortedRun>>& sections) {
  // Deletion vectors delete the superseded rows: no delete record needs to stay.
  const bool drop = drop_delete || deletion_vectors_.has_value();
  if (!RewriteChangelog(output_level, sections)) {
    return MergeTreeCompactRewriter::Rewrite(output_level, drop, sections);
  }
  return RewriteOrProduceChangelog(output_level, sections, drop, /*rewrite_compact_file=*/true);
}

Result<CompactResult> ChangelogMergeTreeRewriter::Upgrade(int output_level,
                                                          const DataFileMeta& file) {
  // Java upgradeStrategy. Full-compaction reads every file moved to the max level for its
  // changes and keeps it (CHANGELOG_NO_REWRITE). Lookup reads every level-0 file moved up; it
  // keeps the file only at the max level or for deduplicate without `sequence.field`, whose
  // newest record is the key's value whatever lies above (CHANGELOG_NO_REWRITE). Otherwise
  // the file is rewritten (CHANGELOG_WITH_REWRITE): a record above level 0 must hold its key's
  // whole value (LookupMergeFunction), which the key's value still above merges into, and
  // first-row must drop the keys already above.
  bool changelog = output_level == max_level_;
  bool rewrite = false;
  if (lookup()) {
    changelog = file.level == 0;
    rewrite =
        output_level != max_level_ && !(options_.merge_engine() == MergeEngine::kDeduplicate &&
                                        options_.sequence_field().empty());
  }
  if (!changelog) return MergeTreeCompactRewriter::Upgrade(output_level, file);
  // The merge reads files by their metadata only; the decoded keys are not needed.
  auto level_file = std::make_shared<LevelFile>();
  level_file->meta = file;
  std::vector<std::vector<SortedRun>> single = {{SortedRun::FromSingle(std::move(level_file))}};
  return RewriteOrProduceChangelog(output_level, single, /*drop_delete=*/false, rewrite);
}

Status ChangelogMergeTreeRewriter::MergeWithChangelog(int output_level,
                                                      const std::vector<SortedRun>& runs,
                                                      bool drop_delete,
                                                      RollingDataFileWriter* compact_writer,
                                                      RollingDataFileWriter* changelog_writer) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<ChangelogMergeFunctionWrapper> wrapper,
                          CreateMergeWrapper(output_level));
  SortedRunMerge::Options options = merge_options_;
  options.drop_retractions = drop_delete;
  options.fold_every_range = true;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SectionMerge> merge,
                          OpenMerge(runs, std::move(options), wrapper.get()));
  return WriteMerge(merge.get(), /*higher=*/nullptr, compact_writer, [&]() -> Status {
    SLUICE_RETURN_NOT_OK(wrapper->status());
    std::vector<KeyValue>& changes = wrapper->changelog();
    if (changelog_writer != nullptr) {
      for (const KeyValue& kv : changes) SLUICE_RETURN_NOT_OK(changelog_writer->Write(kv));
    }
    changes.clear();
    return Status::OK();
  });
}

Result<CompactResult> ChangelogMergeTreeRewriter::RewriteOrProduceChangelog(
    int output_level, const std::vector<std::vector<SortedRun>>& sections, bool drop_delete,
    bool rewrite_compact_file) {
  // The sections are key-disjoint: one merge over all their runs sees every key once.
  std::vector<SortedRun> runs;
  for (const std::vector<SortedRun>& section : sections) {
    runs.insert(runs.end(), section.begin(), section.end());
  }
  std::unique_ptr<RollingDataFileWriter> compact_writer;
  if (rewrite_compact_file) {
    compact_writer = writers_->NewKeyValueWriter(output_level, FileSource::kCompact);
  }
  // Lookup tables without `changelog-producer = lookup` (deletion vectors, `force-lookup`)
  // write no changelog.
  std::unique_ptr<RollingDataFileWriter> changelog_writer;
  if (!lookup() || produce_lookup_changelog()) {
    changelog_writer = writers_->NewChangelogWriter(output_level);
  }
  auto abort = [&](const Status& st) {
    if (compact_writer) compact_writer->Abort();
    if (changelog_writer) changelog_writer->Abort();
    return st;
  };
  Status st = ReducesRanges()
                  ? ReduceRangesWithChangelog(output_level, runs, drop_delete, compact_writer.get(),
                                              changelog_writer.get())
                  : MergeWithChangelog(output_level, runs, drop_delete, compact_writer.get(),
                                       changelog_writer.get());
  if (!st.ok()) return abort(st);

  CompactResult result;
  for (const std::vector<SortedRun>& section : sections) {
    for (const SortedRun& run : section) {
      for (const LevelFilePtr& file : run.files()) result.before.push_back(file->meta);
    }
  }
  Result<std::vector<DataFileMeta>> changelog =
      changelog_writer ? changelog_writer->Close() : std::vector<DataFileMeta>();
  if (!changelog.ok()) return abort(changelog.status());
  if (compact_writer) {
    Result<std::vector<DataFileMeta>> after = compact_writer->Close();
    if (!after.ok()) {
      compact_writer->Abort();
      writers_->DeleteUnreferenced(*changelog);
      return after.status();
    }
    result.after = std::move(after).value();
  } else {
    for (const DataFileMeta& file : result.before) {
      result.after.push_back(file);
      result.after.back().level = output_level;
    }
  }
  result.changelog = std::move(changelog).value();
  return result;
}

}  // namespace sluice
