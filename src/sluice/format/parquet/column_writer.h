// ColumnWriter: writes one Parquet leaf column. It takes the column's definition / repetition
// levels and its present values a slice at a time, cuts data pages (v1) at the page size,
// dictionary-encodes while the dictionary stays small and worthwhile and falls back to PLAIN
// otherwise, compresses pages, keeps the column statistics, and emits one column chunk (and its
// page index) per row group.
//
// Thread safety: not thread-safe; one writer per leaf column per file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "sluice/column_vector.h"
#include "sluice/format/compression/codec.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/format/parquet/parquet_schema_writer.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"
#include "sluice/types/column_stats.h"

namespace sluice::parquet {

struct ColumnWriterOptions {
  int64_t page_size = int64_t{1} << 20;
  // parquet-mr's parquet.page.row.count.limit: a page is also cut once it holds this many rows.
  int64_t page_row_count_limit = 20000;
  int64_t dictionary_page_size = int64_t{1} << 20;
  bool dictionary_enabled = true;
  CompressionKind compression = CompressionKind::kZstd;
  int compression_level = 1;
};

// The levels and values of one leaf for a run of top-level rows.
struct LeafSlice {
  // Top-level rows the slice covers.
  int64_t num_rows = 0;
  int64_t num_levels = 0;
  // Null when every level is max_def (or max_def is 0).
  const int16_t* def_levels = nullptr;
  // Null when max_rep is 0.
  const int16_t* rep_levels = nullptr;
  // Levels with def == max_def, i.e. values present in the leaf vector.
  int64_t num_values = 0;
  // Positions of those values in the leaf vector; null means first_position, first_position + 1,
  // ... (a contiguous run).
  const int32_t* positions = nullptr;
  int64_t first_position = 0;
};

class ColumnWriter {
 public:
  // `leaf` must outlive the writer.
  static Result<std::unique_ptr<ColumnWriter>> Make(const WriteLeaf& leaf,
                                                    const ColumnWriterOptions& options);
  virtual ~ColumnWriter() = default;

  // Appends a slice whose values are read from `values`, the leaf's vector. Errors (a value that
  // does not fit the column, e.g. a DECIMAL beyond its precision) leave the writer unusable.
  virtual Status Write(const LeafSlice& slice, const ColumnVector& values) = 0;

  // Bytes held for the current row group: finished pages, the open page and the dictionary.
  virtual int64_t BufferedSize() const = 0;

  // Writes the current column chunk (dictionary page, data pages) to `file`, whose size is
  // `file_offset`, and returns its metadata; then starts a new chunk.
  virtual Result<ColumnChunk> FlushChunk(WritableFile* file, int64_t file_offset) = 0;

  // The page index of the chunk FlushChunk wrote last (offsets are file offsets): its offset
  // index, and its column index unless the column has none.
  virtual void TakePageIndex(OffsetIndex* offset_index,
                             std::optional<ColumnIndex>* column_index) = 0;

  // Min / max / null count over every chunk written so far, in Paimon's internal representation
  // (min and max absent where Paimon has none: INT96 timestamps, all values null or NaN).
  virtual ColumnStats FileStats() const = 0;
};

}  // namespace sluice::parquet
