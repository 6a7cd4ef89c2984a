#include "sluice/format/parquet/column_writer.h"

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

// Dictionaries with more entries than this fall back to PLAIN even when small in bytes
// (indices stay within 31 bits and lookups within a cache-friendly table).
constexpr int64_t kMaxDictionaryEntries = int64_t{1} << 20;

// An INT96 timestamp: nanoseconds of the day then the Julian day, little-endian.
struct Int96 {
  uint8_t bytes[12];
};

// Julian day of 1970-01-01 and milliseconds per day, for INT96 timestamps.
constexpr int64_t kJulianEpochDay = 2440588;
constexpr int64_t kMillisPerDay = 86400000;

CompressionCodec ToParquetCodec(CompressionKind kind) {
  switch (kind) {
    case CompressionKind::kNone:
      return CompressionCodec::kUncompressed;
    case CompressionKind::kSnappy:
      return CompressionCodec::kSnappy;
    case CompressionKind::kGzip:
      return CompressionCodec::kGzip;
    case CompressionKind::kLz4Raw:
      return CompressionCodec::kLz4Raw;
    case CompressionKind::kLz4Hadoop:
      return CompressionCodec::kLz4;
    case CompressionKind::kZstd:
      return CompressionCodec::kZstd;
    default:
      return CompressionCodec::kUncompressed;
  }
}

std::string Int128ToString(int128_t v) { return Decimal{v, 38, 0}.ToString(); }

// The big-endian two's complement of `v` in `width` bytes.
void EncodeDecimalBE(int128_t v, int width, uint8_t* out) {
  unsigned __int128 u = static_cast<unsigned __int128>(v);
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<uint8_t>(u);
    u >>= 8;
  }
}

template <typename T>
std::string FixedBytes(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

// ---------------------------------------------------------------------------------------------
// Levels, pages and chunks, independent of the value type.

class ColumnWriterBase : public ColumnWriter {
 public:
  ColumnWriterBase(const WriteLeaf& leaf, const ColumnWriterOptions& options)
      : leaf_(leaf), options_(options), codec_(GetCodec(options.compression)) {}

  Status Write(const LeafSlice& slice, const ColumnVector& values) override {
    AppendLevels(slice);
    SLUICE_RETURN_NOT_OK(WriteValues(slice, values));
    page_rows_ += slice.num_rows;
    if (EstimatedPageSize() >= options_.page_size || page_rows_ >= options_.page_row_count_limit) {
      return FlushPage();
    }
    return Status::OK();
  }

  int64_t BufferedSize() const override {
    return static_cast<int64_t>(chunk_pages_.size()) + EstimatedPageSize() + DictionaryBytes();
  }

  Result<ColumnChunk> FlushChunk(WritableFile* file, int64_t file_offset) override;

  void TakePageIndex(OffsetIndex* offset_index, std::optional<ColumnIndex>* column_index) override {
    *offset_index = std::move(offset_index_);
    *column_index = std::move(column_index_);
    offset_index_ = OffsetIndex();
    column_index_.reset();
  }

 protected:
  // Typed part.
  virtual Status WriteValues(const LeafSlice& slice, const ColumnVector& values) = 0;
  virtual int64_t PageValueBytes() const = 0;
  virtual int64_t DictionaryBytes() const = 0;
  virtual bool dictionary_mode() const = 0;
  // Called at a page boundary in dictionary mode before the page is written: may switch the
  // column to PLAIN (re-encoding the open page) when the dictionary does not pay off.
  virtual void CheckDictionaryAtPageEnd() = 0;
  // Appends the encoded values of the open page to `out` and clears them.
  virtual void EncodePageValues(Buffer* out) = 0;
  // The dictionary page body (PLAIN), or false when no written page uses the dictionary.
  virtual bool EncodeDictionaryPage(Buffer* out, int32_t* num_entries) = 0;
  // Closes the statistics of the page being written (folding them into the chunk's).
  virtual void EndPageStatistics() = 0;
  // Fills min_values, max_values and boundary_order of the chunk's column index from the
  // pages' statistics; false when the column has none (INT96, or NaN among floats as
  // parquet-mr decides).
  virtual bool FillColumnIndex(ColumnIndex* index) const = 0;
  // Statistics of the chunk, then reset of all chunk state.
  virtual Statistics ChunkStatistics() const = 0;
  virtual void ResetChunk() = 0;

  int64_t EstimatedPageSize() const {
    return PageValueBytes() +
           (page_levels_ * (leaf_.max_def > 0) + page_levels_ * (leaf_.max_rep > 0)) / 4;
  }

  Status FlushPage();
  Status WritePage(PageType type, std::string_view body, int32_t num_values, Encoding encoding,
                   Buffer* dest, int64_t* page_bytes);

  void AppendLevels(const LeafSlice& slice) {
    int64_t n = slice.num_levels;
    if (leaf_.max_def > 0) {
      size_t old = def_levels_.size();
      def_levels_.Resize(old + static_cast<size_t>(n) * sizeof(int16_t));
      int16_t* d = reinterpret_cast<int16_t*>(def_levels_.data() + old);
      if (slice.def_levels != nullptr) {
        std::memcpy(d, slice.def_levels, static_cast<size_t>(n) * sizeof(int16_t));
      } else {
        std::fill(d, d + n, leaf_.max_def);
      }
    }
    if (leaf_.max_rep > 0) {
      rep_levels_.Append(slice.rep_levels, static_cast<size_t>(n) * sizeof(int16_t));
    }
    page_levels_ += n;
    page_nulls_ += n - slice.num_values;
    chunk_levels_ += n;
    chunk_nulls_ += n - slice.num_values;
  }

  const WriteLeaf& leaf_;
  ColumnWriterOptions options_;
  const Codec& codec_;

  // Open page.
  Buffer def_levels_;
  Buffer rep_levels_;
  int64_t page_levels_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_nulls_ = 0;

  // Current chunk.
  struct PageRecord {
    int64_t offset;     // in chunk_pages_
    int32_t size;       // header included
    int64_t first_row;  // in the row group
    int64_t nulls;
    bool all_null;
  };
  std::vector<PageRecord> page_records_;
  int64_t chunk_rows_ = 0;  // rows in the written pages
  Buffer chunk_pages_;
  int64_t chunk_levels_ = 0;
  int64_t chunk_nulls_ = 0;
  int64_t chunk_uncompressed_ = 0;
  int32_t dictionary_data_pages_ = 0;
  int32_t plain_data_pages_ = 0;

  // Page index of the last flushed chunk.
  OffsetIndex offset_index_;
  std::optional<ColumnIndex> column_index_;

  // Whole file.
  int64_t file_nulls_ = 0;

  // Scratch.
  Buffer page_body_;
  Buffer compressed_;
  std::string header_;
};

Status ColumnWriterBase::WritePage(PageType type, std::string_view body, int32_t num_values,
                                   Encoding encoding, Buffer* dest, int64_t* page_bytes) {
  // Page sizes are int32 in the page header.
  constexpr size_t kMaxPageBytes = std::numeric_limits<int32_t>::max() - 1024;
  if (body.size() > kMaxPageBytes) {
    return Status::NotSupported("Parquet writer: column '" + leaf_.path.front() + "': a page of " +
                                std::to_string(body.size()) + " bytes exceeds 2 GiB");
  }
  std::string_view stored = body;
  if (codec_.kind() != CompressionKind::kNone) {
    compressed_.Clear();
    SLUICE_RETURN_NOT_OK(codec_.Compress(body, options_.compression_level, &compressed_));
    stored = compressed_.view();
  }
  PageHeader header;
  header.type = type;
  header.uncompressed_page_size = static_cast<int32_t>(body.size());
  header.compressed_page_size = static_cast<int32_t>(stored.size());
  if (type == PageType::kDictionaryPage) {
    DictionaryPageHeader d;
    d.num_values = num_values;
    d.encoding = Encoding::kPlainDictionary;
    header.dictionary_page_header = d;
  } else {
    DataPageHeader d;
    d.num_values = num_values;
    d.encoding = encoding;
    d.definition_level_encoding = Encoding::kRle;
    d.repetition_level_encoding = Encoding::kRle;
    header.data_page_header = d;
  }
  header_.clear();
  SerializePageHeader(header, &header_);
  dest->Append(header_);
  dest->Append(stored);
  chunk_uncompressed_ += static_cast<int64_t>(header_.size() + body.size());
  *page_bytes = static_cast<int64_t>(header_.size() + stored.size());
  return Status::OK();
}

Status ColumnWriterBase::FlushPage() {
  if (page_levels_ == 0) return Status::OK();
  if (dictionary_mode()) CheckDictionaryAtPageEnd();
  bool dict = dictionary_mode();
  page_body_.Clear();
  auto put_levels = [&](const Buffer& levels, int16_t max_level) {
    size_t len_at = page_body_.size();
    page_body_.Resize(len_at + 4);
    EncodeRleBitPacked(levels.as<int16_t>(), page_levels_, BitWidthOf(max_level), &page_body_);
    EncodeFixed32LE(page_body_.data() + len_at,
                    static_cast<uint32_t>(page_body_.size() - len_at - 4));
  };
  if (leaf_.max_rep > 0) put_levels(rep_levels_, leaf_.max_rep);
  if (leaf_.max_def > 0) put_levels(def_levels_, leaf_.max_def);
  EncodePageValues(&page_body_);
  EndPageStatistics();
  int64_t page_offset = static_cast<int64_t>(chunk_pages_.size());
  int64_t page_bytes = 0;
  SLUICE_RETURN_NOT_OK(
      WritePage(PageType::kDataPage, page_body_.view(), static_cast<int32_t>(page_levels_),
                dict ? Encoding::kPlainDictionary : Encoding::kPlain, &chunk_pages_, &page_bytes));
  (dict ? dictionary_data_pages_ : plain_data_pages_)++;
  page_records_.push_back({page_offset, static_cast<int32_t>(page_bytes), chunk_rows_, page_nulls_,
                           page_nulls_ == page_levels_});
  chunk_rows_ += page_rows_;
  def_levels_.Clear();
  rep_levels_.Clear();
  page_levels_ = 0;
  page_rows_ = 0;
  page_nulls_ = 0;
  return Status::OK();
}

Result<ColumnChunk> ColumnWriterBase::FlushChunk(WritableFile* file, int64_t file_offset) {
  SLUICE_RETURN_NOT_OK(FlushPage());
  ColumnMetaData meta;
  meta.type = leaf_.physical_type;
  meta.path_in_schema = leaf_.path;
  meta.codec = ToParquetCodec(options_.compression);
  meta.num_values = chunk_levels_;

  int64_t offset = file_offset;
  int64_t compressed_total = 0;
  Buffer dictionary_page;
  int32_t entries = 0;
  page_body_.Clear();
  if (EncodeDictionaryPage(&page_body_, &entries)) {
    int64_t page_bytes = 0;
    SLUICE_RETURN_NOT_OK(WritePage(PageType::kDictionaryPage, page_body_.view(), entries,
                                   Encoding::kPlainDictionary, &dictionary_page, &page_bytes));
    SLUICE_RETURN_NOT_OK(file->Append(dictionary_page.view()));
    meta.dictionary_page_offset = offset;
    offset += page_bytes;
    compressed_total += page_bytes;
    meta.encoding_stats.push_back({PageType::kDictionaryPage, Encoding::kPlainDictionary, 1});
  }
  meta.data_page_offset = offset;
  SLUICE_RETURN_NOT_OK(file->Append(chunk_pages_.view()));
  compressed_total += static_cast<int64_t>(chunk_pages_.size());

  if (meta.dictionary_page_offset) meta.encodings.push_back(Encoding::kPlainDictionary);
  meta.encodings.push_back(Encoding::kRle);
  if (plain_data_pages_ > 0) meta.encodings.push_back(Encoding::kPlain);
  if (dictionary_data_pages_ > 0) {
    meta.encoding_stats.push_back(
        {PageType::kDataPage, Encoding::kPlainDictionary, dictionary_data_pages_});
  }
  if (plain_data_pages_ > 0) {
    meta.encoding_stats.push_back({PageType::kDataPage, Encoding::kPlain, plain_data_pages_});
  }
  meta.total_uncompressed_size = chunk_uncompressed_;
  meta.total_compressed_size = compressed_total;
  meta.statistics = ChunkStatistics();

  // Page index (parquet-mr writes one for every column chunk).
  offset_index_ = OffsetIndex();
  ColumnIndex column_index;
  for (const PageRecord& page : page_records_) {
    offset_index_.page_locations.push_back(
        {meta.data_page_offset + page.offset, page.size, page.first_row});
    column_index.null_pages.push_back(page.all_null);
    column_index.null_counts.push_back(page.nulls);
  }
  column_index_.reset();
  if (FillColumnIndex(&column_index)) column_index_ = std::move(column_index);

  ColumnChunk chunk;
  chunk.file_offset = file_offset;
  chunk.meta_data = std::move(meta);

  file_nulls_ += chunk_nulls_;
  page_records_.clear();
  chunk_rows_ = 0;
  ResetChunk();
  chunk_pages_.Clear();
  chunk_levels_ = 0;
  chunk_nulls_ = 0;
  chunk_uncompressed_ = 0;
  dictionary_data_pages_ = 0;
  plain_data_pages_ = 0;
  return chunk;
}

// ---------------------------------------------------------------------------------------------
// Value gathering: reads the present values of a slice from the leaf vector, converting them to
// the physical type.

template <typename Dst, typename Src, typename Convert>
void Gather(const LeafSlice& slice, const Src* src, Dst* dst, Convert convert) {
  const int64_t n = slice.num_values;
  if (slice.positions == nullptr) {
    const Src* s = src + slice.first_position;
    for (int64_t i = 0; i < n; ++i) dst[i] = convert(s[i]);
  } else {
    const int32_t* pos = slice.positions;
    for (int64_t i = 0; i < n; ++i) dst[i] = convert(src[pos[i]]);
  }
}

// Min / max of a run of values in the column's sort order.
template <typename T>
struct MinMax {
  bool has = false;
  bool has_nan = false;  // floating point only
  T min{};
  T max{};

  void Merge(const MinMax& o) {
    has_nan |= o.has_nan;
    if (!o.has) return;
    if (!has) {
      bool nan = has_nan;
      *this = o;
      has_nan = nan;
      return;
    }
    if (o.min < min) min = o.min;
    if (max < o.max) max = o.max;
  }
};

template <typename T>
MinMax<T> ComputeMinMax(const T* v, int64_t n) {
  MinMax<T> r;
  if constexpr (std::is_floating_point_v<T>) {
    // NaN is left out of min / max (parquet-mr); starting from +inf / -inf, NaN never wins a
    // comparison. Nothing but NaN leaves min > max.
    T lo = std::numeric_limits<T>::infinity();
    T hi = -std::numeric_limits<T>::infinity();
    int64_t ordered = 0;
    for (int64_t i = 0; i < n; ++i) {
      lo = v[i] < lo ? v[i] : lo;
      hi = v[i] > hi ? v[i] : hi;
      ordered += v[i] == v[i];
    }
    r.has_nan = ordered != n;
    if (lo <= hi) {
      r.has = true;
      // Parquet's rule for signed zeros: a zero min is written as -0.0, a zero max as +0.0.
      r.min = lo == 0 ? -T(0) : lo;
      r.max = hi == 0 ? T(0) : hi;
    }
  } else {
    if (n == 0) return r;
    T lo = v[0];
    T hi = v[0];
    for (int64_t i = 1; i < n; ++i) {
      lo = v[i] < lo ? v[i] : lo;
      hi = v[i] > hi ? v[i] : hi;
    }
    r.has = true;
    r.min = lo;
    r.max = hi;
  }
  return r;
}

// The boundary order of a column index: ascending (descending) when the min and the max of every
// non-null page are >= (<=) those of the previous one, by `less`.
template <typename T, typename Less>
BoundaryOrder ComputeBoundaryOrder(const std::vector<MinMax<T>>& pages, Less less) {
  bool ascending = true, descending = true;
  const MinMax<T>* prev = nullptr;
  for (const MinMax<T>& page : pages) {
    if (!page.has) continue;
    if (prev != nullptr) {
      if (less(page.min, prev->min) || less(page.max, prev->max)) ascending = false;
      if (less(prev->min, page.min) || less(prev->max, page.max)) descending = false;
    }
    prev = &page;
  }
  if (ascending) return BoundaryOrder::kAscending;
  if (descending) return BoundaryOrder::kDescending;
  return BoundaryOrder::kUnordered;
}

// ---------------------------------------------------------------------------------------------
// Fixed-width numeric columns: BOOLEAN, INT32, INT64, FLOAT, DOUBLE.

template <typename T>
class NumericColumnWriter final : public ColumnWriterBase {
 public:
  static constexpr bool kDictionaryCapable = !std::is_same_v<T, uint8_t>;

  NumericColumnWriter(const WriteLeaf& leaf, const ColumnWriterOptions& options)
      : ColumnWriterBase(leaf, options) {
    dict_mode_ = kDictionaryCapable && options.dictionary_enabled;
    const DataType& type = *leaf.type;
    if (type.root() == TypeRoot::kDecimal) decimal_bound_ = Pow10(type.precision()) - 1;
  }

  ColumnStats FileStats() const override {
    ColumnStats stats;
    stats.null_count = file_nulls_;
    if (file_minmax_.has) {
      stats.min = ToValue(file_minmax_.min);
      stats.max = ToValue(file_minmax_.max);
    }
    return stats;
  }

 protected:
  Status WriteValues(const LeafSlice& slice, const ColumnVector& values) override {
    const int64_t n = slice.num_values;
    staged_.Resize(static_cast<size_t>(n) * sizeof(T));
    T* dst = staged_.as<T>();
    SLUICE_RETURN_NOT_OK(GatherConverted(slice, values, dst));
    MinMax<T> mm = ComputeMinMax(dst, n);
    if (decimal_bound_ != 0 && mm.has &&
        (static_cast<int128_t>(mm.max) > decimal_bound_ ||
         static_cast<int128_t>(mm.min) < -decimal_bound_)) {
      int128_t bad = static_cast<int128_t>(mm.max) > decimal_bound_ ? mm.max : mm.min;
      return Status::InvalidArgument("column '" + leaf_.path.front() + "': unscaled value " +
                                     Int128ToString(bad) + " does not fit " +
                                     leaf_.type->ToString());
    }
    page_minmax_.Merge(mm);
    if constexpr (kDictionaryCapable) {
      if (dict_mode_) {
        size_t old = page_indices_.size();
        page_indices_.Resize(old + static_cast<size_t>(n) * sizeof(uint32_t));
        dictionary_.Insert(dst, n, reinterpret_cast<uint32_t*>(page_indices_.data() + old));
        if (dictionary_.byte_size() > options_.dictionary_page_size ||
            dictionary_.size() > kMaxDictionaryEntries) {
          FallBackToPlain();
        }
        return Status::OK();
      }
    }
    PlainEncodeFixed(dst, n, &page_values_);
    return Status::OK();
  }

  int64_t PageValueBytes() const override {
    if (dict_mode_) {
      int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
      return count * BitWidthOf(static_cast<uint64_t>(dictionary_.size())) / 8 + 1;
    }
    if constexpr (std::is_same_v<T, uint8_t>) {
      return static_cast<int64_t>(page_values_.size()) / 8;
    }
    return static_cast<int64_t>(page_values_.size());
  }

  int64_t DictionaryBytes() const override {
    return dictionary_pages_written_ > 0 || dict_mode_ ? dictionary_.byte_size() : 0;
  }

  bool dictionary_mode() const override { return dict_mode_; }

  void CheckDictionaryAtPageEnd() override {
    if (dictionary_pages_written_ > 0) return;
    // parquet-mr's test: the dictionary must make the first page smaller than PLAIN would.
    int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
    int64_t raw = count * static_cast<int64_t>(sizeof(T));
    if (PageValueBytes() + dictionary_.byte_size() >= raw) FallBackToPlain();
  }

  void EncodePageValues(Buffer* out) override {
    if (dict_mode_) {
      const uint32_t* indices = page_indices_.as<uint32_t>();
      int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
      int bit_width =
          BitWidthOf(static_cast<uint64_t>(std::max<int64_t>(dictionary_.size() - 1, 0)));
      out->AppendValue(static_cast<uint8_t>(bit_width));
      EncodeRleBitPacked(indices, count, bit_width, out);
      page_indices_.Clear();
      ++dictionary_pages_written_;
      return;
    }
    if constexpr (std::is_same_v<T, uint8_t>) {
      PlainEncodeBooleans(page_values_.data(), static_cast<int64_t>(page_values_.size()), out);
    } else {
      out->Append(page_values_.data(), page_values_.size());
    }
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
    page_stats_.push_back(page_minmax_);
    page_minmax_ = MinMax<T>();
  }

  bool FillColumnIndex(ColumnIndex* index) const override {
    if (chunk_minmax_.has_nan) return false;
    for (const MinMax<T>& page : page_stats_) {
      index->min_values.push_back(page.has ? StatBytes(page.min) : std::string());
      index->max_values.push_back(page.has ? StatBytes(page.max) : std::string());
    }
    index->boundary_order = ComputeBoundaryOrder(page_stats_, [](T a, T b) { return a < b; });
    return true;
  }

  Statistics ChunkStatistics() const override {
    Statistics s;
    s.null_count = chunk_nulls_;
    if (chunk_minmax_.has) {
      s.min_value = StatBytes(chunk_minmax_.min);
      s.max_value = StatBytes(chunk_minmax_.max);
      // The deprecated fields use signed order, which is this type's order.
      s.min = s.min_value;
      s.max = s.max_value;
    }
    return s;
  }

  void ResetChunk() override {
    file_minmax_.Merge(chunk_minmax_);
    chunk_minmax_ = MinMax<T>();
    page_stats_.clear();
    dictionary_.Clear();
    dictionary_pages_written_ = 0;
    dict_mode_ = kDictionaryCapable && options_.dictionary_enabled;
  }

 private:
  // BOOLEAN columns are never dictionary-encoded; they carry an unused placeholder.
  using Dictionary =
      std::conditional_t<kDictionaryCapable, FixedDictionary<T>, FixedDictionary<int32_t>>;

  static std::string StatBytes(T v) {
    if constexpr (std::is_same_v<T, uint8_t>) {
      return std::string(1, static_cast<char>(v));
    } else {
      return FixedBytes(v);
    }
  }

  // Re-encodes the open page's dictionary indices as PLAIN values and stays PLAIN for the rest of
  // the chunk.
  void FallBackToPlain() {
    if constexpr (kDictionaryCapable) {
      const uint32_t* indices = page_indices_.as<uint32_t>();
      int64_t count = static_cast<int64_t>(page_indices_.size() / sizeof(uint32_t));
      size_t old = page_values_.size();
      page_values_.Resize(old + static_cast<size_t>(count) * sizeof(T));
      T* out = reinterpret_cast<T*>(page_values_.data() + old);
      const T* dict = dictionary_.values();
      for (int64_t i = 0; i < count; ++i) out[i] = dict[indices[i]];
      page_indices_.Clear();
      dict_mode_ = false;
      if (dictionary_pages_written_ == 0) dictionary_.Clear();
    }
  }

  Status GatherConverted(const LeafSlice& slice, const ColumnVector& values, T* dst) const {
    switch (values.kind()) {
      case PhysicalKind::kUInt8:
        Gather(slice, values.data<uint8_t>(), dst,
               [](uint8_t v) { return static_cast<T>(v != 0); });
        break;
      case PhysicalKind::kInt8:
        Gather(slice, values.data<int8_t>(), dst, [](int8_t v) { return static_cast<T>(v); });
        break;
      case PhysicalKind::kInt16:
        Gather(slice, values.data<int16_t>(), dst, [](int16_t v) { return static_cast<T>(v); });
        break;
      case PhysicalKind::kInt32:
        Gather(slice, values.data<int32_t>(), dst, [](int32_t v) { return static_cast<T>(v); });
        break;
      case PhysicalKind::kInt64:
        if constexpr (std::is_same_v<T, int32_t>) {
          // DECIMAL(p <= 9): the precision check after gathering catches values beyond int32.
          int64_t lo = std::numeric_limits<int32_t>::min(),
                  hi = std::numeric_limits<int32_t>::max();
          const int64_t* src = values.data<int64_t>();
          for (int64_t i = 0; i < slice.num_values; ++i) {
            int64_t v = src[slice.positions ? slice.positions[i] : slice.first_position + i];
            if (v < lo || v > hi) {
              return Status::InvalidArgument("column '" + leaf_.path.front() +
                                             "': unscaled value " + std::to_string(v) +
                                             " does not fit " + leaf_.type->ToString());
            }
          }
        }
        Gather(slice, values.data<int64_t>(), dst, [](int64_t v) { return static_cast<T>(v); });
        break;
      case PhysicalKind::kFloat:
        Gather(slice, values.data<float>(), dst, [](float v) { return static_cast<T>(v); });
        break;
      case PhysicalKind::kDouble:
        Gather(slice, values.data<double>(), dst, [](double v) { return static_cast<T>(v); });
        break;
      case PhysicalKind::kTimestamp: {
        const Timestamp* src = values.data<Timestamp>();
        if (leaf_.type->precision() <= 3) {
          Gather(slice, src, dst, [](const Timestamp& t) { return static_cast<T>(t.millisecond); });
        } else {
          Gather(slice, src, dst, [](const Timestamp& t) {
            return static_cast<T>(t.millisecond * 1000 + t.nano_of_millisecond / 1000);
          });
        }
        break;
      }
      default:
        return Status::Internal("Parquet column writer: unexpected vector kind for " +
                                leaf_.type->ToString());
    }
    return Status::OK();
  }

  Value ToValue(T v) const {
    const DataType& type = *leaf_.type;
    switch (type.root()) {
      case TypeRoot::kBoolean:
        return Value::Boolean(v != 0);
      case TypeRoot::kTinyInt:
        return Value::Int8(static_cast<int8_t>(v));
      case TypeRoot::kSmallInt:
        return Value::Int16(static_cast<int16_t>(v));
      case TypeRoot::kInt:
      case TypeRoot::kDate:
      case TypeRoot::kTime:
        return Value::Int32(static_cast<int32_t>(v));
      case TypeRoot::kBigInt:
        return Value::Int64(static_cast<int64_t>(v));
      case TypeRoot::kFloat:
        return Value::Float(static_cast<float>(v));
      case TypeRoot::kDouble:
        return Value::Double(static_cast<double>(v));
      case TypeRoot::kDecimal:
        return Value::FromDecimal(
            Decimal{static_cast<int128_t>(v), type.precision(), type.scale()});
      case TypeRoot::kTimestamp:
      case TypeRoot::kTimestampLtz:
        if (type.precision() <= 3) {
          return Value::FromTimestamp(Timestamp{static_cast<int64_t>(v), 0});
        }
        return Value::FromTimestamp(Timestamp::FromEpochMicros(static_cast<int64_t>(v)));
      default:
        return Value();
    }
  }

  bool dict_mode_ = false;
  int128_t decimal_bound_ = 0;
  Buffer staged_;
  Buffer page_values_;   // PLAIN values of the open page (booleans: one byte each)
  Buffer page_indices_;  // dictionary indices of the open page
  Dictionary dictionary_;
  int32_t dictionary_pages_written_ = 0;
  MinMax<T> page_minmax_;
  std::vector<MinMax<T>> page_stats_;
  MinMax<T> chunk_minmax_;
  MinMax<T> file_minmax_;
};

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

// ---------------------------------------------------------------------------------------------
// BYTE_ARRAY columns: strings and binaries.

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

// ---------------------------------------------------------------------------------------------
// FIXED_LEN_BYTE_ARRAY decimals (precision > 18) and INT96 timestamps (precision > 6): PLAIN only.

class FixedBytesColumnWriter final : public ColumnWriterBase {
 public:
  FixedBytesColumnWriter(const WriteLeaf& leaf, const ColumnWriterOptions& options)
      : ColumnWriterBase(leaf, options),
        is_decimal_(leaf.type->root() == TypeRoot::kDecimal),
        width_(is_decimal_ ? leaf.type_length : 12) {
    if (is_decimal_) decimal_bound_ = Pow10(leaf.type->precision()) - 1;
  }

  ColumnStats FileStats() const override {
    ColumnStats stats;
    stats.null_count = file_nulls_;
    if (file_minmax_.has) {
      const DataType& type = *leaf_.type;
      stats.min = Value::FromDecimal(Decimal{file_minmax_.min, type.precision(), type.scale()});
      stats.max = Value::FromDecimal(Decimal{file_minmax_.max, type.precision(), type.scale()});
    }
    return stats;
  }

 protected:
  Status WriteValues(const LeafSlice& slice, const ColumnVector& values) override {
    const int64_t n = slice.num_values;
    size_t old = page_values_.size();
    page_values_.Resize(old + static_cast<size_t>(n * width_));
    uint8_t* out = page_values_.data() + old;
    if (is_decimal_) {
      staged_.Resize(static_cast<size_t>(n) * sizeof(int128_t));
      int128_t* dst = staged_.as<int128_t>();
      if (values.kind() == PhysicalKind::kInt128) {
        Gather(slice, values.data<int128_t>(), dst, [](int128_t v) { return v; });
      } else {
        Gather(slice, values.data<int64_t>(), dst,
               [](int64_t v) { return static_cast<int128_t>(v); });
      }
      MinMax<int128_t> mm = ComputeMinMax(dst, n);
      if (mm.has && (mm.max > decimal_bound_ || mm.min < -decimal_bound_)) {
        page_values_.Resize(old);
        return Status::InvalidArgument("column '" + leaf_.path.front() + "': unscaled value " +
                                       Int128ToString(mm.max > decimal_bound_ ? mm.max : mm.min) +
                                       " does not fit " + leaf_.type->ToString());
      }
      page_minmax_.Merge(mm);
      for (int64_t i = 0; i < n; ++i) EncodeDecimalBE(dst[i], width_, out + i * width_);
      return Status::OK();
    }
    staged_.Resize(static_cast<size_t>(n) * sizeof(Int96));
    Int96* dst = staged_.as<Int96>();
    Gather(slice, values.data<Timestamp>(), dst, [](const Timestamp& t) {
      // Java's truncating division, as Paimon writes it (format spec 7.4).
      int64_t julian_day = t.millisecond / kMillisPerDay + kJulianEpochDay;
      int64_t nanos_of_day = (t.millisecond % kMillisPerDay) * 1000000 + t.nano_of_millisecond;
      Int96 r;
      EncodeFixed64LE(r.bytes, static_cast<uint64_t>(nanos_of_day));
      EncodeFixed32LE(r.bytes + 8, static_cast<uint32_t>(julian_day));
      return r;
    });
    // A slice of nulls only stages nothing (dst is null then).
    if (n > 0) std::memcpy(out, dst, static_cast<size_t>(n) * sizeof(Int96));
    return Status::OK();
  }

  int64_t PageValueBytes() const override { return static_cast<int64_t>(page_values_.size()); }
  int64_t DictionaryBytes() const override { return 0; }
  bool dictionary_mode() const override { return false; }
  void CheckDictionaryAtPageEnd() override {}

  void EncodePageValues(Buffer* out) override {
    out->Append(page_values_.data(), page_values_.size());
    page_values_.Clear();
  }

  bool EncodeDictionaryPage(Buffer*, int32_t*) override { return false; }

  void EndPageStatistics() override {
    chunk_minmax_.Merge(page_minmax_);
    page_stats_.push_back(page_minmax_);
    page_minmax_ = MinMax<int128_t>();
  }

  bool FillColumnIndex(ColumnIndex* index) const override {
    // INT96 has no defined order: no column index (parquet-mr).
    if (!is_decimal_) return false;
    for (const MinMax<int128_t>& page : page_stats_) {
      index->min_values.push_back(page.has ? DecimalBytes(page.min) : std::string());
      index->max_values.push_back(page.has ? DecimalBytes(page.max) : std::string());
    }
    index->boundary_order =
        ComputeBoundaryOrder(page_stats_, [](int128_t a, int128_t b) { return a < b; });
    return true;
  }

  Statistics ChunkStatistics() const override {
    Statistics s;
    s.null_count = chunk_nulls_;
    // INT96 has no defined order: no min / max (parquet-mr).
    if (is_decimal_ && chunk_minmax_.has) {
      s.min_value = DecimalBytes(chunk_minmax_.min);
      s.max_value = DecimalBytes(chunk_minmax_.max);
    }
    return s;
  }

  void ResetChunk() override {
    file_minmax_.Merge(chunk_minmax_);
    chunk_minmax_ = MinMax<int128_t>();
    page_stats_.clear();
  }

 private:
  bool is_decimal_;
  int width_;
  int128_t decimal_bound_ = 0;
  Buffer staged_;
  Buffer page_values_;
  std::string DecimalBytes(int128_t v) const {
    std::string out(static_cast<size_t>(width_), '\0');
    EncodeDecimalBE(v, width_, reinterpret_cast<uint8_t*>(out.data()));
    return out;
  }

  MinMax<int128_t> page_minmax_;
  std::vector<MinMax<int128_t>> page_stats_;
  MinMax<int128_t> chunk_minmax_;
  MinMax<int128_t> file_minmax_;
};

}  // namespace

Result<std::unique_ptr<ColumnWriter>> ColumnWriter::Make(const WriteLeaf& leaf,
                                                         const ColumnWriterOptions& options) {
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
      return std::unique_ptr<ColumnWriter>(new NumericColumnWriter<uint8_t>(leaf, options));
    case PhysicalType::kInt32:
      return std::unique_ptr<ColumnWriter>(new NumericColumnWriter<int32_t>(leaf, options));
    case PhysicalType::kInt64:
      return std::unique_ptr<ColumnWriter>(new NumericColumnWriter<int64_t>(leaf, options));
    case PhysicalType::kFloat:
      return std::unique_ptr<ColumnWriter>(new NumericColumnWriter<float>(leaf, options));
    case PhysicalType::kDouble:
      return std::unique_ptr<ColumnWriter>(new NumericColumnWriter<double>(leaf, options));
    case PhysicalType::kByteArray:
      return std::unique_ptr<ColumnWriter>(new ByteArrayColumnWriter(leaf, options));
    case PhysicalType::kFixedLenByteArray:
    case PhysicalType::kInt96:
      return std::unique_ptr<ColumnWriter>(new FixedBytesColumnWriter(leaf, options));
  }
  return Status::Internal("Parquet column writer: unknown physical type");
}

}  // namespace sluice::parquet
