// SortedRunMerge: the merge of the sorted runs of one section of a primary-key bucket (Java
// SortMergeReader with ReducerMergeFunctionWrapper), the one merge that merge-on-read
// (MergeSplitReader) and compaction (MergeTreeCompactRewriter) share.
//
// The runs' records (SortedRunReader batches) come out of a loser tree in merge order: key, then
// the `sequence.field` columns, then sequence number. The records of one key form a range:
//   - a range of one record is the result as it is, without the merge function (Java
//     ReducerMergeFunctionWrapper);
//   - engines whose result is one of the records (deduplicate, first-row) pick it from the
//     range's row kinds (MergeFunction::PickRecord): one call per key, no KeyValue built;
//   - other engines (partial-update, aggregation) fold the range through the merge function as
//     KeyValues; the result goes into a batch of the merge's own.
// With `drop_retractions`, results of kind -U / -D are dropped (reads; compaction to the oldest
// level, Java DropDeleteReader).
//
// Changelog-producing compaction (Java ChangelogMergeTreeRewriter) sets `fold_every_range`, so
// that its merge function wrapper sees every key, or gives a RangeReducer (range_reducer.h),
// which then decides every key's result in place of the merge function.
//
// Results are handed out in key order without being copied: a Consumer gets groups of
// consecutive results lying in one batch (record layout, see sorted_run_reader.h) as row
// indexes into it; a GatherConsumer gets every pending result at once, each as a batch and a
// row (one call where the runs' results alternate, as in a merge of overlapping runs). The
// batches stay valid during the call only.
//
// Thread safety: not thread-safe; one merge per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/lsm/column_row_comparator.h"
#include "sluice/lsm/loser_tree.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/range_reducer.h"
#include "sluice/lsm/sorted_run_reader.h"
#include "sluice/result.h"

namespace sluice {

class SortedRunMerge {
 public:
  struct Options {
    // The record layout of every run's batches: value fields, `_SEQUENCE_NUMBER`, `_VALUE_KIND`.
    DataTypePtr record_type;
    // Value columns of the trimmed primary key, in key order.
    std::vector<int> key_columns;
    // Value columns of `sequence.field` (may be empty), and their order.
    std::vector<int> sequence_columns;
    bool sequence_ascending = true;
    bool drop_retractions = true;
    bool fold_every_range = false;
    // Decides every key's result when set (not owned, outlives the merge).
    RangeReducer* range_reducer = nullptr;
  };

  // Rows rows[0..n) of `batch` (of the record layout) are the next n results.
  using Consumer = std::function<Status(const ColumnBatch& batch, const int64_t* rows, int64_t n)>;

  // Result i is row rows[i] of batches[sources[i]], for i in [0, n); `num_batches` batches,
  // null where unused.
  using GatherConsumer =
      std::function<Status(const ColumnBatch* const* batches, size_t num_batches,
                           const uint32_t* sources, const int64_t* rows, int64_t n)>;

  // Positions every run on its first record. `merge_function` (not owned, outlives the merge)
  // is the table's engine over the value fields; folding engines need every table field in
  // the value fields.
  static Result<std::unique_ptr<SortedRunMerge>> Open(
      Options options, std::vector<std::unique_ptr<SortedRunReader>> runs,
      MergeFunction* merge_function);

  // Hands the next results to `consumer` until at least `max_results` went out or the runs end;
  // false when they ended. Stops at the first error (of a run, the merge function or the
  // consumer); the merge cannot continue after one.
  Result<bool> Next(int64_t max_results, const Consumer& consumer);
  Result<bool> Next(int64_t max_results, const GatherConsumer& consumer);

 private:
  // One run, read into two alternating batches so that records of the previous batch stay
  // readable after a refill.
  struct Cursor {
    std::unique_ptr<SortedRunReader> reader;
    std::unique_ptr<ColumnBatch> slots[2];
    int slot = 0;  // slots[slot] holds the current record
    int64_t row = 0;
    bool live = false;
    // Per slot: the level, sequence numbers and kinds, and the key values when the key is one
    // INT or BIGINT column without nulls (else null; their width is integer_key_width_), so
    // that the merge compares without lookups.
    int32_t levels[2] = {0, 0};
    const int64_t* sequences[2] = {nullptr, nullptr};
    const int8_t* kinds[2] = {nullptr, nullptr};
    const void* integer_keys[2] = {nullptr, nullptr};
    // The current record's sequence number and integer key (when integer_keys has it), read
    // once per record for the loser tree's several comparisons of it.
    int64_t sequence = 0;
    int64_t integer_key = 0;
    bool has_integer_key = false;
  };

  // A record inside a cursor's slot, or (cursor kFolded) a row of folded_.
  struct Record {
    int cursor;
    int slot;
    int64_t row;
  };
  static constexpr int kFolded = -1;

  struct CursorOrder {
    const SortedRunMerge* merge;
    int operator()(int a, int b) const { return merge->CompareCursors(a, b); }
  };
  struct CursorLive {
    const SortedRunMerge* merge;
    bool operator()(int i) const { return merge->cursors_[static_cast<size_t>(i)].live; }
  };

  SortedRunMerge(Options options, MergeFunction* merge_function);

  // Inline: the merge's hottest call; INT and BIGINT keys compare without the generic
  // comparator.
  int CompareKeys(const Record& a, const Cursor& b) const {
    const void* p = cursors_[static_cast<size_t>(a.cursor)].integer_keys[a.slot];
    const void* q = b.integer_keys[b.slot];
    if (p != nullptr && q != nullptr) {
      if (integer_key_width_ == 4) {
        return CompareIntegers(static_cast<const int32_t*>(p)[a.row],
                               static_cast<const int32_t*>(q)[b.row]);
      }
      return CompareIntegers(static_cast<const int64_t*>(p)[a.row],
                             static_cast<const int64_t*>(q)[b.row]);
    }
    return CompareKeysGeneric(a, b);
  }
  template <typename T>
  static int CompareIntegers(T u, T v) {
    return u < v ? -1 : (v < u ? 1 : 0);
  }
  int CompareKeysGeneric(const Record& a, const Cursor& b) const;
  // Key, then user sequence, then sequence number of the cursors' current records.
  int CompareCursors(int a, int b) const;
  // Reads the current record's sequence number and integer key into the cursor.
  void LoadCurrent(Cursor* cursor) const;
  // Moves cursor `index` past its current record, refilling its other slot when needed.
  Status Advance(size_t index);
  // Decides the result of range_; true when one was kept.
  Result<bool> FinishRange();
  Result<bool> Fold();
  Result<bool> Reduce();
  Result<bool> Merge(int64_t max_results);
  // Hands the pending results to the consumer.
  Status Flush();
  Status FlushGathered();

  Options options_;
  MergeFunction* merge_function_;
  int sequence_column_;
  int kind_column_;
  // 4 or 8 when the key is one INT or BIGINT column, else 0.
  int integer_key_width_ = 0;
  ColumnRowComparator key_comparator_;
  std::optional<ColumnRowComparator> user_sequence_;

  std::vector<Cursor> cursors_;
  std::optional<LoserTree<CursorOrder, CursorLive>> tree_;
  // During Next(), one of them.
  const Consumer* consumer_ = nullptr;
  const GatherConsumer* gather_consumer_ = nullptr;

  std::vector<Record> range_;    // the records of the key being merged, in merge order
  std::vector<Record> winners_;  // results not yet handed out
  std::unique_ptr<ColumnBatch> folded_;
  std::vector<RowKind> kinds_;
  std::vector<RangeRecord> range_records_;
  std::vector<int64_t> rows_;
  // FlushGathered: slot s of cursor c is batch 2 * c + s, folded_ the last one.
  std::vector<const ColumnBatch*> batches_;
  std::vector<uint32_t> sources_;
};

}  // namespace sluice
