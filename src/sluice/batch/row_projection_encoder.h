// RowProjectionEncoder: some columns of a batch's rows encoded as BinaryRows (the bytes Java's
// generated projections write), straight from the column vectors into one reused BinaryWriter;
// nested columns take a slower path through Values. Partitions, bucket keys (RowKeyExtractor)
// and lookup keys (lsm/lookup) are encoded with it.
//
// Thread safety: not thread-safe (reuses its row writer).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/row/binary_writer.h"

namespace sluice {

class RowProjectionEncoder {
 public:
  // `columns`: indexes into the batch; `types`: their types (aligned).
  RowProjectionEncoder(std::vector<int> columns, std::vector<DataTypePtr> types);

  int arity() const { return static_cast<int>(columns_.size()); }
  const std::vector<int>& columns() const { return columns_; }
  // The row bytes of batch row `row` (valid until the next call).
  Result<std::string_view> Encode(const ColumnBatch& batch, int64_t row);

 private:
  std::vector<int> columns_;
  std::vector<DataTypePtr> types_;
  DataTypePtr row_type_;
  bool nested_ = false;
  BinaryWriter writer_;
  std::string slow_bytes_;
};

}  // namespace sluice
