// MergeSplitReader: the rows of a primary-key split whose files must be merged (Java
// MergeFileSplitRead): the split's files are grouped into sections of overlapping key ranges
// (IntervalPartition); the sorted runs of a section are merged by a loser tree in merge order
// (key, then `sequence.field` values, then sequence number); the records of each key are folded
// by the table's merge engine; results of kind -U / -D are dropped; then the filter is applied
// (after merging: a value predicate must not hide an older version of a row from the merge) and
// the projection.
//
//   files -> sections -> per section: runs -> KeyValueFileReader batches -> loser tree
//         -> merge function per key -> drop retractions -> filter -> projection
//
// Two merge paths:
//   - deduplicate without `ignore-delete` (the common case, with or without `sequence.field`):
//     the newest record of a key is the last one the tree yields for it, found by comparing the
//     key columns with the next record; winners are gathered column by column from the decoded
//     batches (TakeRows), never materialized as Values.
//   - every other engine: each record becomes a KeyValue and goes through the table's
//     MergeFunction (CreateMergeFunction over the read schema's options plus the table's
//     dynamic options).
//
// Deleted positions (deletion vectors of a streaming full read) are dropped from their files
// before merging. Errors name the data file.
//
// Thread safety: not thread-safe; one reader per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/lsm/column_row_comparator.h"
#include "sluice/lsm/loser_tree.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/data_split.h"
#include "sluice/table/source/key_value_file_reader.h"
#include "sluice/table/source/read_columns.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {

class MergeSplitReader : public SplitReader {
 public:
  static Result<std::unique_ptr<MergeSplitReader>> Open(
      const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema, DataSplit split,
      SplitReadOptions options);

  const DataTypePtr& output_type() const override { return columns_.output_type; }
  Result<bool> Next(ColumnBatch* batch) override;

 private:
  // A sorted run as indexes of the split's files, in key order.
  using RunFiles = std::vector<size_t>;

  // One sorted run of the current section: its files in key order, read one after another,
  // into two alternating batches so that the previous batch stays readable after a refill.
  struct RunCursor {
    RunFiles files;
    size_t next_file = 0;
    std::unique_ptr<KeyValueFileReader> reader;
    std::unique_ptr<ColumnBatch> slots[2];
    int slot = 0;  // slots[slot] holds the current record
    int64_t row = 0;
    bool live = false;
    int32_t level = 0;
    // Per slot: the sequence numbers, and the key values when the key is one BIGINT column
    // without nulls (else null): the merge compares them without looking up columns.
    const int64_t* sequences[2] = {nullptr, nullptr};
    const int64_t* bigint_keys[2] = {nullptr, nullptr};
    const ColumnBatch& batch() const { return *slots[slot]; }
  };

  // A record the merge keeps, still inside its run's batch.
  struct Winner {
    int cursor;
    int slot;
    int64_t row;
  };

  struct CursorBefore {
    const MergeSplitReader* reader;
    bool operator()(int a, int b) const { return reader->CompareCursors(a, b) < 0; }
  };
  struct CursorLive {
    const MergeSplitReader* reader;
    bool operator()(int i) const { return reader->cursors_[static_cast<size_t>(i)].live; }
  };

  MergeSplitReader(const FileStoreTable& table, std::shared_ptr<const TableSchema> read_schema,
                   DataSplit split, SplitReadOptions options, ReadColumns columns,
                   std::vector<std::vector<RunFiles>> sections,
                   std::unique_ptr<MergeFunction> merge_function,
                   std::optional<ColumnRowComparator> user_sequence,
                   std::shared_ptr<const TimeZone> session_zone);

  // Key, then user sequence, then sequence number of the cursors' current records.
  int CompareCursors(int a, int b) const;
  int CompareKeys(const RunCursor& a, int a_slot, int64_t i, const RunCursor& b, int b_slot,
                  int64_t j) const;

  Status OpenSection(size_t index);
  // Moves cursor `index` to its next record, loading the next batch (or file) when needed.
  Status Advance(size_t index);
  // Merges until `batch_size` rows are produced or the split ends (*end).
  Status Merge(bool* end);
  // Gathers the pending winners into out_ (no filter) or staged_ (filter).
  void FlushWinners();
  Status FinishKey();
  Status AddRecord(const ColumnBatch& batch, int64_t row, int32_t level);

  const FileStoreTable& table_;
  std::shared_ptr<const TableSchema> read_schema_;
  DataSplit split_;
  SplitReadOptions options_;
  ReadColumns columns_;
  DataTypePtr record_type_;  // columns_.value_type + sequence number + kind
  int sequence_column_ = 0;
  int kind_column_ = 0;
  ColumnRowComparator key_comparator_;
  bool single_bigint_key_ = false;
  std::vector<std::vector<RunFiles>> sections_;
  std::unique_ptr<MergeFunction> merge_function_;  // null on the deduplicate path
  std::optional<ColumnRowComparator> user_sequence_;
  std::shared_ptr<const TimeZone> session_zone_;

  size_t next_section_ = 0;
  bool section_open_ = false;
  std::vector<RunCursor> cursors_;
  std::optional<LoserTree<CursorBefore, CursorLive>> tree_;

  ColumnBatch* out_ = nullptr;  // the batch Next() fills
  int64_t produced_ = 0;        // rows merged during this Next()
  // Deduplicate path.
  std::vector<Winner> winners_;
  std::vector<int64_t> rows_;
  // Rows merged but not yet filtered (filter or merge-function path), in record layout.
  std::unique_ptr<ColumnBatch> staged_;
  std::vector<uint8_t> selection_;
  // Merge-function path: the key being merged.
  bool key_open_ = false;
  ValueList current_key_;
};

}  // namespace sluice
