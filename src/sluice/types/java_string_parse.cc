#include "sluice/types/java_string_parse.h"

#include <algorithm>

#include "sluice/base/string_util.h"
#include "sluice/types/decimal_math.h"

namespace sluice {

namespace {

bool IsLeapYear(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int64_t y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeapYear(y) ? 29 : kDays[m - 1];
}

// Java Integer.parseInt of a part DateTimeUtils has checked to be digits (after trim).
bool ParseDigitsPart(std::string_view s, int32_t* out) {
  s = JavaTrim(s);
  return AllDigits(s) && ParseJavaIntegral(s, out);
}

// Java BinaryStringUtils.toDate.
bool ParseJavaDateImpl(std::string_view s, int32_t* out) {
  if (IsJavaNumeric(s)) return ParseJavaIntegralTruncating(s, out);
  // DateTimeUtils.parseDate: a timestamp's date part counts ("2017-12-12 09:30:00.0").
  const size_t space = s.find(' ');
  if (space != std::string_view::npos && space > 0) s = s.substr(0, space);
  int32_t y = 0, m = 1, d = 1;
  const size_t hyphen1 = s.find('-');
  if (hyphen1 == std::string_view::npos) {
    if (!ParseDigitsPart(s, &y)) return false;
  } else {
    if (!ParseDigitsPart(s.substr(0, hyphen1), &y)) return false;
    const size_t hyphen2 = s.find('-', hyphen1 + 1);
    if (hyphen2 == std::string_view::npos) {
      if (!ParseDigitsPart(s.substr(hyphen1 + 1), &m)) return false;
    } else if (!ParseDigitsPart(s.substr(hyphen1 + 1, hyphen2 - hyphen1 - 1), &m) ||
               !ParseDigitsPart(s.substr(hyphen2 + 1), &d)) {
      return false;
    }
  }
  if (y > 9999 || m < 1 || m > 12 || d < 1 || d > DaysInMonth(y, m)) return false;
  *out = DaysFromCivil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  return true;
}

// Java DateTimeUtils.parseFraction: the first three digits as milliseconds, rounded on the
// fourth.
int32_t ParseFractionMillis(std::string_view v) {
  int32_t multiplier = 100;
  int32_t r = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    r += multiplier * (IsDigit(v[i]) ? v[i] - '0' : 0);
    if (multiplier < 10) {
      if (i + 1 < v.size() && v[i + 1] >= '5') ++r;
      break;
    }
    multiplier /= 10;
  }
  return r;
}

// Java's String.substring(begin, end): false where Java would throw.
bool Substring(std::string_view s, size_t begin, size_t end, std::string_view* out) {
  if (begin > end || end > s.size()) return false;
  *out = s.substr(begin, end - begin);
  return true;
}

bool ParsePart(std::string_view s, size_t begin, size_t end, int32_t* out) {
  std::string_view part;
  return Substring(s, begin, end, &part) && ParseDigitsPart(part, out);
}

// Java BinaryStringUtils.toTime: digits are milliseconds of the day, else
// DateTimeUtils.parseTime, step by step (its offset suffix included).
bool ParseTime(std::string_view v, int32_t* out) {
  if (IsJavaNumeric(v)) return ParseJavaIntegralTruncating(v, out);
  constexpr size_t npos = std::string_view::npos;
  int32_t sign = -1;
  size_t zone = v.find('-');
  if (zone == npos) {
    zone = v.find('+');
    sign = 1;
  }
  size_t end = v.size();
  int32_t zone_hour = 0, zone_minute = 0;
  if (zone != npos) {
    end = zone;
    const size_t colon3 = v.find(':', zone);
    if (colon3 == npos) {
      if (!ParsePart(v, zone + 1, v.size(), &zone_hour)) return false;
    } else if (!ParsePart(v, zone + 1, colon3, &zone_hour) ||
               !ParsePart(v, colon3 + 1, v.size(), &zone_minute)) {
      return false;
    }
  }
  int32_t hour = 0, minute = 0, second = 0, milli = 0;
  const size_t colon1 = v.find(':');
  if (colon1 == npos) {
    if (!ParsePart(v, 0, end, &hour)) return false;
  } else {
    if (!ParsePart(v, 0, colon1, &hour)) return false;
    const size_t colon2 = v.find(':', colon1 + 1);
    if (colon2 == npos) {
      if (!ParsePart(v, colon1 + 1, end, &minute)) return false;
    } else {
      if (!ParsePart(v, colon1 + 1, colon2, &minute)) return false;
      const size_t dot = v.find('.', colon2);
      if (dot == npos) {
        if (!ParsePart(v, colon2 + 1, end, &second)) return false;
      } else {
        std::string_view fraction;
        if (!ParsePart(v, colon2 + 1, dot, &second) || !Substring(v, dot + 1, end, &fraction)) {
          return false;
        }
        milli = ParseFractionMillis(JavaTrim(fraction));
      }
    }
  }
  hour += sign * zone_hour;
  minute += sign * zone_minute;
  // Java's int arithmetic wraps.
  *out = static_cast<int32_t>(static_cast<uint32_t>(hour) * 3600000u +
                              static_cast<uint32_t>(minute) * 60000u +
                              static_cast<uint32_t>(second) * 1000u + static_cast<uint32_t>(milli));
  return true;
}

// Reads 1 or 2 digits (java.time "[HH][H]"); false if none.
bool ReadOneOrTwoDigits(std::string_view s, size_t* pos, int* out) {
  size_t i = *pos;
  int v = 0;
  while (i < s.size() && i - *pos < 2 && IsDigit(s[i])) v = v * 10 + (s[i++] - '0');
  if (i == *pos || (i < s.size() && IsDigit(s[i]))) return false;
  *pos = i;
  *out = v;
  return true;
}

bool Expect(std::string_view s, size_t* pos, char c) {
  if (*pos >= s.size() || s[*pos] != c) return false;
  ++*pos;
  return true;
}

// Java DateTimeUtils.parseTimestampData's DEFAULT_TIMESTAMP_FORMATTER, resolved as java.time's
// SMART style does (day clamped to the month, 24:00:00 the next midnight), the fraction cut to
// `precision` digits. Seconds since the epoch of the wall clock, and nanos of the second.
bool ParseLocalDateTime(std::string_view s, int precision, int64_t* seconds, int32_t* nanos) {
  size_t pos = 0;
  int64_t year = 0;
  while (pos < s.size() && pos < 9 && IsDigit(s[pos])) year = year * 10 + (s[pos++] - '0');
  if (pos < 4 || year < 1) return false;
  int month = 0, day = 0;
  if (!Expect(s, &pos, '-') || !ReadOneOrTwoDigits(s, &pos, &month) || !Expect(s, &pos, '-') ||
      !ReadOneOrTwoDigits(s, &pos, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31) return false;
  day = std::min(day, DaysInMonth(year, month));
  int hour = 0, minute = 0, second = 0;
  int64_t fraction = 0;
  if (pos < s.size()) {
    const bool iso = s[pos] == 'T';
    if (!iso && s[pos] != ' ') return false;
    ++pos;
    if (!ReadOneOrTwoDigits(s, &pos, &hour) || !Expect(s, &pos, ':') ||
        !ReadOneOrTwoDigits(s, &pos, &minute)) {
      return false;
    }
    // The 'T' form may stop after the minutes; the space form has seconds.
    if (!iso || pos < s.size()) {
      if (!Expect(s, &pos, ':') || !ReadOneOrTwoDigits(s, &pos, &second)) return false;
      if (pos < s.size() && s[pos] == '.') {
        ++pos;
        int digits = 0;
        while (pos < s.size() && digits < 9 && IsDigit(s[pos])) {
          fraction = fraction * 10 + (s[pos++] - '0');
          ++digits;
        }
        for (; digits < 9; ++digits) fraction *= 10;
      }
    }
    if (pos != s.size()) return false;
    if (minute > 59 || second > 59 || hour > 24) return false;
    if (hour == 24 && (minute != 0 || second != 0 || fraction != 0)) return false;
  }
  if (precision < 9) {
    const int64_t unit = static_cast<int64_t>(Pow10(9 - precision));
    fraction = fraction / unit * unit;
  }
  const int64_t days =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  *seconds = days * 86400 + hour * 3600 + minute * 60 + second;
  *nanos = static_cast<int32_t>(fraction);
  return true;
}

Timestamp FromSecondsAndNanos(int64_t seconds, int32_t nanos) {
  return Timestamp{seconds * 1000 + nanos / 1000000, nanos % 1000000};
}

}  // namespace

bool ParseJavaDate(std::string_view s, int32_t* days) { return ParseJavaDateImpl(s, days); }

bool ParseJavaTime(std::string_view s, int32_t* millis) { return ParseTime(s, millis); }

bool ParseJavaLocalDateTime(std::string_view s, int precision, int64_t* seconds, int32_t* nanos) {
  return ParseLocalDateTime(s, precision, seconds, nanos);
}

bool JavaEpochToTimestamp(int64_t epoch, int precision, Timestamp* out) {
  int64_t millis = 0;
  int64_t nanos_of_milli = 0;
  switch (precision) {
    case 0:
      millis = epoch * 1000;
      break;
    case 3:
      millis = epoch;
      break;
    case 6:
      millis = epoch / 1000;
      nanos_of_milli = epoch % 1000 * 1000;
      break;
    case 9:
      millis = epoch / 1000000;
      nanos_of_milli = epoch % 1000000;
      break;
    default:
      return false;
  }
  if (nanos_of_milli < 0) {
    nanos_of_milli += 1000000;
    millis -= 1;
  }
  *out = Timestamp{millis, static_cast<int32_t>(nanos_of_milli)};
  return true;
}

bool ParseJavaTimestamp(std::string_view s, int precision, Timestamp* out) {
  if (IsJavaNumeric(s)) {
    int64_t epoch = 0;
    return ParseJavaIntegralTruncating(s, &epoch) && JavaEpochToTimestamp(epoch, precision, out);
  }
  int64_t seconds = 0;
  int32_t nanos = 0;
  if (!ParseJavaLocalDateTime(s, precision, &seconds, &nanos)) return false;
  *out = FromSecondsAndNanos(seconds, nanos);
  return true;
}

}  // namespace sluice
