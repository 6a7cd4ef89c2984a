#include "sluice/lsm/sorted_run_merge.h"

#include <string>
#include <utility>

#include "sluice/row_kind.h"

namespace sluice {

SortedRunMerge::SortedRunMerge(Options options, MergeFunction* merge_function)
    : options_(std::move(options)),
      merge_function_(merge_function),
      sequence_column_(options_.record_type->num_fields() - 2),
      kind_column_(options_.record_type->num_fields() - 1),
      key_comparator_(options_.key_columns) {
  const auto& fields = options_.record_type->fields();
  if (options_.key_columns.size() == 1) {
    switch (PhysicalKindOf(*fields[static_cast<size_t>(options_.key_columns[0])].type)) {
      case PhysicalKind::kInt32:
        integer_key_width_ = 4;
        break;
      case PhysicalKind::kInt64:
        integer_key_width_ = 8;
        break;
      default:
        break;
    }
  }
  if (!options_.sequence_columns.empty()) {
    user_sequence_.emplace(options_.sequence_columns, options_.sequence_ascending);
  }
}

Result<std::unique_ptr<SortedRunMerge>> SortedRunMerge::Open(
    Options options, std::vector<std::unique_ptr<SortedRunReader>> runs,
    MergeFunction* merge_function) {
  if (options.record_type->num_fields() < 2) {
    return Status::InvalidArgument("the record layout of a merge needs a sequence and a kind");
  }
  std::unique_ptr<SortedRunMerge> merge(new SortedRunMerge(std::move(options), merge_function));
  merge->cursors_.resize(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    Cursor& cursor = merge->cursors_[i];
    cursor.reader = std::move(runs[i]);
    cursor.slots[0] = std::make_unique<ColumnBatch>(merge->options_.record_type);
    cursor.slots[1] = std::make_unique<ColumnBatch>(merge->options_.record_type);
    SLUICE_RETURN_NOT_OK(merge->Advance(i));
  }
  if (!merge_function->picks_record() || merge->options_.fold_every_range) {
    merge->folded_ = std::make_unique<ColumnBatch>(merge->options_.record_type);
  }
  merge->tree_.emplace(static_cast<int>(merge->cursors_.size()), CursorOrder{merge.get()},
                       CursorLive{merge.get()});
  merge->tree_->Build();
  return merge;
}

int SortedRunMerge::CompareKeysGeneric(const Record& a, const Cursor& b) const {
  const Cursor& x = cursors_[static_cast<size_t>(a.cursor)];
  return key_comparator_.Compare(*x.slots[a.slot], a.row, *b.slots[b.slot], b.row);
}

int SortedRunMerge::CompareCursors(int a, int b) const {
  const Cursor& x = cursors_[static_cast<size_t>(a)];
  const Cursor& y = cursors_[static_cast<size_t>(b)];
  int c = x.has_integer_key && y.has_integer_key ? CompareIntegers(x.integer_key, y.integer_key)
                                                 : CompareKeysGeneric(Record{a, x.slot, x.row}, y);
  if (c != 0) return c;
  if (user_sequence_) {
    c = user_sequence_->Compare(*x.slots[x.slot], x.row, *y.slots[y.slot], y.row);
    if (c != 0) return c;
  }
  return CompareIntegers(x.sequence, y.sequence);
}

void SortedRunMerge::LoadCurrent(Cursor* cursor) const {
  const int slot = cursor->slot;
  const int64_t row = cursor->row;
  cursor->sequence = cursor->sequences[slot][row];
  const void* keys = cursor->integer_keys[slot];
  cursor->has_integer_key = keys != nullptr;
  if (keys == nullptr) return;
  cursor->integer_key = integer_key_width_ == 4 ? static_cast<const int32_t*>(keys)[row]
                                                : static_cast<const int64_t*>(keys)[row];
}

Status SortedRunMerge::Advance(size_t index) {
  Cursor& cursor = cursors_[index];
  if (cursor.live && ++cursor.row < cursor.slots[cursor.slot]->num_rows()) {
    LoadCurrent(&cursor);
    return Status::OK();
  }
  // The next batch goes into the other slot: the current record stays readable, but results
  // still pointing into the other slot must be handed out first.
  const int target = cursor.live ? 1 - cursor.slot : cursor.slot;
  for (const Record& record : range_) {
    // A run holds a key once; a key over more than two of a run's batches would need a third.
    if (record.cursor == static_cast<int>(index) && record.slot == target) {
      return Status::Corruption("a sorted run holds one key in more than two batches");
    }
  }
  if (!winners_.empty()) SLUICE_RETURN_NOT_OK(Flush());
  if (options_.range_reducer != nullptr) SLUICE_RETURN_NOT_OK(options_.range_reducer->Release());
  ColumnBatch* batch = cursor.slots[target].get();
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, cursor.reader->Next(batch));
    if (!more) {
      cursor.live = false;
      return Status::OK();
    }
    if (batch->num_rows() > 0) break;
  }
  cursor.slot = target;
  cursor.row = 0;
  cursor.live = true;
  cursor.levels[target] = cursor.reader->level();
  cursor.sequences[target] = batch->column(sequence_column_)->data<int64_t>();
  cursor.kinds[target] = batch->column(kind_column_)->data<int8_t>();
  cursor.integer_keys[target] = nullptr;
  if (integer_key_width_ != 0) {
    const ColumnVector& key = *batch->column(options_.key_columns[0]);
    if (!key.has_nulls()) cursor.integer_keys[target] = key.values().data();
  }
  LoadCurrent(&cursor);
  return Status::OK();
}

Result<bool> SortedRunMerge::Next(int64_t max_results, const Consumer& consumer) {
  consumer_ = &consumer;
  gather_consumer_ = nullptr;
  return Merge(max_results);
}

Result<bool> SortedRunMerge::Next(int64_t max_results, const GatherConsumer& consumer) {
  consumer_ = nullptr;
  gather_consumer_ = &consumer;
  return Merge(max_results);
}

Result<bool> SortedRunMerge::Merge(int64_t max_results) {
  int64_t produced = 0;
  while (produced < max_results) {
    int w = tree_->winner();
    if (w < 0) break;
    range_.clear();
    // The records of the winner's key: each run holds it at most once.
    while (true) {
      const Cursor& cursor = cursors_[static_cast<size_t>(w)];
      range_.push_back(Record{w, cursor.slot, cursor.row});
      SLUICE_RETURN_NOT_OK(Advance(static_cast<size_t>(w)));
      tree_->Replay();
      w = tree_->winner();
      if (w < 0 || CompareKeys(range_.front(), cursors_[static_cast<size_t>(w)]) != 0) break;
    }
    SLUICE_ASSIGN_OR_RETURN(bool kept, FinishRange());
    if (kept) ++produced;
  }
  SLUICE_RETURN_NOT_OK(Flush());
  if (options_.range_reducer != nullptr) SLUICE_RETURN_NOT_OK(options_.range_reducer->Release());
  consumer_ = nullptr;
  gather_consumer_ = nullptr;
  return tree_->winner() >= 0;
}

Result<bool> SortedRunMerge::FinishRange() {
  if (options_.range_reducer != nullptr) return Reduce();
  if (options_.fold_every_range) return Fold();
  int64_t pick = 0;
  if (range_.size() > 1) {
    if (!merge_function_->picks_record()) return Fold();
    kinds_.clear();
    for (const Record& record : range_) {
      const Cursor& cursor = cursors_[static_cast<size_t>(record.cursor)];
      kinds_.push_back(static_cast<RowKind>(cursor.kinds[record.slot][record.row]));
    }
    SLUICE_ASSIGN_OR_RETURN(
        pick, merge_function_->PickRecord(kinds_.data(), static_cast<int64_t>(kinds_.size())));
    if (pick < 0) return false;
  }
  const Record& record = range_[static_cast<size_t>(pick)];
  const Cursor& cursor = cursors_[static_cast<size_t>(record.cursor)];
  if (options_.drop_retractions &&
      IsRetract(static_cast<RowKind>(cursor.kinds[record.slot][record.row]))) {
    return false;
  }
  winners_.push_back(record);
  return true;
}

Result<bool> SortedRunMerge::Reduce() {
  range_records_.clear();
  for (const Record& record : range_) {
    const Cursor& cursor = cursors_[static_cast<size_t>(record.cursor)];
    range_records_.push_back(
        RangeRecord{cursor.slots[record.slot].get(), record.row, cursor.levels[record.slot],
                    static_cast<RowKind>(cursor.kinds[record.slot][record.row])});
  }
  SLUICE_ASSIGN_OR_RETURN(
      int64_t pick, options_.range_reducer->Reduce(range_records_.data(),
                                                   static_cast<int64_t>(range_records_.size())));
  if (pick < 0) return false;
  const RangeRecord& result = range_records_[static_cast<size_t>(pick)];
  if (options_.drop_retractions && IsRetract(result.kind)) return false;
  winners_.push_back(range_[static_cast<size_t>(pick)]);
  return true;
}

Result<bool> SortedRunMerge::Fold() {
  merge_function_->Reset();
  for (const Record& record : range_) {
    const Cursor& cursor = cursors_[static_cast<size_t>(record.cursor)];
    const ColumnBatch& batch = *cursor.slots[record.slot];
    KeyValue kv;
    kv.key.reserve(options_.key_columns.size());
    for (int column : options_.key_columns) {
      kv.key.push_back(batch.column(column)->GetValue(record.row));
    }
    kv.sequence_number = cursor.sequences[record.slot][record.row];
    kv.kind = static_cast<RowKind>(cursor.kinds[record.slot][record.row]);
    kv.level = cursor.levels[record.slot];
    kv.value.reserve(static_cast<size_t>(sequence_column_));
    for (int c = 0; c < sequence_column_; ++c) {
      kv.value.push_back(batch.column(c)->GetValue(record.row));
    }
    SLUICE_RETURN_NOT_OK(merge_function_->Add(std::move(kv)));
  }
  std::optional<KeyValue> result = merge_function_->GetResultKeepingDeletes();
  if (!result || (options_.drop_retractions && IsRetract(result->kind))) return false;
  const auto& fields = options_.record_type->fields();
  for (int c = 0; c < sequence_column_; ++c) {
    SLUICE_RETURN_NOT_OK_CTX(
        folded_->column(c)->AppendValue(result->value[static_cast<size_t>(c)]),
        "merged value of column '" + fields[static_cast<size_t>(c)].name + "'");
  }
  folded_->column(sequence_column_)->AppendFixed<int64_t>(result->sequence_number);
  folded_->column(kind_column_)->AppendFixed<int8_t>(static_cast<int8_t>(result->kind));
  folded_->set_num_rows(folded_->num_rows() + 1);
  winners_.push_back(Record{kFolded, 0, folded_->num_rows() - 1});
  return true;
}

Status SortedRunMerge::Flush() {
  if (gather_consumer_ != nullptr) return FlushGathered();
  size_t begin = 0;
  while (begin < winners_.size()) {
    const Record& first = winners_[begin];
    rows_.clear();
    size_t end = begin;
    while (end < winners_.size() && winners_[end].cursor == first.cursor &&
           winners_[end].slot == first.slot) {
      rows_.push_back(winners_[end].row);
      ++end;
    }
    const ColumnBatch& batch = first.cursor == kFolded
                                   ? *folded_
                                   : *cursors_[static_cast<size_t>(first.cursor)].slots[first.slot];
    SLUICE_RETURN_NOT_OK((*consumer_)(batch, rows_.data(), static_cast<int64_t>(rows_.size())));
    begin = end;
  }
  winners_.clear();
  if (folded_ != nullptr) folded_->Clear();
  return Status::OK();
}

Status SortedRunMerge::FlushGathered() {
  if (winners_.empty()) return Status::OK();
  const uint32_t folded = static_cast<uint32_t>(2 * cursors_.size());
  batches_.resize(folded + 1);
  for (size_t c = 0; c < cursors_.size(); ++c) {
    batches_[2 * c] = cursors_[c].slots[0].get();
    batches_[2 * c + 1] = cursors_[c].slots[1].get();
  }
  batches_[folded] = folded_.get();
  sources_.clear();
  rows_.clear();
  for (const Record& record : winners_) {
    sources_.push_back(
        record.cursor == kFolded ? folded : static_cast<uint32_t>(2 * record.cursor + record.slot));
    rows_.push_back(record.row);
  }
  SLUICE_RETURN_NOT_OK((*gather_consumer_)(batches_.data(), batches_.size(), sources_.data(),
                                           rows_.data(), static_cast<int64_t>(rows_.size())));
  winners_.clear();
  if (folded_ != nullptr) folded_->Clear();
  return Status::OK();
}

}  // namespace sluice
