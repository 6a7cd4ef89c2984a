#include "sluice/lsm/lookup_changelog_merge_function_wrapper.h"

namespace sluice {

Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>>
LookupChangelogMergeFunctionWrapper::Make(const Factory& factory, int output_level, bool first_row,
                                          std::optional<RecordEqualiser> equaliser) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> result, factory());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> before, factory());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MergeFunction> after, factory());
  return std::unique_ptr<LookupChangelogMergeFunctionWrapper>(
      new LookupChangelogMergeFunctionWrapper(std::move(result), std::move(before),
                                              std::move(after), output_level, first_row,
                                              std::move(equaliser)));
}

void LookupChangelogMergeFunctionWrapper::Reset() {
  result_.Reset();
  before_.Reset();
  after_.Reset();
  contains_level0_ = false;
  has_higher_records_ = false;
}

Status LookupChangelogMergeFunctionWrapper::Add(const KeyValue& kv) {
  contains_level0_ = contains_level0_ || kv.level == 0;
  if (kv.level <= output_level_) {
    SLUICE_RETURN_NOT_OK(result_.Add(kv));
  } else {
    has_higher_records_ = true;
  }
  if (kv.level > 0) SLUICE_RETURN_NOT_OK(before_.Add(kv));
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
