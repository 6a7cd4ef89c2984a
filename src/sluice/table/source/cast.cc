#include "sluice/table/source/cast.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "sluice/types/time_zone.h"

namespace sluice {

namespace {

constexpr int64_t kMillisPerDay = 86400000;

enum class Category : unsigned char {
  kBoolean,
  kIntegral,
  kFloating,
  kDecimal,
  kString,
  kBinary,
  kDate,
  kTimestamp,
  kTimestampLtz,
  kOther,
};

Category CategoryOf(const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kBoolean:
      return Category::kBoolean;
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return Category::kIntegral;
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return Category::kFloating;
    case TypeRoot::kDecimal:
      return Category::kDecimal;
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return Category::kString;
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return Category::kBinary;
    case TypeRoot::kDate:
      return Category::kDate;
    case TypeRoot::kTimestamp:
      return Category::kTimestamp;
    case TypeRoot::kTimestampLtz:
      return Category::kTimestampLtz;
    default:
      return Category::kOther;
  }
}

bool IsNumeric(Category c) {
  return c == Category::kIntegral || c == Category::kFloating || c == Category::kDecimal;
}

Status CastError(std::string_view column, const DataType& from, const DataType& to,
                 std::string_view why) {
  return Status::NotSupported("column '" + std::string(column) + "': cannot cast " +
                              from.ToString() + " to " + to.ToString() + ": " + std::string(why));
}

int128_t Pow10(int n) {
  int128_t p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// Source values, loaded by physical kind (one switch per column, not per value).
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

// Rescales an unscaled decimal, rounding half up as Java's BigDecimal.setScale(HALF_UP).
int128_t Rescale(int128_t unscaled, int from_scale, int to_scale) {
  if (to_scale >= from_scale) return unscaled * Pow10(to_scale - from_scale);
  const int128_t divisor = Pow10(from_scale - to_scale);
  int128_t q = unscaled / divisor;
  const int128_t r = unscaled % divisor;
  if (r * 2 >= divisor) ++q;
  if (r * 2 <= -divisor) --q;
  return q;
}

bool FitsPrecision(int128_t unscaled, int precision) {
  const int128_t bound = Pow10(precision);
  return unscaled < bound && unscaled > -bound;
}

// Parses "[-]digits[.digits]" into an unscaled value at `scale`; false if malformed.
bool ParseDecimal(std::string_view s, int scale, int128_t* out) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  int128_t digits = 0;
  int fraction_digits = -1;
  bool any = false;
  for (char c : s) {
    if (c == '.' && fraction_digits < 0) {
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    if (digits > Pow10(36)) return false;
    digits = digits * 10 + (c - '0');
    any = true;
    if (fraction_digits >= 0) ++fraction_digits;
  }
  if (!any) return false;
  int128_t value = Rescale(digits, fraction_digits < 0 ? 0 : fraction_digits, scale);
  *out = negative ? -value : value;
  return true;
}

bool ParseTimestamp(std::string_view s, Timestamp* out) {
  // "YYYY-MM-DD[ HH:MM:SS[.fffffffff]]"
  auto number = [&](size_t pos, size_t len, int64_t* v) {
    if (pos + len > s.size()) return false;
    auto [p, ec] = std::from_chars(s.data() + pos, s.data() + pos + len, *v);
    return ec == std::errc() && p == s.data() + pos + len;
  };
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (s.size() < 10 || !number(0, 4, &year) || s[4] != '-' || !number(5, 2, &month) ||
      s[7] != '-' || !number(8, 2, &day) || month < 1 || month > 12 || day < 1 || day > 31) {
    return false;
  }
  int64_t nanos = 0;
  if (s.size() > 10) {
    if ((s[10] != ' ' && s[10] != 'T') || !number(11, 2, &hour) || s[13] != ':' ||
        !number(14, 2, &minute) || s[16] != ':' || !number(17, 2, &second)) {
      return false;
    }
    if (s.size() > 19) {
      if (s[19] != '.' || s.size() > 29) return false;
      const size_t digits = s.size() - 20;
      if (digits == 0 || !number(20, digits, &nanos)) return false;
      for (size_t i = digits; i < 9; ++i) nanos *= 10;
    }
  }
  const int64_t days =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const int64_t millis =
      days * kMillisPerDay + ((hour * 60 + minute) * 60 + second) * 1000 + nanos / 1000000;
  *out = Timestamp{millis, static_cast<int32_t>(nanos % 1000000)};
  return true;
}

Timestamp TruncateTimestamp(Timestamp ts, int precision) {
  if (precision >= 9) return ts;
  if (precision <= 3) {
    const int64_t unit = Pow10(3 - precision);
    int64_t millis = ts.millisecond / unit * unit;
    if (millis > ts.millisecond) millis -= unit;
    return Timestamp{millis, 0};
  }
  const int32_t unit = static_cast<int32_t>(Pow10(9 - precision));
  return Timestamp{ts.millisecond, ts.nano_of_millisecond / unit * unit};
}

int32_t FloorDays(int64_t millis) {
  int64_t days = millis / kMillisPerDay;
  if (days * kMillisPerDay > millis) --days;
  return static_cast<int32_t>(days);
}

template <typename T>
void StoreIntegral(ColumnVector* out, int64_t i, int64_t v) {
  out->data<T>()[i] = static_cast<T>(v);
}

void StoreNumber(ColumnVector* out, int64_t i, int64_t integral, double floating,
                 bool is_floating) {
  switch (out->kind()) {
    case PhysicalKind::kInt8:
      out->data<int8_t>()[i] =
          static_cast<int8_t>(is_floating ? static_cast<int64_t>(floating) : integral);
      return;
    case PhysicalKind::kInt16:
      out->data<int16_t>()[i] =
          static_cast<int16_t>(is_floating ? static_cast<int64_t>(floating) : integral);
      return;
    case PhysicalKind::kInt32:
      out->data<int32_t>()[i] =
          static_cast<int32_t>(is_floating ? static_cast<int64_t>(floating) : integral);
      return;
    case PhysicalKind::kInt64:
      out->data<int64_t>()[i] = is_floating ? static_cast<int64_t>(floating) : integral;
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

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (q * b > a) --q;
  return q;
}

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

bool IsIntOrBigInt(const DataType& type) {
  return type.root() == TypeRoot::kInt || type.root() == TypeRoot::kBigInt;
}

// Text of row i of a non-string source, for casts to STRING.
std::string FormatValue(const ColumnVector& in, Category from, int64_t i, const TimeZone* zone) {
  const DataType& type = *in.type();
  switch (from) {
    case Category::kBoolean:
      return in.data<uint8_t>()[i] != 0 ? "true" : "false";
    case Category::kIntegral:
      return std::to_string(LoadIntegral(in, i));
    case Category::kFloating: {
      char buffer[64];
      auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), LoadDouble(in, i));
      return std::string(buffer, end);
    }
    case Category::kDecimal:
      return Decimal{LoadUnscaled(in, i), type.precision(), type.scale()}.ToString();
    case Category::kDate:
      return FormatDate(in.data<int32_t>()[i]);
    case Category::kTimestampLtz: {
      const Timestamp ts = in.data<Timestamp>()[i];
      return Timestamp{InstantToWall(ts.millisecond, zone), ts.nano_of_millisecond}.ToString(
          type.precision());
    }
    default:
      return in.data<Timestamp>()[i].ToString(type.precision());
  }
}

}  // namespace

Status CheckCastSupported(const DataType& from, const DataType& to, std::string_view column) {
  const Category f = CategoryOf(from);
  const Category t = CategoryOf(to);
  if (from.EqualsIgnoreNullable(to)) return Status::OK();
  if (f == Category::kOther || t == Category::kOther) {
    if (from.root() == to.root() && FixedWidthOf(PhysicalKindOf(from)) > 0) return Status::OK();
    return CastError(column, from, to, "only atomic types change type");
  }
  if (f == t) return Status::OK();
  if (IsNumeric(f) && IsNumeric(t)) return Status::OK();
  if (t == Category::kString && f != Category::kBinary) return Status::OK();
  if (f == Category::kString && (IsNumeric(t) || t == Category::kBoolean || t == Category::kDate ||
                                 t == Category::kTimestamp || t == Category::kTimestampLtz)) {
    return Status::OK();
  }
  if (f == Category::kBoolean && IsNumeric(t) && t != Category::kDecimal) return Status::OK();
  const bool f_timestamp = f == Category::kTimestamp || f == Category::kTimestampLtz;
  const bool t_timestamp = t == Category::kTimestamp || t == Category::kTimestampLtz;
  if ((f == Category::kDate && t_timestamp) || (f_timestamp && t == Category::kDate) ||
      (f_timestamp && t_timestamp)) {
    return Status::OK();
  }
  // Epoch seconds (Java NumericPrimitiveToTimestamp, TimestampToNumericPrimitiveCastRule).
  if ((f == Category::kIntegral && IsIntOrBigInt(from) && t_timestamp) ||
      (f_timestamp && IsIntOrBigInt(to))) {
    return Status::OK();
  }
  if (f == Category::kString && t == Category::kBinary) return Status::OK();
  return CastError(column, from, to, "Paimon does not allow this type change");
}

Status CastColumn(const ColumnVector& in, std::string_view column, ColumnVector* out,
                  const TimeZone* session_zone) {
  const DataType& from = *in.type();
  const DataType& to = *out->type();
  SLUICE_RETURN_NOT_OK(CheckCastSupported(from, to, column));
  const Category f = CategoryOf(from);
  const Category t = CategoryOf(to);
  const int64_t n = in.size();
  const int64_t old = out->size();

  if (t == Category::kString || t == Category::kBinary) {
    const bool copy_bytes = f == Category::kString || f == Category::kBinary;
    for (int64_t i = 0; i < n; ++i) {
      if (in.IsNull(i)) {
        out->AppendNull();
      } else if (copy_bytes) {
        out->AppendBytes(in.GetBytes(i));
      } else {
        out->AppendBytes(FormatValue(in, f, i, session_zone));
      }
    }
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
  for (int64_t i = 0; i < n; ++i) {
    if (in.IsNull(i)) continue;
    const int64_t o = old + i;
    switch (t) {
      case Category::kBoolean: {
        bool v = false;
        if (f == Category::kString) {
          // Java BinaryStringUtils.toBoolean: trimmed, case-insensitive.
          std::string s(in.GetBytes(i));
          while (!s.empty() && s.back() == ' ') s.pop_back();
          s.erase(0, s.find_first_not_of(' ') == std::string::npos ? s.size()
                                                                   : s.find_first_not_of(' '));
          for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          if (s == "t" || s == "true" || s == "y" || s == "yes" || s == "1") {
            v = true;
          } else if (!(s == "f" || s == "false" || s == "n" || s == "no" || s == "0")) {
            return parse_error(i);
          }
        } else {
          v = in.data<uint8_t>()[i] != 0;
        }
        out->data<uint8_t>()[o] = v ? 1 : 0;
        break;
      }
      case Category::kIntegral:
      case Category::kFloating:
        if (f == Category::kIntegral) {
          StoreNumber(out, o, LoadIntegral(in, i), 0, false);
        } else if (f == Category::kFloating) {
          StoreNumber(out, o, 0, LoadDouble(in, i), true);
        } else if (f == Category::kBoolean) {
          StoreNumber(out, o, in.data<uint8_t>()[i], 0, false);
        } else if (f == Category::kTimestamp || f == Category::kTimestampLtz) {
          // A TIMESTAMP is a wall clock in the session zone; an LTZ value is an instant.
          const int64_t millis = in.data<Timestamp>()[i].millisecond;
          StoreNumber(
              out, o,
              (f == Category::kTimestamp ? WallToInstant(millis, session_zone) : millis) / 1000, 0,
              false);
        } else if (f == Category::kDecimal) {
          const int128_t unscaled = LoadUnscaled(in, i);
          if (t == Category::kFloating) {
            StoreNumber(out, o, 0,
                        static_cast<double>(unscaled) / static_cast<double>(Pow10(from.scale())),
                        true);
          } else {
            StoreNumber(out, o, static_cast<int64_t>(unscaled / Pow10(from.scale())), 0, false);
          }
        } else {
          std::string_view s = in.GetBytes(i);
          while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
          while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
          if (t == Category::kIntegral) {
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
        }
        break;
      case Category::kDecimal: {
        int128_t unscaled = 0;
        if (f == Category::kDecimal) {
          unscaled = Rescale(LoadUnscaled(in, i), from.scale(), to.scale());
        } else if (f == Category::kIntegral) {
          unscaled = static_cast<int128_t>(LoadIntegral(in, i)) * Pow10(to.scale());
        } else if (f == Category::kFloating) {
          const double scaled = std::round(LoadDouble(in, i) * std::pow(10.0, to.scale()));
          if (!std::isfinite(scaled) || std::fabs(scaled) >= 1e38) {
            SetNull(out, o);
            break;
          }
          unscaled = static_cast<int128_t>(scaled);
        } else if (!ParseDecimal(in.GetBytes(i), to.scale(), &unscaled)) {
          return parse_error(i);
        }
        if (FitsPrecision(unscaled, to.precision())) {
          StoreUnscaled(out, o, unscaled);
        } else {
          SetNull(out, o);
        }
        break;
      }
      case Category::kDate:
        if (f == Category::kTimestamp) {
          out->data<int32_t>()[o] = FloorDays(in.data<Timestamp>()[i].millisecond);
        } else if (f == Category::kTimestampLtz) {
          out->data<int32_t>()[o] =
              FloorDays(InstantToWall(in.data<Timestamp>()[i].millisecond, session_zone));
        } else if (f == Category::kString) {
          Timestamp ts;
          if (!ParseTimestamp(in.GetBytes(i), &ts)) return parse_error(i);
          out->data<int32_t>()[o] = FloorDays(ts.millisecond);
        } else {
          out->data<int32_t>()[o] = in.data<int32_t>()[i];
        }
        break;
      case Category::kTimestamp:
      case Category::kTimestampLtz: {
        // Sources as wall clocks (DATE, STRING, TIMESTAMP) or instants (LTZ, epoch seconds),
        // converted through the session zone when the target is the other kind.
        Timestamp ts;
        bool is_instant = false;
        if (f == Category::kDate) {
          ts = Timestamp{int64_t{in.data<int32_t>()[i]} * kMillisPerDay, 0};
        } else if (f == Category::kString) {
          if (!ParseTimestamp(in.GetBytes(i), &ts)) return parse_error(i);
        } else if (f == Category::kIntegral) {
          ts = Timestamp{LoadIntegral(in, i) * 1000, 0};
          is_instant = true;
        } else {
          ts = in.data<Timestamp>()[i];
          is_instant = f == Category::kTimestampLtz;
        }
        if (is_instant && t == Category::kTimestamp) {
          ts.millisecond = InstantToWall(ts.millisecond, session_zone);
        } else if (!is_instant && t == Category::kTimestampLtz) {
          ts.millisecond = WallToInstant(ts.millisecond, session_zone);
        }
        out->data<Timestamp>()[o] = TruncateTimestamp(ts, to.precision());
        break;
      }
      default: {
        const int width = FixedWidthOf(in.kind());
        std::memcpy(out->values().data() + o * width, in.values().data() + i * width,
                    static_cast<size_t>(width));
        break;
      }
    }
  }
  return Status::OK();
}

}  // namespace sluice
