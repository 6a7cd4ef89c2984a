// VectorFiller: a run of rows of a flat Sluice column written straight into a DuckDB vector,
// the scan's fast path. Fixed-width columns whose layouts agree are copied with memcpy; the
// others (TIME, compact DECIMAL of a narrower DuckDB width, TIMESTAMP's millisecond + nano pair)
// are converted in one loop per run. A VARCHAR value of at most 12 ASCII bytes is written in
// place as DuckDB's inline string (duckdb_string_t: length, then the bytes, zero padded): no
// UTF-8 check (ASCII is UTF-8) and no call; where the column's buffer has room past the value,
// it is read, checked and written as whole words. A longer ASCII value is written as DuckDB's
// pointer form (length, first 4 bytes, address) pointing into the column's own bytes, not copied:
// the column must stay alive and unchanged until DuckDB asks the scan for its next chunk, which is
// as long as DuckDB keeps a source chunk's data (operators that keep rows, such as aggregates,
// joins and the result collector, copy strings into heaps of their own). Non-ASCII values and
// BLOBs are assigned one by one (DuckDB copies them into its string heap and checks UTF-8).
// No virtual call per value: the conversion is chosen once per column.
//
// The DuckDB type is the one the Arrow mapping gives the column (arrow_chunk_converter.h, which
// names the types at bind), so both paths produce the same relation. Nested columns (ARRAY,
// MAP, MULTISET, ROW, VECTOR) have no filler and go through Arrow.
//
// Thread safety: Fill writes only `target`; fillers may run on many threads.
#pragma once

#include <duckdb.h>

#include <optional>

#include "sluice/column_vector.h"

namespace sluice::sql {

class VectorFiller {
 public:
  // The filler of a column of `type` into vectors of `target_type`; nullopt for a nested column
  // or a pair of types it does not know.
  static std::optional<VectorFiller> Make(const DataType& type, duckdb_logical_type target_type);

  // Writes rows [offset, offset + count) of `column` into rows [0, count) of `target`.
  // REQUIRES: count <= duckdb_vector_size(); offset + count <= column.size(); `column` outlives
  // DuckDB's use of `target` (until the scan's next chunk) unchanged.
  void Fill(const ColumnVector& column, int64_t offset, idx_t count, duckdb_vector target) const;

 private:
  enum class Conversion {
    kCopy,  // same width and meaning: memcpy
    kTimeMillisToMicros,
    kInt64ToInt16,  // compact DECIMAL into DuckDB's 2-byte DECIMAL
    kInt64ToInt32,  // ... 4-byte DECIMAL
    kTimestampSeconds,
    kTimestampMillis,
    kTimestampMicros,
    kTimestampNanos,
    kVarchar,  // text: ASCII inline or pointing into the column, the rest assigned
    kBlob,     // bytes: assigned
  };
  VectorFiller(Conversion conversion, int width) : conversion_(conversion), width_(width) {}

  Conversion conversion_;
  // Bytes per value of kCopy.
  int width_;
};

}  // namespace sluice::sql
