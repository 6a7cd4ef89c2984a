#include "sluice/parquet_file.h"

#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/fs/file_io.h"

namespace sluice {

namespace {

class ParquetFileReaderImpl : public ParquetFileReader {
 public:
  ParquetFileReaderImpl(std::string path, DataTypePtr type, std::unique_ptr<FormatReader> reader,
                        int64_t file_size)
      : path_(std::move(path)),
        type_(std::move(type)),
        reader_(std::move(reader)),
        file_size_(file_size) {}

  const DataTypePtr& output_type() const override { return type_; }
  Result<bool> Next(ColumnBatch* batch) override {
    if (failed_) return false;
    Result<bool> more = reader_->Next(batch);
    if (more.ok()) return more;
    failed_ = true;
    return more.status().WithContext(path_);
  }
  int64_t num_rows() const override { return reader_->num_rows(); }
  int64_t file_size() const override { return file_size_; }

 private:
  std::string path_;
  DataTypePtr type_;
  std::unique_ptr<FormatReader> reader_;
  int64_t file_size_;
  bool failed_ = false;
};

}  // namespace

Result<DataTypePtr> ParquetFileReader::ReadType(const std::string& path) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<RandomAccessFile> file, LocalFileIO()->OpenForRead(path));
  Result<DataTypePtr> type = parquet::ReadParquetFileType(*file);
  if (!type.ok()) return type.status().WithContext(path);
  return type;
}

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(const std::string& path,
                                                                   DataTypePtr read_type,
                                                                   int64_t batch_rows) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<RandomAccessFile> file, LocalFileIO()->OpenForRead(path));
  ReaderOptions options;
  options.batch_size = batch_rows;
  const int64_t file_size = file->size();
  auto reader = parquet::OpenParquetReader(file, read_type, options);
  if (!reader.ok()) return reader.status().WithContext(path);
  return std::unique_ptr<ParquetFileReader>(
      new ParquetFileReaderImpl(path, std::move(read_type), std::move(*reader), file_size));
}

}  // namespace sluice
