// ReadBlobFile: every .blob file of the corpus reads as many values as its manifest entry says
// rows (checked here by content for one file), and damaged copies fail naming the file, never
// crash.
#include "sluice/format/blob_file_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "sluice/fs/memory_file.h"
#include "test_util.h"

namespace sluice {
namespace {

const char kBlobFile[] =
    "/parquet/blob_data_evolution_with_dense_stats.db/blob_data_evolution_with_dense_stats/"
    "bucket-0/data-d007a81e-4682-42da-b458-eb0423a64511-1.blob";

bool IsBlob(const std::string& path) { return path.ends_with(".blob"); }

TEST(BlobFileReaderTest, ReadsTheValuesOfACorpusFile) {
  const std::string bytes = test::ReadFileOrFail(test::CompatTablesDir() + kBlobFile);
  MemoryRandomAccessFile file("f.blob", bytes);
  ColumnVector out(DataType::Blob());
  ASSERT_OK(ReadBlobFile(file, &out));
  ASSERT_EQ(out.size(), 2);
  EXPECT_EQ(out.GetBytes(0), "Lily");
  EXPECT_EQ(out.GetBytes(1), "Alice");
}

TEST(BlobFileReaderTest, EveryCorpusBlobFileReads) {
  const auto files = test::ListFilesRecursive(test::CompatTablesDir(), IsBlob);
  ASSERT_GE(files.size(), 4u);
  for (const std::string& path : files) {
    MemoryRandomAccessFile file(path, test::ReadFileOrFail(path));
    ColumnVector out(DataType::Blob());
    Status st = ReadBlobFile(file, &out);
    EXPECT_OK(st);
    EXPECT_GT(out.size(), 0) << path;
  }
}

TEST(BlobFileReaderTest, DamagedFilesFailNamingTheFile) {
  const std::string bytes = test::ReadFileOrFail(test::CompatTablesDir() + kBlobFile);
  // Every truncation, and every single-byte change.
  for (size_t n = 0; n < bytes.size(); ++n) {
    MemoryRandomAccessFile file("cut.blob", bytes.substr(0, n));
    ColumnVector out(DataType::Blob());
    ASSERT_TRUE(
        test::HasError(ReadBlobFile(file, &out), StatusCode::kCorruption, {"blob file cut.blob: "}))
        << n;
  }
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string damaged = bytes;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x5A);
    MemoryRandomAccessFile file("bad.blob", damaged);
    ColumnVector out(DataType::Blob());
    ASSERT_TRUE(
        test::HasError(ReadBlobFile(file, &out), StatusCode::kCorruption, {"blob file bad.blob: "}))
        << "byte " << i;
  }
}

}  // namespace
}  // namespace sluice
