#include "sluice/meta/option_value.h"

#include <cctype>
#include <charconv>
#include <limits>

#include "sluice/base/string_util.h"

namespace sluice {
namespace {

Status BadValue(std::string_view key, std::string_view text, std::string_view expected) {
  return Status::InvalidArgument("option '" + std::string(key) + "': cannot parse '" +
                                 std::string(text) + "' as " + std::string(expected));
}

// Java Integer.parseInt / Long.parseLong: an optional sign, then at least one digit.
template <typename T>
bool ParseJavaInteger(std::string_view s, T* out) {
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && (s.front() == '-' || s.front() == '+')) return false;
  }
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// Splits "<digits>[blanks]<unit>" (after trimming) into the number and the lower-cased unit.
bool SplitNumberAndUnit(std::string_view text, uint64_t* number, std::string* unit) {
  std::string_view s = JavaTrim(text);
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  if (digits == 0) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + digits, *number);
  if (ec != std::errc()) return false;
  *unit = AsciiToLower(JavaTrim(s.substr(digits)));
  return true;
}

}  // namespace

Result<bool> ParseBooleanOption(std::string_view key, std::string_view text) {
  std::string lower = AsciiToLower(text);
  if (lower == "true") return true;
  if (lower == "false") return false;
  return BadValue(key, text, "a boolean (true/false)");
}

Result<double> ParseDoubleOption(std::string_view key, std::string_view text) {
  std::string_view s = JavaTrim(text);
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) {
    return BadValue(key, text, "a number");
  }
  return value;
}

Result<int32_t> ParseIntOption(std::string_view key, std::string_view text) {
  int32_t v = 0;
  if (!ParseJavaInteger(text, &v)) return BadValue(key, text, "an INT");
  return v;
}

Result<int64_t> ParseLongOption(std::string_view key, std::string_view text) {
  int64_t v = 0;
  if (!ParseJavaInteger(text, &v)) return BadValue(key, text, "a LONG");
  return v;
}

Result<int64_t> ParseMemorySizeOption(std::string_view key, std::string_view text) {
  uint64_t number = 0;
  std::string unit;
  if (!SplitNumberAndUnit(text, &number, &unit)) return BadValue(key, text, "a memory size");
  uint64_t multiplier = 0;
  if (unit.empty() || unit == "b" || unit == "bytes") {
    multiplier = 1;
  } else if (unit == "k" || unit == "kb" || unit == "kibibytes") {
    multiplier = uint64_t{1} << 10;
  } else if (unit == "m" || unit == "mb" || unit == "mebibytes") {
    multiplier = uint64_t{1} << 20;
  } else if (unit == "g" || unit == "gb" || unit == "gibibytes") {
    multiplier = uint64_t{1} << 30;
  } else if (unit == "t" || unit == "tb" || unit == "tebibytes") {
    multiplier = uint64_t{1} << 40;
  } else {
    return BadValue(key, text, "a memory size (unknown unit '" + unit + "')");
  }
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(number, multiplier, &bytes) ||
      bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return BadValue(key, text, "a memory size (too large)");
  }
  return static_cast<int64_t>(bytes);
}

Result<std::chrono::milliseconds> ParseDurationOption(std::string_view key, std::string_view text) {
  uint64_t number = 0;
  std::string unit;
  if (!SplitNumberAndUnit(text, &number, &unit)) return BadValue(key, text, "a duration");
  // Nanoseconds per unit; the result is truncated to milliseconds.
  uint64_t nanos_per_unit = 0;
  if (unit == "ns" || unit == "nano" || unit == "nanos" || unit == "nanosecond" ||
      unit == "nanoseconds") {
    nanos_per_unit = 1;
  } else if (unit == "us" || unit == "\xC2\xB5s" || unit == "micro" || unit == "micros" ||
             unit == "microsecond" || unit == "microseconds") {
    nanos_per_unit = 1000;
  } else if (unit.empty() || unit == "ms" || unit == "milli" || unit == "millis" ||
             unit == "millisecond" || unit == "milliseconds") {
    nanos_per_unit = 1000000;
  } else if (unit == "s" || unit == "sec" || unit == "secs" || unit == "second" ||
             unit == "seconds") {
    nanos_per_unit = 1000000000ULL;
  } else if (unit == "m" || unit == "min" || unit == "mins" || unit == "minute" ||
             unit == "minutes") {
    nanos_per_unit = 60ULL * 1000000000ULL;
  } else if (unit == "h" || unit == "hour" || unit == "hours") {
    nanos_per_unit = 3600ULL * 1000000000ULL;
  } else if (unit == "d" || unit == "day" || unit == "days") {
    nanos_per_unit = 86400ULL * 1000000000ULL;
  } else {
    return BadValue(key, text, "a duration (unknown unit '" + unit + "')");
  }
  uint64_t millis_per_unit = nanos_per_unit / 1000000;
  uint64_t millis = 0;
  if (millis_per_unit == 0) {
    millis = number / (1000000 / nanos_per_unit);
  } else if (__builtin_mul_overflow(number, millis_per_unit, &millis) ||
             millis > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return BadValue(key, text, "a duration (too large)");
  }
  return std::chrono::milliseconds(static_cast<int64_t>(millis));
}

std::vector<std::string> SplitOptionList(std::string_view text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string_view part = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    parts.emplace_back(part);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  // Java's String.split drops trailing empty strings (before trimming).
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  for (std::string& p : parts) p = std::string(JavaTrim(p));
  return parts;
}

}  // namespace sluice
