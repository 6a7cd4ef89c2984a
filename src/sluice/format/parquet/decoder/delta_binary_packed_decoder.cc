#include "sluice/format/parquet/decoder/delta_binary_packed_decoder.h"

#include <algorithm>
#include <string>

#include "sluice/base/coding.h"
#include "sluice/format/parquet/decoder/bit_unpack.h"

namespace sluice::parquet {

namespace {
Status Short() { return Status::Corruption("DELTA_BINARY_PACKED stream runs short"); }
}  // namespace

Status DeltaBinaryPackedDecoder::Init(const uint8_t* data, size_t size) {
  begin_ = pos_ = data;
  end_ = data + size;
  uint64_t total, first;
  if (!GetVarint64(&pos_, end_, &block_size_) || !GetVarint64(&pos_, end_, &miniblocks_) ||
      !GetVarint64(&pos_, end_, &total) || !GetVarint64(&pos_, end_, &first)) {
    return Status::Corruption("DELTA_BINARY_PACKED header runs short");
  }
  if (block_size_ == 0 || block_size_ % 128 != 0 || block_size_ > (1u << 20) || miniblocks_ == 0 ||
      block_size_ % miniblocks_ != 0 || (block_size_ / miniblocks_) % 32 != 0) {
    return Status::Corruption("DELTA_BINARY_PACKED header: bad block size " +
                              std::to_string(block_size_) + " / miniblocks " +
                              std::to_string(miniblocks_));
  }
  if (total > (uint64_t{1} << 31)) {
    return Status::Corruption("DELTA_BINARY_PACKED header: value count " + std::to_string(total) +
                              " too large");
  }
  values_per_miniblock_ = block_size_ / miniblocks_;
  total_count_ = static_cast<int64_t>(total);
  last_value_ = static_cast<uint64_t>(ZigZagDecode64(first));
  first_pending_ = true;
  returned_ = 0;
  miniblock_index_ = miniblocks_;
  delta_pos_ = delta_count_ = 0;
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::StartBlock() {
  uint64_t md;
  if (!GetVarint64(&pos_, end_, &md)) return Short();
  min_delta_ = static_cast<uint64_t>(ZigZagDecode64(md));
  if (static_cast<uint64_t>(end_ - pos_) < miniblocks_) return Short();
  bit_widths_ = pos_;
  pos_ += miniblocks_;
  miniblock_index_ = 0;
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::StartMiniblock() {
  if (miniblock_index_ >= miniblocks_) SLUICE_RETURN_NOT_OK(StartBlock());
  int bw = bit_widths_[miniblock_index_++];
  if (bw > 64) return Status::Corruption("DELTA_BINARY_PACKED: bit width " + std::to_string(bw));
  uint64_t bytes = values_per_miniblock_ * static_cast<uint64_t>(bw) / 8;
  uint64_t left = static_cast<uint64_t>(total_count_ - returned_);
  uint64_t n = std::min(values_per_miniblock_, left);
  uint64_t avail = static_cast<uint64_t>(end_ - pos_);
  // The last miniblock may be cut short by writers that do not pad it.
  uint64_t need = (n * static_cast<uint64_t>(bw) + 7) / 8;
  if (need > avail) return Short();
  deltas_.resize(values_per_miniblock_);
  UnpackBits(pos_, static_cast<size_t>(std::min(bytes, avail)), bw, static_cast<int64_t>(n),
             deltas_.data());
  pos_ += std::min(bytes, avail);
  delta_pos_ = 0;
  delta_count_ = n;
  return Status::OK();
}

Status DeltaBinaryPackedDecoder::Decode(int64_t* out, int64_t n) {
  if (n > total_count_ - returned_) return Short();
  int64_t i = 0;
  if (n > 0 && first_pending_) {
    out[i++] = static_cast<int64_t>(last_value_);
    first_pending_ = false;
    ++returned_;
  }
  while (i < n) {
    if (delta_pos_ == delta_count_) SLUICE_RETURN_NOT_OK(StartMiniblock());
    uint64_t k = std::min<uint64_t>(delta_count_ - delta_pos_, static_cast<uint64_t>(n - i));
    uint64_t v = last_value_;
    for (uint64_t j = 0; j < k; ++j) {
      v += min_delta_ + deltas_[delta_pos_ + j];
      out[i + static_cast<int64_t>(j)] = static_cast<int64_t>(v);
    }
    last_value_ = v;
    delta_pos_ += k;
    i += static_cast<int64_t>(k);
    returned_ += static_cast<int64_t>(k);
  }
  return Status::OK();
}

Status DecodeDeltaBinaryPackedAll(const uint8_t* data, size_t size, std::vector<int64_t>* out,
                                  size_t* consumed) {
  DeltaBinaryPackedDecoder d;
  SLUICE_RETURN_NOT_OK(d.Init(data, size));
  // Each value takes at least one bit of a miniblock or a run of zero-width miniblocks; bound
  // the allocation by the input size for non-trivial counts.
  if (d.total_count() > static_cast<int64_t>(size) * 4096 + 4096) {
    return Status::Corruption("DELTA_BINARY_PACKED: " + std::to_string(d.total_count()) +
                              " values cannot fit in " + std::to_string(size) + " bytes");
  }
  out->resize(static_cast<size_t>(d.total_count()));
  SLUICE_RETURN_NOT_OK(d.Decode(out->data(), d.total_count()));
  *consumed = d.consumed();
  return Status::OK();
}

}  // namespace sluice::parquet
