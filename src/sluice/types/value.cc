#include "sluice/value.h"

#include <cstdio>

namespace sluice {

namespace {

std::string Int128ToString(int128_t v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  // Work with the magnitude as unsigned so that the minimum value does not overflow.
  unsigned __int128 mag =
      negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (mag > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(mag % 10)));
    mag /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

// Floor division for negative epoch values.
int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

struct Civil {
  int64_t year;
  unsigned month;
  unsigned day;
};

// Howard Hinnant's civil_from_days algorithm (public domain description).
Civil CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return Civil{y + (m <= 2), m, d};
}

std::string FormatCivil(const Civil& c) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%04lld-%02u-%02u", static_cast<long long>(c.year), c.month,
                c.day);
  return buf;
}

}  // namespace

int32_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return static_cast<int32_t>(era * 146097 + static_cast<int64_t>(doe) - 719468);
}

std::string FormatDate(int32_t days) { return FormatCivil(CivilFromDays(days)); }

std::string Decimal::ToString() const {
  std::string digits = Int128ToString(unscaled < 0 ? -unscaled : unscaled);
  if (scale > 0) {
    if (static_cast<int32_t>(digits.size()) <= scale) {
      digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  if (unscaled < 0) digits.insert(0, "-");
  return digits;
}

// The remainder of FloorDiv(value, unit), in [0, unit): from `%`, as `value - quotient * unit`
// overflows near INT64_MIN (Arrow data may hold any int64, e.g. in the slots of nulls).
int64_t FloorMod(int64_t value, int64_t unit) {
  int64_t remainder = value % unit;
  return remainder < 0 ? remainder + unit : remainder;
}

Timestamp Timestamp::FromEpochMicros(int64_t micros) {
  return Timestamp{FloorDiv(micros, 1000), static_cast<int32_t>(FloorMod(micros, 1000) * 1000)};
}

Timestamp Timestamp::FromEpochNanos(int64_t nanos) {
  return Timestamp{FloorDiv(nanos, 1000000), static_cast<int32_t>(FloorMod(nanos, 1000000))};
}

std::string Timestamp::ToString(int precision) const {
  int64_t days = FloorDiv(millisecond, 86400000);
  int64_t ms_of_day = millisecond - days * 86400000;
  std::string out = FormatCivil(CivilFromDays(days));
  char buf[48];
  int64_t secs = ms_of_day / 1000;
  std::snprintf(buf, sizeof(buf), " %02d:%02d:%02d", static_cast<int>(secs / 3600),
                static_cast<int>((secs / 60) % 60), static_cast<int>(secs % 60));
  out += buf;
  if (precision > 0) {
    int64_t nanos = (ms_of_day % 1000) * 1000000 + nano_of_millisecond;
    std::snprintf(buf, sizeof(buf), "%09lld", static_cast<long long>(nanos));
    out += '.';
    out.append(buf, static_cast<size_t>(precision > 9 ? 9 : precision));
  }
  return out;
}

int64_t Value::AsInt64() const {
  switch (kind_) {
    case Kind::kBoolean:
      return boolean() ? 1 : 0;
    case Kind::kInt8:
      return int8();
    case Kind::kInt16:
      return int16();
    case Kind::kInt32:
      return int32();
    case Kind::kInt64:
      return int64();
    default:
      return 0;
  }
}

bool Value::operator==(const Value& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case Kind::kArray:
    case Kind::kRow:
      return list() == other.list();
    case Kind::kMap:
      return pairs() == other.pairs();
    default:
      return data_ == other.data_;
  }
}

std::string Value::DebugString() const {
  switch (kind_) {
    case Kind::kNull:
      return "null";
    case Kind::kBoolean:
      return boolean() ? "true" : "false";
    case Kind::kInt8:
    case Kind::kInt16:
    case Kind::kInt32:
    case Kind::kInt64:
      return std::to_string(AsInt64());
    case Kind::kFloat:
      return std::to_string(float32());
    case Kind::kDouble:
      return std::to_string(float64());
    case Kind::kDecimal:
      return decimal().ToString();
    case Kind::kString:
      return "'" + bytes() + "'";
    case Kind::kBinary:
      return "x'" + std::to_string(bytes().size()) + " bytes'";
    case Kind::kTimestamp:
      return timestamp().ToString(9);
    case Kind::kArray:
    case Kind::kRow: {
      std::string s = kind_ == Kind::kArray ? "[" : "(";
      for (size_t i = 0; i < list().size(); ++i) {
        if (i > 0) s += ", ";
        s += list()[i].DebugString();
      }
      return s + (kind_ == Kind::kArray ? "]" : ")");
    }
    case Kind::kMap: {
      std::string s = "{";
      for (size_t i = 0; i < pairs().size(); ++i) {
        if (i > 0) s += ", ";
        s += pairs()[i].first.DebugString() + ": " + pairs()[i].second.DebugString();
      }
      return s + "}";
    }
  }
  return "?";
}

}  // namespace sluice
