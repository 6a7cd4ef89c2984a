// FileFormat: the interface every data-file codec (Avro, Parquet, ORC) implements, so that data
// files and manifests are read and written through one code path whatever their format.
//
// Thread safety: FileFormat objects are immutable and thread-safe; readers and writers are not.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"
#include "sluice/types/column_stats.h"
#include "sluice/value.h"

namespace sluice {

class Predicate;

struct ReaderOptions {
  // Rows per batch handed out by Next().
  int64_t batch_size = 4096;
  // When set, row groups / stripes whose statistics prove that no row satisfies the predicate
  // may be skipped. Rows are not filtered: callers still evaluate the predicate on rows. The
  // predicate's field indexes refer to the read type.
  std::shared_ptr<const Predicate> predicate;
  // When set, only these row positions (ascending, 0-based in the file) are returned.
  std::optional<std::vector<int64_t>> row_positions;
};

class FormatReader {
 public:
  virtual ~FormatReader() = default;
  // Clears `batch` (whose schema is the read type) and fills it with the next rows. Returns
  // false when the file is exhausted. Errors name the file.
  virtual Result<bool> Next(ColumnBatch* batch) = 0;
  // Rows in the whole file, as its metadata states.
  virtual int64_t num_rows() const = 0;
};

struct WriterOptions {
  // Codec name as Paimon's `file.compression` spells it: "zstd", "snappy", "lz4", "gzip",
  // "deflate", "none" / "uncompressed".
  std::string compression = "zstd";
  int compression_level = 1;
  // Format-specific options by their Paimon / format key (e.g. "parquet.block.size").
  std::map<std::string, std::string> options;
};

struct WriteResult {
  int64_t row_count = 0;
  int64_t file_size = 0;
  // One entry per top-level column of the write type, as Paimon records them in DataFileMeta.
  std::vector<ColumnStats> stats;
};

class FormatWriter {
 public:
  virtual ~FormatWriter() = default;
  // REQUIRES: batch.schema() has the write type's fields.
  virtual Status Write(const ColumnBatch& batch) = 0;
  // Bytes written so far (an estimate until Finish), for rolling files at a target size.
  virtual int64_t EstimatedSize() const = 0;
  // Flushes, writes the footer and closes the file.
  virtual Result<WriteResult> Finish() = 0;
};

class FileFormat {
 public:
  virtual ~FileFormat() = default;
  // "avro", "parquet" or "orc": the value of Paimon's `file.format` / `manifest.format`.
  virtual std::string_view identifier() const = 0;

  // Reads the columns of `read_type` (a ROW type) from `file`. Columns are matched to the file's
  // by Paimon field id where the file records ids, else by name; a column the file lacks reads
  // as null.
  virtual Result<std::unique_ptr<FormatReader>> CreateReader(
      std::shared_ptr<RandomAccessFile> file, DataTypePtr read_type,
      const ReaderOptions& options) const = 0;

  virtual Result<std::unique_ptr<FormatWriter>> CreateWriter(
      std::unique_ptr<WritableFile> file, DataTypePtr write_type,
      const WriterOptions& options) const = 0;

  // OK if files of this format can hold every column of `row_type` (a ROW type), as Java's
  // FileFormat.validateDataFields decides: Avro no TIMESTAMP above precision 6, TIME above 3 or
  // VARIANT; ORC no VARIANT or VECTOR; Parquet every type. Otherwise NotSupported naming the
  // column, its type and the format. Schema validation asks this at CREATE and ALTER TABLE, so
  // that no table exists whose every write would fail.
  virtual Status ValidateDataFields(const DataType& row_type) const = 0;
};

// The error ValidateDataFields returns: NotSupported "column 'c' of type T cannot be stored in
// <format> files: <why>".
inline Status UnstorableColumn(std::string_view format, const DataField& column,
                               std::string_view why) {
  return Status::NotSupported("column '" + column.name + "' of type " + column.type->ToString() +
                              " cannot be stored in " + std::string(format) +
                              " files: " + std::string(why));
}

}  // namespace sluice
