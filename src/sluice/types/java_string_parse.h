// Text into numbers and date-times as Java Paimon parses it (Long.parseLong, StringUtils.isNumeric,
// BinaryStringUtils.toInt / toLong / toDate / toTime / toTimestamp, DateTimeUtils.parseDate /
// parseTime / parseTimestampData): one home for the reader's casts of STRING columns
// (table/source/column_cast) and the casts of CDC values (cdc/cdc_value_cast), which Java both
// runs through BinaryStringUtils. Each returns false where Java throws.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "sluice/value.h"

namespace sluice {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

inline bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// Java StringUtils.isNumeric: an optional '-' and at least one digit.
inline bool IsJavaNumeric(std::string_view s) {
  if (!s.empty() && s.front() == '-') s.remove_prefix(1);
  return AllDigits(s);
}

// Java Long.parseLong / Integer.parseInt ...: [+-]digits within T's range.
template <typename T>
bool ParseJavaIntegral(std::string_view s, T* out) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (!AllDigits(s)) return false;
  // Accumulate negatively so T's minimum parses.
  T value = 0;
  for (char c : s) {
    const T digit = static_cast<T>(c - '0');
    if (value < (std::numeric_limits<T>::min() + digit) / 10) return false;
    value = static_cast<T>(value * 10 - digit);
  }
  if (!negative) {
    if (value == std::numeric_limits<T>::min()) return false;
    value = static_cast<T>(-value);
  }
  *out = value;
  return true;
}

// Java BinaryStringUtils.toLong / toInt: like parseLong, but "12.34" reads as 12 (a fraction of
// digits is dropped).
template <typename T>
bool ParseJavaIntegralTruncating(std::string_view s, T* out) {
  const size_t dot = s.find('.');
  if (dot != std::string_view::npos) {
    const std::string_view fraction = s.substr(dot + 1);
    if (!fraction.empty() && !AllDigits(fraction)) return false;
    s = s.substr(0, dot);
  }
  return ParseJavaIntegral(s, out);
}

// Java BinaryStringUtils.toDate: an epoch-day number, else DateTimeUtils.parseDate's
// "yyyy[-m[-d]]" (a timestamp's date part counts). Days since the epoch.
bool ParseJavaDate(std::string_view s, int32_t* days);

// Java BinaryStringUtils.toTime: a number of milliseconds of the day, else
// DateTimeUtils.parseTime's "hh[:mm[:ss[.fff]]][(+|-)hh[:mm]]". Milliseconds of the day.
bool ParseJavaTime(std::string_view s, int32_t* millis);

// Java DateTimeUtils.parseTimestampData's DEFAULT_TIMESTAMP_FORMATTER, resolved as java.time's
// SMART style does (day clamped to the month, 24:00:00 the next midnight), the fraction cut to
// `precision` digits: the wall clock as seconds since the epoch and nanos of the second.
bool ParseJavaLocalDateTime(std::string_view s, int precision, int64_t* seconds, int32_t* nanos);

// Java BinaryStringUtils.fromMillisToTimestamp: `epoch` in the unit of `precision` (0 seconds,
// 3 millis, 6 micros, 9 nanos); false for another precision.
bool JavaEpochToTimestamp(int64_t epoch, int precision, Timestamp* out);

// Java BinaryStringUtils.toTimestamp(input, precision): an epoch number (JavaEpochToTimestamp),
// else ParseJavaLocalDateTime; the wall clock as a Timestamp.
bool ParseJavaTimestamp(std::string_view s, int precision, Timestamp* out);

}  // namespace sluice
