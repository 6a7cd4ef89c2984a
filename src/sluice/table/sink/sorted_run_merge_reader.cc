#include "sluice/table/sink/sorted_run_merge_reader.h"

#include <algorithm>

#include "sluice/batch/column_batch.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/key_value_file_reader.h"

namespace sluice {
namespace {

constexpr int64_t kBatchSize = 1024;

}  // namespace

// The files of one run, read in order; `current` is the record at the head of the run.
struct SortedRunMergeReader::RunCursor {
  size_t index = 0;  // position of the run, breaks ties so that merging is deterministic
  DataSplit split;
  size_t next_file = 0;
  std::unique_ptr<KeyValueFileReader> reader;
  int32_t level = 0;
  std::unique_ptr<ColumnBatch> batch;
  int64_t row = 0;
  KeyValue current;

  const FileStoreTable* table = nullptr;
  std::shared_ptr<const TableSchema> schema;
  DataTypePtr value_type;
  std::vector<int> key_fields;
};

SortedRunMergeReader::~SortedRunMergeReader() = default;

Result<std::unique_ptr<SortedRunMergeReader>> SortedRunMergeReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> schema,
    const std::string& partition, const std::string& bucket_path,
    const std::vector<SortedRun>& runs, const KeyValueMergeOrder* order) {
  std::unique_ptr<SortedRunMergeReader> reader(new SortedRunMergeReader());
  reader->order_ = order;
  DataTypePtr value_type = schema->LogicalRowType();
  ValueList partition_values;
  if (!schema->partition_keys().empty()) {
    SLUICE_ASSIGN_OR_RETURN(partition_values,
                            DecodeSerializedBinaryRow(partition, *schema->LogicalPartitionType()));
  }
  std::vector<int> key_fields;
  for (const std::string& name : schema->trimmed_primary_keys()) {
    const auto& fields = value_type->fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name == name) key_fields.push_back(static_cast<int>(i));
    }
  }
  for (size_t r = 0; r < runs.size(); ++r) {
    auto cursor = std::make_unique<RunCursor>();
    cursor->index = r;
    cursor->table = &table;
    cursor->schema = schema;
    cursor->value_type = value_type;
    cursor->key_fields = key_fields;
    cursor->batch = std::make_unique<ColumnBatch>(KeyValueFileReader::RecordType(value_type));
    cursor->split.partition = partition;
    cursor->split.partition_values = partition_values;
    cursor->split.bucket_path = bucket_path;
    for (const LevelFilePtr& file : runs[r].files()) {
      cursor->split.data_files.push_back(file->meta);
      cursor->split.data_file_paths.push_back(file->meta.external_path
                                                  ? *file->meta.external_path
                                                  : bucket_path + "/" + file->meta.file_name);
    }
    SLUICE_ASSIGN_OR_RETURN(bool has, reader->Advance(cursor.get()));
    if (has) reader->heap_.push_back(cursor.get());
    reader->runs_.push_back(std::move(cursor));
  }
  return reader;
}

// Moves `run` to its next record; false when the run is exhausted.
Result<bool> SortedRunMergeReader::Advance(RunCursor* run) {
  while (run->row >= run->batch->num_rows()) {
    if (run->reader) {
      SLUICE_ASSIGN_OR_RETURN(bool more, run->reader->Next(run->batch.get()));
      run->row = 0;
      if (more) continue;
      run->reader.reset();
    }
    if (run->next_file >= run->split.data_files.size()) return false;
    const size_t file = run->next_file++;
    KeyValueFileReader::Options options;
    options.batch_size = kBatchSize;
    SLUICE_ASSIGN_OR_RETURN(run->reader,
                            KeyValueFileReader::Open(*run->table, *run->schema, run->value_type,
                                                     run->split, file, std::move(options)));
    run->level = run->split.data_files[file].level;
    run->batch->Clear();
    run->row = 0;
  }
  const int num_values = static_cast<int>(run->value_type->fields().size());
  KeyValue& kv = run->current;
  kv.value.resize(static_cast<size_t>(num_values));
  for (int c = 0; c < num_values; ++c) kv.value[c] = run->batch->column(c)->GetValue(run->row);
  kv.key.clear();
  for (int field : run->key_fields) kv.key.push_back(kv.value[static_cast<size_t>(field)]);
  kv.sequence_number = run->batch->column(num_values)->GetValue(run->row).int64();
  const int kind_byte = run->batch->column(num_values + 1)->GetValue(run->row).int8();
  std::optional<RowKind> kind = RowKindFromByte(kind_byte);
  if (!kind) {
    return Status::Corruption("data file " + run->reader->path() + ": value kind " +
                              std::to_string(kind_byte) + " is not a row kind");
  }
  kv.kind = *kind;
  kv.level = run->level;
  ++run->row;
  return true;
}

Result<bool> SortedRunMergeReader::Next(KeyValue* kv) {
  if (heap_.empty()) return false;
  // The smallest head; runs are few, a linear scan beats heap bookkeeping.
  size_t best = 0;
  for (size_t i = 1; i < heap_.size(); ++i) {
    int c = order_->Compare(heap_[i]->current, heap_[best]->current);
    if (c < 0 || (c == 0 && heap_[i]->index < heap_[best]->index)) best = i;
  }
  RunCursor* run = heap_[best];
  *kv = std::move(run->current);
  run->current = KeyValue();
  SLUICE_ASSIGN_OR_RETURN(bool more, Advance(run));
  if (!more) heap_.erase(heap_.begin() + static_cast<std::ptrdiff_t>(best));
  return true;
}

}  // namespace sluice
