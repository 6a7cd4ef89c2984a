// Helpers shared by the Avro tests: an in-memory RandomAccessFile, writing rows to an Avro file
// and reading a file back as rows.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sluice/format/avro/avro_binary.h"
#include "sluice/format/avro/avro_container_reader.h"
#include "sluice/format/avro/avro_file_format.h"
#include "sluice/format/avro/avro_schema_converter.h"
#include "sluice/fs/file_io.h"
#include "test_util.h"

namespace sluice::test {

class InMemoryFile final : public RandomAccessFile {
 public:
  InMemoryFile(std::string path, std::string content)
      : path_(std::move(path)), content_(std::move(content)) {}
  const std::string& path() const override { return path_; }
  int64_t size() const override { return static_cast<int64_t>(content_.size()); }
  Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
    if (offset < 0 || n < 0 || offset + n > size()) {
      return Status::Corruption(path_ + ": short read");
    }
    if (n > 0) std::memcpy(out, content_.data() + offset, static_cast<size_t>(n));
    return Status::OK();
  }

 private:
  std::string path_;
  std::string content_;
};

inline std::shared_ptr<RandomAccessFile> MemFile(std::string content,
                                                 std::string path = "mem.avro") {
  return std::make_shared<InMemoryFile>(std::move(path), std::move(content));
}

inline bool IsAvroFile(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char magic[4] = {};
  size_t n = std::fread(magic, 1, 4, f);
  std::fclose(f);
  return n == 4 && std::memcmp(magic, kAvroMagic, 4) == 0;
}

// Reads every row of `file` as `read_type` (or the type derived from the writer schema).
inline Result<std::vector<Value>> ReadRows(std::shared_ptr<RandomAccessFile> file,
                                           DataTypePtr read_type = nullptr,
                                           ReaderOptions options = {}) {
  if (read_type == nullptr) {
    SLUICE_ASSIGN_OR_RETURN(auto container, AvroContainerReader::Open(file));
    SLUICE_ASSIGN_OR_RETURN(read_type, AvroSchemaToRowType(*container->schema()));
  }
  SLUICE_ASSIGN_OR_RETURN(auto reader, AvroFormat()->CreateReader(file, read_type, options));
  ColumnBatch batch(read_type);
  std::vector<Value> rows;
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(batch.GetRow(i));
  }
  return rows;
}

inline Result<std::vector<Value>> ReadRowsFromPath(const std::string& path,
                                                   DataTypePtr read_type = nullptr) {
  SLUICE_ASSIGN_OR_RETURN(auto file, LocalFileIO()->OpenForRead(path));
  return ReadRows(std::shared_ptr<RandomAccessFile>(std::move(file)), std::move(read_type));
}

// Writes `rows` (kRow Values of `type`) in batches of `batch_rows` to `path`.
inline Result<WriteResult> WriteRows(const std::string& path, const DataTypePtr& type,
                                     const std::vector<Value>& rows, WriterOptions options = {},
                                     size_t batch_rows = 1000) {
  SLUICE_ASSIGN_OR_RETURN(auto file, LocalFileIO()->OpenForWrite(path, /*overwrite=*/true));
  SLUICE_ASSIGN_OR_RETURN(auto writer, AvroFormat()->CreateWriter(std::move(file), type, options));
  ColumnBatch batch(type);
  for (size_t start = 0; start < rows.size(); start += batch_rows) {
    batch.Clear();
    size_t end = std::min(rows.size(), start + batch_rows);
    for (size_t i = start; i < end; ++i) SLUICE_RETURN_NOT_OK(batch.AppendRow(rows[i].list()));
    SLUICE_RETURN_NOT_OK(writer->Write(batch));
  }
  return writer->Finish();
}

// Hand-built container files (the sync marker is kSync; payloads use the null codec unless
// the codec says otherwise).
inline constexpr char kSync[] = "0123456789abcdef";
inline std::string Long(int64_t v) {
  Buffer b;
  PutAvroLong(&b, v);
  return std::string(b.view());
}
inline std::string Bytes(std::string_view s) {
  return Long(static_cast<int64_t>(s.size())) + std::string(s);
}

inline std::string Header(std::string_view schema, std::string_view codec) {
  return std::string("Obj\x01", 4) + Long(2) + Bytes("avro.schema") + Bytes(schema) +
         Bytes("avro.codec") + Bytes(codec) + Long(0) + kSync;
}
inline std::string Block(int64_t count, std::string_view payload) {
  return Long(count) + Long(static_cast<int64_t>(payload.size())) + std::string(payload) + kSync;
}

#define SLUICE_ASSERT_OK(expr)     \
  do {                             \
    ::sluice::Status _st = (expr); \
    ASSERT_OK(_st) << #expr;       \
  } while (false)

#define SLUICE_ASSERT_OK_AND_ASSIGN(lhs, rexpr)                                \
  auto SLUICE_CONCAT(_res_, __LINE__) = (rexpr);                               \
  ASSERT_TRUE(SLUICE_CONCAT(_res_, __LINE__).ok())                             \
      << #rexpr << ": " << SLUICE_CONCAT(_res_, __LINE__).status().ToString(); \
  lhs = std::move(SLUICE_CONCAT(_res_, __LINE__)).value()

}  // namespace sluice::test
