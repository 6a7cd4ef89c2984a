// Arrow C Data Interface in and out of Sluice
// (https://arrow.apache.org/docs/format/CDataInterface.html): reads as an ArrowArrayStream,
// ColumnBatches as ArrowArrays, Arrow data into ColumnBatches and (table_write.h) into a
// TableWrite. No Arrow library is needed: the interface is the C structs below, which any Arrow
// implementation (pyarrow, arrow-rs, DuckDB, ...) imports and exports.
//
// Types map as Java's paimon-arrow maps them (ArrowFieldTypeConversion, ArrowUtils):
//   BOOLEAN b, TINYINT c, SMALLINT s, INT i, BIGINT l, FLOAT f, DOUBLE g,
//   DECIMAL(p, s) d:p,s (decimal128), CHAR / VARCHAR u (utf8), BINARY / VARBINARY / BLOB z,
//   DATE tdD, TIME ttm (time32 milliseconds),
//   TIMESTAMP(p) ts?: and TIMESTAMP_LTZ(p) ts?:ZONE with the unit s (p = 0), ms (1..3),
//   us (4..6) or ns (7..9),
//   ARRAY +l (child "$data$"), VECTOR(n) +w:n, MAP +m (entries<key NOT NULL, value>),
//   MULTISET +m (entries<element NOT NULL, INT NOT NULL count>), ROW +s.
// Each field carries its Paimon field id as metadata "PARQUET:field_id" (array elements and map
// keys and values the ids Java's SpecialFields derives). Java has no mapping for MULTISET (it
// throws); Sluice maps it as Parquet stores it. VARIANT is refused by name.
//
// Zero-copy on export: fixed-width numbers, DATE, TIME, DECIMAL with precision > 18, string and
// binary offsets and bytes, list and map offsets share the batch's buffers (the batch lives until
// the last array made from it is released). Copied: validity (bytes to bits), BOOLEAN (bytes to
// bits), DECIMAL with precision <= 18 (int64 to int128), TIMESTAMP (Paimon's millisecond + nano
// pair to one int64 of the unit), VECTOR when a null row holds no elements. Import copies every
// buffer: a ColumnBatch owns its memory.
//
// Errors are Status; across the C boundary (a stream's callbacks) they are errno codes with the
// message in get_last_error. No exception crosses it.
//
// Thread safety: the functions are reentrant; an exported stream has one consumer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "sluice/batch_reader.h"
#include "sluice/column_batch.h"
#include "sluice/data_type.h"
#include "sluice/result.h"

// The Arrow C Data Interface and C Stream Interface, as the specification gives them.
extern "C" {

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  // Array type description
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;

  // Release callback
  void (*release)(struct ArrowSchema*);
  // Opaque producer-specific data
  void* private_data;
};

struct ArrowArray {
  // Array data description
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;

  // Release callback
  void (*release)(struct ArrowArray*);
  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_DATA_INTERFACE

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  // Callbacks providing stream functionality
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  const char* (*get_last_error)(struct ArrowArrayStream*);

  // Release callback
  void (*release)(struct ArrowArrayStream*);

  // Opaque producer-specific data
  void* private_data;
};

#endif  // ARROW_C_STREAM_INTERFACE
}

namespace sluice {

class ReadBuilder;

struct ArrowOptions {
  // The zone named by the Arrow type of TIMESTAMP_LTZ columns (the values are UTC instants
  // whatever it is). Java names the JVM's default zone; Sluice names UTC unless told.
  std::string timestamp_ltz_zone = "UTC";
};

// The Arrow schema of a ROW type: a struct (format "+s") with one child per field.
// InvalidArgument naming the field of a type without a mapping (VARIANT).
Status ExportArrowSchema(const DataType& row_type, ArrowSchema* out,
                         const ArrowOptions& options = {});

// `batch` as a struct array of its columns (length num_rows()), sharing its buffers where the
// layouts agree; `batch` is kept alive until `out` and every child taken from it are released.
Status ExportArrowArray(std::shared_ptr<const ColumnBatch> batch, ArrowArray* out);

// The batches of `reader` as a stream of struct arrays of output_type(); the stream owns the
// reader. An error of the reader ends the stream with EIO and its message.
Status ExportArrowStream(std::unique_ptr<BatchReader> reader, ArrowArrayStream* out,
                         const ArrowOptions& options = {});

// Plans `read` and reads every split of the plan (projection, filter, time travel and limit as
// the builder asks) as a stream.
Status ReadArrowStream(const ReadBuilder& read, ArrowArrayStream* out,
                       const ArrowOptions& options = {});

// The Paimon ROW type of an Arrow struct schema: field ids from "PARQUET:field_id" metadata
// (else positions), nullability from the flags, TIME and TIMESTAMP precisions from the unit.
// InvalidArgument naming the field of an Arrow type without a Paimon one.
Result<DataTypePtr> ImportArrowSchema(const ArrowSchema& schema);

// The rows of struct array `array` (described by `schema`) as a batch of `row_type`, columns by
// position. Each column's Arrow type must be the one `row_type`'s type exports as, except that
// any timestamp unit and time unit is taken (converted exactly, TIME truncated to millis).
// Offsets and slices are honoured. Takes `array` over: it is released, on error too; `schema`
// stays the caller's. InvalidArgument naming the column that differs or whose buffers are bad,
// or the column and row of a string that is not UTF-8.
Result<std::unique_ptr<ColumnBatch>> ImportArrowArray(ArrowArray* array, const ArrowSchema& schema,
                                                      const DataTypePtr& row_type);

}  // namespace sluice
