#include "sluice/format/orc/writer/column_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sluice::orc {

namespace {

// DATA: the unscaled values as zigzag varints; SECONDARY: the scale of each value.
class DecimalWriter : public ColumnWriter {
 public:
  explicit DecimalWriter(uint32_t column) : ColumnWriter(column, nullptr) {
    SetValueStreams({&data_, &scales_}, EncodingKind::kDirectV2);
  }

 protected:
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    std::string& data = data_.bytes();
    IntRleV2Encoder& scales = scales_.encoder();
    auto add = [&](int128_t x) {
      stats_.AddDecimal(x);
      auto u = static_cast<unsigned __int128>((x << 1) ^ (x >> 127));
      while (u >= 0x80) {
        data.push_back(static_cast<char>(static_cast<uint8_t>(u) | 0x80));
        u >>= 7;
      }
      data.push_back(static_cast<char>(u));
      scales.Write(type_->scale);
    };
    if (v.kind() == PhysicalKind::kInt64) {
      ForEachValid<int64_t>(v, begin, end, [&](int64_t x) { add(x); });
    } else {
      ForEachValid<int128_t>(v, begin, end, add);
    }
  }

 private:
  RawStream data_{StreamKind::kData};
  RleStream<IntRleV2Encoder> scales_{StreamKind::kSecondary, true};
};

}  // namespace

std::unique_ptr<ColumnWriter> NewDecimalWriter(uint32_t column) {
  return std::make_unique<DecimalWriter>(column);
}

}  // namespace sluice::orc
