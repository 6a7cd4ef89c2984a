// ChangelogMergeFunctionWrapper: a merge function that, besides the merged record of a key,
// gives the key's changelog records (Java MergeFunctionWrapper<ChangelogResult>), for the
// compactions of `changelog-producer = full-compaction` and `lookup`. The wrapped engine's
// merge is what goes into the compacted files; the changelog compares the key's value before
// with its value after:
//   no value before (or a retraction)  +I after, when after is an addition
//   a value before, after a retraction  -D before
//   both values                         -U before, +U after, unless they are equal under
//                                       `changelog-producer.row-deduplicate`
// A changelog record keeps the sequence number of the record it copies.
//
// ReducerMergeFunctionWrapper: one record as it is, several merged.
//
// RecordEqualiser: the value comparison of row-deduplicate, every field except those of
// `changelog-producer.row-deduplicate-ignore-fields`.
//
// Thread safety: not thread-safe; one instance per compaction.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "sluice/lsm/merge_function.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"

namespace sluice {

class RecordEqualiser {
 public:
  // Nothing unless `changelog-producer.row-deduplicate` is true; InvalidArgument when an
  // ignored field is not a column of `schema`.
  static Result<std::optional<RecordEqualiser>> FromOptions(const TableSchema& schema,
                                                            const CoreOptions& options);

  // Whether the value rows (every table field, in schema order) are equal on compared fields.
  bool Equals(const ValueList& a, const ValueList& b) const;

 private:
  explicit RecordEqualiser(std::vector<bool> ignored) : ignored_(std::move(ignored)) {}
  std::vector<bool> ignored_;  // per table field
};

// Java ReducerMergeFunctionWrapper: a key with one record is that record as it is, others the
// engine's merge (as SortedRunMerge and WriteBuffer do outside changelog compaction).
class ReducerMergeFunctionWrapper final : public MergeFunction {
 public:
  explicit ReducerMergeFunctionWrapper(std::unique_ptr<MergeFunction> merge_function)
      : merge_function_(std::move(merge_function)) {}

  void Reset() override {
    merge_function_->Reset();
    records_ = 0;
    first_.reset();
  }
  Status Add(const KeyValue& kv) override {
    if (++records_ == 1) first_ = kv;
    return merge_function_->Add(kv);
  }
  std::optional<KeyValue> GetResultKeepingDeletes() override {
    return records_ <= 1 ? first_ : merge_function_->GetResultKeepingDeletes();
  }
  int64_t records() const { return records_; }

 private:
  std::unique_ptr<MergeFunction> merge_function_;
  int64_t records_ = 0;
  std::optional<KeyValue> first_;
};

class ChangelogMergeFunctionWrapper : public MergeFunction {
 public:
  // The changelog of the keys merged by GetResultKeepingDeletes since the caller last cleared
  // it, in merge order.
  std::vector<KeyValue>& changelog() { return changelog_; }
  // The first failure of GetResultKeepingDeletes (which cannot return one: a lookup in it
  // failed, or the engine refused a record it folds there), or OK. Callers check it after
  // every batch of results.
  const Status& status() const { return status_; }

 protected:
  explicit ChangelogMergeFunctionWrapper(std::optional<RecordEqualiser> equaliser)
      : equaliser_(std::move(equaliser)) {}

  // Appends the changes from `before` to `after` (either may be absent) to changelog_.
  void SetChangelog(const std::optional<KeyValue>& before, const std::optional<KeyValue>& after);
  void AddChangelog(RowKind kind, const KeyValue& from);

  std::optional<RecordEqualiser> equaliser_;
  std::vector<KeyValue> changelog_;
  Status status_;
};

inline bool IsAddition(const std::optional<KeyValue>& kv) { return kv && !IsRetract(kv->kind); }

}  // namespace sluice
