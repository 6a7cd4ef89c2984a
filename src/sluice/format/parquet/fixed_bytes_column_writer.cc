// FIXED_LEN_BYTE_ARRAY decimals (precision > 18) and INT96 timestamps (precision > 6): PLAIN only.
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

// An INT96 timestamp: nanoseconds of the day then the Julian day, little-endian.
struct Int96 {
  uint8_t bytes[12];
};

// Julian day of 1970-01-01 and milliseconds per day, for INT96 timestamps.
constexpr int64_t kJulianEpochDay = 2440588;
constexpr int64_t kMillisPerDay = 86400000;

// The big-endian two's complement of `v` in `width` bytes.
void EncodeDecimalBE(int128_t v, int width, uint8_t* out) {
  unsigned __int128 u = static_cast<unsigned __int128>(v);
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<uint8_t>(u);
    u >>= 8;
  }
}

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

std::unique_ptr<ColumnWriter> NewFixedBytesColumnWriter(const WriteLeaf& leaf,
                                                        const ColumnWriterOptions& options) {
  return std::make_unique<FixedBytesColumnWriter>(leaf, options);
}

}  // namespace sluice::parquet
