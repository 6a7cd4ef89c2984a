#include "sluice/predicate/literal.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include "sluice/base/string_util.h"
#include "sluice/types/data_type_family.h"

namespace sluice {

namespace {

constexpr int kMaxDecimalDigits = 38;

// A number as written, exactly: (-1)^negative * digits * 10^exponent, with `digits` free of
// leading zeros (empty for zero).
struct ExactNumber {
  bool negative = false;
  std::string digits;
  int64_t exponent = 0;
};

Result<ExactNumber> ParseExactNumber(std::string_view text) {
  ExactNumber n;
  size_t i = 0;
  auto bad = [&] { return Status::InvalidArgument("'" + std::string(text) + "' is not a number"); };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) n.negative = text[i++] == '-';
  bool any_digit = false;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    any_digit = true;
    if (!n.digits.empty() || text[i] != '0') n.digits.push_back(text[i]);
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      any_digit = true;
      if (!n.digits.empty() || text[i] != '0') n.digits.push_back(text[i]);
      --n.exponent;
    }
  }
  if (!any_digit) return bad();
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    int64_t exp = 0;
    bool exp_digit = false;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      exp_digit = true;
      if (exp < 100000) exp = exp * 10 + (text[i] - '0');
    }
    if (!exp_digit) return bad();
    n.exponent += exp_negative ? -exp : exp;
  }
  if (i != text.size()) return bad();
  // Trailing zeros move into the exponent, so that 15.0 and 15 are the same number.
  while (!n.digits.empty() && n.digits.back() == '0') {
    n.digits.pop_back();
    ++n.exponent;
  }
  if (n.digits.empty()) n.exponent = 0;
  return n;
}

// digits * 10^extra_zeros as int128, if it has at most 38 digits.
std::optional<int128_t> DigitsToInt128(const std::string& digits, int64_t extra_zeros) {
  if (static_cast<int64_t>(digits.size()) + extra_zeros > kMaxDecimalDigits) return std::nullopt;
  int128_t v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  for (int64_t i = 0; i < extra_zeros; ++i) v *= 10;
  return v;
}

Result<int64_t> ToInteger(const ExactNumber& n, const std::string& text, const DataType& type,
                          int64_t min, int64_t max) {
  if (n.exponent < 0) {
    return Status::InvalidArgument("literal " + text + " is not an integer, as " + type.ToString() +
                                   " requires");
  }
  std::optional<int128_t> v = DigitsToInt128(n.digits, n.exponent);
  if (v.has_value() && n.negative) *v = -*v;
  if (!v.has_value() || *v < min || *v > max) {
    return Status::InvalidArgument("literal " + text + " is out of range for " + type.ToString());
  }
  return static_cast<int64_t>(*v);
}

Result<Value> ToDecimal(const ExactNumber& n, const std::string& text, const DataType& type) {
  auto out_of_range = [&] {
    return Status::InvalidArgument("literal " + text + " has more than 38 digits, the most " +
                                   type.ToString() + " can compare with");
  };
  const int32_t scale = n.exponent < 0 ? static_cast<int32_t>(-n.exponent) : 0;
  const int64_t zeros = n.exponent > 0 ? n.exponent : 0;
  if (scale > kMaxDecimalDigits) return out_of_range();
  std::optional<int128_t> unscaled = DigitsToInt128(n.digits, zeros);
  if (!unscaled.has_value()) return out_of_range();
  if (n.negative) *unscaled = -*unscaled;
  const int32_t digits = static_cast<int32_t>(n.digits.size() + static_cast<size_t>(zeros));
  if (scale <= type.scale() && digits + (type.scale() - scale) <= type.precision()) {
    // Representable in the column's own type.
    int128_t v = *unscaled;
    for (int32_t i = scale; i < type.scale(); ++i) v *= 10;
    return Value::FromDecimal(Decimal{v, type.precision(), type.scale()});
  }
  // Keep the exact value with its own precision and scale; comparisons are by value.
  int32_t precision = std::max({digits, scale, int32_t{1}});
  if (precision > kMaxDecimalDigits) return out_of_range();
  return Value::FromDecimal(Decimal{*unscaled, precision, scale});
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

template <typename F>
Result<F> ToFloating(std::string_view text, const DataType& type) {
  std::string_view t = Trim(text);
  bool negative = !t.empty() && t[0] == '-';
  std::string_view unsigned_text = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? t.substr(1) : t;
  if (EqualsIgnoreAsciiCase(unsigned_text, "nan")) return std::numeric_limits<F>::quiet_NaN();
  if (EqualsIgnoreAsciiCase(unsigned_text, "infinity") ||
      EqualsIgnoreAsciiCase(unsigned_text, "inf")) {
    return negative ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
  }
  F v{};
  auto res = std::from_chars(unsigned_text.data(), unsigned_text.data() + unsigned_text.size(), v);
  if (res.ec == std::errc::result_out_of_range) {
    return Status::InvalidArgument("literal " + std::string(t) + " is out of range for " +
                                   type.ToString());
  }
  if (unsigned_text.empty() || res.ec != std::errc() ||
      res.ptr != unsigned_text.data() + unsigned_text.size() || unsigned_text[0] == '-' ||
      unsigned_text[0] == '+') {
    return Status::InvalidArgument("'" + std::string(text) + "' is not a number");
  }
  return negative ? -v : v;
}

// Converts number text (from a number literal or a string literal's content) to a numeric type.
Result<Value> NumberToType(std::string_view raw_text, const DataType& type) {
  std::string text(Trim(raw_text));
  switch (type.root()) {
    case TypeRoot::kFloat: {
      SLUICE_ASSIGN_OR_RETURN(float v, ToFloating<float>(text, type));
      return Value::Float(v);
    }
    case TypeRoot::kDouble: {
      SLUICE_ASSIGN_OR_RETURN(double v, ToFloating<double>(text, type));
      return Value::Double(v);
    }
    default:
      break;
  }
  SLUICE_ASSIGN_OR_RETURN(ExactNumber n, ParseExactNumber(text));
  switch (type.root()) {
    case TypeRoot::kTinyInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, ToInteger(n, text, type, INT8_MIN, INT8_MAX));
      return Value::Int8(static_cast<int8_t>(v));
    }
    case TypeRoot::kSmallInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, ToInteger(n, text, type, INT16_MIN, INT16_MAX));
      return Value::Int16(static_cast<int16_t>(v));
    }
    case TypeRoot::kInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, ToInteger(n, text, type, INT32_MIN, INT32_MAX));
      return Value::Int32(static_cast<int32_t>(v));
    }
    case TypeRoot::kBigInt: {
      SLUICE_ASSIGN_OR_RETURN(int64_t v, ToInteger(n, text, type, INT64_MIN, INT64_MAX));
      return Value::Int64(v);
    }
    case TypeRoot::kDecimal:
      return ToDecimal(n, text, type);
    default:
      return Status::InvalidArgument("cannot compare " + type.ToString() + " with number " + text);
  }
}

// Reads 1..max_digits digits at text[*pos].
bool ReadDigits(std::string_view text, size_t* pos, int min_digits, int max_digits, int64_t* out) {
  int64_t v = 0;
  int count = 0;
  while (*pos < text.size() && count < max_digits &&
         std::isdigit(static_cast<unsigned char>(text[*pos]))) {
    v = v * 10 + (text[(*pos)++] - '0');
    ++count;
  }
  *out = v;
  return count >= min_digits;
}

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Parses "YYYY-MM-DD" at the start of text; sets *pos past it.
bool ParseDatePart(std::string_view text, size_t* pos, int32_t* days) {
  int64_t y, m, d;
  if (!ReadDigits(text, pos, 4, 4, &y) || *pos >= text.size() || text[(*pos)++] != '-' ||
      !ReadDigits(text, pos, 1, 2, &m) || *pos >= text.size() || text[(*pos)++] != '-' ||
      !ReadDigits(text, pos, 1, 2, &d)) {
    return false;
  }
  if (m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
  *days = DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

// Parses "HH:MM[:SS[.fffffffff]]" at text[*pos]; nanoseconds of the day.
bool ParseTimePart(std::string_view text, size_t* pos, int64_t* nanos_of_day) {
  int64_t h, m, s = 0, fraction = 0;
  if (!ReadDigits(text, pos, 1, 2, &h) || *pos >= text.size() || text[(*pos)++] != ':' ||
      !ReadDigits(text, pos, 2, 2, &m)) {
    return false;
  }
  if (*pos < text.size() && text[*pos] == ':') {
    ++*pos;
    if (!ReadDigits(text, pos, 2, 2, &s)) return false;
    if (*pos < text.size() && text[*pos] == '.') {
      ++*pos;
      size_t start = *pos;
      if (!ReadDigits(text, pos, 1, 9, &fraction)) return false;
      for (size_t i = *pos - start; i < 9; ++i) fraction *= 10;
    }
  }
  if (h > 23 || m > 59 || s > 59) return false;
  *nanos_of_day = ((h * 60 + m) * 60 + s) * 1000000000 + fraction;
  return true;
}

Status BadText(std::string_view text, std::string_view what, std::string_view form) {
  return Status::InvalidArgument("'" + std::string(text) + "' is not a " + std::string(what) +
                                 " (expected " + std::string(form) + ")");
}

Status Incompatible(const Literal& literal, const DataType& type) {
  return Status::InvalidArgument("cannot compare " + type.ToString() + " with " +
                                 literal.ToString());
}

// A timestamp literal for a TIMESTAMP / TIMESTAMP_LTZ column. A UTC offset suffix ("Z",
// "+08:00") names an instant, which only TIMESTAMP WITH LOCAL TIME ZONE holds; without one, an
// LTZ literal is read as UTC.
Result<Timestamp> TimestampForType(std::string_view text, const DataType& type) {
  std::optional<int64_t> offset_minutes;
  std::string_view local = text;
  if (!local.empty() && (local.back() == 'Z' || local.back() == 'z')) {
    offset_minutes = 0;
    local.remove_suffix(1);
  } else if (local.size() > 16) {
    std::string_view tail = local.substr(local.size() - 6);
    auto digit = [&](size_t i) { return std::isdigit(static_cast<unsigned char>(tail[i])) != 0; };
    if ((tail[0] == '+' || tail[0] == '-') && digit(1) && digit(2) && tail[3] == ':' && digit(4) &&
        digit(5)) {
      int64_t hours = (tail[1] - '0') * 10 + (tail[2] - '0');
      int64_t minutes = (tail[4] - '0') * 10 + (tail[5] - '0');
      if (hours > 18 || minutes > 59) {
        return Status::InvalidArgument("'" + std::string(text) + "' has a bad UTC offset");
      }
      offset_minutes = (tail[0] == '-' ? -1 : 1) * (hours * 60 + minutes);
      local.remove_suffix(6);
    }
  }
  SLUICE_ASSIGN_OR_RETURN(Timestamp ts, ParseTimestampText(local));
  if (!offset_minutes.has_value()) return ts;
  if (type.root() != TypeRoot::kTimestampLtz) {
    return Status::InvalidArgument("'" + std::string(text) + "' has a UTC offset, but " +
                                   type.ToString() +
                                   " holds wall-clock time; write the timestamp without one");
  }
  ts.millisecond -= *offset_minutes * 60000;
  return ts;
}

}  // namespace

std::string Literal::ToString() const {
  auto quoted = [](std::string_view s) {
    std::string out = "'";
    for (char c : s) {
      if (c == '\'') out.push_back('\'');
      out.push_back(c);
    }
    return out + "'";
  };
  switch (kind) {
    case Kind::kNull:
      return "NULL";
    case Kind::kBoolean:
      return boolean ? "TRUE" : "FALSE";
    case Kind::kNumber:
      return text;
    case Kind::kString:
      return quoted(text);
    case Kind::kBinary: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      std::string out = "X'";
      for (unsigned char c : text) {
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 15]);
      }
      return out + "'";
    }
    case Kind::kDate:
      return "DATE " + quoted(text);
    case Kind::kTime:
      return "TIME " + quoted(text);
    case Kind::kTimestamp:
      return "TIMESTAMP " + quoted(text);
  }
  return text;
}

Result<int32_t> ParseDateText(std::string_view text) {
  size_t pos = 0;
  int32_t days = 0;
  if (!ParseDatePart(text, &pos, &days) || pos != text.size()) {
    return BadText(text, "date", "YYYY-MM-DD");
  }
  return days;
}

Result<int32_t> ParseTimeText(std::string_view text) {
  size_t pos = 0;
  int64_t nanos = 0;
  if (!ParseTimePart(text, &pos, &nanos) || pos != text.size()) {
    return BadText(text, "time", "HH:MM:SS[.fff]");
  }
  if (nanos % 1000000 != 0) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' has sub-millisecond digits, which TIME cannot hold");
  }
  return static_cast<int32_t>(nanos / 1000000);
}

Result<Timestamp> ParseTimestampText(std::string_view text) {
  size_t pos = 0;
  int32_t days = 0;
  int64_t nanos = 0;
  bool ok = ParseDatePart(text, &pos, &days);
  if (ok && pos < text.size()) {
    ok = (text[pos] == ' ' || text[pos] == 'T') && ParseTimePart(text, &++pos, &nanos);
  }
  if (!ok || pos != text.size()) {
    return BadText(text, "timestamp", "YYYY-MM-DD HH:MM:SS[.fffffffff]");
  }
  return Timestamp{static_cast<int64_t>(days) * 86400000 + nanos / 1000000,
                   static_cast<int32_t>(nanos % 1000000)};
}

Result<Value> ConvertLiteral(const Literal& literal, const DataType& type) {
  if (literal.kind == Literal::Kind::kNull) return Value::Null();
  const TypeRoot root = type.root();
  if (type.IsNested()) {
    return Status::InvalidArgument("cannot compare " + type.ToString() +
                                   " with a literal; only IS [NOT] NULL applies");
  }
  switch (literal.kind) {
    case Literal::Kind::kNull:
      return Value::Null();
    case Literal::Kind::kBoolean:
      if (root != TypeRoot::kBoolean) return Incompatible(literal, type);
      return Value::Boolean(literal.boolean);
    case Literal::Kind::kNumber:
      if (!IsNumeric(root)) return Incompatible(literal, type);
      return NumberToType(literal.text, type);
    case Literal::Kind::kBinary:
      if (!type.IsBinary() && root != TypeRoot::kVariant) return Incompatible(literal, type);
      return Value::Binary(literal.text);
    case Literal::Kind::kDate: {
      SLUICE_ASSIGN_OR_RETURN(int32_t days, ParseDateText(literal.text));
      if (root == TypeRoot::kDate) return Value::Int32(days);
      if (root == TypeRoot::kTimestamp || root == TypeRoot::kTimestampLtz) {
        return Value::FromTimestamp(Timestamp{static_cast<int64_t>(days) * 86400000, 0});
      }
      return Incompatible(literal, type);
    }
    case Literal::Kind::kTime: {
      if (root != TypeRoot::kTime) return Incompatible(literal, type);
      SLUICE_ASSIGN_OR_RETURN(int32_t millis, ParseTimeText(literal.text));
      return Value::Int32(millis);
    }
    case Literal::Kind::kTimestamp: {
      if (root != TypeRoot::kTimestamp && root != TypeRoot::kTimestampLtz) {
        return Incompatible(literal, type);
      }
      SLUICE_ASSIGN_OR_RETURN(Timestamp ts, TimestampForType(literal.text, type));
      return Value::FromTimestamp(ts);
    }
    case Literal::Kind::kString:
      break;
  }
  // A string literal: its content, read as the column's type.
  const std::string& text = literal.text;
  switch (root) {
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return Value::String(text);
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kVariant:
      return Value::Binary(text);
    case TypeRoot::kBoolean: {
      std::string_view t = Trim(text);
      if (EqualsIgnoreAsciiCase(t, "true")) return Value::Boolean(true);
      if (EqualsIgnoreAsciiCase(t, "false")) return Value::Boolean(false);
      return BadText(text, "boolean", "TRUE or FALSE");
    }
    case TypeRoot::kDate: {
      SLUICE_ASSIGN_OR_RETURN(int32_t days, ParseDateText(Trim(text)));
      return Value::Int32(days);
    }
    case TypeRoot::kTime: {
      SLUICE_ASSIGN_OR_RETURN(int32_t millis, ParseTimeText(Trim(text)));
      return Value::Int32(millis);
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz: {
      SLUICE_ASSIGN_OR_RETURN(Timestamp ts, TimestampForType(Trim(text), type));
      return Value::FromTimestamp(ts);
    }
    default:
      return NumberToType(text, type);
  }
}

}  // namespace sluice
