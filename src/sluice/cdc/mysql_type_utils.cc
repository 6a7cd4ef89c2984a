#include "sluice/cdc/mysql_type_utils.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace sluice {

namespace {

// The Paimon type families MySQL types fall into.
enum class Family : unsigned char {
  kBit,
  kBoolean,
  kTinyInt,
  kSmallInt,
  kInt,
  kBigInt,
  kBigIntUnsigned,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kChar,
  kVarChar,
  kString,
  kLongText,
  kVarBinary,
  kBytes,
  kSet,
};

struct Entry {
  std::string_view name;
  Family family;
};

// Each integer, floating and fixed-point type with its UNSIGNED and UNSIGNED ZEROFILL forms.
constexpr Entry kTypes[] = {
    {"BIT", Family::kBit},
    {"BOOLEAN", Family::kBoolean},
    {"BOOL", Family::kBoolean},
    {"TINYINT", Family::kTinyInt},
    {"TINYINT UNSIGNED", Family::kSmallInt},
    {"TINYINT UNSIGNED ZEROFILL", Family::kSmallInt},
    {"SMALLINT", Family::kSmallInt},
    {"SMALLINT UNSIGNED", Family::kInt},
    {"SMALLINT UNSIGNED ZEROFILL", Family::kInt},
    {"MEDIUMINT", Family::kInt},
    {"MEDIUMINT UNSIGNED", Family::kBigInt},
    {"MEDIUMINT UNSIGNED ZEROFILL", Family::kBigInt},
    {"INT", Family::kInt},
    {"INT UNSIGNED", Family::kBigInt},
    {"INT UNSIGNED ZEROFILL", Family::kBigInt},
    {"INTEGER", Family::kInt},
    {"INTEGER UNSIGNED", Family::kBigInt},
    {"INTEGER UNSIGNED ZEROFILL", Family::kBigInt},
    {"YEAR", Family::kInt},
    {"BIGINT", Family::kBigInt},
    {"LONG", Family::kBigInt},  // aliyun-json's name for BIGINT
    {"BIGINT UNSIGNED", Family::kBigIntUnsigned},
    {"BIGINT UNSIGNED ZEROFILL", Family::kBigIntUnsigned},
    {"SERIAL", Family::kBigIntUnsigned},
    {"FLOAT", Family::kFloat},
    {"FLOAT UNSIGNED", Family::kFloat},
    {"FLOAT UNSIGNED ZEROFILL", Family::kFloat},
    {"REAL", Family::kDouble},
    {"REAL UNSIGNED", Family::kDouble},
    {"REAL UNSIGNED ZEROFILL", Family::kDouble},
    {"DOUBLE", Family::kDouble},
    {"DOUBLE UNSIGNED", Family::kDouble},
    {"DOUBLE UNSIGNED ZEROFILL", Family::kDouble},
    {"DOUBLE PRECISION", Family::kDouble},
    {"DOUBLE PRECISION UNSIGNED", Family::kDouble},
    {"DOUBLE PRECISION UNSIGNED ZEROFILL", Family::kDouble},
    {"NUMERIC", Family::kDecimal},
    {"NUMERIC UNSIGNED", Family::kDecimal},
    {"NUMERIC UNSIGNED ZEROFILL", Family::kDecimal},
    {"FIXED", Family::kDecimal},
    {"FIXED UNSIGNED", Family::kDecimal},
    {"FIXED UNSIGNED ZEROFILL", Family::kDecimal},
    {"DECIMAL", Family::kDecimal},
    {"DECIMAL UNSIGNED", Family::kDecimal},
    {"DECIMAL UNSIGNED ZEROFILL", Family::kDecimal},
    {"DATE", Family::kDate},
    {"TIME", Family::kTime},
    {"DATETIME", Family::kTimestamp},
    {"TIMESTAMP", Family::kTimestamp},
    {"CHAR", Family::kChar},
    {"VARCHAR", Family::kVarChar},
    {"TINYTEXT", Family::kString},
    {"TEXT", Family::kString},
    {"MEDIUMTEXT", Family::kString},
    {"JSON", Family::kString},
    {"ENUM", Family::kString},
    {"GEOMETRY", Family::kString},
    {"POINT", Family::kString},
    {"LINESTRING", Family::kString},
    {"POLYGON", Family::kString},
    {"MULTIPOINT", Family::kString},
    {"MULTILINESTRING", Family::kString},
    {"MULTIPOLYGON", Family::kString},
    {"GEOMETRYCOLLECTION", Family::kString},
    {"STRING", Family::kString},  // aliyun-json
    {"LONGTEXT", Family::kLongText},
    {"BINARY", Family::kVarBinary},
    {"VARBINARY", Family::kVarBinary},
    {"TINYBLOB", Family::kBytes},
    {"BLOB", Family::kBytes},
    {"MEDIUMBLOB", Family::kBytes},
    {"LONGBLOB", Family::kBytes},
    {"SET", Family::kSet},
    {"NATIONAL CHAR", Family::kChar},
    {"NATIONAL VARCHAR", Family::kVarChar},
};

// JDBC's width of "yyyy-MM-dd HH:mm:ss": a DATETIME length at least this long is a display width
// (19, or 20 + the fraction digits) rather than a precision.
constexpr int32_t kJdbcTimestampBaseLength = 19;
constexpr int32_t kMaxTimestampPrecision = 9;
constexpr int32_t kMaxDecimalPrecision = 38;
constexpr int32_t kDefaultDecimalScale = 18;

const Entry* FindEntry(std::string_view upper_name) {
  for (const Entry& entry : kTypes) {
    if (entry.name == upper_name) return &entry;
  }
  return nullptr;
}

// Upper case, trimmed, runs of blanks collapsed to one space.
std::string NormalizeName(std::string_view text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out.push_back(' ');
    blank = false;
    out.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
  }
  return out;
}

std::string_view TrimBlanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

Result<int32_t> ParseNumber(std::string_view digits, std::string_view type_text) {
  digits = TrimBlanks(digits);
  int32_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value < 0) {
    return Status::Corruption("MySQL type '" + std::string(type_text) + "': bad length '" +
                              std::string(digits) + "'");
  }
  return value;
}

// The quoted members of "enum('a','b''c')" (inside the brackets); MySQL doubles a quote inside
// a member.
Result<std::vector<std::string>> ParseMembers(std::string_view inside, std::string_view type_text) {
  std::vector<std::string> members;
  size_t pos = 0;
  auto skip_blanks = [&] {
    while (pos < inside.size() && (inside[pos] == ' ' || inside[pos] == '\t')) ++pos;
  };
  skip_blanks();
  while (pos < inside.size()) {
    if (inside[pos] != '\'') break;
    ++pos;
    std::string member;
    bool closed = false;
    while (pos < inside.size()) {
      if (inside[pos] == '\'') {
        if (pos + 1 < inside.size() && inside[pos + 1] == '\'') {
          member.push_back('\'');
          pos += 2;
          continue;
        }
        ++pos;
        closed = true;
        break;
      }
      member.push_back(inside[pos++]);
    }
    if (!closed) break;
    members.push_back(std::move(member));
    skip_blanks();
    if (pos == inside.size()) return members;
    if (inside[pos] != ',') break;
    ++pos;
    skip_blanks();
  }
  if (pos == inside.size() && inside.empty()) return members;
  return Status::Corruption("MySQL type '" + std::string(type_text) + "': malformed member list");
}

}  // namespace

Result<MySqlType> ParseMySqlType(std::string_view text) {
  MySqlType type;
  const size_t open = text.find('(');
  if (open == std::string_view::npos) {
    type.name = NormalizeName(text);
    if (type.name.empty()) return Status::Corruption("empty MySQL type");
    const Entry* entry = FindEntry(type.name);
    if (entry != nullptr && entry->family == Family::kDecimal) {
      // Without precision and scale Java takes DECIMAL(38, 18) rather than fail.
      type.length = kMaxDecimalPrecision;
      type.scale = kDefaultDecimalScale;
    }
    return type;
  }
  const size_t close = text.rfind(')');
  if (close == std::string_view::npos || close < open) {
    return Status::Corruption("MySQL type '" + std::string(text) + "': unbalanced brackets");
  }
  type.name =
      NormalizeName(std::string(text.substr(0, open)) + " " + std::string(text.substr(close + 1)));
  if (type.name.empty()) return Status::Corruption("empty MySQL type");
  const std::string_view inside = text.substr(open + 1, close - open - 1);
  if (IsMySqlEnumType(type.name) || IsMySqlSetType(type.name)) {
    SLUICE_ASSIGN_OR_RETURN(type.members, ParseMembers(inside, text));
    return type;
  }
  const size_t comma = inside.find(',');
  if (comma == std::string_view::npos) {
    SLUICE_ASSIGN_OR_RETURN(type.length, ParseNumber(inside, text));
  } else {
    SLUICE_ASSIGN_OR_RETURN(type.length, ParseNumber(inside.substr(0, comma), text));
    SLUICE_ASSIGN_OR_RETURN(type.scale, ParseNumber(inside.substr(comma + 1), text));
  }
  return type;
}

Result<DataTypePtr> MySqlTypeToDataType(std::string_view name, std::optional<int32_t> length,
                                        std::optional<int32_t> scale,
                                        const TypeMapping& type_mapping) {
  if (type_mapping.Contains(TypeMappingMode::kToString)) return DataType::String();
  const std::string upper = NormalizeName(name);
  const Entry* entry = FindEntry(upper);
  if (entry == nullptr) {
    return Status::NotSupported("Don't support MySQL type '" + std::string(name) + "' yet.");
  }
  switch (entry->family) {
    case Family::kBit:
      // BIT without a length is BIT(1).
      if (!length || *length <= 1) return DataType::Boolean();
      return DataType::Binary((*length + 7) / 8);
    case Family::kBoolean:
      return DataType::Boolean();
    case Family::kTinyInt:
      // MySQL has no boolean: TINYINT(1) is one, as JDBC drivers read it.
      if (length == 1 && !type_mapping.Contains(TypeMappingMode::kTinyInt1NotBool)) {
        return DataType::Boolean();
      }
      return DataType::TinyInt();
    case Family::kSmallInt:
      return DataType::SmallInt();
    case Family::kInt:
      return DataType::Int();
    case Family::kBigInt:
      return DataType::BigInt();
    case Family::kBigIntUnsigned:
      // Up to 2^64 - 1: 20 digits.
      if (type_mapping.Contains(TypeMappingMode::kBigintUnsignedToBigint)) {
        return DataType::BigInt();
      }
      return DataType::Decimal(20, 0);
    case Family::kFloat:
      return DataType::Float();
    case Family::kDouble:
      return DataType::Double();
    case Family::kDecimal: {
      if (!length || *length < 1 || *length > kMaxDecimalPrecision) return DataType::String();
      const int32_t s = scale && *scale >= 0 ? *scale : 0;
      if (s > *length) {
        return Status::InvalidArgument("MySQL " + upper + "(" + std::to_string(*length) + ", " +
                                       std::to_string(s) + "): scale exceeds precision");
      }
      return DataType::Decimal(*length, s);
    }
    case Family::kDate:
      return DataType::Date();
    case Family::kTime:
      return DataType::Time();
    case Family::kTimestamp:
      if (!length || *length <= 0) return DataType::Timestamp(0);
      if (*length >= kJdbcTimestampBaseLength) {
        // "2023-03-23 17:20:00.01": the decimal point takes one character.
        return DataType::Timestamp(
            *length > kJdbcTimestampBaseLength + 1
                ? std::min(*length - kJdbcTimestampBaseLength - 1, kMaxTimestampPrecision)
                : 0);
      }
      if (*length <= kMaxTimestampPrecision) return DataType::Timestamp(*length);
      return Status::InvalidArgument("Unsupported length " + std::to_string(*length) +
                                     " for MySQL DATETIME and TIMESTAMP types");
    case Family::kChar:
      if (!length || *length == 0 || type_mapping.Contains(TypeMappingMode::kCharToString)) {
        return DataType::String();
      }
      return DataType::Char(*length);
    case Family::kVarChar:
      if (!length || *length == 0 || type_mapping.Contains(TypeMappingMode::kCharToString)) {
        return DataType::String();
      }
      return DataType::VarChar(*length);
    case Family::kString:
      return DataType::String();
    case Family::kLongText:
      return type_mapping.Contains(TypeMappingMode::kLongtextToBytes) ? DataType::Bytes()
                                                                      : DataType::String();
    case Family::kVarBinary:
      // Paimon's VARBINARY default length is 1.
      return DataType::VarBinary(!length || *length == 0 ? 1 : *length);
    case Family::kBytes:
      return DataType::Bytes();
    case Family::kSet:
      return DataType::Array(DataType::String());
  }
  return DataType::String();
}

bool IsMySqlEnumType(std::string_view name) { return NormalizeName(name) == "ENUM"; }

bool IsMySqlSetType(std::string_view name) { return NormalizeName(name) == "SET"; }

bool IsMySqlSpatialType(std::string_view name) {
  static constexpr std::array<std::string_view, 8> kSpatial = {
      "GEOMETRY",   "POINT",           "LINESTRING",   "POLYGON",
      "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};
  const std::string upper = NormalizeName(name);
  for (std::string_view spatial : kSpatial) {
    if (upper == spatial) return true;
  }
  return false;
}

}  // namespace sluice
