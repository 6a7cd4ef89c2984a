#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <vector>

namespace sluice::orc {

namespace {

class BooleanWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.output()->size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    uint64_t offset, bits;
    data_.Position(&offset, &bits);
    out->push_back({StreamKind::kData, offset, {0, bits}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    const uint8_t* values = v.data<uint8_t>();
    for (int64_t i = begin; i < end; ++i) {
      if (!Valid(v, i)) continue;
      uint8_t b = values[i] ? 1 : 0;
      stats_.trues += b;
      data_.Write(&b, 1);
    }
  }
  Status FlushValues(StripeSink* sink) override {
    data_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *data_.output()));
    data_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirect, 0};
    return Status::OK();
  }

 private:
  mutable BooleanRleEncoder data_;
};

}  // namespace

std::unique_ptr<ColumnWriter> NewBooleanWriter(uint32_t column) {
  return std::make_unique<BooleanWriter>(column, nullptr);
}

}  // namespace sluice::orc
