// libFuzzer target: the input bytes are an ORC file, held in memory (MemoryRandomAccessFile).
// It is read with its own schema, then again with row positions so that the row-index seek and
// skip paths run too. Any outcome but a crash, leak, hang or sanitizer report is fine.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "sluice/column_batch.h"
#include "sluice/format/orc/orc_reader.h"
#include "sluice/fs/memory_file.h"

namespace {

void ReadAll(const std::shared_ptr<sluice::RandomAccessFile>& file,
             const sluice::ReaderOptions& options) {
  auto reader = sluice::orc::OrcReader::Open(file, nullptr, options);
  if (!reader.ok()) return;
  sluice::ColumnBatch batch((*reader)->read_type());
  // A bounded number of batches keeps executions fast; lying row counts cannot loop forever.
  for (int i = 0; i < 200; ++i) {
    auto more = (*reader)->Next(&batch);
    if (!more.ok() || !*more) return;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<sluice::MemoryRandomAccessFile>(
      "fuzz.orc", std::string(reinterpret_cast<const char*>(data), size));
  sluice::ReaderOptions options;
  options.batch_size = 1000;
  ReadAll(file, options);
  options.row_positions = std::vector<int64_t>{1, 2, 3, 700, 5000, 10001, 20000, 65536};
  ReadAll(file, options);
  return 0;
}
