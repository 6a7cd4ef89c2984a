// Fixed-width numeric columns: BOOLEAN, INT32, INT64, FLOAT, DOUBLE.
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

}  // namespace

std::unique_ptr<ColumnWriter> NewNumericColumnWriter(const WriteLeaf& leaf,
                                                     const ColumnWriterOptions& options) {
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
      return std::make_unique<NumericColumnWriter<uint8_t>>(leaf, options);
    case PhysicalType::kInt32:
      return std::make_unique<NumericColumnWriter<int32_t>>(leaf, options);
    case PhysicalType::kInt64:
      return std::make_unique<NumericColumnWriter<int64_t>>(leaf, options);
    case PhysicalType::kFloat:
      return std::make_unique<NumericColumnWriter<float>>(leaf, options);
    default:
      return std::make_unique<NumericColumnWriter<double>>(leaf, options);
  }
}

}  // namespace sluice::parquet
