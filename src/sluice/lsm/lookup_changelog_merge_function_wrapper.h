// LookupChangelogMergeFunctionWrapper: the merge of a compaction of a
// `changelog-producer = lookup` table that involves level-0 files (Java
// LookupChangelogMergeFunctionWrapper; FirstRowMergeFunctionWrapper for first-row). The merge
// reads the compaction's runs and, for the key's value before, the runs above the output level
// that the compaction leaves in place. Per key (records in merge order, each with its level):
//
//   result     the wrapped engine's merge of the records at or below the output level, what
//              the compacted files hold (nothing when there is none); first-row: nothing when
//              the key is already above the output level (its first row is committed there).
//   changelog  only for keys with a level-0 record: before = the merge of the records above
//              level 0 (the key's committed value), after = the merge of all records (its value
//              with the new records), compared as changelog_merge_function_wrapper.h says.
//              First-row emits +I for a key with no value before, nothing else.
//
// Thread safety: not thread-safe; one instance per compaction.
#pragma once

#include <functional>

#include "sluice/lsm/changelog_merge_function_wrapper.h"

namespace sluice {

class LookupChangelogMergeFunctionWrapper final : public ChangelogMergeFunctionWrapper {
 public:
  using Factory = std::function<Result<std::unique_ptr<MergeFunction>>()>;

  // `factory` makes the wrapped engine (three instances: result, before, after).
  static Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>> Make(
      const Factory& factory, int output_level, bool first_row,
      std::optional<RecordEqualiser> equaliser);

  void Reset() override;
  Status Add(const KeyValue& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override;

 private:
  LookupChangelogMergeFunctionWrapper(std::unique_ptr<MergeFunction> result,
                                      std::unique_ptr<MergeFunction> before,
                                      std::unique_ptr<MergeFunction> after, int output_level,
                                      bool first_row, std::optional<RecordEqualiser> equaliser)
      : ChangelogMergeFunctionWrapper(std::move(equaliser)),
        result_(std::move(result)),
        before_(std::move(before)),
        after_(std::move(after)),
        output_level_(output_level),
        first_row_(first_row) {}

  ReducerMergeFunctionWrapper result_;  // the records at or below the output level
  ReducerMergeFunctionWrapper before_;  // the records above level 0
  ReducerMergeFunctionWrapper after_;   // every record
  int output_level_;
  bool first_row_;
  bool contains_level0_ = false;
  bool has_higher_records_ = false;  // above the output level
};

}  // namespace sluice
