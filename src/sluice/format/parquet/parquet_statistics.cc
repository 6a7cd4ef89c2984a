#include "sluice/format/parquet/parquet_statistics.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <string>

namespace sluice::parquet {

namespace {

template <typename T>
std::optional<T> LoadExact(const std::string& s) {
  if (s.size() != sizeof(T)) return std::nullopt;
  T v;
  std::memcpy(&v, s.data(), sizeof(T));
  return v;
}

std::optional<Value> Decode(const std::string& s, const SchemaNode& leaf, const DataType& type) {
  const SchemaElement& e = *leaf.element;
  const PhysicalType pt = *e.type;
  auto time_unit = [&]() {
    if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kTimestamp) {
      return e.logical_type->unit;
    }
    if (e.converted_type == ConvertedType::kTimestampMillis) return TimeUnit::kMillis;
    if (e.converted_type == ConvertedType::kTimestampMicros) return TimeUnit::kMicros;
    int p = type.precision();
    return p <= 3 ? TimeUnit::kMillis : p <= 6 ? TimeUnit::kMicros : TimeUnit::kNanos;
  };
  switch (type.root()) {
    case TypeRoot::kBoolean:
      if (pt != PhysicalType::kBoolean || s.size() != 1) return std::nullopt;
      return Value::Boolean(s[0] != 0);
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime: {
      if (pt != PhysicalType::kInt32) return std::nullopt;
      auto v = LoadExact<int32_t>(s);
      if (!v) return std::nullopt;
      if (type.root() == TypeRoot::kTinyInt) return Value::Int8(static_cast<int8_t>(*v));
      if (type.root() == TypeRoot::kSmallInt) return Value::Int16(static_cast<int16_t>(*v));
      return Value::Int32(*v);
    }
    case TypeRoot::kBigInt: {
      if (pt == PhysicalType::kInt64) {
        auto v = LoadExact<int64_t>(s);
        if (v) return Value::Int64(*v);
      } else if (pt == PhysicalType::kInt32) {
        auto v = LoadExact<int32_t>(s);
        if (v) return Value::Int64(*v);
      }
      return std::nullopt;
    }
    case TypeRoot::kFloat: {
      auto v = pt == PhysicalType::kFloat ? LoadExact<float>(s) : std::nullopt;
      if (!v || std::isnan(*v)) return std::nullopt;
      return Value::Float(*v);
    }
    case TypeRoot::kDouble: {
      std::optional<double> v;
      if (pt == PhysicalType::kDouble) v = LoadExact<double>(s);
      if (pt == PhysicalType::kFloat) {
        auto f = LoadExact<float>(s);
        if (f) v = *f;
      }
      if (!v || std::isnan(*v)) return std::nullopt;
      return Value::Double(*v);
    }
    case TypeRoot::kDecimal: {
      int128_t unscaled;
      if (pt == PhysicalType::kInt32) {
        auto v = LoadExact<int32_t>(s);
        if (!v) return std::nullopt;
        unscaled = *v;
      } else if (pt == PhysicalType::kInt64) {
        auto v = LoadExact<int64_t>(s);
        if (!v) return std::nullopt;
        unscaled = *v;
      } else {
        if (s.empty() || s.size() > 16) return std::nullopt;
        using u128 = unsigned __int128;
        u128 u = (static_cast<uint8_t>(s[0]) & 0x80) ? ~u128{0} : u128{0};
        for (char c : s) u = (u << 8) | static_cast<uint8_t>(c);
        unscaled = static_cast<int128_t>(u);
      }
      return Value::FromDecimal(Decimal{unscaled, type.precision(), type.scale()});
    }
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return Value::String(s);
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return Value::Binary(s);
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      if (pt != PhysicalType::kInt64) return std::nullopt;
      auto v = LoadExact<int64_t>(s);
      if (!v) return std::nullopt;
      TimeUnit u = time_unit();
      if (u == TimeUnit::kMillis) return Value::FromTimestamp(Timestamp{*v, 0});
      if (u == TimeUnit::kMicros) return Value::FromTimestamp(Timestamp::FromEpochMicros(*v));
      return Value::FromTimestamp(Timestamp::FromEpochNanos(*v));
    }
    default:
      return std::nullopt;
  }
}

bool IsUnsignedLeaf(const SchemaElement& e) {
  if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kInteger) {
    return !e.logical_type->is_signed;
  }
  return e.converted_type == ConvertedType::kUint8 || e.converted_type == ConvertedType::kUint16 ||
         e.converted_type == ConvertedType::kUint32 || e.converted_type == ConvertedType::kUint64;
}

}  // namespace

ColumnStats ToColumnStats(const Statistics& stats, const SchemaNode& leaf, const DataType& type,
                          bool type_defined_order) {
  ColumnStats out;
  out.null_count = stats.null_count;
  const SchemaElement& e = *leaf.element;
  const PhysicalType pt = *e.type;
  if (pt == PhysicalType::kInt96 || IsUnsignedLeaf(e) || leaf.rep_level > 0) return out;
  if (e.logical_type && e.logical_type->kind == LogicalType::Kind::kFloat16) return out;
  const bool bytes = pt == PhysicalType::kByteArray || pt == PhysicalType::kFixedLenByteArray;
  const std::string* min = nullptr;
  const std::string* max = nullptr;
  if (stats.min_value && stats.max_value && (type_defined_order || !bytes)) {
    min = &*stats.min_value;
    max = &*stats.max_value;
  } else if (stats.min && stats.max && !bytes) {
    // Legacy signed-order statistics are right for every non-byte type we accept here.
    min = &*stats.min;
    max = &*stats.max;
  }
  if (min == nullptr) return out;
  std::optional<Value> lo = Decode(*min, leaf, type);
  std::optional<Value> hi = Decode(*max, leaf, type);
  if (!lo || !hi) return out;
  // -0.0 and +0.0 compare equal but writers disagree on which bound to record.
  if (lo->kind() == Value::Kind::kFloat && lo->float32() == 0.0f) lo = Value::Float(-0.0f);
  if (hi->kind() == Value::Kind::kFloat && hi->float32() == 0.0f) hi = Value::Float(0.0f);
  if (lo->kind() == Value::Kind::kDouble && lo->float64() == 0.0) lo = Value::Double(-0.0);
  if (hi->kind() == Value::Kind::kDouble && hi->float64() == 0.0) hi = Value::Double(0.0);
  out.min = std::move(lo);
  out.max = std::move(hi);
  return out;
}

}  // namespace sluice::parquet
