#include "sluice/table/sink/lookup_merge_tree_compact_rewriter.h"

#include <set>

#include "sluice/base/uuid.h"
#include "sluice/lsm/lookup/lookup_options.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/table/sink/changelog_merge_tree_rewriter.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/lookup_levels_factory.h"

namespace sluice {
namespace {

// The live deletion-vector index file of (partition, bucket) in the latest snapshot.
Result<std::optional<IndexManifestEntry>> LiveDeletionVectorIndex(const FileStoreTable& table,
                                                                  const std::string& partition,
                                                                  int32_t bucket) {
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> latest,
                          table.SelectSnapshot(TableVersion::Latest()));
  if (!latest || !latest->index_manifest) return std::optional<IndexManifestEntry>();
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<IndexManifestEntry> entries,
      ReadIndexManifest(*table.io(), ManifestFilePath(table.path(), *latest->index_manifest)));
  for (IndexManifestEntry& e : entries) {
    if (e.kind == FileKind::kAdd && e.partition == partition && e.bucket == bucket &&
        e.index_type == kDeletionVectorsIndexType) {
      return std::optional<IndexManifestEntry>(std::move(e));
    }
  }
  return std::optional<IndexManifestEntry>();
}

}  // namespace

LookupMergeTreeCompactRewriter::~LookupMergeTreeCompactRewriter() = default;

Status LookupMergeTreeCompactRewriter::CheckSupported(const FileStoreTable& table,
                                                      const CoreOptions& options) {
  // Java SchemaValidation.validateForDeletionVectors; the table's dynamic options may ask for
  // it after the schema was validated.
  if (options.changelog_producer() == ChangelogProducer::kFullCompaction) {
    return Status::NotSupported(
        "table " + table.path() +
        ": deletion-vectors.enabled with changelog-producer full-compaction: Deletion vectors "
        "mode is only supported for NONE/INPUT/LOOKUP changelog producer now.");
  }
  return Status::OK();
}

Result<std::unique_ptr<LookupMergeTreeCompactRewriter>> LookupMergeTreeCompactRewriter::Make(
    std::shared_ptr<const FileStoreTable> table, std::string partition, int32_t bucket,
    const std::vector<DataFileMeta>& restored_files, std::shared_ptr<DataFileWriterFactory> writers,
    int max_level) {
  auto schema = std::make_shared<const TableSchema>(writers->schema());
  SLUICE_ASSIGN_OR_RETURN(CoreOptions options,
                          CoreOptions::FromSchema(*schema, table->dynamic_options()));
  SLUICE_RETURN_NOT_OK(CheckSupported(*table, options));
  std::unique_ptr<LookupMergeTreeCompactRewriter> rewriter(new LookupMergeTreeCompactRewriter());
  rewriter->ignore_delete_ = options.ignore_delete();
  rewriter->io_ = table->io();
  SLUICE_ASSIGN_OR_RETURN(std::optional<IndexManifestEntry> live,
                          LiveDeletionVectorIndex(*table, partition, bucket));
  std::vector<std::string> live_files;
  for (const DataFileMeta& f : restored_files) live_files.push_back(f.file_name);
  BucketedDvMaintainer::PathOf path_of =
      [table](const IndexManifestEntry& entry) -> Result<std::string> {
    if (entry.external_path) return StripFileScheme(*entry.external_path);
    return table->path_factory().IndexFilePathOfSerialized(entry.partition, entry.bucket,
                                                           entry.file_name);
  };
  auto counter = std::make_shared<int64_t>(0);
  BucketedDvMaintainer::NewFileName new_name = [uuid = NewUuidV4(), counter]() {
    return IndexFileName(uuid, (*counter)++);
  };
  SLUICE_ASSIGN_OR_RETURN(
      rewriter->maintainer_,
      BucketedDvMaintainer::Make(table->io(), std::move(path_of), std::move(new_name),
                                 options.deletion_vectors_bitmap64(), partition, bucket,
                                 std::move(live), live_files));
  // Java MergeTreeCompactManagerFactory: values are needed unless the newest record wins and no
  // changelog compares against the looked-up one.
  rewriter->values_ = options.changelog_producer() == ChangelogProducer::kLookup ||
                      options.merge_engine() != MergeEngine::kDeduplicate ||
                      !options.sequence_field().empty();
  BucketedDvMaintainer* maintainer = rewriter->maintainer_.get();
  if (rewriter->values_) {
    ChangelogMergeTreeRewriter::DeletionVectorHooks hooks;
    hooks.is_deleted = [maintainer](const std::string& file, int64_t position) {
      const DeletionVector* dv = maintainer->DeletionVectorOf(file);
      return dv != nullptr && dv->IsDeleted(position);
    };
    hooks.supersede = [staged = &rewriter->staged_deletions_](const std::string& file,
                                                              int64_t position) {
      staged->emplace_back(file, position);
    };
    SLUICE_ASSIGN_OR_RETURN(rewriter->merge_,
                            ChangelogMergeTreeRewriter::Make(table, std::move(partition), writers,
                                                             max_level, std::move(hooks)));
  } else {
    SLUICE_RETURN_NOT_OK(
        rewriter->MakePositionLookup(table, schema, std::move(partition), options, writers));
  }
  // Inputs are merged under their vectors: a row superseded earlier must not come back.
  rewriter->merge_->SetDeletedPositions(
      [maintainer](const std::string& file) -> std::optional<std::vector<int64_t>> {
        const DeletionVector* dv = maintainer->DeletionVectorOf(file);
        if (dv == nullptr) return std::nullopt;
        return dv->ToSortedPositions();
      });
  return rewriter;
}

Status LookupMergeTreeCompactRewriter::MakePositionLookup(
    const std::shared_ptr<const FileStoreTable>& table,
    const std::shared_ptr<const TableSchema>& schema, std::string partition,
    const CoreOptions& options, const std::shared_ptr<DataFileWriterFactory>& writers) {
  SLUICE_ASSIGN_OR_RETURN(LookupOptions lookup_options, LookupOptions::Make(options));
  const std::string bucket_path = writers->path_factory().bucket_path();
  SLUICE_ASSIGN_OR_RETURN(merge_, MergeTreeCompactRewriter::Make(table, partition, writers));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<LookupFileCache> cache,
                          LookupFileCache::Make(LocalFileIO(), "", lookup_options));
  // Superseded records are found by position: the lookup files need no value.
  SLUICE_ASSIGN_OR_RETURN(levels_,
                          MakeLookupLevels(table, schema, partition, bucket_path, std::move(cache),
                                           LookupLevels::Options{/*persist_value=*/false}));
  SLUICE_ASSIGN_OR_RETURN(file_readers_,
                          MakeLookupFileReaderFactory(table, schema, partition, bucket_path));
  record_type_ = KeyValueFileReader::RecordType(schema->LogicalRowType());
  std::vector<DataTypePtr> key_types;
  for (const std::string& name : schema->trimmed_primary_keys()) {
    const int column = schema->FieldIndex(name);
    key_columns_.push_back(column);
    key_types.push_back(schema->fields()[static_cast<size_t>(column)].type);
  }
  key_encoder_ = std::make_unique<RowProjectionEncoder>(key_columns_, std::move(key_types));
  return Status::OK();
}

void LookupMergeTreeCompactRewriter::SetHigherRuns(std::vector<SortedRun> runs) {
  // A new compaction: whatever a failed one staged is dropped.
  staged_removals_.clear();
  staged_deletions_.clear();
  has_higher_runs_ = !runs.empty();
  if (levels_) levels_->SetRuns(runs);
  merge_->SetHigherRuns(std::move(runs));
}

Status LookupMergeTreeCompactRewriter::LookUpKeysOf(const DataFileMeta& file) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SortedRunReader> reader, file_readers_(file));
  ColumnBatch batch(record_type_);
  const int kind_column = record_type_->num_fields() - 1;
  key_.resize(key_columns_.size());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) return Status::OK();
    const int8_t* kinds = batch.column(kind_column)->data<int8_t>();
    for (int64_t row = 0; row < batch.num_rows(); ++row) {
      // An ignored delete supersedes nothing: the older record stays the key's value.
      if (ignore_delete_ && IsRetract(static_cast<RowKind>(kinds[row]))) continue;
      for (size_t k = 0; k < key_columns_.size(); ++k) {
        key_[k] = batch.column(key_columns_[k])->GetValue(row);
      }
      SLUICE_ASSIGN_OR_RETURN(std::string_view key_bytes, key_encoder_->Encode(batch, row));
      SLUICE_ASSIGN_OR_RETURN(std::optional<PositionedKeyValue> older,
                              levels_->Lookup(key_, key_bytes, /*start_level=*/0));
      if (older) staged_deletions_.emplace_back(older->file_name, older->row_position);
    }
  }
}

Result<CompactResult> LookupMergeTreeCompactRewriter::Rewrite(
    int output_level, bool /*drop_delete*/, const std::vector<std::vector<SortedRun>>& sections) {
  for (const std::vector<SortedRun>& section : sections) {
    for (const SortedRun& run : section) {
      for (const LevelFilePtr& file : run.files()) {
        staged_removals_.push_back(file->meta.file_name);
        if (!values_ && has_higher_runs_) SLUICE_RETURN_NOT_OK(LookUpKeysOf(file->meta));
      }
    }
  }
  return merge_->Rewrite(output_level, /*drop_delete=*/true, sections);
}

Status LookupMergeTreeCompactRewriter::FinishCompaction(CompactResult* result) {
  std::set<std::string> kept;
  for (const DataFileMeta& f : result->after) kept.insert(f.file_name);
  for (const std::string& name : staged_removals_) {
    if (kept.count(name) == 0) maintainer_->RemoveDeletionVectorOf(name);
  }
  for (const auto& [file, position] : staged_deletions_) {
    SLUICE_RETURN_NOT_OK(maintainer_->NotifyNewDeletion(file, position));
  }
  staged_removals_.clear();
  staged_deletions_.clear();
  SLUICE_ASSIGN_OR_RETURN(std::optional<BucketedDvMaintainer::IndexChange> change,
                          maintainer_->WriteDeletionVectorsIndex());
  if (!change) return Status::OK();
  CompactDeletionFile deletion;
  deletion.new_file = change->new_file;
  deletion.deleted_file = change->deleted_file;
  if (change->new_file) {
    deletion.clean = [io = io_, path = change->new_file_path]() {
      // Never committed: a failed delete leaves an orphan index file, no reader sees it.
      io->Delete(path, /*recursive=*/false).IgnoreError();
    };
  }
  result->deletion_file = std::move(deletion);
  return Status::OK();
}

}  // namespace sluice
