// libFuzzer target: the input bytes are a Parquet file, held in memory (MemoryRandomAccessFile).
// It is read fully with its own schema, then again with row positions so that the skip paths
// run too. Any outcome but a crash, leak, hang or sanitizer report is fine.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sluice/column_batch.h"
#include "sluice/format/parquet/parquet_reader.h"
#include "sluice/fs/memory_file.h"

namespace {

void ReadAll(const std::shared_ptr<sluice::RandomAccessFile>& file,
             const sluice::ReaderOptions& options) {
  auto type = sluice::parquet::ReadParquetFileType(*file);
  if (!type.ok()) return;
  auto reader = sluice::parquet::OpenParquetReader(file, *type, options);
  if (!reader.ok()) return;
  sluice::ColumnBatch batch(*type);
  // Bounded: a reader never yields more batches than the file has rows.
  for (int i = 0; i < 100000; ++i) {
    auto more = (*reader)->Next(&batch);
    if (!more.ok() || !*more) return;
    // Touch every value so that inconsistent vectors show up under the sanitizers.
    for (int64_t r = 0; r < batch.num_rows(); ++r) batch.GetRow(r);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<sluice::MemoryRandomAccessFile>(
      "fuzz.parquet", std::string(reinterpret_cast<const char*>(data), size));
  sluice::ReaderOptions options;
  options.batch_size = 1000;
  ReadAll(file, options);
  options.row_positions = std::vector<int64_t>{1, 2, 3, 700, 5000, 10001, 20000, 65536};
  ReadAll(file, options);
  return 0;
}
