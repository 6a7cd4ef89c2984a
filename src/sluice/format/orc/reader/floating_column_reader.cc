#include "sluice/format/orc/reader/column_readers.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

class FloatingColumnReader : public ColumnReader {
 public:
  FloatingColumnReader(uint32_t column, std::string path, bool is_float)
      : ColumnReader(column, std::move(path)), is_float_(is_float) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    data_stream_ = &stripe.Stream(column_, StreamKind::kData);
    pos_ = 0;
    return Status::OK();
  }
  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    size_t width = is_float_ ? 4 : 8;
    size_t bytes = static_cast<size_t>(m) * width;
    if (bytes > data_stream_->data.size() - pos_) {
      return WithContext(Status::Corruption("DATA stream holds fewer values than rows"));
    }
    int64_t base = out->size();
    out->Resize(base + n);
    const uint8_t* src = data_stream_->data.data() + pos_;
    pos_ += bytes;
    if (out->kind() == PhysicalKind::kFloat) {
      float* dst = out->data<float>() + base;
      std::memcpy(dst, src, bytes);
      SpreadValues(dst, n, m, valid_.data());
    } else if (is_float_) {
      double* dst = out->data<double>() + base;
      for (int64_t i = 0; i < m; ++i) {
        float f;
        std::memcpy(&f, src + 4 * i, 4);
        dst[i] = f;
      }
      SpreadValues(dst, n, m, valid_.data());
    } else {
      double* dst = out->data<double>() + base;
      std::memcpy(dst, src, bytes);
      SpreadValues(dst, n, m, valid_.data());
    }
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    size_t bytes = static_cast<size_t>(m) * (is_float_ ? 4 : 8);
    if (bytes > data_stream_->data.size() - pos_) {
      return WithContext(Status::Corruption("DATA stream holds fewer values than rows"));
    }
    pos_ += bytes;
    return Status::OK();
  }
  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    return WithContext(SeekRaw(*data_stream_, pos, &index, &pos_));
  }

 private:
  bool is_float_;
  const DecodedStream* data_stream_ = nullptr;
  size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<ColumnReader> NewFloatingColumnReader(uint32_t column, const std::string& path,
                                                      bool is_float) {
  return std::make_unique<FloatingColumnReader>(column, path, is_float);
}

}  // namespace sluice::orc
