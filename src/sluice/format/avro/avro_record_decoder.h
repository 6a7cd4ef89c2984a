// AvroRecordDecoder: decodes Avro records straight into the columns of a ColumnBatch, following
// a plan compiled once per (writer schema, read type) pair.
//
// Schema resolution (as Java Paimon's FieldReaderFactory and the Avro specification do it):
// record fields are matched by name at every nesting level; read fields the writer lacks read as
// null; writer fields the reader lacks are skipped; ["null", T] and other unions are resolved
// branch by branch; a ["null", record] around the top-level record (manifests of Paimon <= 0.9)
// is unwrapped; Avro's promotions int -> long -> float -> double and string <-> bytes apply;
// logical types give DATE, TIME, TIMESTAMP (millis / micros / nanos) and DECIMAL (bytes or
// fixed); MAP and MULTISET read Avro maps and Paimon's arrays of {key, value} records.
//
// The decode loop is a switch over plan nodes: no virtual call and no allocation per value;
// values are appended to the column buffers (validity, values, offsets) directly.
//
// Thread safety: not thread-safe; one decoder per reader.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/format/avro/avro_binary.h"
#include "sluice/format/avro/avro_schema.h"
#include "sluice/result.h"

namespace sluice {

struct AvroDecodeNode;

class AvroRecordDecoder {
 public:
  // Compiles the plan. Errors (NotSupported) name the field whose writer type cannot be read as
  // the requested type. REQUIRES: read_type is a ROW.
  static Result<std::unique_ptr<AvroRecordDecoder>> Make(AvroSchemaPtr writer,
                                                         DataTypePtr read_type);
  ~AvroRecordDecoder();

  // Fewest bytes one top-level datum takes (to reject record counts a block cannot hold).
  int min_record_size() const { return min_record_size_; }

  // Appends `n` records read from `in` to the columns of `batch` (whose schema is the read
  // type). After the last Decode of a batch, call FinishBatch. Errors are Corruption naming the
  // field.
  Status Decode(AvroCursor* in, int64_t n, ColumnBatch* batch);
  // Reads past `n` records without decoding them.
  Status Skip(AvroCursor* in, int64_t n);
  // Sets the row counts of every column from what was appended since batch->Clear(), and drops
  // validity buffers that hold no null.
  static void FinishBatch(ColumnBatch* batch, int64_t rows);

 private:
  AvroRecordDecoder() = default;

  AvroSchemaPtr writer_;
  DataTypePtr read_type_;
  std::unique_ptr<AvroDecodeNode> root_;
  // Writer branch index of the record when the writer wraps it in a union, else -1.
  int top_union_record_branch_ = -1;
  int min_record_size_ = 0;
};

}  // namespace sluice
