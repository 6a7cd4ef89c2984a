#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <vector>

namespace sluice::orc {

namespace {

// TINYINT: byte RLE.
class ByteWriter : public ColumnWriter {
 public:
  explicit ByteWriter(uint32_t column) : ColumnWriter(column, nullptr) {
    SetValueStreams({&data_}, EncodingKind::kDirect);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    const int8_t* values = v.data<int8_t>();
    for (int64_t i = begin; i < end; ++i) {
      if (!Valid(v, i)) continue;
      stats_.AddInt(values[i]);
      auto b = static_cast<uint8_t>(values[i]);
      data_.encoder().Write(&b, 1);
    }
  }

 private:
  RleStream<ByteRleEncoder> data_{StreamKind::kData};
};

// SMALLINT / INT / BIGINT / DATE / TIME: signed integer RLE v2.
class IntegerWriter : public ColumnWriter {
 public:
  explicit IntegerWriter(uint32_t column) : ColumnWriter(column, nullptr) {
    SetValueStreams({&data_}, EncodingKind::kDirectV2);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    IntRleV2Encoder& data = data_.encoder();
    auto add = [&](int64_t x) {
      stats_.AddInt(x);
      data.Write(x);
    };
    switch (v.kind()) {
      case PhysicalKind::kInt16:
        ForEachValid<int16_t>(v, begin, end, add);
        break;
      case PhysicalKind::kInt32:
        ForEachValid<int32_t>(v, begin, end, add);
        break;
      default:
        ForEachValid<int64_t>(v, begin, end, add);
        break;
    }
  }

 private:
  RleStream<IntRleV2Encoder> data_{StreamKind::kData, true};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewByteWriter(uint32_t column) {
  return std::make_unique<ByteWriter>(column);
}

std::unique_ptr<ColumnWriter> NewIntegerWriter(uint32_t column) {
  return std::make_unique<IntegerWriter>(column);
}

}  // namespace sluice::orc
