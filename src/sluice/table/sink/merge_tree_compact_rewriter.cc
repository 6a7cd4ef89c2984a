#include "sluice/table/sink/merge_tree_compact_rewriter.h"

#include <algorithm>
#include <utility>

#include "sluice/batch/column_take.h"
#include "sluice/lsm/column_row_comparator.h"
#include "sluice/lsm/compaction_options.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/lsm/merge_tree_compact_manager.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/sink/changelog_merge_tree_rewriter.h"
#include "sluice/table/sink/lookup_merge_tree_compact_rewriter.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/sorted_run_file_reader.h"

namespace sluice {
namespace {

// Rows per file read, and per write of merged rows.
constexpr int64_t kBatchSize = 4096;

}  // namespace

class MergeTreeCompactRewriter::HigherKeys {
 public:
  HigherKeys(std::unique_ptr<SectionMerge> merge, const SortedRunMerge::Options& options)
      : merge_(std::move(merge)),
        keys_(options.record_type),
        comparator_(options.key_columns),
        consumer_([this](const ColumnBatch& batch, const int64_t* rows, int64_t n) {
          for (int c = 0; c < batch.num_columns(); ++c) {
            TakeRows(*batch.column(c), rows, n, keys_.column(c));
          }
          keys_.set_num_rows(keys_.num_rows() + n);
          return Status::OK();
        }) {}

  // Whether the key of batch row `row` is in the higher runs. REQUIRES: calls in key order.
  Result<bool> Contains(const ColumnBatch& batch, int64_t row) {
    while (true) {
      if (position_ >= keys_.num_rows()) {
        if (ended_) return false;
        keys_.Clear();
        position_ = 0;
        SLUICE_ASSIGN_OR_RETURN(bool more, merge_->merge->Next(kBatchSize, consumer_));
        ended_ = !more;
        continue;
      }
      const int c = comparator_.Compare(keys_, position_, batch, row);
      if (c == 0) return true;
      if (c > 0) return false;
      ++position_;
    }
  }

 private:
  std::unique_ptr<SectionMerge> merge_;
  ColumnBatch keys_;  // the next keys, record layout
  int64_t position_ = 0;
  bool ended_ = false;
  ColumnRowComparator comparator_;
  SortedRunMerge::Consumer consumer_;
};

MergeTreeCompactRewriter::MergeTreeCompactRewriter(std::shared_ptr<const FileStoreTable> table,
                                                   std::string partition,
                                                   std::shared_ptr<DataFileWriterFactory> writers,
                                                   Parts parts)
    : table_(std::move(table)),
      partition_(std::move(partition)),
      writers_(std::move(writers)),
      schema_(std::move(parts.schema)),
      options_(std::move(parts.options)),
      merge_function_(std::move(parts.merge_function)),
      merge_options_(std::move(parts.merge_options)),
      first_row_(options_.merge_engine() == MergeEngine::kFirstRow) {}

MergeTreeCompactRewriter::~MergeTreeCompactRewriter() = default;

Result<MergeTreeCompactRewriter::Parts> MergeTreeCompactRewriter::MakeParts(
    const FileStoreTable& table, const DataFileWriterFactory& writers) {
  auto schema_ptr = std::make_shared<const TableSchema>(writers.schema());
  const TableSchema& schema = *schema_ptr;
  SLUICE_ASSIGN_OR_RETURN(CoreOptions options,
                          CoreOptions::FromSchema(schema, table.dynamic_options()));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge_function,
                          CreateMergeFunction(schema, options));
  SLUICE_ASSIGN_OR_RETURN(std::optional<UserSequenceComparator> sequence,
                          UserSequenceComparator::Make(schema, options));
  // Files are read with every field of the table row, in schema order.
  SortedRunMerge::Options merge;
  merge.record_type = KeyValueFileReader::RecordType(schema.LogicalRowType());
  for (const std::string& name : schema.trimmed_primary_keys()) {
    merge.key_columns.push_back(schema.FieldIndex(name));
  }
  if (sequence) {
    merge.sequence_columns = sequence->fields();
    merge.sequence_ascending = sequence->ascending();
  }
  return Parts{std::move(schema_ptr), std::move(options), std::move(merge_function),
               std::move(merge)};
}

Result<std::unique_ptr<MergeTreeCompactRewriter>> MergeTreeCompactRewriter::Make(
    std::shared_ptr<const FileStoreTable> table, std::string partition,
    std::shared_ptr<DataFileWriterFactory> writers) {
  SLUICE_ASSIGN_OR_RETURN(Parts parts, MakeParts(*table, *writers));
  return std::unique_ptr<MergeTreeCompactRewriter>(new MergeTreeCompactRewriter(
      std::move(table), std::move(partition), std::move(writers), std::move(parts)));
}

Result<std::unique_ptr<MergeTreeCompactRewriter::SectionMerge>> MergeTreeCompactRewriter::OpenMerge(
    const std::vector<SortedRun>& runs, SortedRunMerge::Options options,
    MergeFunction* merge_function) {
  auto section = std::make_unique<SectionMerge>();
  DataSplit& split = section->split;
  split.partition = partition_;
  if (!schema_->partition_keys().empty()) {
    SLUICE_ASSIGN_OR_RETURN(
        split.partition_values,
        DecodeSerializedBinaryRow(partition_, *schema_->LogicalPartitionType()));
  }
  split.bucket_path = writers_->path_factory().bucket_path();
  std::vector<std::vector<size_t>> run_files;
  for (const SortedRun& run : runs) {
    std::vector<size_t>& files = run_files.emplace_back();
    for (const LevelFilePtr& file : run.files()) {
      files.push_back(split.data_files.size());
      split.data_files.push_back(file->meta);
      split.data_file_paths.push_back(file->meta.external_path
                                          ? *file->meta.external_path
                                          : split.bucket_path + "/" + file->meta.file_name);
    }
  }
  KeyValueFileReader::Options file_options;
  file_options.batch_size = kBatchSize;
  const DataTypePtr value_type = schema_->LogicalRowType();
  if (deleted_) {
    for (const DataFileMeta& file : split.data_files) {
      section->deleted.push_back(deleted_(file.file_name));
    }
  }
  std::vector<std::unique_ptr<SortedRunReader>> readers;
  for (std::vector<size_t>& files : run_files) {
    readers.push_back(std::make_unique<SortedRunFileReader>(
        *table_, *schema_, value_type, split, std::move(files), file_options,
        deleted_ ? &section->deleted : nullptr));
  }
  SLUICE_ASSIGN_OR_RETURN(
      section->merge, SortedRunMerge::Open(std::move(options), std::move(readers), merge_function));
  return section;
}

Result<CompactResult> MergeTreeCompactRewriter::Rewrite(
    int output_level, bool drop_delete, const std::vector<std::vector<SortedRun>>& sections) {
  std::unique_ptr<HigherKeys> higher;
  if (first_row_ && !higher_runs_.empty()) {
    // Every record of the higher runs counts, retractions too.
    SortedRunMerge::Options options = merge_options_;
    options.drop_retractions = false;
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SectionMerge> merge,
                            OpenMerge(higher_runs_, std::move(options), &higher_keys_function_));
    higher = std::make_unique<HigherKeys>(std::move(merge), merge_options_);
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
                                              HigherKeys* higher, RollingDataFileWriter* writer) {
  SortedRunMerge::Options options = merge_options_;
  options.drop_retractions = drop_delete;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SectionMerge> section,
                          OpenMerge(runs, std::move(options), merge_function_.get()));
  return WriteMerge(section.get(), higher, writer, nullptr);
}

Status MergeTreeCompactRewriter::WriteMerge(SectionMerge* section, HigherKeys* higher,
                                            RollingDataFileWriter* writer,
                                            const std::function<Status()>& after_batch) {
  if (out_ == nullptr) out_ = std::make_unique<ColumnBatch>(writers_->key_value_type());
  out_->Clear();
  const std::vector<int>& key_columns = merge_options_.key_columns;
  const int num_keys = static_cast<int>(key_columns.size());
  const int num_values = merge_options_.record_type->num_fields() - 2;
  // Merged rows in record layout (values, sequence, kind) go out in the key-value file layout
  // (keys, sequence, kind, values).
  SortedRunMerge::Consumer consumer = [&](const ColumnBatch& batch, const int64_t* rows,
                                          int64_t n) -> Status {
    if (writer == nullptr) return Status::OK();
    if (higher != nullptr) {
      kept_.clear();
      for (int64_t i = 0; i < n; ++i) {
        SLUICE_ASSIGN_OR_RETURN(bool present, higher->Contains(batch, rows[i]));
        if (!present) kept_.push_back(rows[i]);
      }
      rows = kept_.data();
      n = static_cast<int64_t>(kept_.size());
    }
    for (int k = 0; k < num_keys; ++k) {
      TakeRows(*batch.column(key_columns[static_cast<size_t>(k)]), rows, n, out_->column(k));
    }
    TakeRows(*batch.column(num_values), rows, n, out_->column(num_keys));
    TakeRows(*batch.column(num_values + 1), rows, n, out_->column(num_keys + 1));
    for (int c = 0; c < num_values; ++c) {
      TakeRows(*batch.column(c), rows, n, out_->column(num_keys + 2 + c));
    }
    out_->set_num_rows(out_->num_rows() + n);
    return Status::OK();
  };
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, section->merge->Next(kBatchSize, consumer));
    if (after_batch) SLUICE_RETURN_NOT_OK(after_batch());
    if (out_->num_rows() >= kBatchSize || (!more && out_->num_rows() > 0)) {
      SLUICE_RETURN_NOT_OK(writer->Write(*out_));
      out_->Clear();
    }
    if (!more) return Status::OK();
  }
}

Result<CompactManagerFactory> MakeMergeTreeCompactManagerFactory(
    std::shared_ptr<const FileStoreTable> table, bool background) {
  const CompactionOptions options =
      CompactionOptions::From(table->options(), /*has_primary_key=*/true);
  // Deletion-vector tables are compacted with the lookup rewriter, which marks the rows its
  // output supersedes in the bucket's deletion vectors (first-row tables never supersede a row).
  const bool deletion_vectors = !options.write_only &&
                                table->options().deletion_vectors_enabled() &&
                                table->options().merge_engine() != MergeEngine::kFirstRow;
  if (deletion_vectors) {
    SLUICE_RETURN_NOT_OK(LookupMergeTreeCompactRewriter::CheckSupported(*table, table->options()));
  }
  return CompactManagerFactory([table, options, background, deletion_vectors](
                                   const std::string& partition, int32_t bucket,
                                   const std::vector<DataFileMeta>& restored_files,
                                   const std::shared_ptr<DataFileWriterFactory>& file_writers)
                                   -> Result<std::unique_ptr<CompactManager>> {
    if (options.write_only) return std::unique_ptr<CompactManager>();
    std::unique_ptr<CompactRewriter> rewriter;
    const ChangelogProducer producer = table->options().changelog_producer();
    // The bucket's highest level, as its Levels will have it.
    int max_level = options.num_levels - 1;
    for (const DataFileMeta& file : restored_files) {
      max_level = std::max(max_level, static_cast<int>(file.level));
    }
    if (deletion_vectors) {
      SLUICE_ASSIGN_OR_RETURN(
          rewriter, LookupMergeTreeCompactRewriter::Make(table, partition, bucket, restored_files,
                                                         file_writers, max_level));
    } else if (producer == ChangelogProducer::kFullCompaction ||
               producer == ChangelogProducer::kLookup ||
               (table->options().force_lookup() &&
                table->options().merge_engine() != MergeEngine::kFirstRow)) {
      SLUICE_ASSIGN_OR_RETURN(
          rewriter, ChangelogMergeTreeRewriter::Make(table, partition, file_writers, max_level));
    } else {
      SLUICE_ASSIGN_OR_RETURN(rewriter,
                              MergeTreeCompactRewriter::Make(table, partition, file_writers));
    }
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeTreeCompactManager> manager,
                            MergeTreeCompactManager::Make(
                                options, file_writers->schema().LogicalTrimmedPrimaryKeysType(),
                                restored_files, std::move(rewriter), background));
    return std::unique_ptr<CompactManager>(std::move(manager));
  });
}

}  // namespace sluice
