#include "sluice/cdc/postgres/postgres_type_utils.h"

#include "sluice/base/base64.h"
#include "sluice/base/json_writer.h"

namespace sluice {

namespace {

// The precision / scale / length a type modifier encodes for `base` (the type's name without
// the array underscore).
struct Modifier {
  int32_t precision = 0;
  int32_t scale = 0;
};

Modifier DecodeModifier(std::string_view base, int32_t modifier) {
  Modifier out;
  if (modifier < 0) return out;
  if (base == "numeric") {
    out.precision = ((modifier - 4) >> 16) & 0xFFFF;
    out.scale = (modifier - 4) & 0xFFFF;
  } else if (base == "bpchar" || base == "varchar") {
    out.precision = modifier - 4;
  } else {
    // bit / varbit: the length; time, timestamp(tz): the fractional digits.
    out.precision = modifier;
    out.scale = modifier;
  }
  return out;
}

Result<DataTypePtr> ScalarType(std::string_view base, bool is_enum, int32_t modifier) {
  const Modifier m = DecodeModifier(base, modifier);
  // Timestamps and times without a modifier have microseconds.
  const int32_t fraction = modifier < 0 ? 6 : m.scale;
  if (base == "bit" || base == "varbit") {
    if (m.precision <= 1) return DataType::Boolean();
    return DataType::Binary((m.precision + 7) / 8);
  }
  if (base == "bool") return DataType::Boolean();
  if (base == "bytea") return DataType::Bytes();
  if (base == "int2" || base == "smallserial") return DataType::SmallInt();
  if (base == "int4" || base == "serial") return DataType::Int();
  if (base == "int8" || base == "bigserial") return DataType::BigInt();
  if (base == "float4") return DataType::Float();
  if (base == "float8") return DataType::Double();
  if (base == "numeric") {
    if (m.precision > 0) return DataType::Decimal(m.precision, m.scale);
    return DataType::Decimal(38, 18);
  }
  if (base == "bpchar" || base == "character") return DataType::Char(std::max(m.precision, 1));
  if (base == "varchar") {
    return m.precision > 0 ? DataType::VarChar(m.precision) : DataType::String();
  }
  if (base == "text" || base == "json" || base == "jsonb" || base == "uuid" || is_enum) {
    return DataType::String();
  }
  if (base == "timestamp") return DataType::Timestamp(fraction);
  if (base == "timestamptz") return DataType::TimestampLtz(fraction);
  if (base == "time") return DataType::Time(fraction);
  if (base == "date") return DataType::Date();
  return Status::NotSupported("Postgres type '" + std::string(base) + "' is not supported");
}

// bytea's hex output ("\x0a0b") as its bytes.
Result<std::string> ByteaBytes(const std::string& text) {
  if (text.size() < 2 || text[0] != '\\' || text[1] != 'x' || text.size() % 2 != 0) {
    return Status::Corruption("bytea value '" + text.substr(0, 40) + "' is not in hex form");
  }
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string bytes;
  bytes.reserve(text.size() / 2 - 1);
  for (size_t i = 2; i < text.size(); i += 2) {
    const int high = nibble(text[i]), low = nibble(text[i + 1]);
    if (high < 0 || low < 0) return Status::Corruption("bytea value has a non-hex digit");
    bytes.push_back(static_cast<char>(high << 4 | low));
  }
  return bytes;
}

// A bit string ("10110") as bytes, big-endian, the last byte padded with zero bits.
std::string BitBytes(const std::string& text) {
  std::string bytes((text.size() + 7) / 8, '\0');
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '1') bytes[i / 8] = static_cast<char>(bytes[i / 8] | (0x80 >> (i % 8)));
  }
  return bytes;
}

// An array's text output ("{1,NULL,"a \"b\""}") as a JSON array of its elements' texts (NULL
// as null). One dimension; Corruption for nested arrays.
Result<std::string> ArrayAsJson(const std::string& text, const PostgresType& element,
                                const DataType& element_type) {
  if (text.size() < 2 || text.front() != '{' || text.back() != '}') {
    return Status::Corruption("array value '" + text.substr(0, 40) + "' is not {...}");
  }
  std::string out = "[";
  size_t i = 1;
  const size_t end = text.size() - 1;
  bool first = true;
  while (i < end) {
    std::string item;
    bool quoted = false;
    if (text[i] == '{') return Status::Corruption("multi-dimensional arrays are not supported");
    if (text[i] == '"') {
      quoted = true;
      ++i;
      while (i < end && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < end) ++i;
        item.push_back(text[i++]);
      }
      ++i;  // the closing quote
    } else {
      while (i < end && text[i] != ',') item.push_back(text[i++]);
    }
    if (!first) out += ',';
    first = false;
    if (!quoted && item == "NULL") {
      out += "null";
    } else {
      SLUICE_ASSIGN_OR_RETURN(std::string value,
                              PostgresValueText(element, element_type, std::move(item)));
      AppendJsonString(value, &out);
    }
    if (i < end && text[i] == ',') ++i;
  }
  return out + "]";
}

}  // namespace

Result<DataTypePtr> PostgresTypeToDataType(const PostgresType& type,
                                           const TypeMapping& type_mapping) {
  if (type_mapping.Contains(TypeMappingMode::kToString)) return DataType::String();
  if (!type.name.empty() && type.name[0] == '_') {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr element,
                            ScalarType(type.name.substr(1), type.is_enum, type.modifier));
    return DataType::Array(std::move(element));
  }
  return ScalarType(type.name, type.is_enum, type.modifier);
}

Result<std::string> PostgresValueText(const PostgresType& type, const DataType& data_type,
                                      std::string text) {
  std::string_view name = type.name;
  if (data_type.root() == TypeRoot::kArray && !name.empty() && name[0] == '_') {
    PostgresType element{std::string(name.substr(1)), type.is_enum, type.modifier};
    return ArrayAsJson(text, element, *data_type.element());
  }
  if (name == "bytea") return ByteaBytes(text);
  if (name == "bit" || name == "varbit") {
    if (data_type.root() == TypeRoot::kBoolean) return std::string(text == "1" ? "1" : "0");
    if (data_type.root() == TypeRoot::kBinary) return Base64Encode(BitBytes(text));
  }
  if (name == "timestamptz" && data_type.root() == TypeRoot::kTimestampLtz) {
    // The session is UTC: the output ends in "+00".
    if (text.size() > 3 && text.compare(text.size() - 3, 3, "+00") == 0)
      text.resize(text.size() - 3);
  }
  return text;
}

}  // namespace sluice
