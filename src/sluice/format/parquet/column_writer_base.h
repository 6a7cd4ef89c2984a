// What the column writers of each physical type share (column_writer.h's ColumnWriter::Make
// picks one): ColumnWriterBase, the levels, pages and chunks independent of the value type,
// and the value helpers (gathering a slice's values, min / max, a column index's boundary
// order). Internal to the Parquet writer.
//
// Thread safety: a column writer is used by one thread.
#pragma once

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sluice/format/parquet/column_writer.h"

namespace sluice::parquet {

// Dictionaries with more entries than this fall back to PLAIN even when small in bytes
// (indices stay within 31 bits and lookups within a cache-friendly table).
constexpr int64_t kMaxDictionaryEntries = int64_t{1} << 20;

template <typename T>
std::string FixedBytes(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

// The decimal text of `v` (statistics of INT128 decimals).
std::string Int128ToString(int128_t v);

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

// The writer of each physical type.
std::unique_ptr<ColumnWriter> NewNumericColumnWriter(const WriteLeaf& leaf,
                                                     const ColumnWriterOptions& options);
std::unique_ptr<ColumnWriter> NewByteArrayColumnWriter(const WriteLeaf& leaf,
                                                       const ColumnWriterOptions& options);
std::unique_ptr<ColumnWriter> NewFixedBytesColumnWriter(const WriteLeaf& leaf,
                                                        const ColumnWriterOptions& options);

}  // namespace sluice::parquet
