// LookupChangelogRangeReducer: LookupChangelogMergeFunctionWrapper (see its header for the
// rules) for the engines that pick one record by sequence number (deduplicate without
// `sequence.field`, first-row), without `changelog-producer.row-deduplicate` and deletion
// vectors, as a RangeReducer: each key's result, before and after are indexes into its
// records, and its changelog rows are copied column by column from the merge's batches into a
// key-value layout batch. The wrapper copies every value of every record into KeyValues; on a
// compaction that rewrites or moves up level-0 files this path is most of the work.
//
// Per key (records in merge order): the newest record above the output level is looked up when
// the first record is at level 0 (no record above level 0 comes before it); before = the pick
// among that record and the key's records above level 0, after = the pick among all of them,
// result = the pick among the records at or below the output level (first-row: none when a
// record above the output level exists). A key with a single record picks it whatever the
// engine (Java ReducerMergeFunctionWrapper).
//
// Thread safety: not thread-safe; one instance per compaction.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/io/key_value.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/range_reducer.h"

namespace sluice {

class LookupChangelogRangeReducer final : public RangeReducer {
 public:
  // The newest record of `key` above the compaction's output level, if any.
  using Lookup = std::function<Result<std::optional<KeyValue>>(const ValueList& key)>;

  struct Options {
    // Value columns of the trimmed primary key in the merge's record layout, in key order.
    std::vector<int> key_columns;
    // The record layout's number of value fields (its sequence and kind columns follow).
    int num_values = 0;
    int output_level = 0;
    bool first_row = false;
    // The changelog's key-value layout: keys, sequence, kind, values.
    DataTypePtr key_value_type;
  };

  // `merge_function` (not owned, outlives the reducer) picks records (picks_record()).
  // `lookup` is empty when nothing lies above the output level.
  LookupChangelogRangeReducer(Options options, const MergeFunction* merge_function, Lookup lookup);

  Result<int64_t> Reduce(const RangeRecord* records, int64_t n) override;
  Status Release() override;

  // The changelog rows released so far, in merge order; the caller writes and clears it.
  ColumnBatch* changelog() { return &changelog_; }

 private:
  // A changelog row to copy: a record of a batch, or (batch null) the key's looked-up record.
  struct Change {
    const ColumnBatch* batch;
    int64_t row;
    RowKind kind;
  };
  // A record of the key: index >= 0 into its records, kLookedUp, or kNone.
  static constexpr int64_t kLookedUp = -2;
  static constexpr int64_t kNone = -1;

  // The engine's pick among the records `members` names (merge order), or kNone.
  Result<int64_t> Pick(const std::vector<int64_t>& members, const RangeRecord* records);
  bool IsAddition(int64_t member, const RangeRecord* records) const;
  Status Emit(int64_t member, const RangeRecord* records, RowKind kind);
  Status AppendLookedUp(RowKind kind);

  Options options_;
  const MergeFunction* merge_function_;
  Lookup lookup_;
  ColumnBatch changelog_;
  std::vector<Change> pending_;
  std::optional<KeyValue> looked_up_;
  // Scratch per key.
  std::vector<int64_t> before_;
  std::vector<int64_t> after_;
  std::vector<int64_t> result_;
  std::vector<RowKind> kinds_;
  std::vector<int64_t> rows_;
};

}  // namespace sluice
