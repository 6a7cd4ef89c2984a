#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <vector>

namespace sluice::orc {

namespace {

class BooleanWriter : public ColumnWriter {
 public:
  explicit BooleanWriter(uint32_t column) : ColumnWriter(column, nullptr) {
    SetValueStreams({&data_}, EncodingKind::kDirect);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    const uint8_t* values = v.data<uint8_t>();
    for (int64_t i = begin; i < end; ++i) {
      if (!Valid(v, i)) continue;
      uint8_t b = values[i] ? 1 : 0;
      stats_.trues += b;
      data_.encoder().Write(&b, 1);
    }
  }

 private:
  RleStream<BooleanRleEncoder> data_{StreamKind::kData};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewBooleanWriter(uint32_t column) {
  return std::make_unique<BooleanWriter>(column);
}

}  // namespace sluice::orc
