// ParquetReader: the FormatReader of Parquet data files. Reads the footer, matches the read
// type to the file's columns (by field id, else by name; absent columns read as null), skips
// row groups whose statistics rule out the predicate or that hold none of the requested row
// positions, and hands out batches decoded column by column. A full scan streams: each column
// chunk is read and decoded page by page as the batches need its rows, so memory is about a
// batch and a page per column, whatever the row group size. Reads of chosen row positions
// decode the chunks of a row group whole (pages without wanted rows are skipped).
//
// Thread safety: a reader is not thread-safe; use one per thread.
#pragma once

#include <memory>

#include "sluice/format/file_format.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice::parquet {

// Reads and decodes the footer of `file` (magic, length, FileMetaData). Errors name the file.
Result<FileMetaData> ReadFileMetaData(const RandomAccessFile& file);

// Opens `file` for reading the columns of `read_type` (a ROW type). This is what
// ParquetFileFormat::CreateReader calls.
Result<std::unique_ptr<FormatReader>> OpenParquetReader(std::shared_ptr<RandomAccessFile> file,
                                                        DataTypePtr read_type,
                                                        const ReaderOptions& options);

// The Paimon ROW type of a file's whole schema (tools and tests that read a file without
// knowing its table).
Result<DataTypePtr> ReadParquetFileType(const RandomAccessFile& file);

}  // namespace sluice::parquet
