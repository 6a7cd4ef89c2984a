#include "sluice/table/source/merge_split_reader.h"

#include <string>
#include <unordered_map>
#include <utility>

#include "sluice/batch/column_take.h"
#include "sluice/lsm/interval_partition.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/row/row_kind.h"
#include "sluice/table/source/split_read_util.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

MergeSplitReader::MergeSplitReader(const FileStoreTable& table,
                                   std::shared_ptr<const TableSchema> read_schema, DataSplit split,
                                   SplitReadOptions options, ReadColumns columns,
                                   std::vector<std::vector<RunFiles>> sections,
                                   std::unique_ptr<MergeFunction> merge_function,
                                   std::optional<ColumnRowComparator> user_sequence,
                                   std::shared_ptr<const TimeZone> session_zone)
    : table_(table),
      read_schema_(std::move(read_schema)),
      split_(std::move(split)),
      options_(std::move(options)),
      columns_(std::move(columns)),
      record_type_(KeyValueFileReader::RecordType(columns_.value_type)),
      sequence_column_(columns_.value_type->num_fields()),
      kind_column_(columns_.value_type->num_fields() + 1),
      key_comparator_(columns_.key_columns),
      sections_(std::move(sections)),
      merge_function_(std::move(merge_function)),
      user_sequence_(std::move(user_sequence)),
      session_zone_(std::move(session_zone)) {
  single_bigint_key_ =
      columns_.key_columns.size() == 1 &&
      PhysicalKindOf(
          *columns_.value_type->fields()[static_cast<size_t>(columns_.key_columns[0])].type) ==
          PhysicalKind::kInt64;
  if (merge_function_ != nullptr || columns_.filter != nullptr) {
    staged_ = std::make_unique<ColumnBatch>(record_type_);
  }
}

Result<std::unique_ptr<MergeSplitReader>> MergeSplitReader::Open(
    const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
    SplitReadOptions options) {
  SLUICE_RETURN_NOT_OK(CheckSplitFiles(split, options));
  SLUICE_RETURN_NOT_OK(CheckBatchSize(options));
  // The engine and its options come from the read schema, overridden by this load's dynamic
  // options (Java table.copy(options)).
  SLUICE_ASSIGN_OR_RETURN(CoreOptions core_options,
                          CoreOptions::FromSchema(*read_schema, table.dynamic_options()));
  // Deduplicate keeps the last record of a key in merge order: the columnar path. Ignoring
  // deletes would make it the last non-retraction, which the merge functions handle.
  const bool deduplicate =
      core_options.merge_engine() == MergeEngine::kDeduplicate && !core_options.ignore_delete();
  SLUICE_ASSIGN_OR_RETURN(std::optional<UserSequenceComparator> sequence,
                          UserSequenceComparator::Make(*read_schema, core_options));
  SLUICE_ASSIGN_OR_RETURN(
      ReadColumns columns,
      ReadColumns::Make(*read_schema, options, !deduplicate, core_options.sequence_field()));
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<const TimeZone> session_zone, LoadSessionZone(options));
  std::unique_ptr<MergeFunction> merge_function;
  if (!deduplicate) {
    SLUICE_ASSIGN_OR_RETURN(merge_function, CreateMergeFunction(*read_schema, core_options));
  }
  std::optional<ColumnRowComparator> user_sequence;
  if (sequence) {
    std::vector<int> sequence_columns;
    for (int field : sequence->fields()) {
      sequence_columns.push_back(columns.schema_to_value[static_cast<size_t>(field)]);
    }
    user_sequence.emplace(std::move(sequence_columns), sequence->ascending());
  }
  // Sections of sorted runs, each run as indexes of the split's files.
  const DataTypePtr key_type = read_schema->LogicalTrimmedPrimaryKeysType();
  std::vector<LevelFilePtr> level_files;
  std::unordered_map<std::string, size_t> file_index;
  for (size_t i = 0; i < split.data_files.size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(LevelFilePtr file, LevelFile::Make(split.data_files[i], *key_type));
    level_files.push_back(std::move(file));
    file_index[split.data_files[i].file_name] = i;
  }
  SLUICE_ASSIGN_OR_RETURN(KeyValueMergeOrder key_order,
                          KeyValueMergeOrder::Make(*read_schema, core_options));
  std::vector<std::vector<RunFiles>> sections;
  for (const auto& section : PartitionIntervals(std::move(level_files), key_order)) {
    std::vector<RunFiles>& runs = sections.emplace_back();
    for (const SortedRun& run : section) {
      RunFiles& files = runs.emplace_back();
      for (const LevelFilePtr& file : run.files())
        files.push_back(file_index[file->meta.file_name]);
    }
  }
  return std::unique_ptr<MergeSplitReader>(
      new MergeSplitReader(table, std::move(read_schema), std::move(split), std::move(options),
                           std::move(columns), std::move(sections), std::move(merge_function),
                           std::move(user_sequence), std::move(session_zone)));
}

int MergeSplitReader::CompareKeys(const RunCursor& a, int a_slot, int64_t i, const RunCursor& b,
                                  int b_slot, int64_t j) const {
  const int64_t* x = a.bigint_keys[a_slot];
  const int64_t* y = b.bigint_keys[b_slot];
  if (x != nullptr && y != nullptr) return x[i] < y[j] ? -1 : (y[j] < x[i] ? 1 : 0);
  return key_comparator_.Compare(*a.slots[a_slot], i, *b.slots[b_slot], j);
}

int MergeSplitReader::CompareCursors(int a, int b) const {
  const RunCursor& x = cursors_[static_cast<size_t>(a)];
  const RunCursor& y = cursors_[static_cast<size_t>(b)];
  int c = CompareKeys(x, x.slot, x.row, y, y.slot, y.row);
  if (c != 0) return c;
  if (user_sequence_) {
    c = user_sequence_->Compare(x.batch(), x.row, y.batch(), y.row);
    if (c != 0) return c;
  }
  const int64_t s = x.sequences[x.slot][x.row];
  const int64_t t = y.sequences[y.slot][y.row];
  return s < t ? -1 : (t < s ? 1 : 0);
}

Status MergeSplitReader::OpenSection(size_t index) {
  // Winners still point into the previous section's batches.
  FlushWinners();
  cursors_.clear();
  tree_.reset();
  cursors_.resize(sections_[index].size());
  for (size_t i = 0; i < cursors_.size(); ++i) {
    RunCursor& cursor = cursors_[i];
    cursor.files = sections_[index][i];
    cursor.slots[0] = std::make_unique<ColumnBatch>(record_type_);
    cursor.slots[1] = std::make_unique<ColumnBatch>(record_type_);
    SLUICE_RETURN_NOT_OK(Advance(i));
  }
  tree_.emplace(static_cast<int>(cursors_.size()), CursorBefore{this}, CursorLive{this});
  tree_->Build();
  section_open_ = true;
  return Status::OK();
}

Status MergeSplitReader::Advance(size_t index) {
  RunCursor& cursor = cursors_[index];
  if (cursor.live && ++cursor.row < cursor.batch().num_rows()) return Status::OK();
  // The next batch goes into the other slot: the current record stays readable, but winners
  // still pointing into the other slot must be gathered first.
  const int target = cursor.live ? 1 - cursor.slot : cursor.slot;
  if (!winners_.empty()) FlushWinners();
  while (true) {
    if (cursor.reader == nullptr) {
      if (cursor.next_file >= cursor.files.size()) {
        cursor.live = false;
        return Status::OK();
      }
      const size_t file = cursor.files[cursor.next_file++];
      KeyValueFileReader::Options file_options;
      file_options.batch_size = options_.batch_size;
      file_options.session_zone = session_zone_;
      file_options.skip_filter = columns_.key_filter;
      if (!options_.deleted_positions.empty() && options_.deleted_positions[file]) {
        file_options.deleted = &*options_.deleted_positions[file];
      }
      SLUICE_ASSIGN_OR_RETURN(cursor.reader,
                              KeyValueFileReader::Open(table_, *read_schema_, columns_.value_type,
                                                       split_, file, file_options));
      cursor.level = cursor.reader->level();
    }
    ColumnBatch* batch = cursor.slots[target].get();
    SLUICE_ASSIGN_OR_RETURN(bool more, cursor.reader->Next(batch));
    if (!more) {
      cursor.reader.reset();
      continue;
    }
    if (batch->num_rows() == 0) continue;
    cursor.slot = target;
    cursor.row = 0;
    cursor.live = true;
    cursor.sequences[target] = batch->column(sequence_column_)->data<int64_t>();
    cursor.bigint_keys[target] = nullptr;
    if (single_bigint_key_) {
      const ColumnVector& key = *batch->column(columns_.key_columns[0]);
      if (!key.has_nulls()) cursor.bigint_keys[target] = key.data<int64_t>();
    }
    return Status::OK();
  }
}

void MergeSplitReader::FlushWinners() {
  size_t begin = 0;
  while (begin < winners_.size()) {
    const Winner& first = winners_[begin];
    rows_.clear();
    size_t end = begin;
    while (end < winners_.size() && winners_[end].cursor == first.cursor &&
           winners_[end].slot == first.slot) {
      rows_.push_back(winners_[end].row);
      ++end;
    }
    const ColumnBatch& source = *cursors_[static_cast<size_t>(first.cursor)].slots[first.slot];
    const auto n = static_cast<int64_t>(rows_.size());
    if (staged_ == nullptr) {
      columns_.AppendOutput(source, rows_.data(), n, source.column(kind_column_)->data<int8_t>(),
                            out_);
    } else {
      for (int c = 0; c < staged_->num_columns(); ++c) {
        TakeRows(*source.column(c), rows_.data(), n, staged_->column(c));
      }
      staged_->set_num_rows(staged_->num_rows() + n);
    }
    begin = end;
  }
  winners_.clear();
}

Status MergeSplitReader::AddRecord(const ColumnBatch& batch, int64_t row, int32_t level) {
  KeyValue kv;
  kv.key.reserve(columns_.key_columns.size());
  for (int column : columns_.key_columns) kv.key.push_back(batch.column(column)->GetValue(row));
  if (key_open_) {
    int c = 0;
    for (size_t i = 0; i < kv.key.size() && c == 0; ++i) {
      c = CompareValues(kv.key[i], current_key_[i], *batch.column(columns_.key_columns[i])->type());
    }
    if (c != 0) SLUICE_RETURN_NOT_OK(FinishKey());
  }
  if (!key_open_) {
    merge_function_->Reset();
    current_key_ = kv.key;
    key_open_ = true;
  }
  kv.sequence_number = batch.column(sequence_column_)->data<int64_t>()[row];
  kv.kind = static_cast<RowKind>(batch.column(kind_column_)->data<int8_t>()[row]);
  kv.level = level;
  kv.value.reserve(static_cast<size_t>(sequence_column_));
  for (int c = 0; c < sequence_column_; ++c) kv.value.push_back(batch.column(c)->GetValue(row));
  return merge_function_->Add(std::move(kv));
}

Status MergeSplitReader::FinishKey() {
  if (!key_open_) return Status::OK();
  key_open_ = false;
  std::optional<KeyValue> result = merge_function_->GetResult();
  if (!result) return Status::OK();
  for (int c = 0; c < sequence_column_; ++c) {
    SLUICE_RETURN_NOT_OK_CTX(staged_->column(c)->AppendValue(result->value[static_cast<size_t>(c)]),
                             "merged value of column '" +
                                 columns_.value_type->fields()[static_cast<size_t>(c)].name + "'");
  }
  staged_->column(sequence_column_)->AppendFixed<int64_t>(result->sequence_number);
  staged_->column(kind_column_)->AppendFixed<int8_t>(static_cast<int8_t>(result->kind));
  staged_->set_num_rows(staged_->num_rows() + 1);
  ++produced_;
  return Status::OK();
}

Status MergeSplitReader::Merge(bool* end) {
  while (true) {
    if (!section_open_) {
      if (next_section_ >= sections_.size()) {
        *end = true;
        return Status::OK();
      }
      SLUICE_RETURN_NOT_OK(OpenSection(next_section_++));
      continue;
    }
    const int w = tree_->winner();
    if (w < 0) {
      if (merge_function_ != nullptr) SLUICE_RETURN_NOT_OK(FinishKey());
      section_open_ = false;
      continue;
    }
    if (produced_ >= options_.batch_size) return Status::OK();
    RunCursor& cursor = cursors_[static_cast<size_t>(w)];
    const int slot = cursor.slot;
    const int64_t row = cursor.row;
    if (merge_function_ != nullptr) {
      SLUICE_RETURN_NOT_OK(AddRecord(cursor.batch(), row, cursor.level));
      SLUICE_RETURN_NOT_OK(Advance(static_cast<size_t>(w)));
      tree_->Replay();
      continue;
    }
    // Deduplicate: the record wins when the next one in merge order has another key.
    SLUICE_RETURN_NOT_OK(Advance(static_cast<size_t>(w)));
    tree_->Replay();
    const ColumnBatch& batch = *cursor.slots[slot];
    const int next = tree_->winner();
    const bool last =
        next < 0 || CompareKeys(cursor, slot, row, cursors_[static_cast<size_t>(next)],
                                cursors_[static_cast<size_t>(next)].slot,
                                cursors_[static_cast<size_t>(next)].row) != 0;
    if (last && !IsRetract(static_cast<RowKind>(batch.column(kind_column_)->data<int8_t>()[row]))) {
      winners_.push_back(Winner{w, slot, row});
      ++produced_;
    }
  }
}

Result<bool> MergeSplitReader::Next(ColumnBatch* batch) {
  batch->Clear();
  out_ = batch;
  while (true) {
    produced_ = 0;
    if (staged_ != nullptr) staged_->Clear();
    bool end = false;
    SLUICE_RETURN_NOT_OK(Merge(&end));
    FlushWinners();
    if (staged_ != nullptr && staged_->num_rows() > 0) {
      const int64_t n = staged_->num_rows();
      rows_.clear();
      if (columns_.filter != nullptr) {
        selection_.assign(static_cast<size_t>(n), 1);
        columns_.filter->Filter(*staged_, selection_.data());
        for (int64_t i = 0; i < n; ++i) {
          if (selection_[static_cast<size_t>(i)] != 0) rows_.push_back(i);
        }
      } else {
        for (int64_t i = 0; i < n; ++i) rows_.push_back(i);
      }
      columns_.AppendOutput(*staged_, rows_.data(), static_cast<int64_t>(rows_.size()),
                            staged_->column(kind_column_)->data<int8_t>(), batch);
    }
    if (batch->num_rows() > 0) return true;
    if (end) return false;
  }
}

}  // namespace sluice
