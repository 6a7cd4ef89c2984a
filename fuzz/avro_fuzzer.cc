// libFuzzer target: the input bytes are an Avro object container file. It is read generically
// (row type derived from the writer schema), then again with a projection and row selection so
// that the skip paths run too. Any outcome but a crash, leak or hang is fine.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "sluice/column_batch.h"
#include "sluice/format/avro/avro_container_reader.h"
#include "sluice/format/avro/avro_file_format.h"
#include "sluice/format/avro/avro_schema_converter.h"

namespace {

// The input as a RandomAccessFile.
class FuzzInputFile final : public sluice::RandomAccessFile {
 public:
  FuzzInputFile(const uint8_t* data, size_t size)
      : path_("fuzz.avro"), data_(reinterpret_cast<const char*>(data), size) {}
  const std::string& path() const override { return path_; }
  int64_t size() const override { return static_cast<int64_t>(data_.size()); }
  sluice::Status ReadAt(int64_t offset, int64_t n, uint8_t* out) const override {
    if (offset < 0 || n < 0 || offset > size() || n > size() - offset) {
      return sluice::Status::Corruption(path_ + ": short read");
    }
    if (n > 0) std::memcpy(out, data_.data() + offset, static_cast<size_t>(n));
    return sluice::Status::OK();
  }

 private:
  std::string path_;
  std::string data_;
};

void ReadAll(const std::shared_ptr<sluice::RandomAccessFile>& file, sluice::DataTypePtr type,
             const sluice::ReaderOptions& options) {
  auto reader = sluice::AvroFormat()->CreateReader(file, type, options);
  if (!reader.ok()) return;
  sluice::ColumnBatch batch(type);
  while (true) {
    auto more = (*reader)->Next(&batch);
    if (!more.ok() || !*more) return;
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (batch.num_rows() > 0) batch.column(c)->GetValue(batch.num_rows() - 1);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto file = std::make_shared<FuzzInputFile>(data, size);
  auto container = sluice::AvroContainerReader::Open(file);
  if (!container.ok()) return 0;
  auto type = sluice::AvroSchemaToRowType(*(*container)->schema());
  if (!type.ok()) return 0;
  sluice::ReaderOptions options;
  options.batch_size = 64;
  ReadAll(file, *type, options);

  std::vector<sluice::DataField> projected;
  for (int i = 0; i < (*type)->num_fields(); i += 2) projected.push_back((*type)->fields()[i]);
  options.row_positions = std::vector<int64_t>{0, 2, 5, 100};
  ReadAll(file, sluice::DataType::Row(projected, false), options);
  return 0;
}
