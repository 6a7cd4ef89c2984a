// AvroRecordEncoder: encodes the rows of ColumnBatches as Avro records of the schema that
// RowTypeToAvroSchema gives for the write type (Java Paimon's FieldWriterFactory layout: nullable
// values as ["null", T] with branch 1 for a value, arrays and maps as one block of items and the
// end marker, decimals as minimal big-endian two's complement, timestamps as epoch millis for
// precision <= 3 and micros above).
//
// Thread safety: not thread-safe; one encoder per writer.
#pragma once

#include <cstdint>
#include <memory>

#include "sluice/buffer.h"
#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice {

class AvroRecordEncoder {
 public:
  // REQUIRES: write_type is a ROW accepted by RowTypeToAvroSchema.
  static Result<std::unique_ptr<AvroRecordEncoder>> Make(DataTypePtr write_type);
  ~AvroRecordEncoder();

  // Appends the encoding of row `row` of `batch` to `out`. A null in a NOT NULL column (or a
  // null map key) is InvalidArgument naming the field.
  Status EncodeRow(const ColumnBatch& batch, int64_t row, Buffer* out) const;

  struct Node;

 private:
  AvroRecordEncoder() = default;
  DataTypePtr write_type_;
  std::unique_ptr<Node> root_;
};

// Minimal big-endian two's complement bytes of `v` (Java's BigInteger.toByteArray).
void PutDecimalBytes(int128_t v, Buffer* out);

}  // namespace sluice
