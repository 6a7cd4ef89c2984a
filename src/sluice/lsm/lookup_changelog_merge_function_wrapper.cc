#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"

#include <algorithm>

namespace sluice {

Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>>
LookupChangelogMergeFunctionWrapper::Make(const Factory& factory, Lookup lookup, bool first_row,
                                          std::optional<RecordEqualiser> equaliser,
                                          KeyValueMergeOrder order) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> merge, factory());
  return std::unique_ptr<LookupChangelogMergeFunctionWrapper>(
      new LookupChangelogMergeFunctionWrapper(std::move(merge), std::move(lookup), first_row,
                                              std::move(equaliser), std::move(order)));
}

void LookupChangelogMergeFunctionWrapper::Reset() {
  merge_.Reset();
  records_.clear();
}

Status LookupChangelogMergeFunctionWrapper::Add(const KeyValue& kv) {
  records_.push_back(kv);
  return Status::OK();
}

Status LookupChangelogMergeFunctionWrapper::Add(KeyValue&& kv) {
  records_.push_back(std::move(kv));
  return Status::OK();
}

Result<std::optional<KeyValue>> LookupChangelogMergeFunctionWrapper::LookupResult() {
  bool contains_level0 = false;
  // Java LookupMergeFunction.pickHighLevel: the lowest level above 0.
  std::optional<size_t> high;
  for (size_t i = 0; i < records_.size(); ++i) {
    const int32_t level = records_[i].level;
    contains_level0 = contains_level0 || level == 0;
    if (level > 0 && (!high || level < records_[*high].level)) high = i;
  }
  if (!high) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<KeyValue> looked_up, lookup_(records_.front().key));
    if (looked_up) {
      auto at = std::upper_bound(
          records_.begin(), records_.end(), *looked_up,
          [this](const KeyValue& a, const KeyValue& b) { return order_.Compare(a, b) < 0; });
      high = static_cast<size_t>(at - records_.begin());
      records_.insert(at, std::move(*looked_up));
    }
  }
  // Other records above level 0 are older versions the high one already holds (Java
  // LookupMergeFunction.getResult).
  for (size_t i = 0; i < records_.size(); ++i) {
    if (records_[i].level <= 0 || i == high) SLUICE_RETURN_NOT_OK(merge_.Add(records_[i]));
  }
  std::optional<KeyValue> after = merge_.GetResultKeepingDeletes();
  if (contains_level0) {
    SetChangelog(high ? std::optional<KeyValue>(records_[*high]) : std::nullopt, after);
  }
  return after;
}

Result<std::optional<KeyValue>> LookupChangelogMergeFunctionWrapper::FirstRowResult() {
  bool contains_high_level = false;
  for (const KeyValue& kv : records_) {
    contains_high_level = contains_high_level || kv.level > 0;
    SLUICE_RETURN_NOT_OK(merge_.Add(kv));
  }
  std::optional<KeyValue> first = merge_.GetResultKeepingDeletes();
  if (!IsAddition(first) || contains_high_level) return first;
  SLUICE_ASSIGN_OR_RETURN(std::optional<KeyValue> looked_up, lookup_(first->key));
  if (looked_up) return std::optional<KeyValue>();
  // Java adds the kept record itself: a row written as +U stays +U.
  AddChangelog(first->kind, *first);
  return first;
}

std::optional<KeyValue> LookupChangelogMergeFunctionWrapper::GetResultKeepingDeletes() {
  Result<std::optional<KeyValue>> result = first_row_ ? FirstRowResult() : LookupResult();
  if (result.ok()) return std::move(result).value();
  if (status_.ok()) status_ = result.status();
  return std::nullopt;
}

}  // namespace sluice
