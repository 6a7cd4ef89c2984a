#include "sluice/format/orc/column_reader.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "sluice/types/decimal_math.h"

namespace sluice::orc {

namespace {

// Seconds from 1970-01-01 to 2015-01-01, ORC's timestamp base.
constexpr int64_t kOrcEpochSeconds = 1420070400;
// Upper bound on list / map elements decoded for one batch: a guard against lying lengths that
// would otherwise allocate unbounded memory.
constexpr int64_t kMaxElementsPerBatch = int64_t{1} << 26;

// Timestamps whose milliseconds fit an int64 (about +-285 million years).
constexpr int64_t kMaxTimestampSeconds = 9'000'000'000'000'000;

const std::vector<uint64_t> kNoPositions;

// Sizes a scratch buffer, keeping it allocated even when empty so that its data() is never null
// (memcpy and pointer arithmetic on null are undefined even for zero lengths).
void ResizeScratch(Buffer* b, size_t n) {
  b->Reserve(n + 1);
  b->Resize(n);
}

int64_t CountValid(const uint8_t* valid, int64_t n) {
  int64_t c = 0;
  for (int64_t i = 0; i < n; ++i) c += valid[i];
  return c;
}

// Moves the m dense values at dst[0..m) to the rows of dst[0..n) where valid is 1; null rows get
// a zero value.
template <typename T>
void SpreadValues(T* dst, int64_t n, int64_t m, const uint8_t* valid) {
  if (m == n) return;
  int64_t j = m;
  for (int64_t i = n - 1; i >= 0; --i) {
    dst[i] = valid[i] ? dst[--j] : T{};
  }
}

bool IsIntegerRoot(TypeRoot r) {
  return r == TypeRoot::kTinyInt || r == TypeRoot::kSmallInt || r == TypeRoot::kInt ||
         r == TypeRoot::kBigInt;
}

Status SeekRaw(const DecodedStream& stream, const std::vector<uint64_t>& positions, size_t* index,
               size_t* pos) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  *pos = p;
  return Status::OK();
}

Status NextPosition(const std::vector<uint64_t>& positions, size_t* index, uint64_t* v) {
  if (*index >= positions.size()) return Status::Corruption("row index: too few positions");
  *v = positions[(*index)++];
  return Status::OK();
}

Status SeekByteRle(ByteRleDecoder* decoder, const DecodedStream& stream,
                   const std::vector<uint64_t>& positions, size_t* index) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  decoder->Seek(p);
  uint64_t skip;
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &skip));
  return decoder->Skip(static_cast<int64_t>(skip));
}

Status SeekBoolRle(BooleanRleDecoder* decoder, const DecodedStream& stream,
                   const std::vector<uint64_t>& positions, size_t* index) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  uint64_t bytes, bits;
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &bytes));
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &bits));
  return decoder->Seek(p, bytes, bits);
}

bool IsV2(EncodingKind k) {
  return k == EncodingKind::kDirectV2 || k == EncodingKind::kDictionaryV2 ||
         k == EncodingKind::kDecimal64;
}

}  // namespace

Status SeekIntRle(IntRleDecoder* decoder, const DecodedStream& stream,
                  const std::vector<uint64_t>& positions, size_t* index) {
  SLUICE_ASSIGN_OR_RETURN(uint64_t p, stream.ResolvePosition(positions, index));
  decoder->Seek(p);
  uint64_t skip;
  SLUICE_RETURN_NOT_OK(NextPosition(positions, index, &skip));
  return decoder->Skip(static_cast<int64_t>(skip));
}

// ---------------------------------------------------------------- ColumnReader base

std::string ColumnReader::Context() const {
  return "column '" + path_ + "' (ORC column " + std::to_string(column_) + ")";
}

Status ColumnReader::StartStripe(const StripeStreams& stripe) {
  has_present_ = stripe.HasStream(column_, StreamKind::kPresent);
  present_stream_ = &stripe.Stream(column_, StreamKind::kPresent);
  present_.Reset(present_stream_->data.data(), present_stream_->data.size());
  return Status::OK();
}

Status ColumnReader::ReadValidity(int64_t n, const uint8_t* parent_valid, int64_t* non_null) {
  ResizeScratch(&valid_, static_cast<size_t>(n));
  uint8_t* v = valid_.data();
  if (parent_valid == nullptr) {
    if (!has_present_) {
      std::memset(v, 1, static_cast<size_t>(n));
      *non_null = n;
      return Status::OK();
    }
    SLUICE_RETURN_NOT_OK(WithContext(present_.Next(v, n).WithContext("PRESENT stream")));
    *non_null = CountValid(v, n);
    return Status::OK();
  }
  int64_t m = CountValid(parent_valid, n);
  if (!has_present_) {
    std::memcpy(v, parent_valid, static_cast<size_t>(n));
    *non_null = m;
    return Status::OK();
  }
  SLUICE_RETURN_NOT_OK(WithContext(present_.Next(v, m).WithContext("PRESENT stream")));
  int64_t j = m;
  for (int64_t i = n - 1; i >= 0; --i) v[i] = parent_valid[i] ? v[--j] : 0;
  *non_null = CountValid(v, n);
  return Status::OK();
}

Status ColumnReader::SkipValidity(int64_t n, int64_t* non_null) {
  if (!has_present_) {
    *non_null = n;
    return Status::OK();
  }
  ResizeScratch(&skip_scratch_, static_cast<size_t>(std::min<int64_t>(n, 4096)));
  int64_t count = 0;
  for (int64_t done = 0; done < n;) {
    int64_t k = std::min<int64_t>(n - done, 4096);
    SLUICE_RETURN_NOT_OK(
        WithContext(present_.Next(skip_scratch_.data(), k).WithContext("PRESENT stream")));
    count += CountValid(skip_scratch_.data(), k);
    done += k;
  }
  *non_null = count;
  return Status::OK();
}

void ColumnReader::ApplyValidity(ColumnVector* out, int64_t base, int64_t n, int64_t non_null) {
  if (non_null == n) return;
  uint8_t* validity = out->MutableValidity();
  std::memcpy(validity + base, valid_.data(), static_cast<size_t>(n));
}

Status ColumnReader::SeekPresent(const std::vector<uint64_t>& positions, size_t* index) {
  if (!has_present_) return Status::OK();
  return WithContext(SeekBoolRle(&present_, *present_stream_, positions, index));
}

const std::vector<uint64_t>& ColumnReader::PositionsOf(const RowGroupPositions& positions) const {
  if (column_ < positions.size() && positions[column_] != nullptr) return *positions[column_];
  return kNoPositions;
}

void AppendNulls(ColumnVector* out, int64_t n) {
  if (n == 0) return;
  int64_t base = out->size();
  out->Resize(base + n);
  std::memset(out->MutableValidity() + base, 0, static_cast<size_t>(n));
  int width = FixedWidthOf(out->kind());
  if (width > 0) {
    std::memset(out->values().data() + base * width, 0, static_cast<size_t>(n * width));
  } else if (out->kind() == PhysicalKind::kStruct) {
    for (int i = 0; i < out->num_children(); ++i) AppendNulls(out->child(i), n);
  } else {
    int32_t* off = out->offset_data();
    for (int64_t i = 0; i < n; ++i) off[base + i + 1] = off[base];
  }
}

namespace {

// ---------------------------------------------------------------- missing column

class NullColumnReader : public ColumnReader {
 public:
  explicit NullColumnReader(std::string path) : ColumnReader(0, std::move(path)) {}
  Status StartStripe(const StripeStreams&) override { return Status::OK(); }
  Status Read(int64_t n, const uint8_t*, ColumnVector* out) override {
    AppendNulls(out, n);
    return Status::OK();
  }
  Status Skip(int64_t) override { return Status::OK(); }
  Status Seek(const RowGroupPositions&) override { return Status::OK(); }
};

// ---------------------------------------------------------------- boolean

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

// ---------------------------------------------------------------- integers and dates

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
    if (byte_rle_) return WithContext(SeekByteRle(&bytes_, *data_stream_, pos, &index));
    return WithContext(SeekIntRle(&ints_, *data_stream_, pos, &index));
  }

 private:
  bool byte_rle_;
  const DecodedStream* data_stream_ = nullptr;
  ByteRleDecoder bytes_;
  IntRleDecoder ints_;
  Buffer scratch_;
  Buffer bytes_scratch_;
};

// ---------------------------------------------------------------- float / double

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

// ---------------------------------------------------------------- strings and binaries

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
    if (dictionary_) return WithContext(SeekIntRle(&indexes_, *data_stream_, pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekRaw(*data_stream_, pos, &index, &pos_)));
    return WithContext(SeekIntRle(&lengths_, *length_stream_, pos, &index));
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

// ---------------------------------------------------------------- decimals

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
    if (decimal64_) return WithContext(SeekIntRle(&ints_, *data_stream_, pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekRaw(*data_stream_, pos, &index, &pos_)));
    return WithContext(SeekIntRle(&scales_, *scale_stream_, pos, &index));
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

// ---------------------------------------------------------------- timestamps

class TimestampColumnReader : public ColumnReader {
 public:
  TimestampColumnReader(uint32_t column, std::string path, bool instant, int precision)
      : ColumnReader(column, std::move(path)), instant_(instant) {
    int drop = 9 - std::clamp(precision, 0, 9);
    truncate_ = 1;
    for (int i = 0; i < drop; ++i) truncate_ *= 10;
  }

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    bool v2 = IsV2(stripe.Encoding(column_).kind);
    seconds_stream_ = &stripe.Stream(column_, StreamKind::kData);
    nanos_stream_ = &stripe.Stream(column_, StreamKind::kSecondary);
    seconds_.Reset(seconds_stream_->data.data(), seconds_stream_->data.size(), v2, true);
    nanos_.Reset(nanos_stream_->data.data(), nanos_stream_->data.size(), v2, false);
    zone_ = &stripe.WriterTimeZone();
    if (!instant_ && !zone_->is_utc()) {
      int64_t off = zone_->OffsetAt(kOrcEpochSeconds);
      epoch_ = kOrcEpochSeconds - zone_->OffsetAt(kOrcEpochSeconds - off);
    } else {
      epoch_ = kOrcEpochSeconds;
    }
    return Status::OK();
  }

  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    ResizeScratch(&scratch_, static_cast<size_t>(m) * 2 * sizeof(int64_t));
    int64_t* secs = scratch_.as<int64_t>();
    int64_t* nanos = secs + m;
    SLUICE_RETURN_NOT_OK(WithContext(seconds_.Next(secs, m).WithContext("DATA stream")));
    SLUICE_RETURN_NOT_OK(WithContext(nanos_.Next(nanos, m).WithContext("SECONDARY stream")));
    bool shift = !instant_ && !zone_->is_utc();
    for (int64_t i = 0; i < m; ++i) {
      // The C++ ORC writer (Arrow's) stores the remainder of a pre-1970 instant truncated
      // toward zero as negative nanoseconds (the seconds truncated toward zero too); its reader,
      // like ORC C++'s, shifts the stored value arithmetically, so those read as negative.
      const int64_t raw = nanos[i];
      const int64_t zeros = raw & 7;
      int64_t ns = raw >> 3;
      // Checked before scaling too, so that a corrupt value cannot overflow.
      if (zeros != 0 && ns <= 999999999 && ns >= -999999999) {
        for (int64_t z = 0; z <= zeros; ++z) ns *= 10;
      }
      if (ns < -999999999 || ns > 999999999) {
        return WithContext(Status::Corruption("SECONDARY stream: nanoseconds " +
                                              std::to_string(ns) + " out of range"));
      }
      if (secs[i] > kMaxTimestampSeconds || secs[i] < -kMaxTimestampSeconds) {
        return WithContext(Status::Corruption("DATA stream: timestamp seconds " +
                                              std::to_string(secs[i]) + " out of range"));
      }
      int64_t s = secs[i] + epoch_;
      // Java writers truncate negative instants toward zero; undo that on the instant, before
      // the zone shift (as ORC Java's reader does).
      if (s < 0 && ns > 999999) s -= 1;
      if (ns < 0) {
        s -= 1;
        ns += 1000000000;
      }
      if (shift) s += zone_->OffsetAt(s);  // the writer's wall clock, read as UTC
      ns -= ns % truncate_;
      secs[i] = s;
      nanos[i] = ns;
    }
    int64_t base = out->size();
    out->Resize(base + n);
    Timestamp* dst = out->data<Timestamp>() + base;
    const uint8_t* valid = valid_.data();
    int64_t j = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (valid[i]) {
        dst[i].millisecond = secs[j] * 1000 + nanos[j] / 1000000;
        dst[i].nano_of_millisecond = static_cast<int32_t>(nanos[j] % 1000000);
        ++j;
      } else {
        dst[i] = Timestamp{};
      }
    }
    ApplyValidity(out, base, n, m);
    return Status::OK();
  }

  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    SLUICE_RETURN_NOT_OK(WithContext(seconds_.Skip(m)));
    return WithContext(nanos_.Skip(m));
  }

  Status Seek(const RowGroupPositions& positions) override {
    const auto& pos = PositionsOf(positions);
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(pos, &index));
    SLUICE_RETURN_NOT_OK(WithContext(SeekIntRle(&seconds_, *seconds_stream_, pos, &index)));
    return WithContext(SeekIntRle(&nanos_, *nanos_stream_, pos, &index));
  }

 private:
  bool instant_;
  int64_t truncate_;
  const DecodedStream* seconds_stream_ = nullptr;
  const DecodedStream* nanos_stream_ = nullptr;
  IntRleDecoder seconds_;
  IntRleDecoder nanos_;
  const TimeZone* zone_ = nullptr;
  int64_t epoch_ = kOrcEpochSeconds;
  Buffer scratch_;
};

// ---------------------------------------------------------------- struct

class StructColumnReader : public ColumnReader {
 public:
  StructColumnReader(uint32_t column, std::string path,
                     std::vector<std::unique_ptr<ColumnReader>> children)
      : ColumnReader(column, std::move(path)), children_(std::move(children)) {}

  Status StartStripe(const StripeStreams& stripe) override {
    SLUICE_RETURN_NOT_OK(ColumnReader::StartStripe(stripe));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->StartStripe(stripe));
    return Status::OK();
  }
  Status Read(int64_t n, const uint8_t* parent_valid, ColumnVector* out) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(ReadValidity(n, parent_valid, &m));
    int64_t base = out->size();
    out->Resize(base + n);
    ApplyValidity(out, base, n, m);
    // Children decode with their own scratch; valid_ stays untouched while they run.
    const uint8_t* child_valid = m == n ? nullptr : valid_.data();
    for (size_t i = 0; i < children_.size(); ++i) {
      SLUICE_RETURN_NOT_OK(children_[i]->Read(n, child_valid, out->child(static_cast<int>(i))));
    }
    return Status::OK();
  }
  Status Skip(int64_t n) override {
    int64_t m;
    SLUICE_RETURN_NOT_OK(SkipValidity(n, &m));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Skip(m));
    return Status::OK();
  }
  Status Seek(const RowGroupPositions& positions) override {
    size_t index = 0;
    SLUICE_RETURN_NOT_OK(SeekPresent(PositionsOf(positions), &index));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Seek(positions));
    return Status::OK();
  }

 private:
  std::vector<std::unique_ptr<ColumnReader>> children_;
};

// ---------------------------------------------------------------- list and map

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
    SLUICE_RETURN_NOT_OK(WithContext(SeekIntRle(&lengths_, *length_stream_, pos, &index)));
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->Seek(positions));
    return Status::OK();
  }

 private:
  std::vector<std::unique_ptr<ColumnReader>> children_;
  const DecodedStream* length_stream_ = nullptr;
  IntRleDecoder lengths_;
  Buffer scratch_;
};

Status Incompatible(const OrcType& orc, const DataType& read, const std::string& path) {
  return Status::NotSupported("column '" + path + "': cannot read ORC type " +
                              std::string(OrcTypeKindName(orc.kind)) + " as " + read.ToString());
}

}  // namespace

std::unique_ptr<ColumnReader> MakeNullColumnReader(const std::string& path) {
  return std::make_unique<NullColumnReader>(path);
}

std::vector<int64_t> MatchStructFields(const std::vector<OrcType>& types, uint32_t column,
                                       const DataType& read_row) {
  const OrcType& st = types[column];
  std::vector<int64_t> ids(st.subtypes.size(), -1);
  bool file_has_ids = false;
  for (size_t i = 0; i < st.subtypes.size(); ++i) {
    const std::string* id = types[st.subtypes[i]].FindAttribute("paimon.id");
    if (id == nullptr) continue;
    char* end = nullptr;
    long long v = std::strtoll(id->c_str(), &end, 10);
    if (end != id->c_str() && *end == '\0') {
      ids[i] = v;
      file_has_ids = true;
    }
  }
  std::vector<int64_t> result(static_cast<size_t>(read_row.num_fields()), -1);
  for (int f = 0; f < read_row.num_fields(); ++f) {
    const DataField& field = read_row.fields()[static_cast<size_t>(f)];
    if (file_has_ids) {
      for (size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] == field.id) {
          result[static_cast<size_t>(f)] = st.subtypes[i];
          break;
        }
      }
      if (result[static_cast<size_t>(f)] >= 0) continue;
    }
    for (size_t i = 0; i < st.field_names.size() && i < st.subtypes.size(); ++i) {
      if (st.field_names[i] != field.name) continue;
      // A name match whose id belongs to another read field is that field's column.
      bool claimed = false;
      if (ids[i] >= 0 && ids[i] != field.id) {
        claimed = read_row.FieldIndexById(static_cast<int32_t>(ids[i])) >= 0;
      }
      if (!claimed) result[static_cast<size_t>(f)] = st.subtypes[i];
      break;
    }
  }
  return result;
}

Result<std::unique_ptr<ColumnReader>> MakeColumnReader(const std::vector<OrcType>& types,
                                                       uint32_t column,
                                                       const DataTypePtr& read_type,
                                                       const std::string& path) {
  const OrcType& orc = types[column];
  TypeRoot root = read_type->root();
  switch (orc.kind) {
    case OrcTypeKind::kBoolean:
      if (root != TypeRoot::kBoolean) return Incompatible(orc, *read_type, path);
      return std::unique_ptr<ColumnReader>(new BooleanColumnReader(column, path));
    case OrcTypeKind::kByte:
    case OrcTypeKind::kShort:
    case OrcTypeKind::kInt:
    case OrcTypeKind::kLong:
      if (!IsIntegerRoot(root) && root != TypeRoot::kTime) {
        return Incompatible(orc, *read_type, path);
      }
      return std::unique_ptr<ColumnReader>(
          new IntegerColumnReader(column, path, orc.kind == OrcTypeKind::kByte));
    case OrcTypeKind::kDate:
      if (root != TypeRoot::kDate && root != TypeRoot::kInt) {
        return Incompatible(orc, *read_type, path);
      }
      return std::unique_ptr<ColumnReader>(new IntegerColumnReader(column, path, false));
    case OrcTypeKind::kFloat:
    case OrcTypeKind::kDouble:
      if (root != TypeRoot::kDouble &&
          !(root == TypeRoot::kFloat && orc.kind == OrcTypeKind::kFloat)) {
        return Incompatible(orc, *read_type, path);
      }
      return std::unique_ptr<ColumnReader>(
          new FloatingColumnReader(column, path, orc.kind == OrcTypeKind::kFloat));
    case OrcTypeKind::kString:
    case OrcTypeKind::kVarchar:
    case OrcTypeKind::kChar:
    case OrcTypeKind::kBinary:
      if (PhysicalKindOf(*read_type) != PhysicalKind::kBytes) {
        return Incompatible(orc, *read_type, path);
      }
      return std::unique_ptr<ColumnReader>(
          new StringColumnReader(column, path, orc.kind == OrcTypeKind::kChar));
    case OrcTypeKind::kDecimal: {
      if (root != TypeRoot::kDecimal) return Incompatible(orc, *read_type, path);
      int file_scale = orc.precision == 0 ? 10 : static_cast<int>(orc.scale);
      return std::unique_ptr<ColumnReader>(new DecimalColumnReader(
          column, path, file_scale, read_type->scale(), orc.precision != 0 && orc.precision <= 18));
    }
    case OrcTypeKind::kTimestamp:
    case OrcTypeKind::kTimestampInstant:
      if (root != TypeRoot::kTimestamp && root != TypeRoot::kTimestampLtz) {
        return Incompatible(orc, *read_type, path);
      }
      return std::unique_ptr<ColumnReader>(new TimestampColumnReader(
          column, path, orc.kind == OrcTypeKind::kTimestampInstant, read_type->precision()));
    case OrcTypeKind::kStruct: {
      if (root != TypeRoot::kRow) return Incompatible(orc, *read_type, path);
      std::vector<int64_t> match = MatchStructFields(types, column, *read_type);
      std::vector<std::unique_ptr<ColumnReader>> children;
      for (int f = 0; f < read_type->num_fields(); ++f) {
        const DataField& field = read_type->fields()[static_cast<size_t>(f)];
        std::string child_path = path + "." + field.name;
        if (match[static_cast<size_t>(f)] < 0) {
          children.push_back(MakeNullColumnReader(child_path));
          continue;
        }
        SLUICE_ASSIGN_OR_RETURN(
            auto child,
            MakeColumnReader(types, static_cast<uint32_t>(match[static_cast<size_t>(f)]),
                             field.type, child_path));
        children.push_back(std::move(child));
      }
      return std::unique_ptr<ColumnReader>(
          new StructColumnReader(column, path, std::move(children)));
    }
    case OrcTypeKind::kList: {
      if (root != TypeRoot::kArray && root != TypeRoot::kVector) {
        return Incompatible(orc, *read_type, path);
      }
      std::vector<std::unique_ptr<ColumnReader>> children;
      SLUICE_ASSIGN_OR_RETURN(auto element, MakeColumnReader(types, orc.subtypes[0],
                                                             read_type->element(), path + "[]"));
      children.push_back(std::move(element));
      return std::unique_ptr<ColumnReader>(
          new RepeatedColumnReader(column, path, std::move(children)));
    }
    case OrcTypeKind::kMap: {
      DataTypePtr key_type;
      DataTypePtr value_type;
      if (root == TypeRoot::kMap) {
        key_type = read_type->key();
        value_type = read_type->value();
      } else if (root == TypeRoot::kMultiset) {
        key_type = read_type->element();
        value_type = DataType::Int(false);
      } else {
        return Incompatible(orc, *read_type, path);
      }
      std::vector<std::unique_ptr<ColumnReader>> children;
      SLUICE_ASSIGN_OR_RETURN(auto key,
                              MakeColumnReader(types, orc.subtypes[0], key_type, path + ".key"));
      SLUICE_ASSIGN_OR_RETURN(
          auto value, MakeColumnReader(types, orc.subtypes[1], value_type, path + ".value"));
      children.push_back(std::move(key));
      children.push_back(std::move(value));
      return std::unique_ptr<ColumnReader>(
          new RepeatedColumnReader(column, path, std::move(children)));
    }
    case OrcTypeKind::kUnion:
      return Status::NotSupported("column '" + path + "': ORC union types are not supported");
  }
  return Incompatible(orc, *read_type, path);
}

}  // namespace sluice::orc
