// LookupChangelogMergeFunctionWrapper: the merge of a lookup compaction (Java
// LookupChangelogMergeFunctionWrapper; FirstRowMergeFunctionWrapper for first-row), the one of
// a table that needs lookup (LookupMergeFunction: every record above level 0 holds its key's
// whole value) when the compaction involves level-0 files. The merge reads the compaction's
// runs; the key's newest record above the output level (which the compaction leaves in place)
// comes from a lookup (LookupLevels). Per key (records in merge order, each with its level):
//
//   high       the key's record of the lowest level above 0 among the compaction's (its value
//              committed before the level-0 records), else the looked-up one (looked up only
//              then), which joins the records in merge order;
//   result     what the compacted files hold: the wrapped engine's merge of high with the
//              records at level 0 (LookupMergeFunction), the key's whole value again;
//   changelog  only for keys with a level-0 record: before = high, after = result, compared as
//              changelog_merge_function_wrapper.h says.
//
// First-row (Java FirstRowMergeFunctionWrapper, never wrapped in a LookupMergeFunction): the
// result is the key's first record; a key with a record above level 0 in the compaction gives
// no change; else one the lookup finds above the output level gives no result (its first row
// is committed there) and no change, and a new key gives its first record as the change, with
// that record's own kind (+I or +U).
//
// Deletion vectors (Java LookupStrategy.deletionVector) change nothing here: the caller reads
// the compaction's files under their vectors, and its lookup marks the looked-up record deleted
// (the result supersedes it).
//
// A key's records are folded at its result: a failure there (the lookup's, or the engine
// refusing a record) gives no result and stays in status().
//
// Thread safety: not thread-safe; one instance per compaction.
#pragma once

#include <functional>
#include <vector>

#include "sluice/lsm/changelog_merge_function_wrapper.h"
#include "sluice/lsm/sequence_comparator.h"

namespace sluice {

class LookupChangelogMergeFunctionWrapper final : public ChangelogMergeFunctionWrapper {
 public:
  using Factory = std::function<Result<std::unique_ptr<MergeFunction>>()>;
  // The key's newest record above the output level (with its level), if any.
  using Lookup = std::function<Result<std::optional<KeyValue>>(const ValueList& key)>;

  // `factory` makes the wrapped engine. `order`: the merge order of the table's records.
  static Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>> Make(
      const Factory& factory, Lookup lookup, bool first_row,
      std::optional<RecordEqualiser> equaliser, KeyValueMergeOrder order);

  void Reset() override;
  Status Add(const KeyValue& kv) override;
  Status Add(KeyValue&& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override;

 private:
  LookupChangelogMergeFunctionWrapper(std::unique_ptr<MergeFunction> merge, Lookup lookup,
                                      bool first_row, std::optional<RecordEqualiser> equaliser,
                                      KeyValueMergeOrder order)
      : ChangelogMergeFunctionWrapper(std::move(equaliser)),
        merge_(std::move(merge)),
        lookup_(std::move(lookup)),
        first_row_(first_row),
        order_(std::move(order)) {}

  // The result of the key's records_ (any failure, the engine's too, is returned here).
  Result<std::optional<KeyValue>> LookupResult();
  Result<std::optional<KeyValue>> FirstRowResult();

  ReducerMergeFunctionWrapper merge_;
  Lookup lookup_;
  bool first_row_;
  KeyValueMergeOrder order_;
  std::vector<KeyValue> records_;  // the key's records so far, in merge order
};

}  // namespace sluice
