#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"

namespace sluice {

Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>>
LookupChangelogMergeFunctionWrapper::Make(const Factory& factory, Lookup lookup, bool newest_only,
                                          int output_level, bool first_row,
                                          std::optional<RecordEqualiser> equaliser) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> result, factory());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> before, factory());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> after, factory());
  return std::unique_ptr<LookupChangelogMergeFunctionWrapper>(
      new LookupChangelogMergeFunctionWrapper(std::move(result), std::move(before),
                                              std::move(after), std::move(lookup), newest_only,
                                              output_level, first_row, std::move(equaliser)));
}

void LookupChangelogMergeFunctionWrapper::Reset() {
  result_.Reset();
  before_.Reset();
  after_.Reset();
  first_record_ = true;
  contains_level0_ = false;
  has_before_records_ = false;
  has_higher_records_ = false;
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

std::optional<KeyValue> LookupChangelogMergeFunctionWrapper::GetResultKeepingDeletes() {
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
