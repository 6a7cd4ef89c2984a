// ColumnChunkReader: reads one column chunk of a row group and decodes its levels and values:
// the page loop, decompression, v1 / v2 data pages, dictionary pages and the dispatch to the
// decoders of decoder/. Either the whole chunk at once (Read) or page by page (Open,
// DecodePage). The column assembler turns the result into vectors.
//
// Thread safety: not thread-safe; one reader per column.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/buffer.h"
#include "sluice/format/parquet/decoder/column_values.h"
#include "sluice/format/parquet/decoder/dictionary_decoder.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/format/parquet/parquet_schema.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice::parquet {

// The decoded content of one column chunk.
struct ColumnChunkData {
  // One entry per level (value slot, including nulls and empty lists); empty when the column's
  // maximum definition (repetition) level is 0. Definition levels are also left empty while
  // every level so far is at the maximum (a column without nulls, the common case): they are
  // filled in only when a page brings a lower one.
  std::vector<int16_t> def_levels;
  std::vector<int16_t> rep_levels;
  int64_t num_levels = 0;
  // The non-null values, one per level whose definition level is the maximum.
  ColumnValues values;

  // Fills in def_levels left empty (every level at `max_def`) before a lower level is added.
  void MaterializeDefLevels(int16_t max_def) {
    if (def_levels.empty()) def_levels.assign(static_cast<size_t>(num_levels), max_def);
  }

  // Drops the first `levels` levels and the `values` values they hold: a streaming reader
  // keeps only what is not yet assembled.
  void DropPrefix(int64_t levels, int64_t values);
};

class ColumnChunkReader {
 public:
  // `file` and `leaf` must outlive the reader. `metadata_offset` is where the footer starts:
  // column chunks must end before it.
  ColumnChunkReader(const RandomAccessFile* file, const SchemaNode* leaf, int64_t metadata_offset)
      : file_(file), leaf_(leaf), metadata_offset_(metadata_offset) {}
  ColumnChunkReader(const ColumnChunkReader&) = delete;
  ColumnChunkReader& operator=(const ColumnChunkReader&) = delete;

  // Reads and decodes the whole chunk into `out`. Errors say what is wrong; the caller adds
  // the file, row group and column.
  Status Read(const ColumnChunk& chunk, ColumnChunkData* out);

  // Streaming: Open checks the chunk and empties `out`; each DecodePage then appends the levels
  // and values of the next data page (reading any dictionary page before it) and returns false
  // once the chunk is exhausted, having checked its value count. The chunk is read from the
  // file a window (1 MiB, or one larger page) at a time; page buffers and the decompression
  // context are reused from page to page and chunk to chunk.
  Status Open(const ColumnChunk& chunk, ColumnChunkData* out);
  Result<bool> DecodePage(ColumnChunkData* out);
  // Levels decoded since Open (or Read).
  int64_t levels_read() const { return levels_read_; }

  // Rows of the row group that will be read, as sorted, disjoint [begin, end) ranges; null (the
  // default) means all. A flat column then decodes only the data pages holding such rows; the
  // rows of the other pages become placeholders (nulls, or zero values of a required column)
  // that the caller never returns. `ranges` must outlive Read.
  void set_wanted_rows(const std::vector<std::pair<int64_t, int64_t>>* ranges) {
    wanted_rows_ = ranges;
  }
  // The chunk's OffsetIndex (page index), and the rows of its row group: with wanted rows, a
  // flat column then reads from the file only the dictionary and the pages it decodes. An index
  // that does not fit the chunk is ignored. `index` must outlive Read.
  void set_offset_index(const OffsetIndex* index, int64_t row_group_rows) {
    offset_index_ = index;
    row_group_rows_ = row_group_rows;
  }

 private:
  // Checks the chunk's metadata and resets the decoding state; sets [*start, *start + *len).
  Status Prepare(const ColumnChunk& chunk, ColumnChunkData* out, int64_t* start, int64_t* len);
  Status ReadPages(const ColumnMetaData& meta, const uint8_t* data, size_t size,
                   ColumnChunkData* out);
  // Reads the page at data[*pos] and advances *pos past it; *data_page says whether it was a
  // data page (decoded into `out`). `data` starts `base` bytes into the chunk (for messages).
  Status ReadPage(const ColumnMetaData& meta, const uint8_t* data, size_t size, size_t base,
                  size_t* pos, int page_index, ColumnChunkData* out, bool* data_page);
  // Streaming: makes chunk bytes [pos, pos + need) available in chunk_buf_, reading ahead.
  Status Fill(size_t pos, size_t need);
  Status ReadDataPageV1(const PageHeader& header, const uint8_t* page, size_t size,
                        ColumnChunkData* out);
  Status ReadDataPageV2(const PageHeader& header, const uint8_t* page, size_t size,
                        ColumnChunkData* out);
  // Decompresses a page body into page_buf_ (or returns it unchanged when uncompressed).
  Status Decompress(const uint8_t* in, size_t in_size, size_t out_size, const uint8_t** out);
  Status DecodeLevels(Encoding encoding, int16_t max_level, const uint8_t* data, size_t size,
                      int64_t count, bool length_prefixed, std::vector<int16_t>* levels,
                      size_t* consumed);
  // Decodes a page's `count` definition levels into out->def_levels (see there) and sets
  // *present to the number at the maximum.
  Status DecodeDefLevels(Encoding encoding, const uint8_t* data, size_t size, int64_t count,
                         bool length_prefixed, ColumnChunkData* out, int64_t* present,
                         size_t* consumed);
  // Reads only the pages with wanted rows, by the offset index. Returns false (having read
  // nothing) when the index does not fit the chunk [start, start + len).
  Result<bool> ReadIndexedPages(const ColumnMetaData& meta, int64_t start, int64_t len,
                                ColumnChunkData* out);
  // True if rows [begin, end) hold a wanted row.
  bool Wanted(int64_t begin, int64_t end) const;
  void AppendPlaceholders(int64_t n, ColumnChunkData* out);
  Status DecodeValues(Encoding encoding, const uint8_t* data, size_t size, int64_t count,
                      ColumnValues* out);

  const RandomAccessFile* file_;
  const SchemaNode* leaf_;
  int64_t metadata_offset_;
  CompressionCodec codec_ = CompressionCodec::kUncompressed;
  int64_t level_budget_ = 0;
  DictionaryDecoder dictionary_;
  Buffer chunk_buf_;
  Buffer page_buf_;
  std::vector<int64_t> scratch64_;
  int64_t levels_read_ = 0;
  // Streaming state.
  const ColumnMetaData* meta_ = nullptr;
  int64_t stream_start_ = 0;
  size_t stream_pos_ = 0;
  // The chunk bytes [window_begin_, window_begin_ + window_size_) are in chunk_buf_.
  size_t window_begin_ = 0;
  size_t window_size_ = 0;
  size_t stream_size_ = 0;
  int stream_page_ = 0;
  const std::vector<std::pair<int64_t, int64_t>>* wanted_rows_ = nullptr;
  const OffsetIndex* offset_index_ = nullptr;
  int64_t row_group_rows_ = 0;
};

}  // namespace sluice::parquet
