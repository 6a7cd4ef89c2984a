#include "sluice/format/orc/reader/column_readers.h"

#include <cstdint>
#include <string>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

template <typename T>
void NarrowAndSpread(const int64_t* src, T* dst, int64_t n, int64_t m, const uint8_t* valid) {
  if (m == n) {
    for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<T>(src[i]);
    return;
  }
  int64_t j = 0;
  for (int64_t i = 0; i < n; ++i) dst[i] = valid[i] ? static_cast<T>(src[j++]) : T{};
}

class IntegerColumnReader : public ColumnReader {
 public:
  IntegerColumnReader(uint32_t column, std::string path, bool byte_rle)
      : ColumnReader(column, std::move(path)), byte_rle_(byte_rle) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    data_stream_ = &stripe.Stream(column_, StreamKind::kData);
    if (byte_rle_) {
      bytes_.Reset(data_stream_->data.data(), data_stream_->data.size());
    } else {
      ints_.Reset(data_stream_->data.data(), data_stream_->data.size(),
                  IsV2(stripe.Encoding(column_).kind), true);
    }
    return Status::OK();
  }
  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    int64_t base = out->size();
    out->Resize(base + n);
    ResizeScratch(&scratch_, static_cast<size_t>(m) * sizeof(int64_t));
    auto* values = scratch_.as<int64_t>();
    if (byte_rle_) {
      ResizeScratch(&bytes_scratch_, static_cast<size_t>(m));
      SLUICE_RETURN_NOT_OK(
          WithContext(bytes_.Next(bytes_scratch_.data(), m).WithContext("DATA stream")));
      for (int64_t i = 0; i < m; ++i) values[i] = static_cast<int8_t>(bytes_scratch_.data()[i]);
    } else {
      SLUICE_RETURN_NOT_OK(WithContext(ints_.Next(values, m).WithContext("DATA stream")));
    }
    const uint8_t* valid = valid_.data();
    switch (out->kind()) {
      case PhysicalKind::kInt8:
        NarrowAndSpread(values, out->data<int8_t>() + base, n, m, valid);
        break;
      case PhysicalKind::kInt16:
        NarrowAndSpread(values, out->data<int16_t>() + base, n, m, valid);
        break;
      case PhysicalKind::kInt32:
        NarrowAndSpread(values, out->data<int32_t>() + base, n, m, valid);
        break;
      default:
        NarrowAndSpread(values, out->data<int64_t>() + base, n, m, valid);
        break;
    }
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    return WithContext(byte_rle_ ? bytes_.Skip(m) : ints_.Skip(m));
  }
  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    if (byte_rle_) return WithContext(SeekRle(&bytes_, *data_stream_, pos, &index));
    return WithContext(SeekRle(&ints_, *data_stream_, pos, &index));
  }

 private:
  bool byte_rle_;
  const DecodedStream* data_stream_ = nullptr;
  ByteRleDecoder bytes_;
  IntRleDecoder ints_;
  Buffer scratch_;
  Buffer bytes_scratch_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewIntegerColumnReader(uint32_t column, const std::string& path,
                                                     bool byte_rle) {
  return std::make_unique<IntegerColumnReader>(column, path, byte_rle);
}

}  // namespace sluice::orc
