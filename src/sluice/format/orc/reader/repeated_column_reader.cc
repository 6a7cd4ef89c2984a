#include "sluice/format/orc/reader/column_readers.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

// Upper bound on list / map elements decoded for one batch: a guard against lying lengths that
// would otherwise allocate unbounded memory.
constexpr int64_t kMaxElementsPerBatch = int64_t{1} << 26;

class RepeatedColumnReader : public ColumnReader {
 public:
  RepeatedColumnReader(uint32_t column, std::string path,
                       std::vector<std::unique_ptr<ColumnReader>> children)
      : ColumnReader(column, std::move(path)), children_(std::move(children)) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    length_stream_ = &stripe.Stream(column_, StreamKind::kLength);
    lengths_.Reset(length_stream_->data.data(), length_stream_->data.size(),
                   IsV2(stripe.Encoding(column_).kind), false);
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->StartStripe(stripe));
    return Status::OK();
  }
  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    ResizeScratch(&scratch_, static_cast<size_t>(m) * sizeof(int64_t));
    auto* lengths = scratch_.as<int64_t>();
    SLUICE_RETURN_NOT_OK(WithContext(lengths_.Next(lengths, m).WithContext("LENGTH stream")));
    int64_t base = out->size();
    int64_t start = out->offset_data()[base];
    int64_t total = 0;
    for (int64_t i = 0; i < m; ++i) {
      if (lengths[i] < 0 || lengths[i] > kMaxElementsPerBatch) {
        return WithContext(
            Status::Corruption("LENGTH value " + std::to_string(lengths[i]) + " out of range"));
      }
      total += lengths[i];
    }
    if (total > kMaxElementsPerBatch || start + total > std::numeric_limits<int32_t>::max()) {
      return WithContext(Status::Corruption(
          std::to_string(total) + " elements in one batch of " + std::to_string(n) +
          " rows: more than the reader allows (" + std::to_string(kMaxElementsPerBatch) + ")"));
    }
    out->Resize(base + n);
    int32_t* off = out->offset_data() + base;
    const uint8_t* valid = valid_.data();
    int64_t j = 0;
    int64_t cur = start;
    for (int64_t i = 0; i < n; ++i) {
      if (valid[i]) cur += lengths[j++];
      off[i + 1] = static_cast<int32_t>(cur);
    }
    ApplyValidity(out, base, n, m);
    if (total == 0) return Status::OK();
    for (size_t c = 0; c < children_.size(); ++c) {
      SLUICE_RETURN_NOT_OK(children_[c]->Read(total, nullptr, out->child(static_cast<int>(c))));
    }
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    ResizeScratch(&scratch_, static_cast<size_t>(std::min<int64_t>(m, 4096)) * sizeof(int64_t));
    int64_t total = 0;
    for (int64_t done = 0; done < m;) {
      int64_t k = std::min<int64_t>(m - done, 4096);
      auto* lengths = scratch_.as<int64_t>();
      SLUICE_RETURN_NOT_OK(WithContext(lengths_.Next(lengths, k)));
      for (int64_t i = 0; i < k; ++i) {
        if (lengths[i] < 0) return WithContext(Status::Corruption("negative LENGTH value"));
        total += lengths[i];
      }
      done += k;
    }
    if (total == 0) return Status::OK();
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Skip(total));
    return Status::OK();
  }
  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekRle(&lengths_, *length_stream_, pos, &index)));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Seek(positions));
    return Status::OK();
  }

 private:
  std::vector<std::unique_ptr<ColumnReader>> children_;
  const DecodedStream* length_stream_ = nullptr;
  IntRleDecoder lengths_;
  Buffer scratch_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewRepeatedColumnReader(
    uint32_t column, const std::string& path, std::vector<std::unique_ptr<ColumnReader>> children) {
  return std::make_unique<RepeatedColumnReader>(column, path, std::move(children));
}

}  // namespace sluice::orc
