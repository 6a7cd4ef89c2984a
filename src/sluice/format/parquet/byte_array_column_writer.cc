// BYTE_ARRAY columns: strings and binaries.
#include "sluice/format/parquet/column_writer_base.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "sluice/base/coding.h"
#include "sluice/format/parquet/encoder/dictionary_encoder.h"
#include "sluice/format/parquet/encoder/plain_encoder.h"
#include "sluice/format/parquet/encoder/rle_bit_packed_encoder.h"
#include "sluice/format/parquet/thrift_compact_writer.h"
#include "sluice/types/decimal_math.h"

namespace sluice::parquet {
namespace {

// parquet-mr's parquet.columnindex.truncate.length: column index bounds longer than this are
// cut (a prefix is still a lower bound).
constexpr size_t kColumnIndexTruncateLength = 64;

std::string TruncatedMin(const std::string& v, bool utf8) {
  if (v.size() <= kColumnIndexTruncateLength) return v;
  size_t n = kColumnIndexTruncateLength;
  // Cut strings at a character boundary (never before a continuation byte).
  while (utf8 && n > 0 && (static_cast<unsigned char>(v[n]) & 0xc0) == 0x80) --n;
  return v.substr(0, n);
}

class ByteArrayColumnWriter final : public ColumnWriterBase {
 public:
  ByteArrayColumnWriter(const WriteLeaf& leaf, const ColumnWriterOptions& options)
      : ColumnWriterBase(leaf, options),
        dict_mode_(options.dictionary_enabled),
        increasing_(options.dictionary_enabled) {}

  ColumnStats FileStats() const override {
    ColumnStats stats;
    stats.null_count = file_nulls_;
    // Paimon takes min / max of strings only; binaries keep just the null count.
    if (file_has_minmax_ && leaf_.type->IsString()) {
      stats.min = Value::String(file_min_);
      stats.max = Value::String(file_max_);
    }
    return stats;
  }

 protected:
  Status WriteValues(const LeafSlice& slice, const ColumnVector& values) override {
    const int64_t n = slice.num_values;
    if (n == 0) return Status::OK();
    const int32_t* offsets = values.offset_data();
    const char* bytes = reinterpret_cast<const char*>(values.values().data());
    staged_.Resize(static_cast<size_t>(n) * sizeof(std::string_view));
    std::string_view* views = staged_.as<std::string_view>();
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      int64_t row = slice.positions != nullptr ? slice.positions[i] : slice.first_position + i;
      views[i] = std::string_view(bytes + offsets[row],
                                  static_cast<size_t>(offsets[row + 1] - offsets[row]));
      total += static_cast<int64_t>(views[i].size());
    }
    page_plain_bytes_ += total + 4 * n;

    // Min / max in unsigned byte order (std::string_view compares bytes as unsigned char).
    std::string_view lo = views[0], hi = views[0];
    for (int64_t i = 1; i < n; ++i) {
      if (views[i] < lo) lo = views[i];
      if (hi < views[i]) hi = views[i];
    }
    if (!page_minmax_.has || lo < page_minmax_.min) page_minmax_.min.assign(lo);
    if (!page_minmax_.has || page_minmax_.max < hi) page_minmax_.max.assign(hi);
    page_minmax_.has = true;

    if (increasing_) {
      bool still = page_values_.size() == 0 || LastPlainValue() < views[0];
      for (int64_t i = 1; still && i < n; ++i) still = views[i - 1] < views[i];
      if (still) {
        AppendPlain(views, n, total);
        increasing_count_ += n;
        // The dictionary would hold every value once: its size is the page's PLAIN size.
        if (page_plain_bytes_ > options_.dictionary_page_size ||
            increasing_count_ > kMaxDictionaryEntries) {
          FallBackToPlain();
        }
        return Status::OK();
      }
      BuildDictionaryOfPlainPage();
    }
    if (dict_mode_) {
      size_t old = page_indices_.size();
      page_indices_.Resize(old + static_cast<size_t>(n) * sizeof(uint32_t));
      uint32_t* idx = reinterpret_cast<uint32_t*>(page_indices_.data() + old);
      for (int64_t i = 0; i < n; ++i) idx[i] = dictionary_.Insert(views[i]);
      if (dictionary_.byte_size() > options_.dictionary_page_size ||
          dictionary_.size() > kMaxDictionaryEntries) {
        FallBackToPlain();
      }
      return Status::OK();
    }
    AppendPlain(views, n, total);
    return Status::OK();
  }

  int64_t PageValueBytes() const override {
    if (increasing_) {
      return increasing_count_ * BitWidthOf(static_cast<uint64_t>(increasing_count_)) / 8 + 1;
    }
    if (dict_mode_) {
      int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
      return count * BitWidthOf(static_cast<uint64_t>(dictionary_.size())) / 8 + 1;
    }
    return static_cast<int64_t>(page_values_.size());
  }

  int64_t DictionaryBytes() const override {
    if (increasing_) return page_plain_bytes_;
    return dictionary_pages_written_ > 0 || dict_mode_ ? dictionary_.byte_size() : 0;
  }

  bool dictionary_mode() const override { return dict_mode_; }

  void CheckDictionaryAtPageEnd() override {
    if (dictionary_pages_written_ > 0) return;
    // While increasing_, the dictionary's size is the page's PLAIN size: this falls back.
    const int64_t dictionary_bytes = increasing_ ? page_plain_bytes_ : dictionary_.byte_size();
    if (PageValueBytes() + dictionary_bytes >= page_plain_bytes_) FallBackToPlain();
  }

  void EncodePageValues(Buffer* out) override {
    page_plain_bytes_ = 0;
    if (dict_mode_) {
      int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
      int bit_width =
          BitWidthOf(static_cast<uint64_t>(std::max<int64_t>(dictionary_.size() - 1, 0)));
      out->AppendValue(static_cast<uint8_t>(bit_width));
      EncodeRleBitPacked(page_indices_.as<uint32_t>(), count, bit_width, out);
      page_indices_.Clear();
      ++dictionary_pages_written_;
      return;
    }
    out->Append(page_values_.data(), page_values_.size());
    page_values_.Clear();
  }

  bool EncodeDictionaryPage(Buffer* out, int32_t* num_entries) override {
    if (dictionary_pages_written_ == 0) return false;
    dictionary_.PlainEncode(out);
    *num_entries = static_cast<int32_t>(dictionary_.size());
    return true;
  }

  void EndPageStatistics() override {
    chunk_minmax_.Merge(page_minmax_);
    page_stats_.push_back(std::move(page_minmax_));
    page_minmax_ = MinMax<std::string>();
  }

  bool FillColumnIndex(ColumnIndex* index) const override {
    const bool utf8 = leaf_.type->IsString();
    for (const MinMax<std::string>& page : page_stats_) {
      index->min_values.push_back(page.has ? TruncatedMin(page.min, utf8) : std::string());
      // A truncated max would need an increment to stay an upper bound: keep it whole.
      index->max_values.push_back(page.has ? page.max : std::string());
    }
    index->boundary_order = ComputeBoundaryOrder(
        page_stats_, [](const std::string& a, const std::string& b) { return a < b; });
    return true;
  }

  Statistics ChunkStatistics() const override {
    Statistics s;
    s.null_count = chunk_nulls_;
    if (chunk_minmax_.has) {
      s.min_value = chunk_minmax_.min;
      s.max_value = chunk_minmax_.max;
    }
    return s;
  }

  void ResetChunk() override {
    if (chunk_minmax_.has) {
      if (!file_has_minmax_ || chunk_minmax_.min < file_min_) file_min_ = chunk_minmax_.min;
      if (!file_has_minmax_ || file_max_ < chunk_minmax_.max) file_max_ = chunk_minmax_.max;
      file_has_minmax_ = true;
    }
    chunk_minmax_ = MinMax<std::string>();
    page_stats_.clear();
    dictionary_.Clear();
    dictionary_pages_written_ = 0;
    dict_mode_ = options_.dictionary_enabled;
    increasing_ = options_.dictionary_enabled;
    increasing_count_ = 0;
  }

 private:
  // The last value of the open page, which holds PLAIN values.
  std::string_view LastPlainValue() const {
    return std::string_view(reinterpret_cast<const char*>(page_values_.data()) + last_value_at_,
                            page_values_.size() - last_value_at_);
  }

  // Leaves increasing_: the dictionary of the open page's PLAIN values, inserted in their
  // order (the dictionary and indices the page would have had from its start).
  void BuildDictionaryOfPlainPage() {
    increasing_ = false;
    const uint8_t* p = page_values_.data();
    const uint8_t* end = p + page_values_.size();
    page_indices_.Resize(static_cast<size_t>(increasing_count_) * sizeof(uint32_t));
    uint32_t* idx = page_indices_.as<uint32_t>();
    while (p < end) {
      const uint32_t size = DecodeFixed32LE(p);
      *idx++ = dictionary_.Insert(std::string_view(reinterpret_cast<const char*>(p) + 4, size));
      p += 4 + size;
    }
    page_values_.Clear();
    increasing_count_ = 0;
  }

  void AppendPlain(const std::string_view* views, int64_t n, int64_t total_bytes) {
    size_t old = page_values_.size();
    page_values_.Resize(old + static_cast<size_t>(total_bytes + 4 * n));
    uint8_t* p = page_values_.data() + old;
    for (int64_t i = 0; i < n; ++i) p = PlainPutByteArray(p, views[i]);
    last_value_at_ = page_values_.size() - views[n - 1].size();
  }

  void FallBackToPlain() {
    const uint32_t* indices = page_indices_.as<uint32_t>();
    int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
    int64_t total = 0;
    for (int64_t i = 0; i < count; ++i)
      total += 4 + static_cast<int64_t>(dictionary_.value(indices[i]).size());
    size_t old = page_values_.size();
    page_values_.Resize(old + static_cast<size_t>(total));
    uint8_t* p = page_values_.data() + old;
    for (int64_t i = 0; i < count; ++i) p = PlainPutByteArray(p, dictionary_.value(indices[i]));
    page_indices_.Clear();
    dict_mode_ = false;
    increasing_ = false;
    increasing_count_ = 0;
    if (dictionary_pages_written_ == 0) dictionary_.Clear();
  }

  bool dict_mode_;
  // In dictionary mode before the chunk's first page is written, while every value of the page
  // is greater than the one before (a sorted key column): the values are all distinct, so
  // parquet-mr's first-page rule (CheckDictionaryAtPageEnd) is sure to fall back to PLAIN. They
  // are kept PLAIN meanwhile, without the dictionary's hashing; the sizes that steer the writer
  // (PageValueBytes, DictionaryBytes) are the dictionary's, so that the pages and the file come
  // out the same. The first value out of order builds the dictionary of the page so far.
  bool increasing_;
  int64_t increasing_count_ = 0;
  // Where the bytes of the last PLAIN value of the open page begin in page_values_.
  size_t last_value_at_ = 0;
  Buffer staged_;
  Buffer page_values_;
  Buffer page_indices_;
  int64_t page_plain_bytes_ = 0;
  ByteArrayDictionary dictionary_;
  int32_t dictionary_pages_written_ = 0;
  MinMax<std::string> page_minmax_;
  std::vector<MinMax<std::string>> page_stats_;
  MinMax<std::string> chunk_minmax_;
  bool file_has_minmax_ = false;
  std::string file_min_, file_max_;
};

}  // namespace

std::unique_ptr<ColumnWriter> NewByteArrayColumnWriter(const WriteLeaf& leaf,
                                                       const ColumnWriterOptions& options) {
  return std::make_unique<ByteArrayColumnWriter>(leaf, options);
}

}  // namespace sluice::parquet
