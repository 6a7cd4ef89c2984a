#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"

#include <algorithm>

namespace sluice {

Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>>
LookupChangelogMergeFunctionWrapper::Make(const Factory& factory, Lookup lookup, bool newest_only,
                                          int output_level, bool first_row,
                                          std::optional<RecordEqualiser> equaliser,
                                          std::optional<KeyValueMergeOrder> deletion_vectors) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> result, factory());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> before, factory());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> after, factory());
  return std::unique_ptr<LookupChangelogMergeFunctionWrapper>(
      new LookupChangelogMergeFunctionWrapper(
          std::move(result), std::move(before), std::move(after), std::move(lookup), newest_only,
          output_level, first_row, std::move(equaliser), std::move(deletion_vectors)));
}

void LookupChangelogMergeFunctionWrapper::Reset() {
  result_.Reset();
  before_.Reset();
  after_.Reset();
  first_record_ = true;
  contains_level0_ = false;
  has_before_records_ = false;
  has_higher_records_ = false;
  records_.clear();
}

Status LookupChangelogMergeFunctionWrapper::AddLookedUp(const ValueList& key) {
  SLUICE_ASSIGN_OR_RETURN(std::vector<KeyValue> records, lookup_(key, newest_only_));
  for (const KeyValue& kv : records) {
    has_before_records_ = true;
    has_higher_records_ = true;
    SLUICE_RETURN_NOT_OK(before_.Add(kv));
    SLUICE_RETURN_NOT_OK(after_.Add(kv));
  }
  return Status::OK();
}

Status LookupChangelogMergeFunctionWrapper::Add(const KeyValue& kv) {
  if (deletion_vectors_) {
    contains_level0_ = contains_level0_ || kv.level == 0;
    records_.push_back(kv);
    return Status::OK();
  }
  const bool first = first_record_;
  first_record_ = false;
  if (!newest_only_ && first) SLUICE_RETURN_NOT_OK(AddLookedUp(kv.key));
  if (kv.level == 0 && !contains_level0_ && newest_only_ && !has_before_records_) {
    SLUICE_RETURN_NOT_OK(AddLookedUp(kv.key));
  }
  contains_level0_ = contains_level0_ || kv.level == 0;
  if (kv.level <= output_level_) {
    SLUICE_RETURN_NOT_OK(result_.Add(kv));
  } else {
    has_higher_records_ = true;
  }
  if (kv.level > 0) {
    has_before_records_ = true;
    SLUICE_RETURN_NOT_OK(before_.Add(kv));
  }
  return after_.Add(kv);
}

Result<std::optional<KeyValue>> LookupChangelogMergeFunctionWrapper::DeletionVectorResult() {
  // The key's live record above level 0 among the compaction's (Java pickHighLevel: the lowest
  // level), else the one above the output level.
  std::optional<size_t> high;
  for (size_t i = 0; i < records_.size(); ++i) {
    const int32_t level = records_[i].level;
    if (level > 0 && (!high || level < records_[*high].level)) high = i;
  }
  if (!high) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<KeyValue> found,
                            lookup_(records_.front().key, /*newest_only=*/true));
    if (!found.empty()) {
      KeyValue& looked_up = found.back();
      auto at = std::upper_bound(records_.begin(), records_.end(), looked_up,
                                 [this](const KeyValue& a, const KeyValue& b) {
                                   return deletion_vectors_->Compare(a, b) < 0;
                                 });
      high = static_cast<size_t>(at - records_.begin());
      records_.insert(at, std::move(looked_up));
    }
  }
  // Other records above level 0 are older versions the high one already merged (Java
  // LookupMergeFunction.getResult).
  for (size_t i = 0; i < records_.size(); ++i) {
    if (records_[i].level <= 0 || i == high) SLUICE_RETURN_NOT_OK(after_.Add(records_[i]));
  }
  std::optional<KeyValue> after = after_.GetResultKeepingDeletes();
  if (contains_level0_) {
    SetChangelog(high ? std::optional<KeyValue>(records_[*high]) : std::nullopt, after);
  }
  return after;
}

std::optional<KeyValue> LookupChangelogMergeFunctionWrapper::GetResultKeepingDeletes() {
  if (deletion_vectors_) {
    Result<std::optional<KeyValue>> result = DeletionVectorResult();
    if (result.ok()) return std::move(result).value();
    if (status_.ok()) status_ = result.status();
    return std::nullopt;
  }
  if (contains_level0_) {
    std::optional<KeyValue> before = before_.GetResultKeepingDeletes();
    std::optional<KeyValue> after = after_.GetResultKeepingDeletes();
    if (!first_row_) {
      SetChangelog(before, after);
    } else if (!IsAddition(before) && IsAddition(after)) {
      AddChangelog(RowKind::kInsert, *after);
    }
  }
  if (first_row_ && has_higher_records_) return std::nullopt;
  return result_.GetResultKeepingDeletes();
}

}  // namespace sluice
