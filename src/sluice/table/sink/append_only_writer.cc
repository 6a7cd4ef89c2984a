#include "sluice/table/sink/append_only_writer.h"

#include "sluice/batch/column_take.h"

namespace sluice {

AppendOnlyWriter::AppendOnlyWriter(std::shared_ptr<DataFileWriterFactory> factory,
                                   int64_t max_sequence_number,
                                   std::unique_ptr<CompactManager> compact_manager)
    : factory_(std::move(factory)),
      next_sequence_number_(max_sequence_number + 1),
      compact_manager_(std::move(compact_manager)) {}

AppendOnlyWriter::~AppendOnlyWriter() = default;

Status AppendOnlyWriter::Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
                               const RowKind* kinds) {
  if (n == 0) return Status::OK();
  if (kinds != nullptr) {
    for (int64_t i = 0; i < n; ++i) {
      if (kinds[rows[i]] != RowKind::kInsert) {
        return Status::InvalidArgument("append table " + factory_->path_factory().bucket_path() +
                                       ": an append-only writer accepts only +I rows, got " +
                                       std::string(RowKindShortString(kinds[rows[i]])));
      }
    }
  }
  if (!writer_) writer_ = factory_->NewAppendWriter(next_sequence_number_);
  // The common case (an unpartitioned, bucket-unaware table) hands over whole batches in order.
  bool whole = n == batch.num_rows();
  for (int64_t i = 0; whole && i < n; ++i) whole = rows[i] == i;
  Status st;
  if (whole) {
    st = writer_->Write(batch);
  } else {
    if (!staging_) staging_ = std::make_unique<ColumnBatch>(factory_->row_type());
    staging_->Clear();
    for (int c = 0; c < batch.num_columns(); ++c) {
      TakeRows(*batch.column(c), rows, n, staging_->column(c));
    }
    staging_->set_num_rows(n);
    st = writer_->Write(*staging_);
  }
  next_sequence_number_ = writer_->next_sequence_number();
  return st;
}

Status AppendOnlyWriter::CloseCurrentFile() {
  if (!writer_) return Status::OK();
  std::unique_ptr<RollingDataFileWriter> writer = std::move(writer_);
  Result<std::vector<DataFileMeta>> files = writer->Close();
  if (!files.ok()) {
    writer->Abort();
    return files.status();
  }
  for (DataFileMeta& file : files.value()) {
    if (compact_manager_) SLUICE_RETURN_NOT_OK(compact_manager_->AddNewFile(file));
    new_files_.push_back(std::move(file));
  }
  return Status::OK();
}

Result<CommitIncrement> AppendOnlyWriter::PrepareCommit(bool wait_compaction) {
  SLUICE_RETURN_NOT_OK(CloseCurrentFile());
  CommitIncrement increment;
  increment.data.new_files = std::move(new_files_);
  new_files_.clear();
  if (compact_manager_) {
    SLUICE_RETURN_NOT_OK(compact_increment_.Sync(*compact_manager_, /*blocking=*/false, *factory_));
    SLUICE_RETURN_NOT_OK(compact_manager_->TriggerCompaction(/*full_compaction=*/false));
    if (wait_compaction)
      SLUICE_RETURN_NOT_OK(
          compact_increment_.Sync(*compact_manager_, /*blocking=*/true, *factory_));
    increment.compact = compact_increment_.Drain();
  }
  return increment;
}

Status AppendOnlyWriter::Compact(bool full_compaction) {
  if (!compact_manager_) {
    return Status::NotSupported("compaction of an append bucket without a compact manager");
  }
  SLUICE_RETURN_NOT_OK(CloseCurrentFile());
  SLUICE_RETURN_NOT_OK(compact_increment_.Sync(*compact_manager_, /*blocking=*/true, *factory_));
  return compact_manager_->TriggerCompaction(full_compaction);
}

Status AppendOnlyWriter::Close() {
  if (writer_) writer_->Abort();
  writer_.reset();
  factory_->DeleteUnreferenced(new_files_);
  new_files_.clear();
  if (compact_manager_) compact_increment_.Abandon(*compact_manager_, *factory_);
  return Status::OK();
}

}  // namespace sluice
