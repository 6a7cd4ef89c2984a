// Parquet and ORC reads from the S3 server of the `s3` fixture (scripts/s3.sh; S3Proxy at
// SLUICE_S3_ENDPOINT), counting the HTTP requests through a proxy: a data file opened with the
// size its manifest recorded costs no HEAD, its magic and footer one request each, and a
// projected read only the requests of the projected column chunks (coalesced, in parallel),
// never one per page or per 1 MiB window.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "fs/s3/server/fault_proxy.h"
#include "sluice/base/uuid.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/fs/s3/s3_file_io.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

std::string Endpoint() {
  const char* env = std::getenv("SLUICE_S3_ENDPOINT");
  return env != nullptr && *env != '\0' ? env : "http://127.0.0.1:19400";
}

int EndpointPort() {
  const std::string endpoint = Endpoint();
  return std::atoi(endpoint.substr(endpoint.rfind(':') + 1).c_str());
}

S3Options TestOptions(const std::string& endpoint) {
  S3Options options;
  options.endpoint = endpoint;
  options.access_key = "sluice-test";
  options.secret_key = "sluice-test-secret";
  options.path_style_access = true;
  return options;
}

constexpr int kColumns = 6;
constexpr int64_t kRows = 300000;

// Values that do not compress: each column chunk is about 8 bytes a row.
int64_t Cell(int64_t row, int column) {
  uint64_t x = static_cast<uint64_t>(row) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(column);
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return static_cast<int64_t>(x ^ (x >> 29));
}

DataTypePtr WriteType() {
  std::vector<DataField> fields;
  for (int c = 0; c < kColumns; ++c) {
    fields.push_back(Field(c, "c" + std::to_string(c), DataType::BigInt(false)));
  }
  return DataType::Row(std::move(fields));
}

class S3ReadRequestsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    ASSERT_OK_AND_ASSIGN(io_, MakeS3FileIO(TestOptions(Endpoint())));
    path_ = "s3://sluice/S3ReadRequestsTest-" + NewUuidV4().substr(0, 8) + "/data." + GetParam();
    ASSERT_OK_AND_ASSIGN(auto format, FileFormatByName(GetParam()));
    ASSERT_OK_AND_ASSIGN(auto file, io_->OpenForWrite(path_, false));
    WriterOptions options;
    options.compression = "none";
    // Two row groups / stripes.
    options.options["parquet.block.size"] = std::to_string(kRows * kColumns * 8 / 2);
    options.options["orc.stripe.size"] = std::to_string(kRows * kColumns * 8 / 2);
    ASSERT_OK_AND_ASSIGN(auto writer, format->CreateWriter(std::move(file), WriteType(), options));
    ColumnBatch batch(WriteType());
    for (int64_t row = 0; row < kRows; ++row) {
      ValueList values;
      for (int c = 0; c < kColumns; ++c) values.push_back(Value::Int64(Cell(row, c)));
      ASSERT_OK(batch.AppendRow(values));
      if (batch.num_rows() == 4096 || row + 1 == kRows) {
        ASSERT_OK(writer->Write(batch));
        batch.Clear();
      }
    }
    ASSERT_OK_AND_ASSIGN(WriteResult written, writer->Finish());
    size_ = written.file_size;
  }

  // Reads `columns` of the file through `io`, checking every value; the row count.
  int64_t Read(FileIO& io, const std::vector<int>& columns) {
    std::vector<DataField> fields;
    for (int c : columns) fields.push_back(WriteType()->fields()[static_cast<size_t>(c)]);
    DataTypePtr read_type = DataType::Row(std::move(fields));
    auto file = io.OpenForReadWithSize(path_, size_);
    EXPECT_OK(file);
    if (!file.ok()) return -1;
    std::shared_ptr<RandomAccessFile> shared = std::move(*file);
    auto format = DetectFileFormat(*shared);
    EXPECT_OK(format);
    if (!format.ok()) return -1;
    auto reader = (*format)->CreateReader(shared, read_type, ReaderOptions());
    EXPECT_OK(reader);
    if (!reader.ok()) return -1;
    ColumnBatch batch(read_type);
    int64_t rows = 0;
    while (true) {
      auto more = (*reader)->Next(&batch);
      EXPECT_OK(more);
      if (!more.ok() || !*more) break;
      for (size_t i = 0; i < columns.size(); ++i) {
        const int64_t* values = batch.column(static_cast<int>(i))->data<int64_t>();
        for (int64_t r = 0; r < batch.num_rows(); ++r) {
          if (values[r] != Cell(rows + r, columns[i])) {
            ADD_FAILURE() << "row " << rows + r << " column " << columns[i];
            return -1;
          }
        }
      }
      rows += batch.num_rows();
    }
    return rows;
  }

  std::shared_ptr<FileIO> io_;
  std::string path_;
  int64_t size_ = 0;
};

TEST_P(S3ReadRequestsTest, AProjectedReadFetchesOnlyItsColumnChunks) {
  const int64_t chunk = kRows / 2 * 8;  // a column chunk of one row group / stripe
  ASSERT_GT(size_, int64_t{kColumns} * kRows * 8) << "values that do not compress";
  test::FaultProxy proxy(EndpointPort());
  ASSERT_NE(proxy.endpoint(), "");
  ASSERT_OK_AND_ASSIGN(auto io, MakeS3FileIO(TestOptions(proxy.endpoint())));
  // Columns 0 and 5 of 6: far apart, so two requests per row group.
  EXPECT_EQ(Read(*io, {0, 5}), kRows);
  const int projected = proxy.requests();
  // Magic, tail (footer), 2 row groups x 2 chunks; ORC reads each stripe footer too (the
  // second one's within the first stripe's prefetch, the first one's perhaps in the tail).
  EXPECT_LE(projected, GetParam() == "orc" ? 8 : 6) << "file of " << size_ << " bytes";
  // Every column: each row group is its 6 chunks, coalesced and cut into requests of at most
  // 8 MiB.
  EXPECT_EQ(Read(*io, {0, 1, 2, 3, 4, 5}), kRows);
  const int full = proxy.requests() - projected;
  const int64_t group_bytes = chunk * kColumns;
  const int per_group = static_cast<int>((group_bytes + (8 << 20) - 1) / (8 << 20));
  EXPECT_LE(full, 2 + 2 * per_group + (GetParam() == "orc" ? 2 : 0)) << "file of " << size_;
  std::printf("%s file of %lld bytes: 2 of 6 columns %d requests, 6 of 6 %d\n", GetParam().c_str(),
              static_cast<long long>(size_), projected, full);
}

INSTANTIATE_TEST_SUITE_P(Formats, S3ReadRequestsTest, ::testing::Values("parquet", "orc"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace sluice
