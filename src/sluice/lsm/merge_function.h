// MergeFunction: folds all records of one primary key, oldest first (merge order: user sequence
// field(s), then sequence number), into one record (Java mergetree.compact.MergeFunction).
//
// Usage per key: Reset(), Add() for each record in merge order, then GetResult(). Add() fails
// where Java throws (e.g. a retraction an engine does not accept, an overflow in `sum`); the
// caller should stop the read or compaction with that Status.
//
// Thread safety: not thread-safe; one instance per reader or writer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sluice/io/key_value.h"
#include "sluice/result.h"
#include "sluice/status.h"

namespace sluice {

class MergeFunction {
 public:
  virtual ~MergeFunction() = default;

  virtual void Reset() = 0;
  virtual Status Add(const KeyValue& kv) = 0;
  // Engines that keep whole records (deduplicate, first-row) take them without copying.
  virtual Status Add(KeyValue&& kv) { return Add(static_cast<const KeyValue&>(kv)); }

  // The merged record, whatever its kind (what compaction writes when it keeps deletes), or
  // nullopt when the engine kept no record (every input was ignored).
  virtual std::optional<KeyValue> GetResultKeepingDeletes() = 0;

  // Engines whose result is one of the key's records unchanged, chosen by row kinds alone
  // (deduplicate, first-row), let a merge pick it from a range of records without building
  // KeyValues (SortedRunMerge).
  virtual bool picks_record() const { return false; }
  // REQUIRES: picks_record(). The index in [0, n) of the record GetResultKeepingDeletes would
  // return after Add of n records with row kinds kinds[0..n) (merge order), or -1 when it would
  // return none; fails where Add would.
  virtual Result<int64_t> PickRecord(const RowKind* kinds, int64_t n) const {
    return Status::Internal("this merge engine folds records, it does not pick one");
  }

  // The merged record as a batch read returns it: nullopt when there is none or when its kind
  // is -U or -D (Java drops such results, DropDeleteReader).
  std::optional<KeyValue> GetResult() {
    std::optional<KeyValue> result = GetResultKeepingDeletes();
    if (result && IsRetract(result->kind)) return std::nullopt;
    return result;
  }
};

}  // namespace sluice
