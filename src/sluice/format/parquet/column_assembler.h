// ColumnAssembler: turns the decoded levels and values of a row group's column chunks into
// ColumnVectors of the read type (Dremel record assembly), for any nesting of ROW, ARRAY and
// MAP over the file's 3-level, legacy 2-level and unannotated repeated structures.
//
// A read plan (ReadNode tree) is built once per file by matching the read type to the file's
// schema; every node knows the levels that make one of its values ("slots": entries with
// rep <= slot_rep and def >= slot_def of its first leaf), when a value is null (def <
// null_def), and for lists and maps when an entry starts a new element (rep == elem_rep,
// def >= elem_def). Assembly appends whole runs of records per column: one pass over the
// levels per node, values converted to the read type in tight typed loops.
//
// Thread safety: not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/column_vector.h"
#include "sluice/data_type.h"
#include "sluice/format/parquet/column_chunk_reader.h"
#include "sluice/format/parquet/parquet_schema.h"
#include "sluice/result.h"

namespace sluice::parquet {

// How a leaf's physical values become the read type's representation.
enum class LeafConversion : unsigned char {
  kBool,
  kInt32ToInt8,
  kInt32ToInt16,
  kInt32ToInt32,
  kInt32ToInt64,
  kUInt32ToInt64,
  kInt64ToInt64,
  kInt32ToInt128,
  kInt64ToInt128,
  kUInt64ToInt128,
  kFloat,
  kDouble,
  kFloatToDouble,
  kHalfToFloat,
  kBytes,
  kBytesToDecimal64,
  kBytesToDecimal128,
  kMillisToTimestamp,
  kMicrosToTimestamp,
  kNanosToTimestamp,
  kInt96ToTimestamp,
  kMicrosToTimeMillis,
  kNanosToTimeMillis,
};

struct ReadNode {
  enum class Kind : unsigned char { kLeaf, kStruct, kList, kMap, kMissing };
  Kind kind = Kind::kMissing;
  DataTypePtr type;
  int16_t slot_rep = 0;
  int16_t slot_def = 0;
  int16_t null_def = 0;
  int16_t elem_rep = 0;
  int16_t elem_def = 0;
  // Leaves are numbered in the plan (0..n), see ReadPlan::leaves.
  int leaf = -1;
  int first_leaf = -1;
  LeafConversion conversion = LeafConversion::kBool;
  const SchemaNode* file_node = nullptr;
  std::vector<std::unique_ptr<ReadNode>> children;
};

// The read plan of a file: one node per top-level read field, and the file leaves it needs.
struct ReadPlan {
  std::vector<std::unique_ptr<ReadNode>> columns;
  // File leaf (column chunk) index of each plan leaf.
  std::vector<const SchemaNode*> leaves;
};

// Matches `read_type` (a ROW) to the file: fields by field id where the file's fields carry
// ids, else by name; absent fields read as null. Type mismatches give NotSupported naming the
// column.
Result<ReadPlan> MakeReadPlan(const ParquetSchema& schema, const DataType& read_type);

class ColumnAssembler {
 public:
  explicit ColumnAssembler(const ReadPlan* plan) : plan_(plan) {}

  // Points the cursors at the start of a row group's decoded chunks (one per plan leaf), after
  // checking that every leaf holds exactly `num_rows` records.
  Status Reset(std::vector<ColumnChunkData>* chunks, int64_t num_rows);
  // Streaming: points the cursors at the start of chunks that the caller fills page by page
  // (checking their record counts itself) ahead of each Append.
  void Start(std::vector<ColumnChunkData>* chunks, int64_t num_rows);
  // Drops the levels and values of plan leaf `leaf` that are already assembled.
  void Release(int leaf);
  // The level of plan leaf `leaf` where the next record starts.
  int64_t next_level(int leaf) const { return cursors_[static_cast<size_t>(leaf)].level; }
  // Skips `n` records. REQUIRES: n <= records left.
  void Skip(int64_t n);
  // Appends the next `n` records of every top-level column: out[i] receives column i.
  // REQUIRES: n <= records left.
  Status Append(int64_t n, ColumnVector* const* out);

 private:
  struct Cursor {
    ColumnChunkData* data = nullptr;
    int64_t level = 0;
    int64_t value = 0;
  };
  // The level index `n` records after `from` in leaf `leaf`, and the values in between.
  int64_t AdvanceLevels(int leaf, int64_t from, int64_t n, int64_t* values) const;
  Status Assemble(const ReadNode& node, ColumnVector* out);
  Status AssembleLeaf(const ReadNode& node, ColumnVector* out);
  Status AssembleStruct(const ReadNode& node, ColumnVector* out);
  Status AssembleNested(const ReadNode& node, ColumnVector* out);

  const ReadPlan* plan_;
  std::vector<Cursor> cursors_;
  // Level range of the current Append per leaf.
  std::vector<int64_t> range_end_;
  int64_t records_left_ = 0;
  std::vector<uint8_t> present_;
};

}  // namespace sluice::parquet
