// LookupChangelogMergeFunctionWrapper: the merge of a compaction of a
// `changelog-producer = lookup` table that involves level-0 files (Java
// LookupChangelogMergeFunctionWrapper; FirstRowMergeFunctionWrapper for first-row). The merge
// reads the compaction's runs; the key's records above the output level (which the compaction
// leaves in place) come from a lookup (LookupLevels). Per key (records in merge order, each with
// its level):
//
//   result     the wrapped engine's merge of the compaction's records, what the compacted
//              files hold; first-row: nothing when the key is already above the output level
//              (its first row is committed there).
//   changelog  only for keys with a level-0 record: before = the merge of the records above
//              level 0 (the key's committed value), after = the merge of all records (its value
//              with the new records), compared as changelog_merge_function_wrapper.h says.
//              First-row emits +I for a key with no value before, nothing else.
//
// Lookups: engines that pick one record by sequence number (deduplicate without
// `sequence.field`, first-row) need the newest record above only, and only for a key whose
// first level-0 record comes with no record above level 0 before it (Java looks up exactly
// then); engines that fold records need every version above, looked up at the key's first
// record, since those versions are older than any of the compaction's.
//
// Deletion vectors (Java LookupStrategy.deletionVector, with LookupMergeFunction): the
// compaction's files are read under their vectors and each key has one live record above level
// 0, its merged value. A key's records are kept until its result: without one above level 0
// among them, its newest record above the output level is looked up (once, whatever the engine;
// the caller marks that record deleted, the output supersedes it) and joins them in merge order.
// The result then goes into the compacted files with everything merged (the records below level
// 1 and that one record above), and the changelog compares that record (before) with it (after).
// A failed lookup there gives no result and stays in status().
//
// Thread safety: not thread-safe; one instance per compaction.
#pragma once

#include <functional>

#include "sluice/lsm/changelog_merge_function_wrapper.h"
#include "sluice/lsm/sequence_comparator.h"

namespace sluice {

class LookupChangelogMergeFunctionWrapper final : public ChangelogMergeFunctionWrapper {
 public:
  using Factory = std::function<Result<std::unique_ptr<MergeFunction>>()>;
  // The key's records above the output level, oldest first (at most the newest one when
  // `newest_only`), each with its level.
  using Lookup =
      std::function<Result<std::vector<KeyValue>>(const ValueList& key, bool newest_only)>;

  // `factory` makes the wrapped engine (three instances: result, before, after).
  // `newest_only`: the engine picks the record with the highest sequence number (see above).
  // `deletion_vectors`: the merge order of the table's records, for a deletion-vector table
  // (see above; `newest_only` and `first_row` then do not apply).
  static Result<std::unique_ptr<LookupChangelogMergeFunctionWrapper>> Make(
      const Factory& factory, Lookup lookup, bool newest_only, int output_level, bool first_row,
      std::optional<RecordEqualiser> equaliser,
      std::optional<KeyValueMergeOrder> deletion_vectors = std::nullopt);

  void Reset() override;
  Status Add(const KeyValue& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override;

 private:
  LookupChangelogMergeFunctionWrapper(std::unique_ptr<MergeFunction> result,
                                      std::unique_ptr<MergeFunction> before,
                                      std::unique_ptr<MergeFunction> after, Lookup lookup,
                                      bool newest_only, int output_level, bool first_row,
                                      std::optional<RecordEqualiser> equaliser,
                                      std::optional<KeyValueMergeOrder> deletion_vectors)
      : ChangelogMergeFunctionWrapper(std::move(equaliser)),
        result_(std::move(result)),
        before_(std::move(before)),
        after_(std::move(after)),
        lookup_(std::move(lookup)),
        newest_only_(newest_only),
        output_level_(output_level),
        first_row_(first_row),
        deletion_vectors_(std::move(deletion_vectors)) {}

  // Adds the key's records above the output level to the before and after merges.
  Status AddLookedUp(const ValueList& key);
  // The result of the key's records_ (deletion vectors).
  Result<std::optional<KeyValue>> DeletionVectorResult();

  ReducerMergeFunctionWrapper result_;  // the records at or below the output level
  ReducerMergeFunctionWrapper before_;  // the records above level 0
  ReducerMergeFunctionWrapper after_;   // every record
  Lookup lookup_;
  bool newest_only_;
  int output_level_;
  bool first_row_;
  std::optional<KeyValueMergeOrder> deletion_vectors_;
  std::vector<KeyValue> records_;  // the key's records so far (deletion vectors)
  bool first_record_ = true;
  bool contains_level0_ = false;
  bool has_before_records_ = false;  // above level 0
  bool has_higher_records_ = false;  // above the output level
};

}  // namespace sluice
