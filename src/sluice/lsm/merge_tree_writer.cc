#include "sluice/lsm/merge_tree_writer.h"

#include "sluice/lsm/merge_function_factory.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/meta/file_paths.h"

namespace sluice {

Result<std::unique_ptr<MergeTreeWriter>> MergeTreeWriter::Make(
    std::shared_ptr<DataFileWriterFactory> factory, const CoreOptions& options,
    int64_t max_sequence_number, std::unique_ptr<CompactManager> compact_manager,
    MemoryPoolFactory* pool) {
  const TableSchema& schema = factory->schema();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge_function,
                          CreateMergeFunction(schema, options));
  SLUICE_ASSIGN_OR_RETURN(std::optional<UserSequenceComparator> user_sequence,
                          UserSequenceComparator::Make(schema, options));
  std::vector<int> key_columns;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    key_columns.push_back(schema.FieldIndex(name));
  }
  std::vector<int> sequence_columns;
  bool ascending = true;
  if (user_sequence) {
    sequence_columns = user_sequence->fields();
    ascending = user_sequence->ascending();
  }
  const bool last_record_wins =
      options.merge_engine() == MergeEngine::kDeduplicate && !options.ignore_delete();
  WriteBuffer buffer(factory->row_type(), std::move(key_columns), std::move(sequence_columns),
                     ascending, factory->key_value_type(), last_record_wins);
  return std::unique_ptr<MergeTreeWriter>(new MergeTreeWriter(
      std::move(factory), std::move(merge_function), std::move(buffer), pool,
      options.write_buffer_size(), max_sequence_number, std::move(compact_manager),
      options.changelog_producer() == ChangelogProducer::kInput));
}

MergeTreeWriter::MergeTreeWriter(std::shared_ptr<DataFileWriterFactory> factory,
                                 std::unique_ptr<MergeFunction> merge_function, WriteBuffer buffer,
                                 MemoryPoolFactory* pool, int64_t write_buffer_size,
                                 int64_t max_sequence_number,
                                 std::unique_ptr<CompactManager> compact_manager,
                                 bool changelog_input)
    : factory_(std::move(factory)),
      merge_function_(std::move(merge_function)),
      buffer_(std::move(buffer)),
      own_pool_(pool == nullptr ? std::make_unique<MemoryPoolFactory>(write_buffer_size) : nullptr),
      pool_(pool == nullptr ? own_pool_.get() : pool),
      next_sequence_number_(max_sequence_number + 1),
      compact_manager_(std::move(compact_manager)),
      changelog_input_(changelog_input) {
  pool_->NotifyNewOwner(this);
}

MergeTreeWriter::~MergeTreeWriter() { pool_->RemoveOwner(this); }

void MergeTreeWriter::ClearBuffer() {
  buffer_.Clear();
  pool_->Account(-accounted_bytes_);
  accounted_bytes_ = 0;
}

Status MergeTreeWriter::Write(const ColumnBatch& batch, const int64_t* rows, int64_t n,
                              const RowKind* kinds) {
  if (n == 0) return Status::OK();
  buffer_.Put(batch, rows, n, kinds, next_sequence_number_);
  next_sequence_number_ += n;
  const int64_t usage = buffer_.memory_usage();
  pool_->Account(usage - accounted_bytes_);
  accounted_bytes_ = usage;
  return pool_->Reclaim(this);
}

Status MergeTreeWriter::Flush(bool wait_for_latest_compaction, bool full_compaction) {
  if (!buffer_.empty()) {
    if (compact_manager_ && compact_manager_->ShouldWaitForLatestCompaction()) {
      wait_for_latest_compaction = true;
    }
    std::unique_ptr<RollingDataFileWriter> writer =
        factory_->NewKeyValueWriter(/*level=*/0, FileSource::kAppend);
    std::unique_ptr<RollingDataFileWriter> changelog;
    WriteBuffer::Consumer raw_consumer;
    if (changelog_input_) {
      changelog = factory_->NewChangelogWriter(/*level=*/0);
      raw_consumer = [&](const ColumnBatch& batch) { return changelog->Write(batch); };
    }
    Status st = buffer_.ForEach(
        merge_function_.get(), [&](const ColumnBatch& batch) { return writer->Write(batch); },
        raw_consumer);
    ClearBuffer();
    std::vector<DataFileMeta> changelog_files;
    if (changelog) st = CloseInto(st, changelog.get(), &changelog_files);
    std::vector<DataFileMeta> files;
    st = CloseInto(st, writer.get(), &files);
    if (!st.ok()) {
      factory_->DeleteUnreferenced(changelog_files);
      return st;
    }
    for (DataFileMeta& file : changelog_files) new_changelog_files_.push_back(std::move(file));
    for (DataFileMeta& file : files) {
      if (compact_manager_) SLUICE_RETURN_NOT_OK(compact_manager_->AddNewFile(file));
      new_files_.push_back(std::move(file));
    }
  }
  if (!compact_manager_) return Status::OK();
  SLUICE_RETURN_NOT_OK(
      compact_increment_.Sync(*compact_manager_, wait_for_latest_compaction, *factory_));
  return compact_manager_->TriggerCompaction(full_compaction);
}

Status MergeTreeWriter::CloseInto(Status st, RollingDataFileWriter* writer,
                                  std::vector<DataFileMeta>* files) {
  if (st.ok()) {
    Result<std::vector<DataFileMeta>> closed = writer->Close();
    if (closed.ok()) {
      *files = std::move(closed).value();
      return Status::OK();
    }
    st = closed.status();
  }
  writer->Abort();
  return st;
}

Result<CommitIncrement> MergeTreeWriter::PrepareCommit(bool wait_compaction) {
  SLUICE_RETURN_NOT_OK(Flush(wait_compaction, /*full_compaction=*/false));
  if (compact_manager_) {
    const bool wait = wait_compaction || compact_manager_->ShouldWaitForPreparingCheckpoint();
    SLUICE_RETURN_NOT_OK(compact_increment_.Sync(*compact_manager_, wait, *factory_));
  }
  CommitIncrement increment;
  increment.data.new_files = std::move(new_files_);
  new_files_.clear();
  increment.data.changelog_files = std::move(new_changelog_files_);
  new_changelog_files_.clear();
  increment.compact = compact_increment_.Drain();
  return increment;
}

Status MergeTreeWriter::Close() {
  if (compact_manager_) compact_increment_.Abandon(*compact_manager_, *factory_);
  ClearBuffer();
  factory_->DeleteUnreferenced(new_files_);
  factory_->DeleteUnreferenced(new_changelog_files_);
  new_files_.clear();
  new_changelog_files_.clear();
  return Status::OK();
}

}  // namespace sluice
