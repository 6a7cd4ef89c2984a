#include "sluice/table/sink/postpone_bucket_writer.h"

#include "sluice/batch/column_take.h"
#include "sluice/lsm/merge_function_factory.h"

namespace sluice {

namespace {

// KeyValue.UNKNOWN_SEQUENCE.
constexpr int64_t kUnknownSequence = -1;

}  // namespace

Result<std::unique_ptr<PostponeBucketWriter>> PostponeBucketWriter::Make(
    std::shared_ptr<DataFileWriterFactory> factory, const CoreOptions& options) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge_function,
                          CreateMergeFunction(factory->schema(), options));
  return std::unique_ptr<PostponeBucketWriter>(
      new PostponeBucketWriter(std::move(factory), std::move(merge_function)));
}

PostponeBucketWriter::PostponeBucketWriter(std::shared_ptr<DataFileWriterFactory> factory,
                                           std::unique_ptr<MergeFunction> merge_function)
    : factory_(std::move(factory)), merge_function_(std::move(merge_function)) {
  for (const std::string& name : factory_->schema().trimmed_primary_keys()) {
    key_columns_.push_back(factory_->schema().FieldIndex(name));
  }
}

PostponeBucketWriter::~PostponeBucketWriter() = default;

Status PostponeBucketWriter::ValidateRetract(const ColumnBatch& batch, int64_t row, RowKind kind) {
  KeyValue kv;
  kv.value = batch.GetRow(row).list();
  for (int c : key_columns_) kv.key.push_back(kv.value[static_cast<size_t>(c)]);
  kv.sequence_number = kUnknownSequence;
  kv.kind = kind;
  merge_function_->Reset();
  SLUICE_RETURN_NOT_OK(merge_function_->Add(std::move(kv)));
  merge_function_->GetResultKeepingDeletes();
  retract_validated_ = true;
  return Status::OK();
}

Status PostponeBucketWriter::Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
                                   const RowKind* kinds) {
  if (n == 0) return Status::OK();
  if (kinds != nullptr && !retract_validated_) {
    for (int64_t i = 0; i < n; ++i) {
      const RowKind kind = kinds[rows[i]];
      if (kind == RowKind::kUpdateBefore || kind == RowKind::kDelete) {
        SLUICE_RETURN_NOT_OK(ValidateRetract(batch, rows[i], kind));
        break;
      }
    }
  }
  if (!staging_) staging_ = std::make_unique<ColumnBatch>(factory_->key_value_type());
  staging_->Clear();
  const int k = static_cast<int>(key_columns_.size());
  for (int i = 0; i < k; ++i)
    TakeRows(*batch.column(key_columns_[i]), rows, n, staging_->column(i));
  ColumnVector* seq = staging_->column(k);
  ColumnVector* kind = staging_->column(k + 1);
  for (int64_t i = 0; i < n; ++i) {
    seq->AppendFixed<int64_t>(kUnknownSequence);
    const RowKind row_kind = kinds == nullptr ? RowKind::kInsert : kinds[rows[i]];
    kind->AppendFixed<int8_t>(static_cast<int8_t>(RowKindToByte(row_kind)));
  }
  for (int c = 0; c < batch.num_columns(); ++c) {
    TakeRows(*batch.column(c), rows, n, staging_->column(k + 2 + c));
  }
  staging_->set_num_rows(n);
  if (!writer_) writer_ = factory_->NewKeyValueWriter(/*level=*/0, FileSource::kAppend);
  return writer_->Write(*staging_);
}

Result<CommitIncrement> PostponeBucketWriter::PrepareCommit(bool) {
  if (writer_) {
    std::unique_ptr<RollingDataFileWriter> writer = std::move(writer_);
    Result<std::vector<DataFileMeta>> files = writer->Close();
    if (!files.ok()) {
      writer->Abort();
      return files.status();
    }
    for (DataFileMeta& file : *files) new_files_.push_back(std::move(file));
  }
  CommitIncrement increment;
  increment.data.new_files = std::move(new_files_);
  new_files_.clear();
  return increment;
}

Status PostponeBucketWriter::Close() {
  if (writer_) writer_->Abort();
  writer_.reset();
  factory_->DeleteUnreferenced(new_files_);
  new_files_.clear();
  return Status::OK();
}

}  // namespace sluice
