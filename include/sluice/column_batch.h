// ColumnBatch: a run of rows of a ROW type, one ColumnVector per field. Every reader yields
// batches and every writer takes them.
//
// Thread safety: not thread-safe; concurrent readers are fine while nobody writes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sluice/column_vector.h"

namespace sluice {

class ColumnBatch {
 public:
  // REQUIRES: row_type->root() == TypeRoot::kRow.
  explicit ColumnBatch(DataTypePtr row_type);

  const DataTypePtr& schema() const { return schema_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  ColumnVector* column(int i) { return columns_[i].get(); }
  const ColumnVector* column(int i) const { return columns_[i].get(); }

  // Rows in the batch. Decoders set it once every column holds this many rows.
  int64_t num_rows() const { return num_rows_; }
  void set_num_rows(int64_t n) { num_rows_ = n; }

  void Clear();

  // Row i as a Value of kind kRow (tests and metadata; not for hot loops).
  Value GetRow(int64_t i) const;
  // Appends one row given as a kRow Value or its field list.
  Status AppendRow(const ValueList& fields);

 private:
  DataTypePtr schema_;
  std::vector<std::unique_ptr<ColumnVector>> columns_;
  int64_t num_rows_ = 0;
};

}  // namespace sluice
