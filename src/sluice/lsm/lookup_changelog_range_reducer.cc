#include "sluice/lsm/lookup_changelog_range_reducer.h"

#include <utility>

#include "sluice/batch/column_take.h"

namespace sluice {

LookupChangelogRangeReducer::LookupChangelogRangeReducer(Options options,
                                                         const MergeFunction* merge_function,
                                                         Lookup lookup)
    : options_(std::move(options)),
      merge_function_(merge_function),
      lookup_(std::move(lookup)),
      changelog_(options_.key_value_type) {}

Result<int64_t> LookupChangelogRangeReducer::Pick(const std::vector<int64_t>& members,
                                                  const RangeRecord* records) {
  if (members.empty()) return kNone;
  kinds_.clear();
  for (int64_t member : members) {
    kinds_.push_back(member == kLookedUp ? looked_up_->kind
                                         : records[static_cast<size_t>(member)].kind);
  }
  // Asked even for a single record, which is the pick whatever the engine says: the engine
  // fails where its Add would (first-row refuses retractions).
  SLUICE_ASSIGN_OR_RETURN(int64_t pick, merge_function_->PickRecord(
                                            kinds_.data(), static_cast<int64_t>(kinds_.size())));
  if (members.size() == 1) return members.front();
  return pick < 0 ? kNone : members[static_cast<size_t>(pick)];
}

bool LookupChangelogRangeReducer::IsAddition(int64_t member, const RangeRecord* records) const {
  if (member == kNone) return false;
  const RowKind kind =
      member == kLookedUp ? looked_up_->kind : records[static_cast<size_t>(member)].kind;
  return !IsRetract(kind);
}

Result<int64_t> LookupChangelogRangeReducer::Reduce(const RangeRecord* records, int64_t n) {
  looked_up_.reset();
  before_.clear();
  after_.clear();
  result_.clear();
  // Only a key whose first record is at level 0 has no committed record before its new ones.
  if (lookup_ && records[0].level == 0) {
    ValueList key;
    key.reserve(options_.key_columns.size());
    for (int column : options_.key_columns) {
      key.push_back(records[0].batch->column(column)->GetValue(records[0].row));
    }
    SLUICE_ASSIGN_OR_RETURN(looked_up_, lookup_(key));
    if (looked_up_) {
      before_.push_back(kLookedUp);
      after_.push_back(kLookedUp);
    }
  }
  bool contains_level0 = false;
  bool has_higher = looked_up_.has_value();
  for (int64_t i = 0; i < n; ++i) {
    const int32_t level = records[i].level;
    contains_level0 = contains_level0 || level == 0;
    if (level <= options_.output_level) {
      result_.push_back(i);
    } else {
      has_higher = true;
    }
    if (level > 0) before_.push_back(i);
    after_.push_back(i);
  }
  if (contains_level0) {
    SLUICE_ASSIGN_OR_RETURN(int64_t before, Pick(before_, records));
    SLUICE_ASSIGN_OR_RETURN(int64_t after, Pick(after_, records));
    const bool before_added = IsAddition(before, records);
    const bool after_added = IsAddition(after, records);
    if (!before_added) {
      if (after_added) {
        // First-row keeps the record's own kind (Java FirstRowMergeFunctionWrapper adds the
        // record itself); the others insert (Java LookupChangelogMergeFunctionWrapper).
        const RowKind kind = options_.first_row && after != kLookedUp
                                 ? records[static_cast<size_t>(after)].kind
                                 : RowKind::kInsert;
        SLUICE_RETURN_NOT_OK(Emit(after, records, kind));
      }
    } else if (!options_.first_row) {
      if (!after_added) {
        SLUICE_RETURN_NOT_OK(Emit(before, records, RowKind::kDelete));
      } else {
        SLUICE_RETURN_NOT_OK(Emit(before, records, RowKind::kUpdateBefore));
        SLUICE_RETURN_NOT_OK(Emit(after, records, RowKind::kUpdateAfter));
      }
    }
  }
  if (options_.first_row && has_higher) return kNone;
  return Pick(result_, records);
}

Status LookupChangelogRangeReducer::Emit(int64_t member, const RangeRecord* records, RowKind kind) {
  if (member == kLookedUp) return AppendLookedUp(kind);
  const RangeRecord& record = records[static_cast<size_t>(member)];
  pending_.push_back(Change{record.batch, record.row, kind});
  return Status::OK();
}

Status LookupChangelogRangeReducer::AppendLookedUp(RowKind kind) {
  // The looked-up record is the key's own: the rows pending before it go first.
  SLUICE_RETURN_NOT_OK(Release());
  ValueList row;
  row.reserve(static_cast<size_t>(changelog_.num_columns()));
  row.insert(row.end(), looked_up_->key.begin(), looked_up_->key.end());
  row.push_back(Value::Int64(looked_up_->sequence_number));
  row.push_back(Value::Int8(static_cast<int8_t>(RowKindToByte(kind))));
  row.insert(row.end(), looked_up_->value.begin(), looked_up_->value.end());
  return changelog_.AppendRow(row);
}

Status LookupChangelogRangeReducer::Release() {
  const int num_keys = static_cast<int>(options_.key_columns.size());
  const int num_values = options_.num_values;
  size_t begin = 0;
  while (begin < pending_.size()) {
    const ColumnBatch& batch = *pending_[begin].batch;
    rows_.clear();
    size_t end = begin;
    while (end < pending_.size() && pending_[end].batch == &batch) {
      rows_.push_back(pending_[end].row);
      ++end;
    }
    const int64_t* rows = rows_.data();
    const int64_t count = static_cast<int64_t>(rows_.size());
    for (int k = 0; k < num_keys; ++k) {
      TakeRows(*batch.column(options_.key_columns[static_cast<size_t>(k)]), rows, count,
               changelog_.column(k));
    }
    TakeRows(*batch.column(num_values), rows, count, changelog_.column(num_keys));
    ColumnVector* kinds = changelog_.column(num_keys + 1);
    for (size_t i = begin; i < end; ++i) {
      kinds->AppendFixed<int8_t>(static_cast<int8_t>(RowKindToByte(pending_[i].kind)));
    }
    for (int c = 0; c < num_values; ++c) {
      TakeRows(*batch.column(c), rows, count, changelog_.column(num_keys + 2 + c));
    }
    changelog_.set_num_rows(changelog_.num_rows() + count);
    begin = end;
  }
  pending_.clear();
  return Status::OK();
}

}  // namespace sluice
