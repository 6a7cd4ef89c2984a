#include "sluice/format/orc/reader/column_readers.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "sluice/format/orc/reader/column_reader_util.h"

namespace sluice::orc {

namespace {

class StringColumnReader : public ColumnReader {
 public:
  StringColumnReader(uint32_t column, std::string path, bool trim_char)
      : ColumnReader(column, std::move(path)), trim_char_(trim_char) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    const ColumnEncoding& enc = stripe.Encoding(column_);
    dictionary_ = enc.kind == EncodingKind::kDictionary || enc.kind == EncodingKind::kDictionaryV2;
    bool v2 = IsV2(enc.kind);
    data_stream_ = &stripe.Stream(column_, StreamKind::kData);
    length_stream_ = &stripe.Stream(column_, StreamKind::kLength);
    if (!dictionary_) {
      pos_ = 0;
      lengths_.Reset(length_stream_->data.data(), length_stream_->data.size(), v2, false);
      return Status::OK();
    }
    indexes_.Reset(data_stream_->data.data(), data_stream_->data.size(), v2, false);
    dict_blob_ = &stripe.Stream(column_, StreamKind::kDictionaryData);
    // Dictionary entries are distinct, so at most one is empty: a count above the blob's size
    // plus one is a lie that must not drive an allocation.
    uint64_t size = enc.dictionary_size;
    if (size > dict_blob_->data.size() + 1) {
      return WithContext(Status::Corruption(
          "dictionary size " + std::to_string(size) + " exceeds what the " +
          std::to_string(dict_blob_->data.size()) + "-byte DICTIONARY_DATA stream can hold"));
    }
    IntRleDecoder dict_lengths;
    dict_lengths.Reset(length_stream_->data.data(), length_stream_->data.size(), v2, false);
    ResizeScratch(&dict_offsets_, (size + 1) * sizeof(int64_t));
    int64_t* off = dict_offsets_.as<int64_t>();
    off[0] = 0;
    SLUICE_RETURN_NOT_OK(WithContext(
        dict_lengths.Next(off + 1, static_cast<int64_t>(size)).WithContext("dictionary LENGTH")));
    uint64_t blob_size = dict_blob_->data.size();
    for (uint64_t i = 1; i <= size; ++i) {
      int64_t len = off[i];
      if (len < 0 || static_cast<uint64_t>(len) > blob_size - static_cast<uint64_t>(off[i - 1])) {
        return WithContext(Status::Corruption(
            "dictionary entry " + std::to_string(i - 1) + " has length " + std::to_string(len) +
            ", past the " + std::to_string(blob_size) + "-byte DICTIONARY_DATA stream"));
      }
      off[i] = off[i - 1] + len;
    }
    dict_size_ = static_cast<int64_t>(size);
    return Status::OK();
  }

  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    ResizeScratch(&scratch_, static_cast<size_t>(m) * sizeof(int64_t));
    auto* values = scratch_.as<int64_t>();
    const uint8_t* valid = valid_.data();
    int64_t base = out->size();
    out->Resize(base + n);
    int32_t* off = out->offset_data() + base;
    Buffer& bytes = out->values();
    int64_t start = static_cast<int64_t>(bytes.size());
    if (dictionary_) {
      SLUICE_RETURN_NOT_OK(WithContext(indexes_.Next(values, m).WithContext("DATA stream")));
      const int64_t* dict = dict_offsets_.as<int64_t>();
      int64_t total = 0;
      for (int64_t i = 0; i < m; ++i) {
        uint64_t idx = static_cast<uint64_t>(values[i]);
        if (idx >= static_cast<uint64_t>(dict_size_)) {
          return WithContext(Status::Corruption("dictionary index " + std::to_string(idx) +
                                                " out of range (dictionary has " +
                                                std::to_string(dict_size_) + " entries)"));
        }
        total += dict[idx + 1] - dict[idx];
      }
      SLUICE_RETURN_NOT_OK(CheckOffsetRange(start, total));
      bytes.Resize(static_cast<size_t>(start + total));
      uint8_t* dst = bytes.data() + start;
      const uint8_t* blob = dict_blob_->data.data();
      int64_t j = 0;
      int64_t cur = start;
      for (int64_t i = 0; i < n; ++i) {
        if (valid[i]) {
          uint64_t idx = static_cast<uint64_t>(values[j++]);
          int64_t len = dict[idx + 1] - dict[idx];
          if (len > 0) std::memcpy(dst, blob + dict[idx], static_cast<size_t>(len));
          dst += len;
          cur += len;
        }
        off[i + 1] = static_cast<int32_t>(cur);
      }
    } else {
      SLUICE_RETURN_NOT_OK(WithContext(lengths_.Next(values, m).WithContext("LENGTH stream")));
      int64_t total = 0;
      for (int64_t i = 0; i < m; ++i) {
        if (values[i] < 0) {
          return WithContext(Status::Corruption("negative length " + std::to_string(values[i])));
        }
        total += values[i];
        if (static_cast<uint64_t>(total) > data_stream_->data.size() - pos_) {
          return WithContext(Status::Corruption("LENGTH values run past the " +
                                                std::to_string(data_stream_->data.size()) +
                                                "-byte DATA stream"));
        }
      }
      SLUICE_RETURN_NOT_OK(CheckOffsetRange(start, total));
      bytes.Append(data_stream_->data.data() + pos_, static_cast<size_t>(total));
      pos_ += static_cast<size_t>(total);
      int64_t j = 0;
      int64_t cur = start;
      for (int64_t i = 0; i < n; ++i) {
        if (valid[i]) cur += values[j++];
        off[i + 1] = static_cast<int32_t>(cur);
      }
    }
    if (trim_char_) TrimTrailingSpaces(out, base, n);
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    if (dictionary_) return WithContext(indexes_.Skip(m));
    ResizeScratch(&scratch_, static_cast<size_t>(std::min<int64_t>(m, 4096)) * sizeof(int64_t));
    for (int64_t done = 0; done < m;) {
      int64_t k = std::min<int64_t>(m - done, 4096);
      auto* values = scratch_.as<int64_t>();
      SLUICE_RETURN_NOT_OK(WithContext(lengths_.Next(values, k)));
      for (int64_t i = 0; i < k; ++i) {
        if (values[i] < 0 || static_cast<uint64_t>(values[i]) > data_stream_->data.size() - pos_) {
          return WithContext(Status::Corruption("LENGTH values run past the DATA stream"));
        }
        pos_ += static_cast<size_t>(values[i]);
      }
      done += k;
    }
    return Status::OK();
  }

  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    if (dictionary_) return WithContext(SeekRle(&indexes_, *data_stream_, pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekRaw(*data_stream_, pos, &index, &pos_)));
    return WithContext(SeekRle(&lengths_, *length_stream_, pos, &index));
  }

 private:
  Status CheckOffsetRange(int64_t start, int64_t total) const {
    if (start + total > std::numeric_limits<int32_t>::max()) {
      return WithContext(Status::OutOfRange("more than 2 GiB of bytes in one batch"));
    }
    return Status::OK();
  }
  // ORC CHAR(n) values are space-padded by the writer; Paimon's are not.
  static void TrimTrailingSpaces(ColumnVector* out, int64_t base, int64_t n) {
    int32_t* off = out->offset_data();
    uint8_t* data = out->values().data();
    int32_t begin = off[base];
    int32_t write = begin;
    for (int64_t i = 0; i < n; ++i) {
      int32_t next_begin = off[base + i + 1];
      int32_t end = next_begin;
      while (end > begin && data[end - 1] == ' ') --end;
      if (end > begin && write != begin) {
        std::memmove(data + write, data + begin, static_cast<size_t>(end - begin));
      }
      write += end - begin;
      off[base + i + 1] = write;
      begin = next_begin;
    }
    out->values().Resize(static_cast<size_t>(write));
  }

  bool trim_char_;
  bool dictionary_ = false;
  const DecodedStream* data_stream_ = nullptr;
  const DecodedStream* length_stream_ = nullptr;
  const DecodedStream* dict_blob_ = nullptr;
  size_t pos_ = 0;
  IntRleDecoder lengths_;
  IntRleDecoder indexes_;
  Buffer dict_offsets_;
  int64_t dict_size_ = 0;
  Buffer scratch_;
};

}  // namespace

std::unique_ptr<ColumnReader> NewStringColumnReader(uint32_t column, const std::string& path,
                                                    bool trim_char) {
  return std::make_unique<StringColumnReader>(column, path, trim_char);
}

}  // namespace sluice::orc
