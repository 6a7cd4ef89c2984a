#include "sluice/table/source/column_cast.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "sluice/base/string_util.h"
#include "sluice/base/utf8.h"
#include "sluice/types/cast_rules.h"
#include "sluice/types/data_type_family.h"
#include "sluice/types/decimal_math.h"
#include "sluice/types/java_number_text.h"
#include "sluice/types/java_string_parse.h"
#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

constexpr int64_t kMillisPerDay = 86400000;

Status CastError(std::string_view column, const DataType& from, const DataType& to,
                 std::string_view why) {
  return Status::NotSupported("column '" + std::string(column) + "': cannot cast " +
                              from.ToString() + " to " + to.ToString() + ": " + std::string(why));
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Source values, loaded by physical kind.
int64_t LoadIntegral(const ColumnVector& v, int64_t i) {
  switch (v.kind()) {
    case PhysicalKind::kInt8:
      return v.data<int8_t>()[i];
    case PhysicalKind::kInt16:
      return v.data<int16_t>()[i];
    case PhysicalKind::kInt32:
      return v.data<int32_t>()[i];
    default:
      return v.data<int64_t>()[i];
  }
}

int128_t LoadUnscaled(const ColumnVector& v, int64_t i) {
  return v.kind() == PhysicalKind::kInt128 ? v.data<int128_t>()[i] : v.data<int64_t>()[i];
}

double LoadDouble(const ColumnVector& v, int64_t i) {
  return v.kind() == PhysicalKind::kFloat ? v.data<float>()[i] : v.data<double>()[i];
}

// Java's (long) / (int) of a double: NaN is 0, out-of-range values saturate.
template <typename T>
T JavaFloatingToIntegral(double d) {
  if (std::isnan(d)) return 0;
  if (d <= static_cast<double>(std::numeric_limits<T>::min())) {
    return std::numeric_limits<T>::min();
  }
  if (d >= static_cast<double>(std::numeric_limits<T>::max())) {
    return std::numeric_limits<T>::max();
  }
  return static_cast<T>(d);
}

// Parses "[-+]digits[.digits][(e|E)[-+]digits]" (Java BigDecimal's text) into its digits and
// their scale (negative for a positive exponent); false if malformed or beyond 38 digits.
bool ParseDecimal(std::string_view s, int128_t* digits_out, int* scale_out) {
  s = TrimSpaces(s);
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  int exponent = 0;
  if (const size_t e = s.find_first_of("eE"); e != std::string_view::npos) {
    std::string_view exp = s.substr(e + 1);
    if (!exp.empty() && exp.front() == '+') exp.remove_prefix(1);
    auto [p, ec] = std::from_chars(exp.data(), exp.data() + exp.size(), exponent);
    if (ec != std::errc() || p != exp.data() + exp.size() || exponent > 1000 || exponent < -1000) {
      return false;
    }
    s = s.substr(0, e);
  }
  int128_t digits = 0;
  int fraction_digits = -1;
  int significant = 0;
  bool any = false;
  for (char c : s) {
    if (c == '.' && fraction_digits < 0) {
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    any = true;
    if (digits != 0 || c != '0') ++significant;
    if (significant > 38) return false;
    digits = digits * 10 + (c - '0');
    if (fraction_digits >= 0) ++fraction_digits;
  }
  if (!any) return false;
  *digits_out = negative ? -digits : digits;
  *scale_out = (fraction_digits < 0 ? 0 : fraction_digits) - exponent;
  return true;
}

// An unscaled value at `from_scale` as DECIMAL(precision, to_scale), rounding HALF_UP; false
// when it has too many digits (Java's cast then yields null).
bool RescaleToPrecision(int128_t unscaled, int from_scale, int to_scale, int precision,
                        int128_t* out) {
  const int up = to_scale - from_scale;
  if (up > 0) {
    if (up > precision || !FitsPrecision(unscaled, precision - up)) return false;
    *out = unscaled * Pow10(up);
    return true;
  }
  *out = -up > 38 ? 0 : RescaleHalfUp(unscaled, from_scale, to_scale);
  return FitsPrecision(*out, precision);
}

Timestamp TruncateTimestamp(Timestamp ts, int precision) {
  if (precision >= 9) return ts;
  if (precision <= 3) {
    const int64_t unit = static_cast<int64_t>(Pow10(3 - precision));
    int64_t millis = ts.millisecond / unit * unit;
    if (millis > ts.millisecond) millis -= unit;
    return Timestamp{millis, 0};
  }
  const int32_t unit = static_cast<int32_t>(Pow10(9 - precision));
  return Timestamp{ts.millisecond, ts.nano_of_millisecond / unit * unit};
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (q * b > a) --q;
  return q;
}

int32_t FloorDays(int64_t millis) { return static_cast<int32_t>(FloorDiv(millis, kMillisPerDay)); }

int32_t MillisOfDay(int64_t millis) {
  return static_cast<int32_t>(millis - FloorDiv(millis, kMillisPerDay) * kMillisPerDay);
}

void StoreNumber(ColumnVector* out, int64_t i, int64_t integral, double floating,
                 bool is_floating) {
  // Java Number.byteValue / shortValue of a double narrow through (int).
  switch (out->kind()) {
    case PhysicalKind::kInt8:
      out->data<int8_t>()[i] =
          static_cast<int8_t>(is_floating ? JavaFloatingToIntegral<int32_t>(floating) : integral);
      return;
    case PhysicalKind::kInt16:
      out->data<int16_t>()[i] =
          static_cast<int16_t>(is_floating ? JavaFloatingToIntegral<int32_t>(floating) : integral);
      return;
    case PhysicalKind::kInt32:
      out->data<int32_t>()[i] =
          static_cast<int32_t>(is_floating ? JavaFloatingToIntegral<int32_t>(floating) : integral);
      return;
    case PhysicalKind::kInt64:
      out->data<int64_t>()[i] = is_floating ? JavaFloatingToIntegral<int64_t>(floating) : integral;
      return;
    case PhysicalKind::kFloat:
      out->data<float>()[i] =
          static_cast<float>(is_floating ? floating : static_cast<double>(integral));
      return;
    default:
      out->data<double>()[i] = is_floating ? floating : static_cast<double>(integral);
      return;
  }
}

void StoreUnscaled(ColumnVector* out, int64_t i, int128_t v) {
  if (out->kind() == PhysicalKind::kInt128) {
    out->data<int128_t>()[i] = v;
  } else {
    out->data<int64_t>()[i] = static_cast<int64_t>(v);
  }
}

void SetNull(ColumnVector* out, int64_t i) { out->MutableValidity()[i] = 0; }

// Wall-clock millis in the session zone <-> the instant (UTC millis) they name. A null zone is
// UTC.
int64_t WallToInstant(int64_t wall_millis, const TimeZone* zone) {
  if (zone == nullptr) return wall_millis;
  const int64_t seconds = FloorDiv(wall_millis, 1000);
  return zone->LocalToUtc(seconds) * 1000 + (wall_millis - seconds * 1000);
}

int64_t InstantToWall(int64_t instant_millis, const TimeZone* zone) {
  if (zone == nullptr) return instant_millis;
  return instant_millis + zone->OffsetAt(FloorDiv(instant_millis, 1000)) * 1000;
}

// ---- Text (casts to STRING) ------------------------------------------------------------------

// Java DateTimeUtils.formatTimestamp: nine fraction digits, trailing zeros dropped down to
// `precision` digits.
std::string FormatJavaTimestamp(const Timestamp& ts, int precision) {
  std::string text = ts.ToString(9);
  const size_t dot = text.size() - 10;
  size_t end = text.size();
  while (end - dot - 1 > static_cast<size_t>(precision) && text[end - 1] == '0') --end;
  if (end == dot + 1) end = dot;
  text.resize(end);
  return text;
}

// Java DateTimeUtils.formatTimestampMillis(time, precision): "HH:MM:SS", then for precision > 0
// the milliseconds digit by digit, stopping after the last non-zero one ("12:00:00.0" for 0).
std::string FormatJavaTime(int32_t time, int precision) {
  int64_t t = time;
  while (t < 0) t += kMillisPerDay;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%02d", static_cast<int>(t / 3600000),
                static_cast<int>(t % 3600000 / 60000), static_cast<int>(t % 60000 / 1000));
  std::string out = buf;
  int ms = static_cast<int>(t % 1000);
  if (precision > 0) {
    out.push_back('.');
    while (precision > 0) {
      out.push_back(static_cast<char>('0' + ms / 100));
      ms = ms % 100 * 10;
      if (ms == 0) break;
      --precision;
    }
  }
  return out;
}

bool IsNullAt(const ColumnVector& v, int64_t i) { return v.IsNull(i); }

// The text Java's cast of value `i` (not null) to STRING gives (CastExecutors.resolve(type,
// STRING)): numbers by Java's toString, date-times in Java's layout, bytes as UTF-8, and
// ARRAY "[a, b]", MAP "{k -> v}", ROW "{a, b}" with "null" for null elements.
// REQUIRES: CheckToStringSupported(*v.type()) is OK.
void AppendJavaText(const ColumnVector& v, int64_t i, const TimeZone* zone, std::string* out) {
  const DataType& type = *v.type();
  switch (type.root()) {
    case TypeRoot::kBoolean:
      out->append(v.data<uint8_t>()[i] != 0 ? "true" : "false");
      return;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      out->append(std::to_string(LoadIntegral(v, i)));
      return;
    case TypeRoot::kFloat:
      out->append(JavaFloatToString(v.data<float>()[i]));
      return;
    case TypeRoot::kDouble:
      out->append(JavaDoubleToString(v.data<double>()[i]));
      return;
    case TypeRoot::kDecimal:
      out->append(Decimal{LoadUnscaled(v, i), type.precision(), type.scale()}.ToString());
      return;
    case TypeRoot::kDate:
      out->append(FormatDate(v.data<int32_t>()[i]));
      return;
    case TypeRoot::kTime:
      out->append(FormatJavaTime(v.data<int32_t>()[i], type.precision()));
      return;
    case TypeRoot::kTimestamp:
      out->append(FormatJavaTimestamp(v.data<Timestamp>()[i], type.precision()));
      return;
    case TypeRoot::kTimestampLtz: {
      const Timestamp ts = v.data<Timestamp>()[i];
      out->append(FormatJavaTimestamp(
          Timestamp{InstantToWall(ts.millisecond, zone), ts.nano_of_millisecond},
          type.precision()));
      return;
    }
    case TypeRoot::kArray: {
      const ColumnVector& elements = *v.child(0);
      out->push_back('[');
      for (int32_t e = v.ListBegin(i); e < v.ListEnd(i); ++e) {
        if (e != v.ListBegin(i)) out->append(", ");
        if (IsNullAt(elements, e)) {
          out->append("null");
        } else {
          AppendJavaText(elements, e, zone, out);
        }
      }
      out->push_back(']');
      return;
    }
    case TypeRoot::kMap: {
      const ColumnVector& keys = *v.child(0);
      const ColumnVector& values = *v.child(1);
      out->push_back('{');
      for (int32_t e = v.ListBegin(i); e < v.ListEnd(i); ++e) {
        if (e != v.ListBegin(i)) out->append(", ");
        if (IsNullAt(keys, e)) {
          out->append("null");
        } else {
          AppendJavaText(keys, e, zone, out);
        }
        out->append(" -> ");
        if (IsNullAt(values, e)) {
          out->append("null");
        } else {
          AppendJavaText(values, e, zone, out);
        }
      }
      out->push_back('}');
      return;
    }
    case TypeRoot::kRow: {
      out->push_back('{');
      for (int f = 0; f < v.num_children(); ++f) {
        if (f > 0) out->append(", ");
        const ColumnVector& field = *v.child(f);
        if (IsNullAt(field, i)) {
          out->append("null");
        } else {
          AppendJavaText(field, i, zone, out);
        }
      }
      out->push_back('}');
      return;
    }
    default:
      // CHAR, VARCHAR, BINARY, VARBINARY: the bytes themselves.
      out->append(v.GetBytes(i));
      return;
  }
}

// Whether values of `type` (and, for ARRAY / MAP / ROW, of every element) have Java's text.
Status CheckToStringSupported(const DataType& type, std::string_view column) {
  if (!ResolveCastRule(type, *DataType::String()).has_value()) {
    return Status::NotSupported("column '" + std::string(column) + "': " + type.ToString() +
                                " has no text form (Paimon has no cast of it to STRING)");
  }
  switch (type.root()) {
    case TypeRoot::kArray:
      return CheckToStringSupported(*type.element(), column);
    case TypeRoot::kMap:
      SLUICE_RETURN_NOT_OK(CheckToStringSupported(*type.key(), column));
      return CheckToStringSupported(*type.value(), column);
    case TypeRoot::kRow:
      for (const DataField& f : type.fields()) {
        SLUICE_RETURN_NOT_OK(CheckToStringSupported(*f.type, column));
      }
      return Status::OK();
    default:
      return Status::OK();
  }
}

// Java BinaryStringUtils.toCharacterString: cut to the target length in characters, and pad a
// CHAR with spaces to it.
void FitCharacterString(const DataType& to, std::string* text) {
  const size_t length = static_cast<size_t>(to.length());
  const size_t chars = CountCodePoints(*text);
  if (chars > length) {
    text->resize(CodePointOffset(*text, length));
  } else if (chars < length && to.root() == TypeRoot::kChar) {
    text->append(length - chars, ' ');
  }
}

// Java BinaryStringUtils.toBinaryString: BINARY(n) is exactly n bytes (zero-padded), a
// VARBINARY(n) at most n.
void FitBinaryString(const DataType& to, std::string* bytes) {
  const size_t length = static_cast<size_t>(to.length());
  if (to.root() == TypeRoot::kBinary || bytes->size() > length) bytes->resize(length, '\0');
}

bool UsesCharacterStringFit(CastRule rule) {
  return rule == CastRule::kNumericToString || rule == CastRule::kBooleanToString ||
         rule == CastRule::kStringToString;
}

// Casts whose result is a string or bytes: one append per row.
void CastToBytes(const ColumnVector& in, CastRule rule, ColumnVector* out, const TimeZone* zone) {
  const DataType& to = *out->type();
  const bool binary_target = rule == CastRule::kStringToBinary || rule == CastRule::kBinaryToBinary;
  std::string text;
  for (int64_t i = 0; i < in.size(); ++i) {
    if (in.IsNull(i)) {
      out->AppendNull();
      continue;
    }
    text.clear();
    AppendJavaText(in, i, zone, &text);
    if (binary_target) {
      FitBinaryString(to, &text);
    } else if (UsesCharacterStringFit(rule)) {
      FitCharacterString(to, &text);
    }
    out->AppendBytes(text);
  }
}

// Whether `from` -> `to` is an ARRAY, MULTISET or MAP whose elements / values change type (Java
// CastedArray / CastedMap: the offsets kept, the children cast).
bool IsContainerCast(const DataType& from, const DataType& to) {
  return from.root() == to.root() &&
         (from.root() == TypeRoot::kArray || from.root() == TypeRoot::kMultiset ||
          from.root() == TypeRoot::kMap);
}

}  // namespace

Status CheckCastSupported(const DataType& from, const DataType& to, std::string_view column) {
  if (from.EqualsIgnoreNullable(to)) return Status::OK();
  if (IsContainerCast(from, to)) {
    const std::string inner(column);
    switch (from.root()) {
      case TypeRoot::kMap:
        if (!from.key()->EqualsIgnoreNullable(*to.key())) {
          return CastError(column, from, to, "a map's keys keep their type");
        }
        return CheckCastSupported(*from.value(), *to.value(), inner + ".value");
      default:
        return CheckCastSupported(*from.element(), *to.element(), inner + ".element");
    }
  }
  // A ROW's fields are matched by id, not cast: not supported here.
  if (from.IsNested() && from.root() == to.root()) {
    return CastError(column, from, to,
                     "only atomic types and the parts of arrays and maps change type");
  }
  const std::optional<CastRule> rule = ResolveCastRule(from, to);
  if (!rule) return CastError(column, from, to, "Paimon has no cast rule for this type change");
  switch (*rule) {
    case CastRule::kStringToArray:
    case CastRule::kStringToMap:
    case CastRule::kStringToRow:
      return CastError(column, from, to,
                       "parsing text into nested values is not supported (no ALTER TABLE "
                       "produces it)");
    case CastRule::kArrayToString:
    case CastRule::kMapToString:
    case CastRule::kRowToString:
      return CheckToStringSupported(from, column);
    default:
      return Status::OK();
  }
}

Status CastColumn(const ColumnVector& in, std::string_view column, ColumnVector* out,
                  const TimeZone* session_zone) {
  const DataType& from = *in.type();
  const DataType& to = *out->type();
  SLUICE_RETURN_NOT_OK(CheckCastSupported(from, to, column));
  const int64_t n = in.size();
  const int64_t old = out->size();
  if (!from.EqualsIgnoreNullable(to) && IsContainerCast(from, to)) {
    // The rows keep their element ranges; the elements (and a map's keys and values) are cast
    // as columns of their own.
    const int32_t* in_offsets = in.offset_data();
    const int32_t base = old == 0 ? 0 : out->offset_data()[old];
    out->Resize(old + n);
    if (in.has_nulls()) {
      std::memcpy(out->MutableValidity() + old, in.validity().data(), static_cast<size_t>(n));
    }
    int32_t* out_offsets = out->offset_data();
    for (int64_t i = 0; i < n; ++i) {
      out_offsets[old + i + 1] = base + (in_offsets[i + 1] - in_offsets[0]);
    }
    const std::string inner =
        std::string(column) + (from.root() == TypeRoot::kMap ? ".value" : ".element");
    for (int c = 0; c < in.num_children(); ++c) {
      if (in.child(c)->size() != in_offsets[n] - in_offsets[0]) {
        return Status::Internal("column '" + std::string(column) +
                                "': " + std::to_string(in.child(c)->size()) +
                                " elements for offsets " + std::to_string(in_offsets[0]) + ".." +
                                std::to_string(in_offsets[n]));
      }
      SLUICE_RETURN_NOT_OK(CastColumn(*in.child(c), inner, out->child(c), session_zone));
    }
    return Status::OK();
  }
  const std::optional<CastRule> resolved = ResolveCastRule(from, to);
  if (!resolved) {
    // Equal types up to nullability: the values as they are.
    for (int64_t i = 0; i < n; ++i) {
      if (in.IsNull(i)) {
        out->AppendNull();
      } else {
        SLUICE_RETURN_NOT_OK(out->AppendValue(in.GetValue(i)));
      }
    }
    return Status::OK();
  }
  const CastRule rule = *resolved;
  if (to.IsString() || IsBinaryString(to.root())) {
    CastToBytes(in, rule, out, session_zone);
    return Status::OK();
  }
  out->Resize(old + n);
  if (in.has_nulls()) {
    uint8_t* validity = out->MutableValidity();
    std::memcpy(validity + old, in.validity().data(), static_cast<size_t>(n));
  }
  auto parse_error = [&](int64_t i) {
    return Status::InvalidArgument("column '" + std::string(column) + "': cannot cast '" +
                                   std::string(in.GetBytes(i)) + "' from " + from.ToString() +
                                   " to " + to.ToString());
  };
  const bool to_ltz = to.root() == TypeRoot::kTimestampLtz;
  const bool from_ltz = from.root() == TypeRoot::kTimestampLtz;
  for (int64_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) continue;
    const int64_t o = old + i;
    switch (rule) {
      case CastRule::kStringToBoolean: {
        // Java BinaryStringUtils.toBoolean: trimmed, case-insensitive.
        const std::string s = AsciiToLower(TrimSpaces(in.GetBytes(i)));
        bool v = false;
        if (s == "t" || s == "true" || s == "y" || s == "yes" || s == "1") {
          v = true;
        } else if (!(s == "f" || s == "false" || s == "n" || s == "no" || s == "0")) {
          return parse_error(i);
        }
        out->data<uint8_t>()[o] = v ? 1 : 0;
        break;
      }
      case CastRule::kNumericToBoolean:
        out->data<uint8_t>()[o] = LoadIntegral(in, i) != 0 ? 1 : 0;
        break;
      case CastRule::kNumericPrimitive:
        if (IsIntegerNumeric(from.root())) {
          StoreNumber(out, o, LoadIntegral(in, i), 0, false);
        } else {
          StoreNumber(out, o, 0, LoadDouble(in, i), true);
        }
        break;
      case CastRule::kBooleanToNumeric:
        if (to.root() == TypeRoot::kDecimal) {
          int128_t unscaled = 0;
          if (RescaleToPrecision(in.data<uint8_t>()[i] != 0 ? 1 : 0, 0, to.scale(), to.precision(),
                                 &unscaled)) {
            StoreUnscaled(out, o, unscaled);
          } else {
            SetNull(out, o);
          }
        } else {
          StoreNumber(out, o, in.data<uint8_t>()[i] != 0 ? 1 : 0, 0, false);
        }
        break;
      case CastRule::kTimestampToNumericPrimitive: {
        // A TIMESTAMP is a wall clock in the session zone; an LTZ value is an instant.
        const int64_t millis = in.data<Timestamp>()[i].millisecond;
        StoreNumber(out, o, (from_ltz ? millis : WallToInstant(millis, session_zone)) / 1000, 0,
                    false);
        break;
      }
      case CastRule::kDecimalToNumericPrimitive: {
        const int128_t unscaled = LoadUnscaled(in, i);
        if (IsApproximateNumeric(to.root())) {
          StoreNumber(out, o, 0,
                      static_cast<double>(unscaled) / static_cast<double>(Pow10(from.scale())),
                      true);
        } else {
          StoreNumber(out, o, static_cast<int64_t>(unscaled / Pow10(from.scale())), 0, false);
        }
        break;
      }
      case CastRule::kStringToNumericPrimitive: {
        const std::string_view s = TrimSpaces(in.GetBytes(i));
        if (IsIntegerNumeric(to.root())) {
          int64_t v = 0;
          auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
          if (ec != std::errc() || p != s.data() + s.size()) return parse_error(i);
          StoreNumber(out, o, v, 0, false);
        } else {
          double v = 0;
          auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
          if (ec != std::errc() || p != s.data() + s.size()) return parse_error(i);
          StoreNumber(out, o, 0, v, true);
        }
        break;
      }
      case CastRule::kDecimalToDecimal:
      case CastRule::kNumericPrimitiveToDecimal:
      case CastRule::kStringToDecimal: {
        int128_t digits = 0;
        int digits_scale = 0;
        if (rule == CastRule::kDecimalToDecimal) {
          digits = LoadUnscaled(in, i);
          digits_scale = from.scale();
        } else if (IsIntegerNumeric(from.root())) {
          digits = LoadIntegral(in, i);
        } else if (IsApproximateNumeric(from.root())) {
          // Java BigDecimal.valueOf(double): the digits of Double.toString.
          const double d = LoadDouble(in, i);
          if (!std::isfinite(d) || !ParseDecimal(JavaDoubleToString(d), &digits, &digits_scale)) {
            SetNull(out, o);
            break;
          }
        } else if (!ParseDecimal(in.GetBytes(i), &digits, &digits_scale)) {
          return parse_error(i);
        }
        int128_t unscaled = 0;
        if (RescaleToPrecision(digits, digits_scale, to.scale(), to.precision(), &unscaled)) {
          StoreUnscaled(out, o, unscaled);
        } else {
          SetNull(out, o);
        }
        break;
      }
      case CastRule::kTimestampToDate:
        out->data<int32_t>()[o] =
            FloorDays(from_ltz ? InstantToWall(in.data<Timestamp>()[i].millisecond, session_zone)
                               : in.data<Timestamp>()[i].millisecond);
        break;
      case CastRule::kStringToDate: {
        int32_t days = 0;
        if (!ParseJavaDate(in.GetBytes(i), &days)) return parse_error(i);
        out->data<int32_t>()[o] = days;
        break;
      }
      case CastRule::kTimestampToTime:
        // Java: the time of day of the wall clock (an LTZ value's in the session zone).
        out->data<int32_t>()[o] =
            MillisOfDay(from_ltz ? InstantToWall(in.data<Timestamp>()[i].millisecond, session_zone)
                                 : in.data<Timestamp>()[i].millisecond);
        break;
      case CastRule::kStringToTime: {
        int32_t time = 0;
        if (!ParseJavaTime(in.GetBytes(i), &time)) return parse_error(i);
        out->data<int32_t>()[o] = time;
        break;
      }
      case CastRule::kTimeToTimestamp:
        // Java: 1970-01-01 at that time; to LTZ through the session zone and back, the same
        // millis.
        out->data<Timestamp>()[o] = Timestamp{in.data<int32_t>()[i], 0};
        break;
      case CastRule::kDateToTimestamp:
      case CastRule::kStringToTimestamp:
      case CastRule::kNumericPrimitiveToTimestamp:
      case CastRule::kTimestampToTimestamp: {
        // Sources as wall clocks (DATE, STRING, TIMESTAMP) or instants (LTZ, epoch seconds),
        // converted through the session zone when the target is the other kind.
        Timestamp ts;
        bool is_instant = false;
        if (rule == CastRule::kDateToTimestamp) {
          ts = Timestamp{int64_t{in.data<int32_t>()[i]} * kMillisPerDay, 0};
        } else if (rule == CastRule::kStringToTimestamp) {
          // Java toTimestamp: an epoch number or a date-time to TIMESTAMP, a date-time only to
          // TIMESTAMP_LTZ (its zone-taking overload has no number form).
          const std::string_view text = in.GetBytes(i);
          if ((to_ltz && IsJavaNumeric(text)) || !ParseJavaTimestamp(text, to.precision(), &ts)) {
            return parse_error(i);
          }
        } else if (rule == CastRule::kNumericPrimitiveToTimestamp) {
          ts = Timestamp{LoadIntegral(in, i) * 1000, 0};
          is_instant = true;
        } else {
          ts = in.data<Timestamp>()[i];
          is_instant = from_ltz;
        }
        if (is_instant && !to_ltz) {
          ts.millisecond = InstantToWall(ts.millisecond, session_zone);
        } else if (!is_instant && to_ltz) {
          ts.millisecond = WallToInstant(ts.millisecond, session_zone);
        }
        out->data<Timestamp>()[o] = TruncateTimestamp(ts, to.precision());
        break;
      }
      default:
        return CastError(column, from, to,
                         std::string(CastRuleName(rule)) + " is not implemented by the reader");
    }
  }
  return Status::OK();
}

}  // namespace sluice
