#include "sluice/format/orc/reader/column_readers.h"

#include <cstdint>
#include <string>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

class BooleanColumnReader : public ColumnReader {
 public:
  using ColumnReader::ColumnReader;
  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    data_stream_ = &stripe.Stream(column_, StreamKind::kData);
    data_.Reset(data_stream_->data.data(), data_stream_->data.size());
    return Status::OK();
  }
  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    int64_t base = out->size();
    out->Resize(base + n);
    uint8_t* dst = out->data<uint8_t>() + base;
    SLUICE_RETURN_NOT_OK(WithContext(data_.Next(dst, m).WithContext("DATA stream")));
    SpreadValues(dst, n, m, valid_.data());
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    return WithContext(data_.Skip(m));
  }
  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    return WithContext(SeekBoolRle(&data_, *data_stream_, pos, &index));
  }

 private:
  const DecodedStream* data_stream_ = nullptr;
  BooleanRleDecoder data_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewBooleanColumnReader(uint32_t column, const std::string& path) {
  return std::make_unique<BooleanColumnReader>(column, path);
}

}  // namespace sluice::orc
