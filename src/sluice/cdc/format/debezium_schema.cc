#include "sluice/cdc/format/debezium_schema.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

#include "sluice/base/base64.h"
#include "sluice/base/json_reader.h"
#include "sluice/cdc/format/cdc_json.h"
#include "sluice/value.h"

namespace sluice {

namespace {

// Logical names. Decimal is matched by suffix: shading renames the package of Kafka's classes.
constexpr std::string_view kBits = "io.debezium.data.Bits";
constexpr std::string_view kDecimalSuffix = "org.apache.kafka.connect.data.Decimal";
constexpr std::string_view kVariableScaleDecimal = "io.debezium.data.VariableScaleDecimal";
constexpr std::string_view kDate = "io.debezium.time.Date";
constexpr std::string_view kConnectDate = "org.apache.kafka.connect.data.Date";
constexpr std::string_view kTimestamp = "io.debezium.time.Timestamp";
constexpr std::string_view kConnectTimestamp = "org.apache.kafka.connect.data.Timestamp";
constexpr std::string_view kMicroTimestamp = "io.debezium.time.MicroTimestamp";
constexpr std::string_view kNanoTimestamp = "io.debezium.time.NanoTimestamp";
constexpr std::string_view kZonedTimestamp = "io.debezium.time.ZonedTimestamp";
constexpr std::string_view kTime = "io.debezium.time.Time";
constexpr std::string_view kConnectTime = "org.apache.kafka.connect.data.Time";
constexpr std::string_view kMicroTime = "io.debezium.time.MicroTime";
constexpr std::string_view kNanoTime = "io.debezium.time.NanoTime";

constexpr int32_t kMaxDecimalPrecision = 38;
// BIGINT UNSIGNED has 20 digits; Debezium gives its DECIMAL no precision.
constexpr int32_t kUnsignedBigIntPrecision = 20;
constexpr int64_t kNanosPerDay = 86'400'000'000'000;

enum class Logical : unsigned char {
  kNone,
  kBits,
  kDecimal,
  kVariableScaleDecimal,
  kDate,
  kMillisTimestamp,
  kMicroTimestamp,
  kNanoTimestamp,
  kZonedTimestamp,
  kMillisTime,
  kMicroTime,
  kNanoTime,
};

Logical LogicalOf(const DebeziumSchema::Field& field) {
  const std::string& name = field.logical_name;
  if (name.empty()) return Logical::kNone;
  if (name == kBits) return Logical::kBits;
  if (name.ends_with(kDecimalSuffix)) return Logical::kDecimal;
  if (name == kVariableScaleDecimal) return Logical::kVariableScaleDecimal;
  if (name == kDate || name == kConnectDate) return Logical::kDate;
  if (name == kTimestamp || name == kConnectTimestamp) return Logical::kMillisTimestamp;
  if (name == kMicroTimestamp) return Logical::kMicroTimestamp;
  if (name == kNanoTimestamp) return Logical::kNanoTimestamp;
  if (name == kZonedTimestamp) return Logical::kZonedTimestamp;
  if (name == kTime || name == kConnectTime) return Logical::kMillisTime;
  if (name == kMicroTime) return Logical::kMicroTime;
  if (name == kNanoTime) return Logical::kNanoTime;
  return Logical::kNone;
}

Status BadValue(std::string_view path, std::string_view what) {
  return Status::Corruption("field '" + std::string(path) + "': " + std::string(what));
}

Result<int32_t> ParseInt32(std::string_view text, std::string_view what) {
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Status::Corruption(std::string(what) + " '" + std::string(text) +
                              "' is not a 32-bit integer");
  }
  return value;
}

// An integer given as a JSON number or as its text (Java parses the value's text).
Result<int64_t> IntegerValue(const Json& value, std::string_view path) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    int64_t parsed = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) return parsed;
    return BadValue(path, "'" + text + "' is not an integer");
  }
  if (value.is_number_integer()) return JsonToInt64(value, path);
  return BadValue(path, "expected an integer, got " + std::string(CdcJsonTypeName(value)));
}

Result<std::string> StringValue(const Json& value, std::string_view path) {
  if (value.is_string()) return value.get<std::string>();
  return BadValue(path, "expected a string, got " + std::string(CdcJsonTypeName(value)));
}

// Decimal text of big-endian two's-complement `bytes` scaled by `scale`.
Result<std::string> UnscaledBytesToDecimal(std::string_view bytes, int32_t scale,
                                           std::string_view path) {
  if (bytes.empty()) return BadValue(path, "empty DECIMAL bytes");
  if (bytes.size() > 16) return BadValue(path, "DECIMAL wider than 38 digits");
  if (scale < 0 || scale > kMaxDecimalPrecision) {
    return BadValue(path, "DECIMAL scale " + std::to_string(scale) + " outside 0..38");
  }
  // Sign-extend into 128 bits.
  unsigned __int128 bits =
      static_cast<uint8_t>(bytes[0]) >= 0x80 ? ~static_cast<unsigned __int128>(0) : 0;
  for (char c : bytes) bits = (bits << 8) | static_cast<uint8_t>(c);
  Decimal decimal;
  decimal.unscaled = static_cast<int128_t>(bits);
  decimal.scale = scale;
  decimal.precision = kMaxDecimalPrecision;
  return decimal.ToString();
}

// Java LocalTime.toString of `nanos` into the day: "HH:MM:SS" and the fraction in groups of
// three digits, as few as hold it.
std::string FormatTimeOfDay(int64_t nanos) {
  int64_t of_day = nanos % kNanosPerDay;
  if (of_day < 0) of_day += kNanosPerDay;
  const int64_t seconds = of_day / 1'000'000'000;
  const int64_t fraction = of_day % 1'000'000'000;
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%02d:%02d:%02d", static_cast<int>(seconds / 3600),
                static_cast<int>(seconds / 60 % 60), static_cast<int>(seconds % 60));
  std::string out = buf;
  if (fraction != 0) {
    std::snprintf(buf, sizeof(buf), ".%09lld", static_cast<long long>(fraction));
    size_t digits = 9;
    if (fraction % 1'000'000 == 0) {
      digits = 3;
    } else if (fraction % 1'000 == 0) {
      digits = 6;
    }
    out.append(buf, digits + 1);
  }
  return out;
}

// Reads `n` digits at `*pos`.
bool ReadDigits(std::string_view text, size_t* pos, size_t n, int64_t* value) {
  if (*pos + n > text.size()) return false;
  int64_t out = 0;
  for (size_t i = 0; i < n; ++i) {
    const char c = text[*pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  *pos += n;
  *value = out;
  return true;
}

// ISO-8601 "YYYY-MM-DDTHH:MM:SS[.fffffffff](Z|+HH:MM|+HHMM|+HH)", Debezium's ZonedTimestamp, as
// the UTC instant.
std::optional<Timestamp> ParseZonedTimestamp(std::string_view text) {
  size_t pos = 0;
  int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  auto expect = [&](char c) {
    if (pos >= text.size() || text[pos] != c) return false;
    ++pos;
    return true;
  };
  if (!ReadDigits(text, &pos, 4, &year) || !expect('-') || !ReadDigits(text, &pos, 2, &month) ||
      !expect('-') || !ReadDigits(text, &pos, 2, &day) || !expect('T') ||
      !ReadDigits(text, &pos, 2, &hour) || !expect(':') || !ReadDigits(text, &pos, 2, &minute) ||
      !expect(':') || !ReadDigits(text, &pos, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return std::nullopt;
  }
  int64_t nanos = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    size_t digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && digits < 9) {
      nanos = nanos * 10 + (text[pos++] - '0');
      ++digits;
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 9; ++digits) nanos *= 10;
  }
  int64_t offset_seconds = 0;
  if (expect('Z')) {
    if (pos != text.size()) return std::nullopt;
  } else {
    if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) return std::nullopt;
    const int64_t sign = text[pos++] == '-' ? -1 : 1;
    int64_t offset_hours = 0, offset_minutes = 0;
    if (!ReadDigits(text, &pos, 2, &offset_hours)) return std::nullopt;
    expect(':');
    if (pos < text.size() && !ReadDigits(text, &pos, 2, &offset_minutes)) return std::nullopt;
    if (pos != text.size() || offset_hours > 18 || offset_minutes > 59) return std::nullopt;
    offset_seconds = sign * (offset_hours * 3600 + offset_minutes * 60);
  }
  const int64_t days =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const int64_t epoch_seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  return Timestamp{epoch_seconds * 1000 + nanos / 1'000'000,
                   static_cast<int32_t>(nanos % 1'000'000)};
}

// Base64 text of a value; a malformed one is a corrupt message.
Result<std::string> DecodeBase64(std::string_view text, std::string_view path) {
  Result<std::string> bytes = Base64Decode(text);
  if (!bytes.ok()) return BadValue(path, "invalid base64: " + bytes.status().message());
  return bytes;
}

// `value` * `factor` nanoseconds, Corruption on overflow.
Result<int64_t> ToNanos(int64_t value, int64_t factor, std::string_view path) {
  int64_t nanos = 0;
  if (__builtin_mul_overflow(value, factor, &nanos)) return BadValue(path, "time out of range");
  return nanos;
}

}  // namespace

const std::string* DebeziumSchema::Field::Parameter(std::string_view key) const {
  for (const auto& [name, value] : parameters) {
    if (name == key) return &value;
  }
  return nullptr;
}

Result<DebeziumSchema> DebeziumSchema::Parse(const Json& schema) {
  SLUICE_RETURN_NOT_OK(ExpectObject(schema, "schema"));
  SLUICE_ASSIGN_OR_RETURN(const Json* envelope, GetMember(schema, "fields", "schema.fields"));
  SLUICE_RETURN_NOT_OK(ExpectArray(*envelope, "schema.fields"));
  // The row struct: `after`'s, else `before`'s (a delete's schema may lack `after`).
  const Json* row = nullptr;
  std::string row_path;
  for (size_t i = 0; i < envelope->size(); ++i) {
    const Json& member = (*envelope)[i];
    const std::string path = JsonIndexPath("schema.fields", i);
    SLUICE_RETURN_NOT_OK(ExpectObject(member, path));
    const Json* name = FindMember(member, "field");
    if (name == nullptr || !name->is_string()) continue;
    const std::string& field = name->get_ref<const std::string&>();
    if (field != "after" && !(field == "before" && row == nullptr)) continue;
    SLUICE_ASSIGN_OR_RETURN(row, GetMember(member, "fields", JsonFieldPath(path, "fields")));
    row_path = JsonFieldPath(path, "fields");
    SLUICE_RETURN_NOT_OK(ExpectArray(*row, row_path));
    if (field == "after") break;
  }
  if (row == nullptr) {
    return Status::Corruption("field 'schema.fields': no 'after' or 'before' struct");
  }
  DebeziumSchema result;
  for (size_t i = 0; i < row->size(); ++i) {
    const Json& column = (*row)[i];
    const std::string path = JsonIndexPath(row_path, i);
    SLUICE_RETURN_NOT_OK(ExpectObject(column, path));
    SLUICE_ASSIGN_OR_RETURN(const Json* name,
                            GetMember(column, "field", JsonFieldPath(path, "field")));
    SLUICE_ASSIGN_OR_RETURN(std::string field_name,
                            JsonToString(*name, JsonFieldPath(path, "field")));
    Field field;
    if (const Json* type = FindMember(column, "type"); type != nullptr && !type->is_null()) {
      SLUICE_ASSIGN_OR_RETURN(field.type, JsonToString(*type, JsonFieldPath(path, "type")));
    }
    if (const Json* logical = FindMember(column, "name");
        logical != nullptr && !logical->is_null()) {
      SLUICE_ASSIGN_OR_RETURN(field.logical_name,
                              JsonToString(*logical, JsonFieldPath(path, "name")));
    }
    if (const Json* parameters = FindMember(column, "parameters");
        parameters != nullptr && !parameters->is_null()) {
      const std::string parameters_path = JsonFieldPath(path, "parameters");
      SLUICE_RETURN_NOT_OK(ExpectObject(*parameters, parameters_path));
      for (const auto& [key, value] : parameters->items()) {
        if (value.is_object() || value.is_array()) {
          return Status::Corruption("field '" + JsonFieldPath(parameters_path, key) +
                                    "': expected a string, got " +
                                    std::string(CdcJsonTypeName(value)));
        }
        field.parameters.emplace_back(key, CdcJsonValueText(value).value_or(""));
      }
    }
    result.fields_[std::move(field_name)] = std::move(field);
  }
  return result;
}

const DebeziumSchema::Field* DebeziumSchema::Find(std::string_view name) const {
  auto it = fields_.find(std::string(name));
  return it == fields_.end() ? nullptr : &it->second;
}

Result<DataTypePtr> DebeziumSchema::ToDataType(const Field& field,
                                               const TypeMapping& type_mapping) {
  if (type_mapping.Contains(TypeMappingMode::kToString)) return DataType::String();
  switch (LogicalOf(field)) {
    case Logical::kBits: {
      const std::string* length = field.Parameter("length");
      if (length == nullptr) return Status::Corruption("BIT column without a 'length' parameter");
      SLUICE_ASSIGN_OR_RETURN(int32_t bits, ParseInt32(*length, "BIT length"));
      if (bits < 1) return Status::Corruption("BIT length " + *length + " is not positive");
      return DataType::Binary(static_cast<int32_t>((static_cast<int64_t>(bits) + 7) / 8));
    }
    case Logical::kDecimal: {
      int32_t scale = 0;
      if (const std::string* text = field.Parameter("scale"); text != nullptr) {
        SLUICE_ASSIGN_OR_RETURN(scale, ParseInt32(*text, "DECIMAL scale"));
      }
      if (scale < 0 || scale > kMaxDecimalPrecision) {
        return Status::Corruption("DECIMAL scale " + std::to_string(scale) + " outside 0..38");
      }
      const std::string* precision_text = field.Parameter("connect.decimal.precision");
      if (precision_text == nullptr) {
        return scale == 0 ? DataType::Decimal(kUnsignedBigIntPrecision, 0)
                          : DataType::Decimal(kMaxDecimalPrecision, scale);
      }
      SLUICE_ASSIGN_OR_RETURN(int32_t precision, ParseInt32(*precision_text, "DECIMAL precision"));
      if (precision > kMaxDecimalPrecision) return DataType::String();
      if (precision < 1 || scale > precision) {
        return Status::Corruption("DECIMAL(" + std::to_string(precision) + ", " +
                                  std::to_string(scale) + ") is not a valid type");
      }
      return DataType::Decimal(precision, scale);
    }
    case Logical::kVariableScaleDecimal:
      return DataType::String();
    case Logical::kDate:
      return DataType::Date();
    case Logical::kMillisTimestamp:
      return DataType::Timestamp(3);
    case Logical::kMicroTimestamp:
    case Logical::kZonedTimestamp:
      return DataType::Timestamp(6);
    case Logical::kNanoTimestamp:
      return DataType::Timestamp(9);
    case Logical::kMicroTime:
      return DataType::Time();
    case Logical::kMillisTime:
      return DataType::Time(3);
    case Logical::kNanoTime:
      return DataType::Time(9);
    case Logical::kNone:
      break;
  }
  const std::string& type = field.type;
  if (type == "int8") return DataType::TinyInt();
  if (type == "int16") return DataType::SmallInt();
  if (type == "int32") return DataType::Int();
  if (type == "int64") return DataType::BigInt();
  if (type == "float" || type == "float32") return DataType::Float();
  if (type == "float64" || type == "double") return DataType::Double();
  if (type == "boolean") return DataType::Boolean();
  if (type == "bytes") return DataType::Bytes();
  return DataType::String();
}

Result<std::string> DebeziumSchema::ToText(const Field& field, const Json& value,
                                           std::string_view path, const TypeMapping& type_mapping) {
  switch (LogicalOf(field)) {
    case Logical::kBits: {
      // Debezium writes the bits little-endian.
      SLUICE_ASSIGN_OR_RETURN(std::string text, StringValue(value, path));
      SLUICE_ASSIGN_OR_RETURN(std::string bytes, DecodeBase64(text, path));
      std::reverse(bytes.begin(), bytes.end());
      if (!type_mapping.Contains(TypeMappingMode::kToString)) return Base64Encode(bytes);
      std::string binary;
      for (char c : bytes) {
        for (int bit = 7; bit >= 0; --bit) binary.push_back(((c >> bit) & 1) != 0 ? '1' : '0');
      }
      return binary;
    }
    case Logical::kDecimal: {
      if (IsCdcJsonNumber(value)) return *CdcJsonValueText(value);
      SLUICE_ASSIGN_OR_RETURN(std::string text, StringValue(value, path));
      SLUICE_ASSIGN_OR_RETURN(std::string bytes, DecodeBase64(text, path));
      int32_t scale = 0;
      if (const std::string* scale_text = field.Parameter("scale"); scale_text != nullptr) {
        Result<int32_t> parsed = ParseInt32(*scale_text, "DECIMAL scale");
        if (!parsed.ok()) return parsed.status().WithContext("field '" + std::string(path) + "'");
        scale = *parsed;
      }
      return UnscaledBytesToDecimal(bytes, scale, path);
    }
    case Logical::kVariableScaleDecimal: {
      if (!value.is_object()) {
        return BadValue(path, "expected an object of 'scale' and 'value', got " +
                                  std::string(CdcJsonTypeName(value)));
      }
      SLUICE_ASSIGN_OR_RETURN(const Json* scale,
                              GetMember(value, "scale", JsonFieldPath(path, "scale")));
      SLUICE_ASSIGN_OR_RETURN(int32_t scale_value,
                              JsonToInt32(*scale, JsonFieldPath(path, "scale")));
      SLUICE_ASSIGN_OR_RETURN(const Json* unscaled,
                              GetMember(value, "value", JsonFieldPath(path, "value")));
      SLUICE_ASSIGN_OR_RETURN(std::string text,
                              StringValue(*unscaled, JsonFieldPath(path, "value")));
      SLUICE_ASSIGN_OR_RETURN(std::string bytes, DecodeBase64(text, path));
      return UnscaledBytesToDecimal(bytes, scale_value, path);
    }
    case Logical::kDate: {
      SLUICE_ASSIGN_OR_RETURN(int64_t days, IntegerValue(value, path));
      if (days < INT32_MIN || days > INT32_MAX) return BadValue(path, "date out of range");
      return FormatDate(static_cast<int32_t>(days));
    }
    case Logical::kMillisTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(int64_t millis, IntegerValue(value, path));
      return Timestamp{millis, 0}.ToString(3);
    }
    case Logical::kMicroTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(int64_t micros, IntegerValue(value, path));
      return Timestamp::FromEpochMicros(micros).ToString(6);
    }
    case Logical::kNanoTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(int64_t nanos, IntegerValue(value, path));
      return Timestamp::FromEpochNanos(nanos).ToString(9);
    }
    case Logical::kZonedTimestamp: {
      SLUICE_ASSIGN_OR_RETURN(std::string text, StringValue(value, path));
      std::optional<Timestamp> instant = ParseZonedTimestamp(text);
      if (!instant) {
        return BadValue(path, "'" + text + "' is not an ISO-8601 timestamp with an offset");
      }
      return instant->ToString(6);
    }
    case Logical::kMillisTime: {
      SLUICE_ASSIGN_OR_RETURN(int64_t millis, IntegerValue(value, path));
      SLUICE_ASSIGN_OR_RETURN(int64_t nanos, ToNanos(millis, 1'000'000, path));
      return FormatTimeOfDay(nanos);
    }
    case Logical::kMicroTime: {
      SLUICE_ASSIGN_OR_RETURN(int64_t micros, IntegerValue(value, path));
      SLUICE_ASSIGN_OR_RETURN(int64_t nanos, ToNanos(micros, 1'000, path));
      return FormatTimeOfDay(nanos);
    }
    case Logical::kNanoTime: {
      SLUICE_ASSIGN_OR_RETURN(int64_t nanos, IntegerValue(value, path));
      return FormatTimeOfDay(nanos);
    }
    case Logical::kNone:
      break;
  }
  if (field.type == "bytes" && field.logical_name.empty()) {
    SLUICE_ASSIGN_OR_RETURN(std::string text, StringValue(value, path));
    SLUICE_ASSIGN_OR_RETURN(std::string bytes, DecodeBase64(text, path));
    return bytes;
  }
  return *CdcJsonValueText(value);
}

}  // namespace sluice
