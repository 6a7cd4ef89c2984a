#include "sluice/format/orc/reader/column_readers.h"

#include <cstdint>
#include <string>

#include "sluice/format/orc/reader/column_reader_util.h"
#include "sluice/types/decimal_math.h"

namespace sluice::orc {

namespace {

class DecimalColumnReader : public ColumnReader {
 public:
  DecimalColumnReader(uint32_t column, std::string path, int file_scale, int read_scale,
                      bool compact)
      : ColumnReader(column, std::move(path)),
        file_scale_(file_scale),
        read_scale_(read_scale),
        compact_(compact) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    const ColumnEncoding& enc = stripe.Encoding(column_);
    data_stream_ = &stripe.Stream(column_, StreamKind::kData);
    decimal64_ = enc.kind == EncodingKind::kDecimal64 || (compact_ && stripe.Decimal64AsRle());
    if (decimal64_) {
      ints_.Reset(data_stream_->data.data(), data_stream_->data.size(), true, true);
    } else {
      pos_ = 0;
      scale_stream_ = &stripe.Stream(column_, StreamKind::kSecondary);
      scales_.Reset(scale_stream_->data.data(), scale_stream_->data.size(), IsV2(enc.kind), true);
    }
    return Status::OK();
  }

  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    ResizeScratch(&unscaled_, static_cast<size_t>(m) * sizeof(int128_t));
    auto* values = unscaled_.as<int128_t>();
    if (decimal64_) {
      ResizeScratch(&scales_scratch_, static_cast<size_t>(m) * sizeof(int64_t));
      auto* raw = scales_scratch_.as<int64_t>();
      SLUICE_RETURN_NOT_OK(WithContext(ints_.Next(raw, m).WithContext("DATA stream")));
      for (int64_t i = 0; i < m; ++i) values[i] = RescaleHalfUp(raw[i], file_scale_, read_scale_);
    } else {
      ResizeScratch(&scales_scratch_, static_cast<size_t>(m) * sizeof(int64_t));
      auto* scales = scales_scratch_.as<int64_t>();
      for (int64_t i = 0; i < m; ++i) SLUICE_RETURN_NOT_OK(ReadVarint128(&values[i]));
      SLUICE_RETURN_NOT_OK(WithContext(scales_.Next(scales, m).WithContext("SECONDARY stream")));
      for (int64_t i = 0; i < m; ++i) {
        if (scales[i] < -38 || scales[i] > 38) {
          return WithContext(Status::Corruption("decimal scale " + std::to_string(scales[i])));
        }
        values[i] = RescaleHalfUp(values[i], static_cast<int>(scales[i]), read_scale_);
      }
    }
    int64_t base = out->size();
    out->Resize(base + n);
    const uint8_t* valid = valid_.data();
    if (out->kind() == PhysicalKind::kInt64) {
      int64_t* dst = out->data<int64_t>() + base;
      int64_t j = 0;
      for (int64_t i = 0; i < n; ++i) dst[i] = valid[i] ? static_cast<int64_t>(values[j++]) : 0;
    } else {
      int128_t* dst = out->data<int128_t>() + base;
      int64_t j = 0;
      for (int64_t i = 0; i < n; ++i) dst[i] = valid[i] ? values[j++] : 0;
    }
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    if (decimal64_) return WithContext(ints_.Skip(m));
    for (int64_t i = 0; i < m; ++i) {
      int128_t v;
      SLUICE_RETURN_NOT_OK(ReadVarint128(&v));
    }
    return WithContext(scales_.Skip(m));
  }

  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    if (decimal64_) return WithContext(SeekRle(&ints_, *data_stream_, pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekRaw(*data_stream_, pos, &index, &pos_)));
    return WithContext(SeekRle(&scales_, *scale_stream_, pos, &index));
  }

 private:
  Status ReadVarint128(int128_t* out) {
    const uint8_t* p = data_stream_->data.data();
    size_t size = data_stream_->data.size();
    unsigned __int128 v = 0;
    int shift = 0;
    while (true) {
      if (pos_ >= size) return WithContext(Status::Corruption("DATA stream: truncated decimal"));
      uint8_t b = p[pos_++];
      if (shift >= 128) return WithContext(Status::Corruption("DATA stream: decimal too long"));
      v |= static_cast<unsigned __int128>(b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) break;
    }
    *out = static_cast<int128_t>(v >> 1) ^ -static_cast<int128_t>(v & 1);
    return Status::OK();
  }

  int file_scale_;
  int read_scale_;
  bool compact_;
  bool decimal64_ = false;
  const DecodedStream* data_stream_ = nullptr;
  const DecodedStream* scale_stream_ = nullptr;
  size_t pos_ = 0;
  IntRleDecoder ints_;
  IntRleDecoder scales_;
  Buffer unscaled_;
  Buffer scales_scratch_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewDecimalColumnReader(uint32_t column, const std::string& path,
                                                     int file_scale, int read_scale, bool compact) {
  return std::make_unique<DecimalColumnReader>(column, path, file_scale, read_scale, compact);
}

}  // namespace sluice::orc
