#include "sluice/format/orc/writer/stats_accumulator.h"

namespace sluice::orc {

namespace {

std::string DecimalText(int128_t v, int scale) { return Decimal{v, 38, scale}.ToString(); }

}  // namespace

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

}  // namespace sluice::orc
