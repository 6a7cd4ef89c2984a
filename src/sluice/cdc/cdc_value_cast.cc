#include "sluice/cdc/cdc_value_cast.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sluice/base/base64.h"
#include "sluice/base/json_reader.h"
#include "sluice/base/string_util.h"
#include "sluice/base/utf8.h"
#include "sluice/types/decimal_math.h"
#include "sluice/types/java_number_text.h"
#include "sluice/types/java_string_parse.h"

namespace sluice {

namespace {

constexpr size_t kMaxQuotedChars = 200;

Status CastError(std::string_view text, const DataType& type, std::string_view reason) {
  std::string message = "cannot cast \"";
  message.append(text.substr(0, kMaxQuotedChars));
  if (text.size() > kMaxQuotedChars) message.append("...");
  message.append("\" to ").append(type.ToString());
  if (!reason.empty()) message.append(": ").append(reason);
  return Status::InvalidArgument(std::move(message));
}

// Java Double.parseDouble: surrounding blanks, an optional sign, "NaN" / "Infinity", or
// digits[.digits][(e|E)[+-]digits] (at least one mantissa digit) with an optional f/F/d/D.
// The number is left to from_chars<T>, so a FLOAT is rounded once, as Java's Float.valueOf.
template <typename T>
bool ParseJavaFloating(std::string_view s, T* out) {
  s = JavaTrim(s);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "NaN") {
    *out = std::numeric_limits<T>::quiet_NaN();
    return true;
  }
  if (s == "Infinity") {
    *out = negative ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    return true;
  }
  if (!s.empty() && (s.back() == 'f' || s.back() == 'F' || s.back() == 'd' || s.back() == 'D')) {
    s.remove_suffix(1);
  }
  size_t i = 0;
  size_t mantissa_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size() || !IsDigit(s[i])) return false;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i != s.size()) return false;
  // from_chars takes no leading '+' and gives ERANGE (with ±inf / 0) beyond the range, where
  // Java rounds to infinity or zero too.
  T value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (end != s.data() + s.size()) return false;
  if (ec == std::errc::result_out_of_range) {
    // Out of range or subnormal: strto* rounds as Java does (to infinity, zero or the
    // subnormal).
    const std::string copy(s);
    if constexpr (std::is_same_v<T, float>) {
      value = std::strtof(copy.c_str(), nullptr);
    } else {
      value = std::strtod(copy.c_str(), nullptr);
    }
  } else if (ec != std::errc()) {
    return false;
  }
  *out = negative ? -value : value;
  return true;
}

Result<Value> CastFloat(std::string_view text, const DataType& type) {
  double d = 0;
  if (!ParseJavaFloating(text, &d)) return CastError(text, type, "not a number");
  if (d == static_cast<double>(static_cast<float>(d))) {
    return Value::Float(static_cast<float>(d));
  }
  // Java keeps the float only when it prints as the double does (canal sends FLOAT columns
  // with the float's digits, which the double does not hold exactly).
  float f = 0;
  ParseJavaFloating(text, &f);
  if (JavaFloatToString(f) != JavaDoubleToString(d)) {
    return CastError(text, type, "cannot be cast to float due to precision loss");
  }
  return Value::Float(f);
}

// Java new BigDecimal(text) then Decimal.fromBigDecimal(precision, scale): HALF_UP to the
// scale, null when more than `precision` digits remain.
Result<Value> CastDecimal(std::string_view text, const DataType& type) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  std::string digits;
  int64_t fraction_digits = 0;
  size_t i = 0;
  size_t mantissa_digits = 0;
  bool in_fraction = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (IsDigit(c)) {
      ++mantissa_digits;
      if (in_fraction) ++fraction_digits;
      if (!digits.empty() || c != '0') digits.push_back(c);
    } else if (c == '.' && !in_fraction) {
      in_fraction = true;
    } else {
      break;
    }
  }
  if (mantissa_digits == 0) return CastError(text, type, "not a decimal number");
  int64_t exponent = 0;
  if (i < s.size()) {
    if (s[i] != 'e' && s[i] != 'E') return CastError(text, type, "not a decimal number");
    int32_t e = 0;
    if (!ParseJavaIntegral(s.substr(i + 1), &e)) {
      return CastError(text, type, "not a decimal number");
    }
    exponent = e;
  }
  // value = digits * 10^-(fraction_digits - exponent)
  const int64_t scale = fraction_digits - exponent;
  const int64_t target_scale = type.scale();
  int128_t unscaled = 0;
  if (scale > target_scale) {
    const int64_t drop = scale - target_scale;
    const int64_t keep = static_cast<int64_t>(digits.size()) - drop;
    bool round_up = false;
    if (keep >= 0) {
      round_up = keep < static_cast<int64_t>(digits.size()) && digits[keep] >= '5';
      digits.resize(static_cast<size_t>(keep));
    } else {
      digits.clear();
    }
    if (digits.size() > 38) return Value::Null();
    for (char c : digits) unscaled = unscaled * 10 + (c - '0');
    if (round_up) ++unscaled;
  } else {
    const int64_t zeros = target_scale - scale;
    if (!digits.empty() && static_cast<int64_t>(digits.size()) + zeros > 38) return Value::Null();
    for (char c : digits) unscaled = unscaled * 10 + (c - '0');
    if (unscaled != 0) unscaled *= Pow10(static_cast<int>(zeros));
  }
  if (!FitsPrecision(unscaled, type.precision())) return Value::Null();
  return Value::FromDecimal(
      Decimal{negative ? -unscaled : unscaled, type.precision(), type.scale()});
}

// Java BinaryStringUtils.fromMillisToTimestamp: the epoch number's unit is the precision's.
Result<Value> TimestampFromEpoch(std::string_view text, const DataType& type) {
  int64_t epoch = 0;
  if (!ParseJavaIntegralTruncating(text, &epoch)) return CastError(text, type, "out of range");
  Timestamp ts;
  if (!JavaEpochToTimestamp(epoch, type.precision(), &ts)) {
    return CastError(text, type,
                     "Unsupported precision: " + std::to_string(type.precision()) +
                         " (an epoch number needs precision 0, 3, 6 or 9)");
  }
  return Value::FromTimestamp(ts);
}

// The text Jackson gives a JSON node that castFromStringInternal reads as an element: a
// string's content, a number as Java prints it, other nodes as compact JSON.
std::string ElementText(const Json& node) {
  if (node.is_string()) return node.get<std::string>();
  if (node.is_number_integer()) return node.dump();
  if (node.is_number_float()) {
    return JavaDoubleToString(static_cast<double>(node.get<long double>()));
  }
  return node.dump();
}

Result<Value> CastElement(const Json& node, const DataType& type, const TimeZone* zone) {
  if (node.is_null()) return Value::Null();
  return CastFromCdcValueString(ElementText(node), type, zone);
}

// Java String.split(","): trailing empty strings dropped, but never the only one.
std::vector<std::string_view> JavaSplitComma(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t comma = s.find(',', start);
    if (comma == std::string_view::npos) {
      parts.push_back(s.substr(start));
      break;
    }
    parts.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  if (parts.size() > 1) {
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
  }
  return parts;
}

Result<Value> CastArray(std::string_view text, const DataType& type, const TimeZone* zone) {
  const DataType& element = *type.element();
  Result<Json> json = ParseJson(text);
  if (!json.ok()) {
    // Java's fallback for text that is not JSON: "[a,b]" or "a,b" split on commas, for
    // VARCHAR elements only.
    if (element.root() != TypeRoot::kVarChar) {
      return CastError(text, type, "not a JSON array");
    }
    std::string_view s = text;
    if (!s.empty() && s.front() == '[') s.remove_prefix(1);
    if (!s.empty() && s.back() == ']') s.remove_suffix(1);
    ValueList values;
    for (std::string_view part : JavaSplitComma(s))
      values.push_back(Value::String(std::string(part)));
    return Value::Array(std::move(values));
  }
  ValueList values;
  // Jackson iterates an object's values and a scalar's nothing.
  if (json->is_array() || json->is_object()) {
    values.reserve(json->size());
    for (const Json& node : *json) {
      SLUICE_ASSIGN_OR_RETURN(Value v, CastElement(node, element, zone));
      values.push_back(std::move(v));
    }
  }
  return Value::Array(std::move(values));
}

Result<Value> CastMap(std::string_view text, const DataType& type, const TimeZone* zone) {
  Result<Json> json = ParseJson(text);
  ValuePairs pairs;
  if (!json.ok() || !json->is_object()) return Value::Map(std::move(pairs));
  pairs.reserve(json->size());
  for (const auto& [key, node] : json->items()) {
    SLUICE_ASSIGN_OR_RETURN(Value k, CastFromCdcValueString(key, *type.key(), zone));
    SLUICE_ASSIGN_OR_RETURN(Value v, CastElement(node, *type.value(), zone));
    pairs.emplace_back(std::move(k), std::move(v));
  }
  return Value::Map(std::move(pairs));
}

Result<Value> CastRow(std::string_view text, const DataType& type, const TimeZone* zone) {
  Result<Json> json = ParseJson(text);
  if (!json.ok()) return CastError(text, type, "not a JSON object");
  ValueList fields(type.fields().size());
  if (json->is_object()) {
    for (size_t i = 0; i < fields.size(); ++i) {
      const DataField& field = type.fields()[i];
      const Json* node = FindMember(*json, field.name);
      if (node == nullptr) continue;
      SLUICE_ASSIGN_OR_RETURN(fields[i], CastElement(*node, *field.type, zone));
    }
  }
  return Value::Row(std::move(fields));
}

}  // namespace

Result<Value> CastFromCdcValueString(std::string_view text, const DataType& type,
                                     const TimeZone* local_zone) {
  switch (type.root()) {
    case TypeRoot::kChar:
    case TypeRoot::kVarChar: {
      if (type.length() != DataType::kMaxLength) {
        const size_t chars = CountCodePoints(text);
        if (chars > static_cast<size_t>(type.length())) {
          return CastError(text, type,
                           "Length of type " + type.ToString() + " is " +
                               std::to_string(type.length()) +
                               ", but casting result has a length of " + std::to_string(chars));
        }
      }
      return Value::String(std::string(text));
    }
    case TypeRoot::kBoolean: {
      static constexpr std::string_view kTrue[] = {"t", "true", "y", "yes", "1"};
      static constexpr std::string_view kFalse[] = {"f", "false", "n", "no", "0"};
      if (text.size() <= 5) {
        char lower[5];
        for (size_t i = 0; i < text.size(); ++i) {
          const char c = text[i];
          lower[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        }
        const std::string_view word(lower, text.size());
        for (std::string_view t : kTrue) {
          if (word == t) return Value::Boolean(true);
        }
        for (std::string_view f : kFalse) {
          if (word == f) return Value::Boolean(false);
        }
      }
      return CastError(text, type, "not a boolean");
    }
    case TypeRoot::kBinary: {
      // Java Base64.getDecoder(): padding optional, no blanks.
      Result<std::string> bytes = Base64Decode(text);
      if (!bytes.ok()) return CastError(text, type, "not base64");
      return Value::Binary(std::move(*bytes));
    }
    case TypeRoot::kVarBinary:
      if (text.size() > static_cast<size_t>(type.length())) {
        return CastError(text, type,
                         "Length of type " + type.ToString() + " is " +
                             std::to_string(type.length()) +
                             ", but casting result has a length of " + std::to_string(text.size()));
      }
      return Value::Binary(std::string(text));
    case TypeRoot::kDecimal:
      return CastDecimal(text, type);
    case TypeRoot::kTinyInt: {
      int8_t v = 0;
      if (!ParseJavaIntegral(text, &v)) return CastError(text, type, "not a TINYINT");
      return Value::Int8(v);
    }
    case TypeRoot::kSmallInt: {
      int16_t v = 0;
      if (!ParseJavaIntegral(text, &v)) return CastError(text, type, "not a SMALLINT");
      return Value::Int16(v);
    }
    case TypeRoot::kInt: {
      int32_t v = 0;
      if (!ParseJavaIntegral(text, &v)) return CastError(text, type, "not an INT");
      return Value::Int32(v);
    }
    case TypeRoot::kBigInt: {
      int64_t v = 0;
      if (!ParseJavaIntegral(text, &v)) return CastError(text, type, "not a BIGINT");
      return Value::Int64(v);
    }
    case TypeRoot::kFloat:
      return CastFloat(text, type);
    case TypeRoot::kDouble: {
      double v = 0;
      if (!ParseJavaFloating(text, &v)) return CastError(text, type, "not a number");
      return Value::Double(v);
    }
    case TypeRoot::kDate: {
      int32_t days = 0;
      if (!ParseJavaDate(text, &days)) return CastError(text, type, "not a date");
      return Value::Int32(days);
    }
    case TypeRoot::kTime: {
      int32_t millis = 0;
      if (!ParseJavaTime(text, &millis)) return CastError(text, type, "not a time");
      return Value::Int32(millis);
    }
    case TypeRoot::kTimestamp: {
      if (IsJavaNumeric(text)) return TimestampFromEpoch(text, type);
      Timestamp ts;
      if (!ParseJavaTimestamp(text, type.precision(), &ts)) {
        return CastError(text, type, "not a timestamp");
      }
      return Value::FromTimestamp(ts);
    }
    case TypeRoot::kTimestampLtz: {
      int64_t seconds = 0;
      int32_t nanos = 0;
      if (!ParseJavaLocalDateTime(text, type.precision(), &seconds, &nanos)) {
        return CastError(text, type, "not a timestamp");
      }
      if (local_zone != nullptr) seconds = local_zone->LocalToUtc(seconds);
      return Value::FromTimestamp(Timestamp{seconds * 1000 + nanos / 1000000, nanos % 1000000});
    }
    case TypeRoot::kArray:
      return CastArray(text, type, local_zone);
    case TypeRoot::kMap:
      return CastMap(text, type, local_zone);
    case TypeRoot::kRow:
      return CastRow(text, type, local_zone);
    default:
      return CastError(text, type, "Unsupported type " + type.ToString());
  }
}

}  // namespace sluice
