// ParquetWriter: writes a Paimon data file in Parquet, laid out as Java Paimon (parquet-mr)
// writes it: the schema of parquet_schema_writer.h, data pages v1, dictionary encoding with
// fallback to PLAIN, the table's compression, row groups and pages cut at `parquet.block.size` /
// `parquet.page.size`, and a page index (column and offset indexes) for every column chunk.
//
// Options (WriterOptions::options): parquet.block.size (bytes, default 128 MiB; file.block-size
// is honoured too), parquet.page.size (1 MiB), parquet.page.row.count.limit (20000 rows),
// parquet.dictionary.page.size (1 MiB), parquet.enable.dictionary (true), parquet.compression
// (overrides WriterOptions::compression). The defaults are parquet-mr's, as Paimon uses them.
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sluice/format/file_format.h"
#include "sluice/format/parquet/column_writer.h"
#include "sluice/format/parquet/parquet_schema_writer.h"

namespace sluice::parquet {

// The `created_by` of files Sluice writes (parsable by parquet-mr's VersionParser, which trusts
// the statistics of writers other than old parquet-mr).
inline constexpr char kSluiceCreatedBy[] = "sluice version 0.1.0 (build unknown)";

class ParquetWriter final : public FormatWriter {
 public:
  static Result<std::unique_ptr<ParquetWriter>> Open(std::unique_ptr<WritableFile> file,
                                                     DataTypePtr write_type,
                                                     const WriterOptions& options);

  Status Write(const ColumnBatch& batch) override;
  int64_t EstimatedSize() const override;
  Result<WriteResult> Finish() override;

 private:
  // Top-level rows shredded per column and slice: bounds the memory of levels and positions and
  // the granularity of page and row-group cuts.
  static constexpr int64_t kSliceRows = 4096;

  // Levels and positions of the entries of one node of a nested column.
  struct Slots {
    Buffer def;  // int16: final definition level of entries that ended above (pos < 0)
    Buffer rep;  // int16
    Buffer pos;  // int32: position in the node's vector, or -1
    int64_t size = 0;
    void Resize(int64_t n) {
      def.Resize(static_cast<size_t>(n) * sizeof(int16_t));
      rep.Resize(static_cast<size_t>(n) * sizeof(int16_t));
      pos.Resize(static_cast<size_t>(n) * sizeof(int32_t));
      size = n;
    }
  };

  ParquetWriter(std::unique_ptr<WritableFile> file, DataTypePtr write_type,
                ParquetWriteSchema schema, const ColumnWriterOptions& column_options,
                int64_t block_size);

  Status CheckBatch(const ColumnBatch& batch) const;
  Status WriteFlatColumn(const WriteNode& node, const ColumnVector& vector, int64_t begin,
                         int64_t end);
  Status ShredNode(const WriteNode& node, const ColumnVector& vector, const Slots& in,
                   size_t depth);
  Status FlushRowGroup();
  Status WritePageIndexes();
  int64_t BufferedSize() const;
  Status NullInRequired(const WriteNode& node) const;

  std::unique_ptr<WritableFile> file_;
  DataTypePtr write_type_;
  ParquetWriteSchema schema_;
  CompressionKind compression_;
  int64_t block_size_;
  std::vector<std::unique_ptr<ColumnWriter>> writers_;  // one per leaf
  std::vector<RowGroup> row_groups_;
  // Page index of every column chunk written, in row group then column order.
  struct PageIndex {
    OffsetIndex offset_index;
    std::optional<ColumnIndex> column_index;
  };
  std::vector<PageIndex> page_indexes_;
  int64_t row_group_rows_ = 0;
  int64_t slice_rows_ = 0;  // top-level rows of the slice being shredded
  int64_t total_rows_ = 0;
  int64_t file_offset_ = 0;
  bool finished_ = false;

  // Scratch, reused across slices.
  Buffer def_scratch_;
  Buffer pos_scratch_;
  std::vector<Slots> slots_;  // by nesting depth
};

}  // namespace sluice::parquet
