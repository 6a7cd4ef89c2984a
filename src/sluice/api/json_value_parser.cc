#include "sluice/api/json_value_parser.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>

#include "sluice/base/base64.h"
#include "sluice/base/json_reader.h"
#include "sluice/base/utf8.h"
#include "sluice/temporal_text.h"

namespace sluice {

namespace {

constexpr size_t kMaxQuotedValue = 60;

// The value as an error shows it: valid UTF-8 whatever the input held (bytes that are not
// UTF-8 as Java would print them), cut between characters when long.
std::string Quoted(std::string_view text) {
  std::string shown;
  AppendUtf8Replacing(text, &shown);
  if (shown.size() <= kMaxQuotedValue) return "'" + shown + "'";
  size_t n = kMaxQuotedValue;
  while (n > 0 && (static_cast<unsigned char>(shown[n]) & 0xC0) == 0x80) --n;
  return "'" + shown.substr(0, n) + "...'";
}

Status NotA(std::string_view text, const DataType& type, std::string_view why = {}) {
  std::string message = Quoted(text) + " is not a valid " + type.WithNullable(true)->ToString();
  if (!why.empty()) message += ": " + std::string(why);
  return Status::InvalidArgument(message);
}

Status NotUtf8(std::string_view text) {
  return Status::InvalidArgument(Quoted(text) + " is not valid UTF-8 (byte " +
                                 std::to_string(FindInvalidUtf8(text) + 1) + ")");
}

Result<Value> ParseInteger(std::string_view text, const DataType& type) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec == std::errc::result_out_of_range) return NotA(text, type, "out of range");
  if (ec != std::errc() || ptr != end || text.empty()) return NotA(text, type);
  int64_t lo = 0, hi = 0;
  switch (type.root()) {
    case TypeRoot::kTinyInt:
      lo = std::numeric_limits<int8_t>::min(), hi = std::numeric_limits<int8_t>::max();
      break;
    case TypeRoot::kSmallInt:
      lo = std::numeric_limits<int16_t>::min(), hi = std::numeric_limits<int16_t>::max();
      break;
    case TypeRoot::kInt:
      lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
      break;
    default:
      lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  }
  if (v < lo || v > hi) return NotA(text, type, "out of range");
  switch (type.root()) {
    case TypeRoot::kTinyInt:
      return Value::Int8(static_cast<int8_t>(v));
    case TypeRoot::kSmallInt:
      return Value::Int16(static_cast<int16_t>(v));
    case TypeRoot::kInt:
      return Value::Int32(static_cast<int32_t>(v));
    default:
      return Value::Int64(v);
  }
}

Result<Value> ParseFloating(std::string_view text, const DataType& type) {
  const bool is_float = type.root() == TypeRoot::kFloat;
  auto make = [&](double v) {
    return is_float ? Value::Float(static_cast<float>(v)) : Value::Double(v);
  };
  if (text == "NaN") return make(std::numeric_limits<double>::quiet_NaN());
  if (text == "Infinity") return make(std::numeric_limits<double>::infinity());
  if (text == "-Infinity") return make(-std::numeric_limits<double>::infinity());
  const char* end = text.data() + text.size();
  if (is_float) {
    float v = 0;
    auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || ptr != end || text.empty()) return NotA(text, type);
    return Value::Float(v);
  }
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || text.empty()) return NotA(text, type);
  return Value::Double(v);
}

// "[-+]digits[.digits]" with at most scale() significant fraction digits and at most
// precision() - scale() integer digits.
Result<Value> ParseDecimal(std::string_view text, const DataType& type) {
  const int32_t precision = type.precision();
  const int32_t scale = type.scale();
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) negative = text[pos++] == '-';
  int128_t unscaled = 0;
  int integer_digits = 0;
  int fraction_digits = 0;
  bool any_digit = false;
  bool in_fraction = false;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (c == '.' && !in_fraction) {
      in_fraction = true;
      continue;
    }
    if (c < '0' || c > '9') return NotA(text, type);
    any_digit = true;
    if (in_fraction) {
      if (fraction_digits == scale) {
        if (c != '0') {
          return NotA(text, type, "more than " + std::to_string(scale) + " fraction digits");
        }
        continue;
      }
      ++fraction_digits;
    } else if (integer_digits > 0 || c != '0') {
      ++integer_digits;
      if (integer_digits > precision - scale) {
        return NotA(text, type,
                    "more than " + std::to_string(precision - scale) + " integer digits");
      }
    }
    unscaled = unscaled * 10 + (c - '0');
  }
  if (!any_digit) return NotA(text, type);
  for (; fraction_digits < scale; ++fraction_digits) unscaled *= 10;
  return Value::FromDecimal(Decimal{negative ? -unscaled : unscaled, precision, scale});
}

// Fails when `nanos_of_second` has digits below the type's precision.
Status CheckFraction(int64_t nanos_of_second, std::string_view text, const DataType& type) {
  int64_t unit = 1;
  for (int i = type.precision(); i < 9; ++i) unit *= 10;
  if (nanos_of_second % unit != 0) {
    return NotA(text, type,
                "more fraction digits than precision " + std::to_string(type.precision()));
  }
  return Status::OK();
}

Result<Value> ParseTimestamp(std::string_view text, const DataType& type) {
  auto value = ParseTimestampLiteral(text, type);
  if (!value.ok()) return NotA(text, type, value.status().message());
  const Timestamp& ts = value->timestamp();
  const int64_t millis_of_second = ((ts.millisecond % 1000) + 1000) % 1000;
  SLUICE_RETURN_NOT_OK(
      CheckFraction(millis_of_second * 1000000 + ts.nano_of_millisecond, text, type));
  return value;
}

// A string's content, any other value's JSON text: how errors quote a value.
std::string JsonText(const Json& json) {
  return json.is_string() ? json.get<std::string>() : json.dump();
}

Result<Value> ParseJsonList(const Json& json, const DataType& type) {
  if (!json.is_array()) return NotA(JsonText(json), type, "expected a JSON array");
  ValueList elements;
  elements.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    auto element = ParseJsonValue(json[i], *type.element());
    if (!element.ok()) return element.status().WithContext("element " + std::to_string(i));
    if (element->is_null() && !type.element()->nullable()) {
      return Status::InvalidArgument("element " + std::to_string(i) + " is null, but the type is " +
                                     type.ToString());
    }
    elements.push_back(std::move(*element));
  }
  return Value::Array(std::move(elements));
}

Result<Value> ParseJsonMap(const Json& json, const DataType& type) {
  if (!json.is_array()) {
    return NotA(JsonText(json), type, "expected an array of [key, value] pairs");
  }
  const bool multiset = type.root() == TypeRoot::kMultiset;
  const DataTypePtr key_type = multiset ? type.element() : type.key();
  const DataTypePtr value_type = multiset ? DataType::Int(false) : type.value();
  ValuePairs pairs;
  pairs.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    const Json& pair = json[i];
    if (!pair.is_array() || pair.size() != 2) {
      return NotA(JsonText(json), type,
                  "entry " + std::to_string(i) + " is not a [key, value] pair");
    }
    auto key = ParseJsonValue(pair[0], *key_type);
    if (!key.ok()) return key.status().WithContext("key of entry " + std::to_string(i));
    if (key->is_null()) {
      return Status::InvalidArgument("key of entry " + std::to_string(i) + " is null");
    }
    auto value = ParseJsonValue(pair[1], *value_type);
    if (!value.ok()) return value.status().WithContext("value of entry " + std::to_string(i));
    pairs.emplace_back(std::move(*key), std::move(*value));
  }
  return Value::Map(std::move(pairs));
}

Result<Value> ParseJsonRow(const Json& json, const DataType& type) {
  if (!json.is_object()) return NotA(JsonText(json), type, "expected a JSON object");
  ValueList fields(static_cast<size_t>(type.num_fields()));
  for (const auto& [name, member] : json.items()) {
    const int index = type.FieldIndex(name);
    if (index < 0) return NotA(JsonText(json), type, "no field '" + name + "'");
    auto value = ParseJsonValue(member, *type.fields()[static_cast<size_t>(index)].type);
    if (!value.ok()) return value.status().WithContext("field '" + name + "'");
    fields[static_cast<size_t>(index)] = std::move(*value);
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].is_null() && !type.fields()[i].type->nullable()) {
      return Status::InvalidArgument("field '" + type.fields()[i].name + "' is NOT NULL");
    }
  }
  return Value::Row(std::move(fields));
}

}  // namespace

Result<Value> ParseValueText(std::string_view text, const DataType& type) {
  switch (type.root()) {
    case TypeRoot::kBoolean:
      if (text == "true" || text == "TRUE") return Value::Boolean(true);
      if (text == "false" || text == "FALSE") return Value::Boolean(false);
      return NotA(text, type);
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return ParseInteger(text, type);
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return ParseFloating(text, type);
    case TypeRoot::kDecimal:
      return ParseDecimal(text, type);
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      if (!IsValidUtf8(text)) return NotUtf8(text);
      return Value::String(std::string(text));
    case TypeRoot::kDate: {
      auto days = ParseDateLiteral(text);
      if (!days.ok()) return NotA(text, type);
      return Value::Int32(*days);
    }
    case TypeRoot::kTime: {
      auto millis = ParseTimeLiteral(text);
      if (!millis.ok()) return NotA(text, type);
      SLUICE_RETURN_NOT_OK(CheckFraction(int64_t{*millis % 1000} * 1000000, text, type));
      return Value::Int32(*millis);
    }
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      return ParseTimestamp(text, type);
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob:
    case TypeRoot::kArray:
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
    case TypeRoot::kRow: {
      auto json = ParseJson(text);
      if (!json.ok()) return NotA(text, type, "not JSON text");
      return ParseJsonValue(*json, type);
    }
    case TypeRoot::kVariant:
    case TypeRoot::kVector:
      break;
  }
  return Status::NotSupported("writing " + type.ToString() + " values is not supported");
}

int64_t FindInvalidUtf8Row(const ColumnVector& column) {
  // The row of a list or map whose elements include `element`, or -1 for -1.
  auto row_of_element = [&](int64_t element) -> int64_t {
    if (element < 0) return -1;
    const int32_t* offsets = column.offset_data();
    return std::upper_bound(offsets, offsets + column.size() + 1, element) - offsets - 1;
  };
  // The smaller of two rows, either -1 for none.
  auto first = [](int64_t a, int64_t b) { return a < 0 || (b >= 0 && b < a) ? b : a; };
  switch (column.kind()) {
    case PhysicalKind::kBytes:
      if (!column.type()->IsString()) return -1;
      return FindInvalidUtf8Value(reinterpret_cast<const char*>(column.values().data()),
                                  column.offset_data(), column.size());
    case PhysicalKind::kList:
      return row_of_element(FindInvalidUtf8Row(*column.child(0)));
    case PhysicalKind::kMap:
      return row_of_element(
          first(FindInvalidUtf8Row(*column.child(0)), FindInvalidUtf8Row(*column.child(1))));
    case PhysicalKind::kStruct: {
      int64_t row = -1;
      for (int i = 0; i < column.num_children(); ++i) {
        row = first(row, FindInvalidUtf8Row(*column.child(i)));
      }
      return row;
    }
    default:
      return -1;
  }
}

Result<Value> ParseJsonValue(const Json& json, const DataType& type) {
  if (json.is_null()) return Value::Null();
  switch (type.root()) {
    case TypeRoot::kBoolean:
      if (json.is_boolean()) return Value::Boolean(json.get<bool>());
      return NotA(JsonText(json), type, "expected true or false");
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      if (json.is_number_unsigned() &&
          json.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return NotA(json.dump(), type, "out of range");
      }
      if (json.is_number_integer()) return ParseInteger(std::to_string(json.get<int64_t>()), type);
      if (json.is_string()) return ParseInteger(json.get<std::string>(), type);
      return NotA(json.dump(), type, "expected an integer");
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      if (json.is_number_integer() && !json.is_number_unsigned()) {
        return type.root() == TypeRoot::kFloat
                   ? Value::Float(static_cast<float>(json.get<int64_t>()))
                   : Value::Double(static_cast<double>(json.get<int64_t>()));
      }
      if (json.is_number()) {
        const long double v = json.get<long double>();
        return type.root() == TypeRoot::kFloat ? Value::Float(static_cast<float>(v))
                                               : Value::Double(static_cast<double>(v));
      }
      if (json.is_string()) return ParseFloating(json.get<std::string>(), type);
      return NotA(json.dump(), type, "expected a number");
    case TypeRoot::kDecimal:
      if (json.is_string()) return ParseDecimal(json.get<std::string>(), type);
      if (json.is_number_integer()) return ParseDecimal(json.dump(), type);
      if (json.is_number_float()) {
        // JSON numbers arrive as doubles: the shortest fixed-point text that reads back as the
        // same double is the number as written (-999.99, not -999.990000000000009095).
        char buf[400];
        const auto [end, error] =
            std::to_chars(buf, buf + sizeof(buf), json.get<double>(), std::chars_format::fixed);
        if (error != std::errc()) return NotA(json.dump(), type, "expected a decimal");
        return ParseDecimal(std::string(buf, end), type);
      }
      return NotA(json.dump(), type, "expected a decimal string");
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      if (json.is_string()) return ParseValueText(json.get<std::string>(), type);
      return NotA(json.dump(), type, "expected a string");
    case TypeRoot::kDate:
    case TypeRoot::kTime:
    case TypeRoot::kTimestamp:
    case TypeRoot::kTimestampLtz:
      if (json.is_string()) return ParseValueText(json.get<std::string>(), type);
      return NotA(json.dump(), type, "expected a string");
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
    case TypeRoot::kBlob: {
      const Json* base64 =
          json.is_object() && json.size() == 1 ? FindMember(json, "base64") : nullptr;
      if (base64 == nullptr || !base64->is_string()) {
        return NotA(json.dump(), type, "expected {\"base64\": \"...\"}");
      }
      auto bytes = Base64Decode(base64->get<std::string>());
      if (!bytes.ok()) return NotA(json.dump(), type, bytes.status().message());
      return Value::Binary(std::move(*bytes));
    }
    case TypeRoot::kArray:
      return ParseJsonList(json, type);
    case TypeRoot::kMap:
    case TypeRoot::kMultiset:
      return ParseJsonMap(json, type);
    case TypeRoot::kRow:
      return ParseJsonRow(json, type);
    case TypeRoot::kVariant:
    case TypeRoot::kVector:
      break;
  }
  return Status::NotSupported("writing " + type.ToString() + " values is not supported");
}

}  // namespace sluice
