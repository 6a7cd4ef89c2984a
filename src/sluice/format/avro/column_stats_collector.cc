#include "sluice/format/avro/column_stats_collector.h"

#include <cmath>
#include <string_view>

namespace sluice {

namespace {

// Java's Float.compare / Double.compare: -0.0 < 0.0 and NaN above everything.
template <typename F>
bool JavaLess(F a, F b) {
  bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return !a_nan && b_nan;
  if (a < b) return true;
  if (a > b) return false;
  return std::signbit(a) && !std::signbit(b);
}

}  // namespace

ColumnStatsCollector::ColumnStatsCollector(DataTypePtr type) : type_(std::move(type)) {
  switch (type_->root()) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      order_ = Order::kInteger;
      break;
    case TypeRoot::kDecimal:
      order_ = type_->IsCompactDecimal() ? Order::kInteger : Order::kInt128;
      break;
    case TypeRoot::kFloat:
      order_ = Order::kFloat;
      break;
    case TypeRoot::kDouble:
      order_ = Order::kDouble;
      break;
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      order_ = Order::kTimestamp;
      break;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      order_ = Order::kBytes;
      break;
    default:
      order_ = Order::kNone;
      break;
  }
}

template <typename T, typename Less>
void ColumnStatsCollector::UpdateFixed(const ColumnVector& v, T* min, T* max, Less less) {
  const T* data = v.data<T>();
  int64_t n = v.size();
  for (int64_t i = 0; i < n; ++i) {
    if (v.IsNull(i)) continue;
    T x = data[i];
    if (!has_value_) {
      *min = *max = x;
      has_value_ = true;
      continue;
    }
    if (less(x, *min)) *min = x;
    if (less(*max, x)) *max = x;
  }
}

void ColumnStatsCollector::Update(const ColumnVector& v) {
  null_count_ += v.CountNulls();
  auto lt = [](auto a, auto b) { return a < b; };
  switch (order_) {
    case Order::kNone:
      return;
    case Order::kInteger:
      switch (v.kind()) {
        case PhysicalKind::kUInt8: {
          uint8_t mn = static_cast<uint8_t>(min_int_), mx = static_cast<uint8_t>(max_int_);
          UpdateFixed<uint8_t>(v, &mn, &mx, lt);
          min_int_ = mn, max_int_ = mx;
          return;
        }
        case PhysicalKind::kInt8: {
          int8_t mn = static_cast<int8_t>(min_int_), mx = static_cast<int8_t>(max_int_);
          UpdateFixed<int8_t>(v, &mn, &mx, lt);
          min_int_ = mn, max_int_ = mx;
          return;
        }
        case PhysicalKind::kInt16: {
          int16_t mn = static_cast<int16_t>(min_int_), mx = static_cast<int16_t>(max_int_);
          UpdateFixed<int16_t>(v, &mn, &mx, lt);
          min_int_ = mn, max_int_ = mx;
          return;
        }
        case PhysicalKind::kInt32: {
          int32_t mn = static_cast<int32_t>(min_int_), mx = static_cast<int32_t>(max_int_);
          UpdateFixed<int32_t>(v, &mn, &mx, lt);
          min_int_ = mn, max_int_ = mx;
          return;
        }
        default:
          UpdateFixed<int64_t>(v, &min_int_, &max_int_, lt);
          return;
      }
    case Order::kFloat:
      UpdateFixed<float>(v, &min_float_, &max_float_, JavaLess<float>);
      return;
    case Order::kDouble:
      UpdateFixed<double>(v, &min_double_, &max_double_, JavaLess<double>);
      return;
    case Order::kInt128:
      UpdateFixed<int128_t>(v, &min_int128_, &max_int128_, lt);
      return;
    case Order::kTimestamp:
      UpdateFixed<Timestamp>(v, &min_ts_, &max_ts_, lt);
      return;
    case Order::kBytes: {
      int64_t n = v.size();
      for (int64_t i = 0; i < n; ++i) {
        if (v.IsNull(i)) continue;
        std::string_view s = v.GetBytes(i);
        if (!has_value_) {
          min_bytes_.assign(s);
          max_bytes_.assign(s);
          has_value_ = true;
          continue;
        }
        // Byte order of UTF-8 is code-point order, which is how Java compares BinaryString.
        if (s < std::string_view(min_bytes_)) min_bytes_.assign(s);
        if (std::string_view(max_bytes_) < s) max_bytes_.assign(s);
      }
      return;
    }
  }
}

ColumnStats ColumnStatsCollector::Finish() const {
  ColumnStats stats;
  stats.null_count = null_count_;
  if (!has_value_) return stats;
  auto integer = [&](int64_t x) -> Value {
    switch (type_->root()) {
      case TypeRoot::kBoolean:
        return Value::Boolean(x != 0);
      case TypeRoot::kTinyInt:
        return Value::Int8(static_cast<int8_t>(x));
      case TypeRoot::kSmallInt:
        return Value::Int16(static_cast<int16_t>(x));
      case TypeRoot::kInt:
      case TypeRoot::kDate:
      case TypeRoot::kTime:
        return Value::Int32(static_cast<int32_t>(x));
      case TypeRoot::kDecimal:
        return Value::FromDecimal(Decimal{x, type_->precision(), type_->scale()});
      default:
        return Value::Int64(x);
    }
  };
  switch (order_) {
    case Order::kNone:
      break;
    case Order::kInteger:
      stats.min = integer(min_int_);
      stats.max = integer(max_int_);
      break;
    case Order::kFloat:
      stats.min = Value::Float(min_float_);
      stats.max = Value::Float(max_float_);
      break;
    case Order::kDouble:
      stats.min = Value::Double(min_double_);
      stats.max = Value::Double(max_double_);
      break;
    case Order::kInt128:
      stats.min = Value::FromDecimal(Decimal{min_int128_, type_->precision(), type_->scale()});
      stats.max = Value::FromDecimal(Decimal{max_int128_, type_->precision(), type_->scale()});
      break;
    case Order::kTimestamp:
      stats.min = Value::FromTimestamp(min_ts_);
      stats.max = Value::FromTimestamp(max_ts_);
      break;
    case Order::kBytes:
      stats.min = Value::String(min_bytes_);
      stats.max = Value::String(max_bytes_);
      break;
  }
  return stats;
}

}  // namespace sluice
