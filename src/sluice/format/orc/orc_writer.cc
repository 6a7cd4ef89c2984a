#include "sluice/format/orc/orc_writer.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <string_view>

#include "sluice/base/string_util.h"
#include "sluice/format/compression/codec.h"
#include "sluice/format/orc/orc_metadata.h"
#include "sluice/format/orc/orc_stream.h"
#include "sluice/format/orc/rle_encoder.h"

namespace sluice::orc {

namespace {

constexpr int64_t kOrcEpochSeconds = 1420070400;
constexpr int32_t kElementIdBase = 536870911;  // Paimon's ids of array elements / map entries

// Statistics of one column over a stripe or the file, in typed form.
struct StatsAccumulator {
  uint64_t values = 0;
  bool has_null = false;
  bool has_minmax = false;
  int64_t int_min = 0, int_max = 0;
  int128_t int_sum = 0;
  double double_min = 0, double_max = 0, double_sum = 0;
  std::string string_min, string_max;
  int64_t length_sum = 0;
  int128_t dec_min = 0, dec_max = 0, dec_sum = 0;
  // False once the decimal sum leaves 38 digits: ORC's writer (HiveDecimal arithmetic) then
  // records no sum, and the int128 must not overflow.
  bool dec_sum_set = true;
  Timestamp ts_min, ts_max;
  uint64_t trues = 0;

  void AddInt(int64_t v) {
    if (!has_minmax) {
      int_min = int_max = v;
      has_minmax = true;
    } else {
      int_min = std::min(int_min, v);
      int_max = std::max(int_max, v);
    }
    int_sum += v;
  }
  void AddDouble(double v) {
    if (std::isnan(v)) return;
    if (!has_minmax) {
      double_min = double_max = v;
      has_minmax = true;
    } else {
      double_min = std::min(double_min, v);
      double_max = std::max(double_max, v);
    }
    double_sum += v;
  }
  void AddString(std::string_view v) {
    if (!has_minmax) {
      string_min = string_max = std::string(v);
      has_minmax = true;
    } else {
      if (v < string_min) string_min = std::string(v);
      if (v > string_max) string_max = std::string(v);
    }
    length_sum += static_cast<int64_t>(v.size());
  }
  void AddDecimal(int128_t v) {
    if (!has_minmax) {
      dec_min = dec_max = v;
      has_minmax = true;
    } else {
      dec_min = std::min(dec_min, v);
      dec_max = std::max(dec_max, v);
    }
    AddDecimalSum(v);
  }
  void AddDecimalSum(int128_t v) {
    if (!dec_sum_set) return;
    // 10^38: one more digit than a DECIMAL(38) holds.
    static constexpr int128_t kLimit =
        static_cast<int128_t>(10'000'000'000'000'000'000ULL) * 10'000'000'000'000'000'000ULL;
    int128_t sum;
    if (__builtin_add_overflow(dec_sum, v, &sum) || sum >= kLimit || sum <= -kLimit) {
      dec_sum_set = false;
      return;
    }
    dec_sum = sum;
  }
  void AddTimestamp(const Timestamp& v) {
    if (!has_minmax) {
      ts_min = ts_max = v;
      has_minmax = true;
    } else {
      if (v < ts_min) ts_min = v;
      if (ts_max < v) ts_max = v;
    }
  }
  void Merge(const StatsAccumulator& o) {
    values += o.values;
    has_null = has_null || o.has_null;
    trues += o.trues;
    length_sum += o.length_sum;
    int_sum += o.int_sum;
    double_sum += o.double_sum;
    if (o.dec_sum_set) {
      AddDecimalSum(o.dec_sum);
    } else {
      dec_sum_set = false;
    }
    if (!o.has_minmax) return;
    if (!has_minmax) {
      int_min = o.int_min, int_max = o.int_max;
      double_min = o.double_min, double_max = o.double_max;
      string_min = o.string_min, string_max = o.string_max;
      dec_min = o.dec_min, dec_max = o.dec_max;
      ts_min = o.ts_min, ts_max = o.ts_max;
      has_minmax = true;
      return;
    }
    int_min = std::min(int_min, o.int_min), int_max = std::max(int_max, o.int_max);
    double_min = std::min(double_min, o.double_min);
    double_max = std::max(double_max, o.double_max);
    if (o.string_min < string_min) string_min = o.string_min;
    if (o.string_max > string_max) string_max = o.string_max;
    dec_min = std::min(dec_min, o.dec_min), dec_max = std::max(dec_max, o.dec_max);
    if (o.ts_min < ts_min) ts_min = o.ts_min;
    if (ts_max < o.ts_max) ts_max = o.ts_max;
  }
};

std::string DecimalText(int128_t v, int scale) { return Decimal{v, 38, scale}.ToString(); }

OrcColumnStatistics ToOrcStats(const StatsAccumulator& a, const OrcType& t) {
  OrcColumnStatistics s;
  s.number_of_values = a.values;
  s.has_null = a.has_null;
  switch (t.kind) {
    case OrcTypeKind::kByte:
    case OrcTypeKind::kShort:
    case OrcTypeKind::kInt:
    case OrcTypeKind::kLong:
      if (a.has_minmax) {
        s.int_min = a.int_min;
        s.int_max = a.int_max;
        if (a.int_sum >= INT64_MIN && a.int_sum <= INT64_MAX) {
          s.int_sum = static_cast<int64_t>(a.int_sum);
        }
      }
      break;
    case OrcTypeKind::kDate:
      if (a.has_minmax) {
        s.date_min = static_cast<int32_t>(a.int_min);
        s.date_max = static_cast<int32_t>(a.int_max);
      }
      break;
    case OrcTypeKind::kFloat:
    case OrcTypeKind::kDouble:
      if (a.has_minmax) {
        s.double_min = a.double_min;
        s.double_max = a.double_max;
        s.double_sum = a.double_sum;
      }
      break;
    case OrcTypeKind::kString:
    case OrcTypeKind::kVarchar:
    case OrcTypeKind::kChar:
      if (a.has_minmax) {
        s.string_min = a.string_min;
        s.string_max = a.string_max;
      }
      s.string_sum = a.length_sum;
      break;
    case OrcTypeKind::kBinary:
      s.binary_sum = a.length_sum;
      break;
    case OrcTypeKind::kBoolean:
      s.bucket_counts = {a.trues};
      break;
    case OrcTypeKind::kDecimal:
      if (a.has_minmax) {
        int scale = static_cast<int>(t.scale);
        s.decimal_min = DecimalText(a.dec_min, scale);
        s.decimal_max = DecimalText(a.dec_max, scale);
        if (a.dec_sum_set) s.decimal_sum = DecimalText(a.dec_sum, scale);
      }
      break;
    case OrcTypeKind::kTimestamp:
    case OrcTypeKind::kTimestampInstant:
      if (a.has_minmax) {
        // The writer zone is UTC, so local and UTC millis coincide.
        s.timestamp_min = s.timestamp_min_utc = a.ts_min.millisecond;
        s.timestamp_max = s.timestamp_max_utc = a.ts_max.millisecond;
        s.timestamp_min_nanos = a.ts_min.nano_of_millisecond + 1;
        s.timestamp_max_nanos = a.ts_max.nano_of_millisecond + 1;
      }
      break;
    default:
      break;
  }
  return s;
}

// The Paimon statistics of a top-level column (DataFileMeta value stats).
ColumnStats ToPaimonStats(const StatsAccumulator& a, const DataType& type, int64_t rows) {
  ColumnStats cs;
  cs.null_count = rows - static_cast<int64_t>(a.values);
  if (!a.has_minmax) return cs;
  switch (type.root()) {
    case TypeRoot::kTinyInt:
      cs.min = Value::Int8(static_cast<int8_t>(a.int_min));
      cs.max = Value::Int8(static_cast<int8_t>(a.int_max));
      break;
    case TypeRoot::kSmallInt:
      cs.min = Value::Int16(static_cast<int16_t>(a.int_min));
      cs.max = Value::Int16(static_cast<int16_t>(a.int_max));
      break;
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      cs.min = Value::Int32(static_cast<int32_t>(a.int_min));
      cs.max = Value::Int32(static_cast<int32_t>(a.int_max));
      break;
    case TypeRoot::kBigInt:
      cs.min = Value::Int64(a.int_min);
      cs.max = Value::Int64(a.int_max);
      break;
    case TypeRoot::kFloat:
      cs.min = Value::Float(static_cast<float>(a.double_min));
      cs.max = Value::Float(static_cast<float>(a.double_max));
      break;
    case TypeRoot::kDouble:
      cs.min = Value::Double(a.double_min);
      cs.max = Value::Double(a.double_max);
      break;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      cs.min = Value::String(a.string_min);
      cs.max = Value::String(a.string_max);
      break;
    case TypeRoot::kDecimal:
      cs.min = Value::FromDecimal(Decimal{a.dec_min, type.precision(), type.scale()});
      cs.max = Value::FromDecimal(Decimal{a.dec_max, type.precision(), type.scale()});
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      cs.min = Value::FromTimestamp(a.ts_min);
      cs.max = Value::FromTimestamp(a.ts_max);
      break;
    case TypeRoot::kBoolean:
      cs.min = Value::Boolean(a.trues == a.values);
      cs.max = Value::Boolean(a.trues > 0);
      break;
    default:
      break;
  }
  return cs;
}

// Streams of one stripe being assembled: index streams first, then data streams.
struct StripeSink {
  OrcCompression compression;
  uint64_t block_size;
  int level;
  bool row_index;
  std::vector<StreamInfo> index_streams;
  std::string index;
  std::vector<StreamInfo> streams;
  std::string data;
  std::vector<ColumnEncoding> encodings;

  // Adds a data stream; *chunk_starts receives its compression chunks' offsets.
  Status Add(uint32_t column, StreamKind kind, std::string_view bytes,
             std::vector<uint64_t>* chunk_starts) {
    size_t before = data.size();
    SLUICE_RETURN_NOT_OK(EncodeStream(bytes, compression, block_size, level, &data, chunk_starts));
    streams.push_back(StreamInfo{kind, column, data.size() - before, static_cast<uint32_t>(kind)});
    return Status::OK();
  }
  Status AddIndex(uint32_t column, std::string_view bytes) {
    size_t before = index.size();
    SLUICE_RETURN_NOT_OK(EncodeStream(bytes, compression, block_size, level, &index));
    index_streams.push_back(StreamInfo{StreamKind::kRowIndex, column, index.size() - before,
                                       static_cast<uint32_t>(StreamKind::kRowIndex)});
    return Status::OK();
  }
};

// Where a stream stands at the start of a row group, in uncompressed bytes, followed by the
// RLE values (and bits) consumed there; translated to compressed positions at stripe flush.
struct StreamPosition {
  StreamKind stream;
  uint64_t offset;
  std::vector<uint64_t> tail;
};

// ---------------------------------------------------------------- column writers

class ColumnWriter {
 public:
  ColumnWriter(uint32_t column, OrcType* type) : column_(column), type_(type) {}
  virtual ~ColumnWriter() = default;

  // Writes rows [begin, end) of `v`.
  void Write(const ColumnVector& v, int64_t begin, int64_t end) {
    int64_t n = end - begin;
    present_scratch_.resize(static_cast<size_t>(n));
    int64_t non_null = n;
    if (v.has_nulls()) {
      const uint8_t* valid = v.validity().data() + begin;
      std::memcpy(present_scratch_.data(), valid, static_cast<size_t>(n));
      non_null = 0;
      for (int64_t i = 0; i < n; ++i) non_null += valid[i];
    } else {
      std::fill(present_scratch_.begin(), present_scratch_.end(), 1);
    }
    if (non_null < n) stripe_has_null_ = true;
    present_.Write(present_scratch_.data(), n);
    stripe_rows_ += n;
    stats_.values += static_cast<uint64_t>(non_null);
    if (non_null < n) stats_.has_null = true;
    WriteValues(v, begin, end);
  }

  // Writes n present rows that carry no values of their own (the root struct).
  void WritePresentRows(int64_t n) {
    present_scratch_.assign(static_cast<size_t>(n), 1);
    present_.Write(present_scratch_.data(), n);
    stripe_rows_ += n;
    stats_.values += static_cast<uint64_t>(n);
  }

  // Marks the start of a row group: records where each stream stands.
  virtual void StartGroup() {
    group_positions_.emplace_back();
    uint64_t offset, bits;
    present_.Position(&offset, &bits);
    group_positions_.back().push_back({StreamKind::kPresent, offset, {0, bits}});
    RecordPositions(&group_positions_.back());
  }
  // Ends the current row group; its statistics go to the row index.
  virtual void FinishGroup() {
    group_stats_.push_back(ToOrcStats(stats_, *type_));
    stripe_acc_.Merge(stats_);
    stats_ = StatsAccumulator();
  }

  // REQUIRES: the last group is finished.
  virtual Status FlushStripe(StripeSink* sink) {
    group_positions_.resize(group_stats_.size());  // drop a group that never got rows
    stream_chunks_.clear();
    if (stripe_has_null_) {
      present_.Flush();
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kPresent, *present_.output()));
    }
    SLUICE_RETURN_NOT_OK(FlushValues(sink));
    if (sink->row_index) SLUICE_RETURN_NOT_OK(WriteRowIndex(sink));
    present_.Reset();
    stripe_has_null_ = false;
    stripe_rows_ = 0;
    stripe_stats_.push_back(ToOrcStats(stripe_acc_, *type_));
    file_stats_.Merge(stripe_acc_);
    stripe_acc_ = StatsAccumulator();
    group_positions_.clear();
    group_stats_.clear();
    return Status::OK();
  }

  // Encoded bytes buffered for the current stripe (before compression).
  virtual int64_t BufferedBytes() const = 0;

  // Statistics per stripe, then of the file, in column order (this column, then children).
  virtual void CollectStripeStats(size_t stripe, std::vector<OrcColumnStatistics>* out) const {
    out->push_back(stripe_stats_[stripe]);
  }
  virtual void CollectFileStats(std::vector<OrcColumnStatistics>* out) const {
    out->push_back(ToOrcStats(file_stats_, *type_));
  }
  const StatsAccumulator& file_stats() const { return file_stats_; }
  // Points the writers at their entries of the finished type list.
  virtual void BindTypes(std::vector<OrcType>* types) { type_ = &(*types)[column_]; }

 protected:
  virtual void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) = 0;
  virtual Status FlushValues(StripeSink* sink) = 0;
  // Appends the positions of this column's value streams (after PRESENT), in reader order.
  virtual void RecordPositions(std::vector<StreamPosition>* out) = 0;
  bool Valid(const ColumnVector& v, int64_t i) const { return !v.IsNull(i); }

  Status AddStream(StripeSink* sink, StreamKind kind, std::string_view bytes) {
    stream_chunks_.push_back({kind, {}, 0});
    size_t before = sink->data.size();
    SLUICE_RETURN_NOT_OK(sink->Add(column_, kind, bytes, &stream_chunks_.back().chunk_starts));
    stream_chunks_.back().compressed_size = sink->data.size() - before;
    return Status::OK();
  }

  Status WriteRowIndex(StripeSink* sink) {
    std::vector<RowIndexEntry> entries(group_stats_.size());
    for (size_t g = 0; g < entries.size(); ++g) {
      entries[g].statistics = group_stats_[g];
      for (const StreamPosition& p : group_positions_[g]) {
        const StreamChunks* chunks = nullptr;
        for (const StreamChunks& c : stream_chunks_) {
          if (c.kind == p.stream) chunks = &c;
        }
        if (chunks == nullptr) continue;  // e.g. no PRESENT stream in this stripe
        auto& out = entries[g].positions;
        if (sink->compression == OrcCompression::kNone) {
          out.push_back(p.offset);
        } else {
          uint64_t chunk = p.offset / sink->block_size;
          if (chunk < chunks->chunk_starts.size()) {
            out.push_back(chunks->chunk_starts[chunk]);
            out.push_back(p.offset % sink->block_size);
          } else {
            out.push_back(chunks->compressed_size);
            out.push_back(0);
          }
        }
        out.insert(out.end(), p.tail.begin(), p.tail.end());
      }
    }
    return sink->AddIndex(column_, SerializeRowIndex(entries));
  }

  struct StreamChunks {
    StreamKind kind;
    std::vector<uint64_t> chunk_starts;
    uint64_t compressed_size;
  };

  uint32_t column_;
  OrcType* type_;
  BooleanRleEncoder present_;
  std::vector<uint8_t> present_scratch_;
  bool stripe_has_null_ = false;
  int64_t stripe_rows_ = 0;
  StatsAccumulator stats_;       // the current row group
  StatsAccumulator stripe_acc_;  // finished groups of the current stripe
  StatsAccumulator file_stats_;
  std::vector<OrcColumnStatistics> stripe_stats_;
  std::vector<std::vector<StreamPosition>> group_positions_;
  std::vector<OrcColumnStatistics> group_stats_;
  std::vector<StreamChunks> stream_chunks_;
};

class BooleanWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.output()->size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    uint64_t offset, bits;
    data_.Position(&offset, &bits);
    out->push_back({StreamKind::kData, offset, {0, bits}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    const uint8_t* values = v.data<uint8_t>();
    for (int64_t i = begin; i < end; ++i) {
      if (!Valid(v, i)) continue;
      uint8_t b = values[i] ? 1 : 0;
      stats_.trues += b;
      data_.Write(&b, 1);
    }
  }
  Status FlushValues(StripeSink* sink) override {
    data_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *data_.output()));
    data_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirect, 0};
    return Status::OK();
  }

 private:
  mutable BooleanRleEncoder data_;
};

class ByteWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.output()->size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    data_.Flush();
    out->push_back({StreamKind::kData, data_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    const int8_t* values = v.data<int8_t>();
    for (int64_t i = begin; i < end; ++i) {
      if (!Valid(v, i)) continue;
      stats_.AddInt(values[i]);
      auto b = static_cast<uint8_t>(values[i]);
      data_.Write(&b, 1);
    }
  }
  Status FlushValues(StripeSink* sink) override {
    data_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *data_.output()));
    data_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirect, 0};
    return Status::OK();
  }

 private:
  mutable ByteRleEncoder data_;
};

template <typename T>
void ForEachValid(const ColumnVector& v, int64_t begin, int64_t end, auto&& fn) {
  const T* values = v.data<T>();
  for (int64_t i = begin; i < end; ++i) {
    if (!v.IsNull(i)) fn(values[i]);
  }
}

class IntegerWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.output()->size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    data_.Flush();
    out->push_back({StreamKind::kData, data_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    auto add = [&](int64_t x) {
      stats_.AddInt(x);
      data_.Write(x);
    };
    switch (v.kind()) {
      case PhysicalKind::kInt16:
        ForEachValid<int16_t>(v, begin, end, add);
        break;
      case PhysicalKind::kInt32:
        ForEachValid<int32_t>(v, begin, end, add);
        break;
      default:
        ForEachValid<int64_t>(v, begin, end, add);
        break;
    }
  }
  Status FlushValues(StripeSink* sink) override {
    data_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *data_.output()));
    data_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    return Status::OK();
  }

 private:
  mutable IntRleV2Encoder data_{true};
};

class FloatingWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override { return static_cast<int64_t>(data_.size()); }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    out->push_back({StreamKind::kData, data_.size(), {}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    if (v.kind() == PhysicalKind::kFloat) {
      ForEachValid<float>(v, begin, end, [&](float f) {
        stats_.AddDouble(f);
        data_.append(reinterpret_cast<const char*>(&f), 4);
      });
    } else {
      ForEachValid<double>(v, begin, end, [&](double d) {
        stats_.AddDouble(d);
        data_.append(reinterpret_cast<const char*>(&d), 8);
      });
    }
  }
  Status FlushValues(StripeSink* sink) override {
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, data_));
    data_.clear();
    sink->encodings[column_] = {EncodingKind::kDirect, 0};
    return Status::OK();
  }

 private:
  std::string data_;
};

class StringWriter : public ColumnWriter {
 public:
  StringWriter(uint32_t column, OrcType* type, bool binary, double dictionary_threshold)
      : ColumnWriter(column, type), binary_(binary), threshold_(dictionary_threshold) {}
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(bytes_.size() + ends_.size() * 2);
  }

 protected:
  // The encoding is chosen at stripe flush, so only the value count is recorded here; the
  // stream positions are filled in by FlushValues.
  void RecordPositions(std::vector<StreamPosition>*) override {
    group_value_starts_.push_back(ends_.size());
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    for (int64_t i = begin; i < end; ++i) {
      if (v.IsNull(i)) continue;
      std::string_view s = v.GetBytes(i);
      if (binary_) {
        stats_.length_sum += static_cast<int64_t>(s.size());
      } else {
        stats_.AddString(s);
      }
      bytes_.append(s);
      ends_.push_back(bytes_.size());
    }
  }
  Status FlushValues(StripeSink* sink) override {
    size_t n = ends_.size();
    auto value = [&](size_t i) {
      size_t b = i == 0 ? 0 : ends_[i - 1];
      return std::string_view(bytes_).substr(b, ends_[i] - b);
    };
    // Like ORC Java, judge the dictionary by the first row group's worth of values, so that
    // unique strings are not sorted only to be written directly.
    bool dictionary = false;
    std::vector<uint32_t> order;
    size_t distinct = 0;
    if (!binary_ && n > 0) {
      size_t sample = std::min<size_t>(n, 10000);
      std::vector<std::string_view> head(sample);
      for (size_t i = 0; i < sample; ++i) head[i] = value(i);
      std::sort(head.begin(), head.end());
      size_t head_distinct =
          static_cast<size_t>(std::unique(head.begin(), head.end()) - head.begin());
      dictionary = static_cast<double>(head_distinct) <= threshold_ * static_cast<double>(sample);
    }
    if (dictionary) {
      order.resize(n);
      std::iota(order.begin(), order.end(), 0u);
      std::sort(order.begin(), order.end(),
                [&](uint32_t a, uint32_t b) { return value(a) < value(b); });
      for (size_t i = 0; i < n; ++i) {
        if (i == 0 || value(order[i]) != value(order[i - 1])) ++distinct;
      }
    }
    // Row groups that started (and got rows) in this stripe, by first value index.
    size_t groups = group_positions_.size();
    auto group_at = [&](size_t g) { return g < groups ? group_value_starts_[g] : SIZE_MAX; };
    IntRleV2Encoder lengths(false);
    if (dictionary) {
      std::vector<uint32_t> ids(n);
      std::string blob;
      uint32_t next = 0;
      for (size_t i = 0; i < n; ++i) {
        if (i > 0 && value(order[i]) != value(order[i - 1])) ++next;
        if (i == 0 || value(order[i]) != value(order[i - 1])) {
          blob.append(value(order[i]));
          lengths.Write(static_cast<int64_t>(value(order[i]).size()));
        }
        ids[order[i]] = next;
      }
      IntRleV2Encoder data(false);
      size_t g = 0;
      for (size_t i = 0; i <= n; ++i) {
        while (group_at(g) == i) {
          data.Flush();
          group_positions_[g++].push_back({StreamKind::kData, data.output()->size(), {0}});
        }
        if (i < n) data.Write(ids[i]);
      }
      data.Flush();
      lengths.Flush();
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *data.output()));
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kDictionaryData, blob));
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kLength, *lengths.output()));
      sink->encodings[column_] = {EncodingKind::kDictionaryV2, static_cast<uint32_t>(distinct)};
    } else {
      size_t g = 0;
      for (size_t i = 0; i <= n; ++i) {
        while (group_at(g) == i) {
          lengths.Flush();
          uint64_t data_offset = i == 0 ? 0 : ends_[i - 1];
          group_positions_[g].push_back({StreamKind::kData, data_offset, {}});
          group_positions_[g++].push_back({StreamKind::kLength, lengths.output()->size(), {0}});
        }
        if (i < n) lengths.Write(static_cast<int64_t>(value(i).size()));
      }
      lengths.Flush();
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, bytes_));
      SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kLength, *lengths.output()));
      sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    }
    group_value_starts_.clear();
    bytes_.clear();
    ends_.clear();
    return Status::OK();
  }

 private:
  bool binary_;
  double threshold_;
  std::string bytes_;
  std::vector<size_t> ends_;
  std::vector<size_t> group_value_starts_;
};

class DecimalWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(data_.size() + scales_.output()->size());
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    out->push_back({StreamKind::kData, data_.size(), {}});
    scales_.Flush();
    out->push_back({StreamKind::kSecondary, scales_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    auto add = [&](int128_t x) {
      stats_.AddDecimal(x);
      auto u = static_cast<unsigned __int128>((x << 1) ^ (x >> 127));
      while (u >= 0x80) {
        data_.push_back(static_cast<char>(static_cast<uint8_t>(u) | 0x80));
        u >>= 7;
      }
      data_.push_back(static_cast<char>(u));
      scales_.Write(type_->scale);
    };
    if (v.kind() == PhysicalKind::kInt64) {
      ForEachValid<int64_t>(v, begin, end, [&](int64_t x) { add(x); });
    } else {
      ForEachValid<int128_t>(v, begin, end, add);
    }
  }
  Status FlushValues(StripeSink* sink) override {
    scales_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, data_));
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kSecondary, *scales_.output()));
    data_.clear();
    scales_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    return Status::OK();
  }

 private:
  std::string data_;
  mutable IntRleV2Encoder scales_{true};
};

class TimestampWriter : public ColumnWriter {
 public:
  using ColumnWriter::ColumnWriter;
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(seconds_.output()->size() + nanos_.output()->size());
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    seconds_.Flush();
    out->push_back({StreamKind::kData, seconds_.output()->size(), {0}});
    nanos_.Flush();
    out->push_back({StreamKind::kSecondary, nanos_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    ForEachValid<Timestamp>(v, begin, end, [&](const Timestamp& ts) {
      stats_.AddTimestamp(ts);
      int64_t secs = ts.millisecond / 1000 - (ts.millisecond % 1000 < 0 ? 1 : 0);
      int64_t ms = ts.millisecond - secs * 1000;
      int64_t nanos = ms * 1000000 + ts.nano_of_millisecond;
      // Readers subtract a second from negative times with sub-millisecond... millisecond
      // fractions (the Java writer truncates toward zero); store what they undo.
      if (secs < 0 && nanos > 999999) secs += 1;
      seconds_.Write(secs - kOrcEpochSeconds);
      nanos_.Write(static_cast<int64_t>(EncodeNanos(nanos)));
    });
  }
  Status FlushValues(StripeSink* sink) override {
    seconds_.Flush();
    nanos_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kData, *seconds_.output()));
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kSecondary, *nanos_.output()));
    seconds_.Reset();
    nanos_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    return Status::OK();
  }

 private:
  // Trailing decimal zeros are dropped and their count (minus one) kept in the low 3 bits.
  static uint64_t EncodeNanos(int64_t nanos) {
    if (nanos == 0) return 0;
    if (nanos % 100 != 0) return static_cast<uint64_t>(nanos) << 3;
    nanos /= 100;
    int zeros = 1;
    while (nanos % 10 == 0 && zeros < 7) {
      nanos /= 10;
      ++zeros;
    }
    return (static_cast<uint64_t>(nanos) << 3) | static_cast<uint64_t>(zeros);
  }

  mutable IntRleV2Encoder seconds_{true};
  mutable IntRleV2Encoder nanos_{false};
};

// A column with child columns: statistics, row groups and type binding pass on to the
// children after the column itself.
class NestedWriter : public ColumnWriter {
 public:
  NestedWriter(uint32_t column, OrcType* type, std::vector<std::unique_ptr<ColumnWriter>> children)
      : ColumnWriter(column, type), children_(std::move(children)) {}
  int64_t BufferedBytes() const override {
    int64_t total = 0;
    for (const auto& c : children_) total += c->BufferedBytes();
    return total;
  }
  void CollectStripeStats(size_t stripe, std::vector<OrcColumnStatistics>* out) const override {
    ColumnWriter::CollectStripeStats(stripe, out);
    for (const auto& c : children_) c->CollectStripeStats(stripe, out);
  }
  void CollectFileStats(std::vector<OrcColumnStatistics>* out) const override {
    ColumnWriter::CollectFileStats(out);
    for (const auto& c : children_) c->CollectFileStats(out);
  }
  void StartGroup() override {
    ColumnWriter::StartGroup();
    for (auto& c : children_) c->StartGroup();
  }
  void FinishGroup() override {
    ColumnWriter::FinishGroup();
    for (auto& c : children_) c->FinishGroup();
  }
  void BindTypes(std::vector<OrcType>* types) override {
    ColumnWriter::BindTypes(types);
    for (auto& c : children_) c->BindTypes(types);
  }

 protected:
  std::vector<std::unique_ptr<ColumnWriter>> children_;
};

class StructWriter : public NestedWriter {
 public:
  using NestedWriter::NestedWriter;
  const ColumnWriter& child(size_t i) const { return *children_[i]; }
  // Writes rows [begin, end) of a batch as the rows of this (root) struct.
  void WriteBatch(const ColumnBatch& batch, int64_t begin, int64_t end) {
    WritePresentRows(end - begin);
    for (size_t c = 0; c < children_.size(); ++c) {
      children_[c]->Write(*batch.column(static_cast<int>(c)), begin, end);
    }
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>*) override {}
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    // Children hold values only for rows where the struct is present.
    int64_t run = begin;
    for (int64_t i = begin; i <= end; ++i) {
      if (i == end || v.IsNull(i)) {
        if (i > run) {
          for (size_t c = 0; c < children_.size(); ++c) {
            children_[c]->Write(*v.child(static_cast<int>(c)), run, i);
          }
        }
        run = i + 1;
      }
    }
  }
  Status FlushValues(StripeSink* sink) override {
    sink->encodings[column_] = {EncodingKind::kDirect, 0};
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->FlushStripe(sink));
    return Status::OK();
  }
};

class RepeatedWriter : public NestedWriter {
 public:
  using NestedWriter::NestedWriter;
  int64_t BufferedBytes() const override {
    return static_cast<int64_t>(lengths_.output()->size()) + NestedWriter::BufferedBytes();
  }

 protected:
  void RecordPositions(std::vector<StreamPosition>* out) override {
    lengths_.Flush();
    out->push_back({StreamKind::kLength, lengths_.output()->size(), {0}});
  }
  void WriteValues(const ColumnVector& v, int64_t begin, int64_t end) override {
    for (int64_t i = begin; i < end; ++i) {
      if (v.IsNull(i)) continue;
      lengths_.Write(v.ListEnd(i) - v.ListBegin(i));
    }
    // Elements of null rows form empty ranges, so the whole span can be written at once.
    int32_t first = v.ListBegin(begin);
    int32_t last = v.ListEnd(end - 1);
    if (last > first) {
      for (size_t c = 0; c < children_.size(); ++c) {
        children_[c]->Write(*v.child(static_cast<int>(c)), first, last);
      }
    }
  }
  Status FlushValues(StripeSink* sink) override {
    lengths_.Flush();
    SLUICE_RETURN_NOT_OK(AddStream(sink, StreamKind::kLength, *lengths_.output()));
    lengths_.Reset();
    sink->encodings[column_] = {EncodingKind::kDirectV2, 0};
    for (auto& c : children_) SLUICE_RETURN_NOT_OK(c->FlushStripe(sink));
    return Status::OK();
  }

 private:
  mutable IntRleV2Encoder lengths_{false};
};

// Builds the ORC type list (pre-order) and the matching writers.
class SchemaBuilder {
 public:
  explicit SchemaBuilder(double threshold) : threshold_(threshold) {}
  std::vector<OrcType> types;

  Result<std::unique_ptr<ColumnWriter>> Build(const DataType& type, int32_t id, int32_t parent_id,
                                              int depth, const std::string& path) {
    auto column = static_cast<uint32_t>(types.size());
    types.emplace_back();
    types.back().attributes.emplace_back("paimon.id", std::to_string(id));
    auto set = [&](OrcTypeKind kind) { types[column].kind = kind; };
    auto self = [&]() { return &types[column]; };
    switch (type.root()) {
      case TypeRoot::kBoolean:
        set(OrcTypeKind::kBoolean);
        return Writer<BooleanWriter>(column);
      case TypeRoot::kTinyInt:
        set(OrcTypeKind::kByte);
        return Writer<ByteWriter>(column);
      case TypeRoot::kSmallInt:
        set(OrcTypeKind::kShort);
        return Writer<IntegerWriter>(column);
      case TypeRoot::kInt:
      case TypeRoot::kTime:
        set(OrcTypeKind::kInt);
        return Writer<IntegerWriter>(column);
      case TypeRoot::kBigInt:
        set(OrcTypeKind::kLong);
        return Writer<IntegerWriter>(column);
      case TypeRoot::kDate:
        set(OrcTypeKind::kDate);
        return Writer<IntegerWriter>(column);
      case TypeRoot::kFloat:
        set(OrcTypeKind::kFloat);
        return Writer<FloatingWriter>(column);
      case TypeRoot::kDouble:
        set(OrcTypeKind::kDouble);
        return Writer<FloatingWriter>(column);
      case TypeRoot::kDecimal:
        set(OrcTypeKind::kDecimal);
        self()->precision = static_cast<uint32_t>(type.precision());
        self()->scale = static_cast<uint32_t>(type.scale());
        return Writer<DecimalWriter>(column);
      case TypeRoot::kChar:
        set(OrcTypeKind::kChar);
        self()->maximum_length = static_cast<uint32_t>(type.length());
        return StringColumn(column, false);
      case TypeRoot::kVarChar:
        if (type.length() == DataType::kMaxLength) {
          set(OrcTypeKind::kString);
        } else {
          set(OrcTypeKind::kVarchar);
          self()->maximum_length = static_cast<uint32_t>(type.length());
        }
        return StringColumn(column, false);
      case TypeRoot::kBinary:
      case TypeRoot::kVarBinary:
      case TypeRoot::kBlob:
        set(OrcTypeKind::kBinary);
        return StringColumn(column, true);
      case TypeRoot::kTimestamp:
        set(OrcTypeKind::kTimestamp);
        return Writer<TimestampWriter>(column);
      case TypeRoot::kTimestampLtz:
        set(OrcTypeKind::kTimestampInstant);
        return Writer<TimestampWriter>(column);
      case TypeRoot::kArray: {
        set(OrcTypeKind::kList);
        std::vector<std::unique_ptr<ColumnWriter>> children;
        types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
        SLUICE_ASSIGN_OR_RETURN(
            auto e, Build(*type.element(), kElementIdBase + parent_id * 1024 + depth, parent_id,
                          depth + 1, path + "[]"));
        children.push_back(std::move(e));
        return Repeated(column, std::move(children));
      }
      case TypeRoot::kMap:
      case TypeRoot::kMultiset: {
        set(OrcTypeKind::kMap);
        bool multiset = type.root() == TypeRoot::kMultiset;
        DataTypePtr key = multiset ? type.element() : type.key();
        DataTypePtr value = multiset ? DataType::Int(false) : type.value();
        std::vector<std::unique_ptr<ColumnWriter>> children;
        types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
        SLUICE_ASSIGN_OR_RETURN(auto k, Build(*key, kElementIdBase - parent_id * 1024 - depth,
                                              parent_id, depth + 1, path + ".key"));
        types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
        SLUICE_ASSIGN_OR_RETURN(auto v, Build(*value, kElementIdBase + parent_id * 1024 + depth,
                                              parent_id, depth + 1, path + ".value"));
        children.push_back(std::move(k));
        children.push_back(std::move(v));
        return Repeated(column, std::move(children));
      }
      case TypeRoot::kRow: {
        set(OrcTypeKind::kStruct);
        std::vector<std::unique_ptr<ColumnWriter>> children;
        for (const DataField& f : type.fields()) {
          types[column].subtypes.push_back(static_cast<uint32_t>(types.size()));
          types[column].field_names.push_back(f.name);
          SLUICE_ASSIGN_OR_RETURN(
              auto c, Build(*f.type, f.id, f.id, 1, path.empty() ? f.name : path + "." + f.name));
          children.push_back(std::move(c));
        }
        // The root struct carries no id.
        if (column == 0) types[0].attributes.clear();
        std::unique_ptr<ColumnWriter> w(new StructWriter(column, nullptr, std::move(children)));
        return w;
      }
      default:
        return Status::NotSupported("ORC cannot store column '" + path + "' of type " +
                                    type.ToString());
    }
  }

 private:
  template <typename W>
  Result<std::unique_ptr<ColumnWriter>> Writer(uint32_t column) {
    return std::unique_ptr<ColumnWriter>(new W(column, nullptr));
  }
  Result<std::unique_ptr<ColumnWriter>> StringColumn(uint32_t column, bool binary) {
    return std::unique_ptr<ColumnWriter>(new StringWriter(column, nullptr, binary, threshold_));
  }
  Result<std::unique_ptr<ColumnWriter>> Repeated(
      uint32_t column, std::vector<std::unique_ptr<ColumnWriter>> children) {
    return std::unique_ptr<ColumnWriter>(new RepeatedWriter(column, nullptr, std::move(children)));
  }

  double threshold_;
};

// ---------------------------------------------------------------- the file writer

Result<OrcCompression> ParseOrcCompression(const WriterOptions& options) {
  std::string name = options.compression;
  auto it = options.options.find("orc.compress");
  if (it != options.options.end()) name = it->second;
  const std::string lower = AsciiToLower(name);
  if (lower == "none" || lower == "uncompressed" || lower.empty()) return OrcCompression::kNone;
  if (lower == "zlib" || lower == "deflate" || lower == "gzip") return OrcCompression::kZlib;
  if (lower == "snappy") return OrcCompression::kSnappy;
  if (lower == "lz4") return OrcCompression::kLz4;
  if (lower == "zstd" || lower == "zstandard") return OrcCompression::kZstd;
  return Status::NotSupported("ORC compression '" + name + "' is not supported");
}

Result<uint64_t> OptionBytes(const WriterOptions& options, const std::string& key,
                             uint64_t fallback) {
  auto it = options.options.find(key);
  if (it == options.options.end()) return fallback;
  char* end = nullptr;
  unsigned long long v = std::strtoull(it->second.c_str(), &end, 10);
  if (end == it->second.c_str() || *end != '\0' || v == 0) {
    return Status::InvalidArgument("option " + key + ": bad value '" + it->second + "'");
  }
  return static_cast<uint64_t>(v);
}

class OrcWriter : public FormatWriter {
 public:
  OrcWriter(std::unique_ptr<WritableFile> file, DataTypePtr write_type)
      : file_(std::move(file)), write_type_(std::move(write_type)) {}

  Status Init(const WriterOptions& options) {
    SLUICE_ASSIGN_OR_RETURN(compression_, ParseOrcCompression(options));
    level_ = options.compression_level;
    SLUICE_ASSIGN_OR_RETURN(stripe_size_, OptionBytes(options, "orc.stripe.size", 64 << 20));
    SLUICE_ASSIGN_OR_RETURN(block_size_, OptionBytes(options, "orc.compress.size", 256 << 10));
    auto stride = options.options.find("orc.row.index.stride");
    if (stride != options.options.end()) {
      row_index_stride_ = std::strtoll(stride->second.c_str(), nullptr, 10);
      if (row_index_stride_ < 0) row_index_stride_ = 0;
    }
    if (block_size_ >= (uint64_t{1} << 23)) {
      return Status::InvalidArgument("orc.compress.size must be below 8 MiB");
    }
    double threshold = 0.8;
    auto it = options.options.find("orc.dictionary.key.threshold");
    if (it != options.options.end()) threshold = std::strtod(it->second.c_str(), nullptr);
    SchemaBuilder builder(threshold);
    SLUICE_ASSIGN_OR_RETURN(root_, builder.Build(*write_type_, 0, 0, 1, ""));
    types_ = std::move(builder.types);
    root_->BindTypes(&types_);
    root_->StartGroup();
    SLUICE_RETURN_NOT_OK(Append("ORC"));
    return Status::OK();
  }

  Status Write(const ColumnBatch& batch) override {
    if (finished_) return Status::InvalidArgument(file_->path() + ": ORC writer already finished");
    int64_t n = batch.num_rows();
    if (n == 0) return Status::OK();
    if (batch.num_columns() != write_type_->num_fields()) {
      return Status::InvalidArgument(file_->path() + ": batch has " +
                                     std::to_string(batch.num_columns()) + " columns, expected " +
                                     std::to_string(write_type_->num_fields()));
    }
    // Split the batch at row-group boundaries, where every column records its positions.
    auto* root = static_cast<StructWriter*>(root_.get());
    for (int64_t pos = 0; pos < n;) {
      int64_t k = n - pos;
      if (row_index_stride_ > 0) k = std::min(k, row_index_stride_ - group_rows_);
      root->WriteBatch(batch, pos, pos + k);
      pos += k;
      group_rows_ += k;
      stripe_rows_ += k;
      rows_ += k;
      if (static_cast<uint64_t>(root_->BufferedBytes()) >= stripe_size_) {
        SLUICE_RETURN_NOT_OK(FlushStripe());
      } else if (row_index_stride_ > 0 && group_rows_ == row_index_stride_) {
        root_->FinishGroup();
        root_->StartGroup();
        group_rows_ = 0;
      }
    }
    return Status::OK();
  }

  int64_t EstimatedSize() const override { return file_->bytes_written() + root_->BufferedBytes(); }

  Result<WriteResult> Finish() override {
    if (finished_) return Status::InvalidArgument(file_->path() + ": ORC writer already finished");
    finished_ = true;
    if (stripe_rows_ > 0) SLUICE_RETURN_NOT_OK(FlushStripe());
    uint64_t content_end = static_cast<uint64_t>(file_->bytes_written());

    std::vector<StripeStatistics> stripe_stats(stripes_.size());
    for (size_t s = 0; s < stripes_.size(); ++s) {
      root_->CollectStripeStats(s, &stripe_stats[s].column_stats);
    }
    std::string metadata;
    SLUICE_RETURN_NOT_OK(EncodeStream(SerializeMetadata(stripe_stats), compression_, block_size_,
                                      level_, &metadata));
    Footer footer;
    footer.header_length = 3;
    footer.content_length = content_end - 3;
    footer.stripes = stripes_;
    footer.types = types_;
    footer.number_of_rows = static_cast<uint64_t>(rows_);
    root_->CollectFileStats(&footer.statistics);
    footer.row_index_stride = static_cast<uint32_t>(row_index_stride_);
    footer.software_version = "sluice";
    std::string footer_bytes;
    SLUICE_RETURN_NOT_OK(
        EncodeStream(SerializeFooter(footer), compression_, block_size_, level_, &footer_bytes));
    PostScript ps;
    ps.footer_length = footer_bytes.size();
    ps.compression = compression_;
    ps.compression_block_size = block_size_;
    ps.version = {0, 12};
    ps.metadata_length = metadata.size();
    ps.writer_version = 6;  // ORC-135: timestamp statistics in UTC
    std::string ps_bytes = SerializePostScript(ps);
    SLUICE_RETURN_NOT_OK(Append(metadata));
    SLUICE_RETURN_NOT_OK(Append(footer_bytes));
    SLUICE_RETURN_NOT_OK(Append(ps_bytes));
    char len = static_cast<char>(ps_bytes.size());
    SLUICE_RETURN_NOT_OK(Append(std::string_view(&len, 1)));
    SLUICE_RETURN_NOT_OK(file_->Close());

    WriteResult result;
    result.row_count = rows_;
    result.file_size = file_->bytes_written();
    const auto* root = static_cast<const StructWriter*>(root_.get());
    for (int f = 0; f < write_type_->num_fields(); ++f) {
      result.stats.push_back(ToPaimonStats(root->child(static_cast<size_t>(f)).file_stats(),
                                           *write_type_->fields()[static_cast<size_t>(f)].type,
                                           rows_));
    }
    return result;
  }

 private:
  Status Append(std::string_view bytes) {
    Status st = file_->Append(bytes);
    return st.ok() ? st : st.WithContext("ORC file '" + file_->path() + "'");
  }

  Status FlushStripe() {
    StripeSink sink{compression_, block_size_, level_, row_index_stride_ > 0, {}, {}, {}, {}, {}};
    sink.encodings.assign(types_.size(), ColumnEncoding{});
    if (group_rows_ > 0) root_->FinishGroup();
    SLUICE_RETURN_NOT_OK(root_->FlushStripe(&sink));
    root_->StartGroup();
    group_rows_ = 0;
    StripeFooter sf;
    sf.streams = std::move(sink.index_streams);
    sf.streams.insert(sf.streams.end(), sink.streams.begin(), sink.streams.end());
    sf.columns = std::move(sink.encodings);
    sf.writer_timezone = "UTC";
    std::string footer;
    SLUICE_RETURN_NOT_OK(
        EncodeStream(SerializeStripeFooter(sf), compression_, block_size_, level_, &footer));
    StripeInformation info;
    info.offset = static_cast<uint64_t>(file_->bytes_written());
    info.index_length = sink.index.size();
    info.data_length = sink.data.size();
    info.footer_length = footer.size();
    info.number_of_rows = static_cast<uint64_t>(stripe_rows_);
    SLUICE_RETURN_NOT_OK(Append(sink.index));
    SLUICE_RETURN_NOT_OK(Append(sink.data));
    SLUICE_RETURN_NOT_OK(Append(footer));
    stripes_.push_back(info);
    stripe_rows_ = 0;
    return Status::OK();
  }

  std::unique_ptr<WritableFile> file_;
  DataTypePtr write_type_;
  OrcCompression compression_ = OrcCompression::kZstd;
  int level_ = 1;
  uint64_t stripe_size_ = 0;
  uint64_t block_size_ = 0;
  std::vector<OrcType> types_;
  std::unique_ptr<ColumnWriter> root_;
  std::vector<StripeInformation> stripes_;
  int64_t row_index_stride_ = 10000;
  int64_t group_rows_ = 0;
  int64_t stripe_rows_ = 0;
  int64_t rows_ = 0;
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<FormatWriter>> MakeOrcWriter(std::unique_ptr<WritableFile> file,
                                                    DataTypePtr write_type,
                                                    const WriterOptions& options) {
  if (write_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("ORC write type must be a ROW, got " + write_type->ToString());
  }
  auto writer = std::make_unique<OrcWriter>(std::move(file), std::move(write_type));
  SLUICE_RETURN_NOT_OK(writer->Init(options));
  return std::unique_ptr<FormatWriter>(std::move(writer));
}

}  // namespace sluice::orc
