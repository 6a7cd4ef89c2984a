#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::orc {

namespace {

class DecimalWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(data_.size() + scales_.output()->size());
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    out->push_back({StreamKind::kData, data_.size(), {}});
    scales_.Flush();
    out->push_back({StreamKind::kSecondary, scales_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    auto add = [&](int128_t x) {
      stats_.AddDecimal(x);
      auto u = static_cast<unsigned __int128>((x << 1) ^ (x >> 127));
      while (u >= 0x80) {
        data_.push_back(static_cast<char>(static_cast<uint8_t>(u) | 0x80));
        u >>= 7;
      }
      data_.push_back(static_cast<char>(u));
      scales_.Write(type_->scale);
    };
    if (v.kind() == PhysicalKind::kInt64) {
      ForEachValid<int64_t>(v, begin, end, [&](int64_t x) { add(x); });
    } else {
      ForEachValid<int128_t>(v, begin, end, add);
    }
  }
  Status FlushValues(StripeSink* sink) override {
    scales_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, data_));
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kSecondary, *scales_.output()));
    data_.clear();
    scales_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    return Status::OK();
  }

 private:
  std::string data_;
  mutable IntRleV2Encoder scales_{true};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewDecimalWriter(uint32_t column) {
  return std::make_unique<DecimalWriter>(column, nullptr);
}

}  // namespace sluice::orc
