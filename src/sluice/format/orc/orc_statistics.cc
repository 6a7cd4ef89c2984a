#include "sluice/format/orc/orc_statistics.h"

#include <cmath>
#include <string>

namespace sluice::orc {

namespace {

std::optional<Value> IntValue(int64_t v, TypeRoot root) {
  switch (root) {
    case TypeRoot::kTinyInt:
      if (v < INT8_MIN || v > INT8_MAX) return std::nullopt;
      return Value::Int8(static_cast<int8_t>(v));
    case TypeRoot::kSmallInt:
      if (v < INT16_MIN || v > INT16_MAX) return std::nullopt;
      return Value::Int16(static_cast<int16_t>(v));
    case TypeRoot::kInt:
    case TypeRoot::kDate:
    case TypeRoot::kTime:
      if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
      return Value::Int32(static_cast<int32_t>(v));
    case TypeRoot::kBigInt:
      return Value::Int64(v);
    default:
      return std::nullopt;
  }
}

}  // namespace

bool ParseDecimalText(std::string_view text, int scale, int128_t* out) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  int128_t v = 0;
  int frac = -1;
  int digits = 0;
  bool round_up = false;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (frac >= 0) return false;
      frac = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    if (frac >= 0 && frac >= scale) {
      if (frac == scale && c >= '5') round_up = true;
      ++frac;
      continue;
    }
    if (++digits > 38) return false;
    v = v * 10 + (c - '0');
    if (frac >= 0) ++frac;
  }
  int have = frac < 0 ? 0 : std::min(frac, scale);
  for (int k = have; k < scale; ++k) {
    if (++digits > 38) return false;
    v *= 10;
  }
  if (round_up) v += 1;
  *out = negative ? -v : v;
  return true;
}

ColumnStats ToColumnStats(const OrcColumnStatistics& s, const OrcType& orc,
                          const DataType& read_type, int64_t rows, uint32_t writer_version) {
  ColumnStats out;
  if (s.number_of_values) {
    auto values = static_cast<int64_t>(*s.number_of_values);
    if (values <= rows) out.null_count = rows - values;
  }
  TypeRoot root = read_type.root();
  switch (orc.kind) {
    case OrcTypeKind::kByte:
    case OrcTypeKind::kShort:
    case OrcTypeKind::kInt:
    case OrcTypeKind::kLong:
      if (s.int_min && s.int_max) {
        out.min = IntValue(*s.int_min, root);
        out.max = IntValue(*s.int_max, root);
      }
      break;
    case OrcTypeKind::kDate:
      if (s.date_min && s.date_max) {
        out.min = IntValue(*s.date_min, root);
        out.max = IntValue(*s.date_max, root);
      }
      break;
    case OrcTypeKind::kFloat:
    case OrcTypeKind::kDouble:
      if (s.double_min && s.double_max && !std::isnan(*s.double_min) &&
          !std::isnan(*s.double_max)) {
        if (root == TypeRoot::kFloat) {
          out.min = Value::Float(static_cast<float>(*s.double_min));
          out.max = Value::Float(static_cast<float>(*s.double_max));
        } else if (root == TypeRoot::kDouble) {
          out.min = Value::Double(*s.double_min);
          out.max = Value::Double(*s.double_max);
        }
      }
      break;
    case OrcTypeKind::kString:
    case OrcTypeKind::kVarchar:
      if (writer_version >= 1 && s.string_min && s.string_max && read_type.IsString()) {
        out.min = Value::String(*s.string_min);
        out.max = Value::String(*s.string_max);
      }
      break;
    case OrcTypeKind::kBoolean:
      if (!s.bucket_counts.empty() && s.number_of_values && root == TypeRoot::kBoolean) {
        uint64_t trues = s.bucket_counts[0];
        uint64_t values = *s.number_of_values;
        if (values > 0) {
          out.min = Value::Boolean(trues == values);
          out.max = Value::Boolean(trues > 0);
        }
      }
      break;
    case OrcTypeKind::kDecimal:
      if (s.decimal_min && s.decimal_max && root == TypeRoot::kDecimal) {
        int128_t lo, hi;
        if (ParseDecimalText(*s.decimal_min, read_type.scale(), &lo) &&
            ParseDecimalText(*s.decimal_max, read_type.scale(), &hi)) {
          // Rounding at the read scale may move a bound inward by one unit: widen it.
          out.min = Value::FromDecimal(Decimal{lo - 1, read_type.precision(), read_type.scale()});
          out.max = Value::FromDecimal(Decimal{hi + 1, read_type.precision(), read_type.scale()});
        }
      }
      break;
    case OrcTypeKind::kTimestamp:
      // After ORC-135 the UTC fields hold the writer's wall clock read as UTC: Paimon's value.
      if (writer_version >= 6 && s.timestamp_min_utc && s.timestamp_max_utc &&
          (root == TypeRoot::kTimestamp || root == TypeRoot::kTimestampLtz)) {
        out.min = Value::FromTimestamp(Timestamp{*s.timestamp_min_utc, 0});
        out.max = Value::FromTimestamp(Timestamp{*s.timestamp_max_utc, 999999});
      }
      break;
    default:
      break;
  }
  return out;
}

}  // namespace sluice::orc
