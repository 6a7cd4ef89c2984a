#include "sluice/meta/manifest_file.h"

#include "sluice/format/file_format_registry.h"
#include "sluice/meta/manifest_schemas.h"
#include "sluice/meta/manifest_serializer.h"

namespace sluice {

namespace {

template <typename T, typename FromRow>
Result<std::vector<T>> ReadRecords(FileIO& io, const std::string& path, const DataTypePtr& row_type,
                                   FromRow from_row) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> opened, io.OpenForRead(path));
  std::shared_ptr<RandomAccessFile> file(std::move(opened));
  SLUICE_ASSIGN_OR_RETURN(auto format, DetectFileFormat(*file));
  SLUICE_ASSIGN_OR_RETURN(auto reader, format->CreateReader(file, row_type, ReaderOptions()));
  std::vector<T> out;
  ColumnBatch batch(row_type);
  for (;;) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      Result<T> record = from_row(batch, i);
      if (!record.ok()) {
        return record.status().WithContext(path + ": record " + std::to_string(out.size()));
      }
      out.push_back(std::move(record).value());
    }
  }
  return out;
}

template <typename T, typename Append>
Result<int64_t> WriteRecords(FileIO& io, const std::string& path, const FileFormat& format,
                             const WriterOptions& options, const DataTypePtr& row_type,
                             const std::vector<T>& records, Append append) {
  SLUICE_ASSIGN_OR_RETURN(auto file, io.OpenForWrite(path, /*overwrite=*/false));
  SLUICE_ASSIGN_OR_RETURN(auto writer, format.CreateWriter(std::move(file), row_type, options));
  ColumnBatch batch(row_type);
  constexpr size_t kBatchRows = 1024;
  for (size_t i = 0; i < records.size(); ++i) {
    SLUICE_RETURN_NOT_OK_CTX(append(records[i], &batch), path);
    if (batch.num_rows() == static_cast<int64_t>(kBatchRows) || i + 1 == records.size()) {
      SLUICE_RETURN_NOT_OK(writer->Write(batch));
      batch.Clear();
    }
  }
  SLUICE_ASSIGN_OR_RETURN(WriteResult result, writer->Finish());
  return result.file_size;
}

}  // namespace

Result<std::vector<ManifestEntry>> ReadManifestFile(FileIO& io, const std::string& path) {
  return ReadRecords<ManifestEntry>(io, path, ManifestEntryRowType(), ManifestEntryFromRow);
}

Result<std::vector<ManifestFileMeta>> ReadManifestList(FileIO& io, const std::string& path) {
  return ReadRecords<ManifestFileMeta>(io, path, ManifestFileMetaRowType(),
                                       ManifestFileMetaFromRow);
}

Result<std::vector<IndexManifestEntry>> ReadIndexManifest(FileIO& io, const std::string& path) {
  return ReadRecords<IndexManifestEntry>(io, path, IndexManifestEntryRowType(),
                                         IndexManifestEntryFromRow);
}

Result<int64_t> WriteManifestFile(FileIO& io, const std::string& path, const FileFormat& format,
                                  const WriterOptions& options,
                                  const std::vector<ManifestEntry>& entries) {
  return WriteRecords(io, path, format, options, ManifestEntryRowType(), entries,
                      AppendManifestEntry);
}

Result<int64_t> WriteManifestList(FileIO& io, const std::string& path, const FileFormat& format,
                                  const WriterOptions& options,
                                  const std::vector<ManifestFileMeta>& metas) {
  return WriteRecords(io, path, format, options, ManifestFileMetaRowType(), metas,
                      AppendManifestFileMeta);
}

Result<int64_t> WriteIndexManifest(FileIO& io, const std::string& path, const FileFormat& format,
                                   const WriterOptions& options,
                                   const std::vector<IndexManifestEntry>& entries) {
  return WriteRecords(io, path, format, options, IndexManifestEntryRowType(), entries,
                      AppendIndexManifestEntry);
}

}  // namespace sluice
