#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <vector>

namespace sluice::orc {

namespace {

class ByteWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.output()->size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    data_.Flush();
    out->push_back({StreamKind::kData, data_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    const int8_t* values = v.data<int8_t>();
    for (int64_t i = begin; i < end; ++i) {
      if (!Valid(v, i)) continue;
      stats_.AddInt(values[i]);
      auto b = static_cast<uint8_t>(values[i]);
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
  mutable ByteRleEncoder data_;
};

class IntegerWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.output()->size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    data_.Flush();
    out->push_back({StreamKind::kData, data_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    auto add = [&](int64_t x) {
      stats_.AddInt(x);
      data_.Write(x);
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
  Status FlushValues(StripeSink* sink) override {
    data_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *data_.output()));
    data_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    return Status::OK();
  }

 private:
  mutable IntRleV2Encoder data_{true};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewByteWriter(uint32_t column) {
  return std::make_unique<ByteWriter>(column, nullptr);
}

std::unique_ptr<ColumnWriter> NewIntegerWriter(uint32_t column) {
  return std::make_unique<IntegerWriter>(column, nullptr);
}

}  // namespace sluice::orc
