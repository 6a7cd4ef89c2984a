#include "sluice/types/data_type_json.h"

#include <cctype>
#include <optional>
#include <set>
#include <vector>

#include "sluice/base/json_reader.h"

namespace sluice {

namespace {

// Nesting deeper than this is refused instead of recursing on garbage input.
constexpr int kMaxTypeDepth = 200;

// ---------------------------------------------------------------------------------------------
// Atomic type strings: a tokenizer and a recursive-descent parser with the grammar of Java
// DataTypeJsonParser.
// ---------------------------------------------------------------------------------------------

enum class TokenKind {
  kBeginSubtype,         // <
  kEndSubtype,           // >
  kBeginParameter,       // (
  kEndParameter,         // )
  kListSeparator,        // ,
  kIdentifierSeparator,  // .
  kLiteralString,        // 'text'
  kLiteralInt,           // 12
  kKeyword,              // INT, NOT, ... (upper-cased)
  kIdentifier,           // anything else
};

struct Token {
  TokenKind kind;
  size_t position;  // Offset of the token's last character, as Java reports it.
  std::string value;
};

const std::set<std::string, std::less<>>& Keywords() {
  static const std::set<std::string, std::less<>> kKeywords = {
      "CHAR",      "VARCHAR",       "STRING",   "BOOLEAN",   "BINARY",  "VARBINARY",
      "BYTES",     "DECIMAL",       "NUMERIC",  "DEC",       "TINYINT", "SMALLINT",
      "INT",       "INTEGER",       "BIGINT",   "FLOAT",     "DOUBLE",  "PRECISION",
      "DATE",      "TIME",          "WITH",     "WITHOUT",   "LOCAL",   "ZONE",
      "TIMESTAMP", "TIMESTAMP_LTZ", "INTERVAL", "YEAR",      "MONTH",   "DAY",
      "HOUR",      "MINUTE",        "SECOND",   "TO",        "ARRAY",   "VECTOR",
      "MULTISET",  "MAP",           "ROW",      "NULL",      "RAW",     "LEGACY",
      "VARIANT",   "BLOB",          "GEOMETRY", "GEOGRAPHY", "NOT"};
  return kKeywords;
}

// Java Character.isWhitespace for ASCII; other bytes belong to identifiers.
bool IsWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' ||
         (c >= 0x1C && c <= 0x1F);
}

bool IsDelimiter(char c) {
  return IsWhitespace(c) || c == '<' || c == '>' || c == '(' || c == ')' || c == ',' || c == '.';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::vector<Token> Tokenize(std::string_view chars) {
  std::vector<Token> tokens;
  for (size_t cursor = 0; cursor < chars.size(); ++cursor) {
    const char c = chars[cursor];
    switch (c) {
      case '<':
        tokens.push_back({TokenKind::kBeginSubtype, cursor, "<"});
        break;
      case '>':
        tokens.push_back({TokenKind::kEndSubtype, cursor, ">"});
        break;
      case '(':
        tokens.push_back({TokenKind::kBeginParameter, cursor, "("});
        break;
      case ')':
        tokens.push_back({TokenKind::kEndParameter, cursor, ")"});
        break;
      case ',':
        tokens.push_back({TokenKind::kListSeparator, cursor, ","});
        break;
      case '.':
        tokens.push_back({TokenKind::kIdentifierSeparator, cursor, "."});
        break;
      case '\'':
      case '`': {
        // Quoted text; a doubled delimiter stands for the delimiter itself.
        std::string text;
        ++cursor;
        for (; cursor < chars.size(); ++cursor) {
          if (chars[cursor] == c && cursor + 1 < chars.size() && chars[cursor + 1] == c) {
            text.push_back(c);
            ++cursor;
          } else if (chars[cursor] == c) {
            break;
          } else {
            text.push_back(chars[cursor]);
          }
        }
        tokens.push_back({c == '\'' ? TokenKind::kLiteralString : TokenKind::kIdentifier, cursor,
                          std::move(text)});
        break;
      }
      default: {
        if (IsWhitespace(c)) break;
        std::string text;
        if (IsDigit(c)) {
          while (cursor < chars.size() && IsDigit(chars[cursor])) text.push_back(chars[cursor++]);
          tokens.push_back({TokenKind::kLiteralInt, --cursor, std::move(text)});
          break;
        }
        while (cursor < chars.size() && !IsDelimiter(chars[cursor])) {
          text.push_back(chars[cursor++]);
        }
        --cursor;
        std::string upper = text;
        for (char& u : upper) u = static_cast<char>(std::toupper(static_cast<unsigned char>(u)));
        if (Keywords().count(upper) > 0) {
          tokens.push_back({TokenKind::kKeyword, cursor, std::move(upper)});
        } else {
          tokens.push_back({TokenKind::kIdentifier, cursor, std::move(text)});
        }
      }
    }
  }
  return tokens;
}

std::string_view TokenKindName(TokenKind kind) {
  switch (kind) {
    case TokenKind::kBeginSubtype:
      return "'<'";
    case TokenKind::kEndSubtype:
      return "'>'";
    case TokenKind::kBeginParameter:
      return "'('";
    case TokenKind::kEndParameter:
      return "')'";
    case TokenKind::kListSeparator:
      return "','";
    case TokenKind::kIdentifierSeparator:
      return "'.'";
    case TokenKind::kLiteralString:
      return "a string literal";
    case TokenKind::kLiteralInt:
      return "an integer";
    case TokenKind::kKeyword:
      return "a keyword";
    case TokenKind::kIdentifier:
      return "an identifier";
  }
  return "a token";
}

// VECTOR element types are limited to the numeric primitives (Java VectorType).
Result<DataTypePtr> MakeVector(DataTypePtr element, int32_t length, bool nullable) {
  switch (element->root()) {
    case TypeRoot::kBoolean:
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      break;
    default:
      return Status::InvalidArgument("invalid element type for vector: " + element->ToString());
  }
  if (length < 1) {
    return Status::InvalidArgument("vector length must be between 1 and 2147483647, got " +
                                   std::to_string(length));
  }
  return DataType::Vector(std::move(element), length, nullable);
}

class AtomicTypeParser {
 public:
  AtomicTypeParser(std::string_view input, std::vector<Token> tokens)
      : input_(input), tokens_(std::move(tokens)) {}

  Result<DataTypePtr> Parse() {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, ParseTypeWithNullability(0));
    if (HasRemainingTokens()) {
      SLUICE_RETURN_NOT_OK(NextToken());
      return Error("unexpected token '" + token().value + "'");
    }
    return type;
  }

 private:
  Status Error(const std::string& cause) const {
    size_t position = last_valid_ < 0 ? 0 : tokens_[last_valid_].position + 1;
    return Status::InvalidArgument("could not parse type '" + std::string(input_) +
                                   "' at position " + std::to_string(position) + ": " + cause);
  }

  bool HasRemainingTokens() const { return current_ + 1 < static_cast<int>(tokens_.size()); }
  const Token& token() const { return tokens_[current_]; }

  Status NextToken() {
    ++current_;
    if (current_ >= static_cast<int>(tokens_.size())) {
      current_ = static_cast<int>(tokens_.size()) - 1;
      return Error("unexpected end");
    }
    last_valid_ = current_ - 1;
    return Status::OK();
  }

  Status NextToken(TokenKind kind) {
    SLUICE_RETURN_NOT_OK(NextToken());
    if (token().kind != kind) {
      return Error(std::string(TokenKindName(kind)) + " expected but was '" + token().value + "'");
    }
    return Status::OK();
  }

  Status NextKeyword(std::string_view keyword) {
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kKeyword));
    if (token().value != keyword) {
      return Error("keyword '" + std::string(keyword) + "' expected but was '" + token().value +
                   "'");
    }
    return Status::OK();
  }

  bool HasNextToken(TokenKind kind) const {
    return HasRemainingTokens() && tokens_[current_ + 1].kind == kind;
  }

  bool HasNextKeywords(std::initializer_list<std::string_view> keywords) const {
    size_t i = 0;
    for (std::string_view keyword : keywords) {
      const size_t index = static_cast<size_t>(current_ + 1) + i;
      if (index >= tokens_.size()) return false;
      if (tokens_[index].kind != TokenKind::kKeyword || tokens_[index].value != keyword) {
        return false;
      }
      ++i;
    }
    return true;
  }

  Result<int32_t> TokenAsInt() const {
    const std::string& digits = token().value;
    int64_t value = 0;
    for (char c : digits) {
      value = value * 10 + (c - '0');
      if (value > DataType::kMaxLength) return Error("invalid integer value '" + digits + "'");
    }
    return static_cast<int32_t>(value);
  }

  // Consumes an optional "NOT NULL" or "NULL"; returns the nullability.
  Result<bool> ParseNullability() {
    if (HasNextKeywords({"NOT", "NULL"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("NOT"));
      SLUICE_RETURN_NOT_OK(NextKeyword("NULL"));
      return false;
    }
    if (HasNextKeywords({"NULL"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("NULL"));
    }
    return true;
  }

  Result<DataTypePtr> ParseTypeWithNullability(int depth) {
    if (depth > kMaxTypeDepth) return Error("type nested too deeply");
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr type, ParseTypeByKeyword(depth));
    SLUICE_ASSIGN_OR_RETURN(bool nullable, ParseNullability());
    type = type->WithNullable(nullable);
    // Suffix notation: "<type> ARRAY", "<type> MULTISET".
    if (HasNextKeywords({"ARRAY"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("ARRAY"));
      SLUICE_ASSIGN_OR_RETURN(bool array_nullable, ParseNullability());
      return DataType::Array(std::move(type), array_nullable);
    }
    if (HasNextKeywords({"MULTISET"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("MULTISET"));
      SLUICE_ASSIGN_OR_RETURN(bool multiset_nullable, ParseNullability());
      return DataType::Multiset(std::move(type), multiset_nullable);
    }
    return type;
  }

  // "(n)" if present; `fallback` otherwise.
  Result<int32_t> ParseOptionalParameter(int32_t fallback) {
    if (!HasNextToken(TokenKind::kBeginParameter)) return fallback;
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kBeginParameter));
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kLiteralInt));
    SLUICE_ASSIGN_OR_RETURN(int32_t value, TokenAsInt());
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kEndParameter));
    return value;
  }

  Result<int32_t> ParseLength(std::string_view type_name) {
    SLUICE_ASSIGN_OR_RETURN(int32_t length, ParseOptionalParameter(1));
    if (length < 1) {
      return Error(std::string(type_name) + " length must be between 1 and 2147483647");
    }
    return length;
  }

  Result<int32_t> ParsePrecision(std::string_view type_name, int32_t fallback) {
    SLUICE_ASSIGN_OR_RETURN(int32_t precision, ParseOptionalParameter(fallback));
    if (precision > 9) return Error(std::string(type_name) + " precision must be between 0 and 9");
    return precision;
  }

  Result<DataTypePtr> ParseDecimal() {
    int32_t precision = 10;
    int32_t scale = 0;
    if (HasNextToken(TokenKind::kBeginParameter)) {
      SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kBeginParameter));
      SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kLiteralInt));
      SLUICE_ASSIGN_OR_RETURN(precision, TokenAsInt());
      if (HasNextToken(TokenKind::kListSeparator)) {
        SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kListSeparator));
        SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kLiteralInt));
        SLUICE_ASSIGN_OR_RETURN(scale, TokenAsInt());
      }
      SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kEndParameter));
    }
    if (precision < 1 || precision > 38) {
      return Error("decimal precision must be between 1 and 38");
    }
    if (scale > precision) {
      return Error("decimal scale must be between 0 and the precision " +
                   std::to_string(precision));
    }
    return DataType::Decimal(precision, scale);
  }

  Result<DataTypePtr> ParseTime() {
    SLUICE_ASSIGN_OR_RETURN(int32_t precision, ParsePrecision("TIME", 0));
    if (HasNextKeywords({"WITHOUT"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("WITHOUT"));
      SLUICE_RETURN_NOT_OK(NextKeyword("TIME"));
      SLUICE_RETURN_NOT_OK(NextKeyword("ZONE"));
    }
    return DataType::Time(precision);
  }

  Result<DataTypePtr> ParseTimestamp() {
    SLUICE_ASSIGN_OR_RETURN(int32_t precision, ParsePrecision("TIMESTAMP", 6));
    if (HasNextKeywords({"WITHOUT"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("WITHOUT"));
      SLUICE_RETURN_NOT_OK(NextKeyword("TIME"));
      SLUICE_RETURN_NOT_OK(NextKeyword("ZONE"));
    } else if (HasNextKeywords({"WITH"})) {
      SLUICE_RETURN_NOT_OK(NextKeyword("WITH"));
      if (HasNextKeywords({"LOCAL"})) {
        SLUICE_RETURN_NOT_OK(NextKeyword("LOCAL"));
        SLUICE_RETURN_NOT_OK(NextKeyword("TIME"));
        SLUICE_RETURN_NOT_OK(NextKeyword("ZONE"));
        return DataType::TimestampLtz(precision);
      }
    }
    return DataType::Timestamp(precision);
  }

  Result<DataTypePtr> ParseVector(int depth) {
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kBeginSubtype));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, ParseTypeWithNullability(depth + 1));
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kListSeparator));
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kLiteralInt));
    SLUICE_ASSIGN_OR_RETURN(int32_t length, TokenAsInt());
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kEndSubtype));
    Result<DataTypePtr> vector = MakeVector(std::move(element), length, true);
    if (!vector.ok()) return Error(vector.status().message());
    return vector;
  }

  Result<DataTypePtr> ParseTypeByKeyword(int depth) {
    SLUICE_RETURN_NOT_OK(NextToken(TokenKind::kKeyword));
    const std::string keyword = token().value;
    if (keyword == "CHAR") {
      SLUICE_ASSIGN_OR_RETURN(int32_t n, ParseLength("CHAR"));
      return DataType::Char(n);
    }
    if (keyword == "VARCHAR") {
      SLUICE_ASSIGN_OR_RETURN(int32_t n, ParseLength("VARCHAR"));
      return DataType::VarChar(n);
    }
    if (keyword == "STRING") return DataType::String();
    if (keyword == "BOOLEAN") return DataType::Boolean();
    if (keyword == "BINARY") {
      SLUICE_ASSIGN_OR_RETURN(int32_t n, ParseLength("BINARY"));
      return DataType::Binary(n);
    }
    if (keyword == "VARBINARY") {
      SLUICE_ASSIGN_OR_RETURN(int32_t n, ParseLength("VARBINARY"));
      return DataType::VarBinary(n);
    }
    if (keyword == "BYTES") return DataType::Bytes();
    if (keyword == "DECIMAL" || keyword == "NUMERIC" || keyword == "DEC") return ParseDecimal();
    if (keyword == "TINYINT") return DataType::TinyInt();
    if (keyword == "SMALLINT") return DataType::SmallInt();
    if (keyword == "INT" || keyword == "INTEGER") return DataType::Int();
    if (keyword == "BIGINT") return DataType::BigInt();
    if (keyword == "FLOAT") return DataType::Float();
    if (keyword == "DOUBLE") {
      if (HasNextKeywords({"PRECISION"})) SLUICE_RETURN_NOT_OK(NextKeyword("PRECISION"));
      return DataType::Double();
    }
    if (keyword == "DATE") return DataType::Date();
    if (keyword == "TIME") return ParseTime();
    if (keyword == "TIMESTAMP") return ParseTimestamp();
    if (keyword == "TIMESTAMP_LTZ") {
      SLUICE_ASSIGN_OR_RETURN(int32_t precision, ParsePrecision("TIMESTAMP_LTZ", 6));
      return DataType::TimestampLtz(precision);
    }
    if (keyword == "VARIANT") return DataType::Variant();
    if (keyword == "BLOB") return DataType::Blob();
    if (keyword == "VECTOR") return ParseVector(depth);
    if (keyword == "GEOMETRY" || keyword == "GEOGRAPHY") {
      return Status::NotSupported("type " + keyword + " in '" + std::string(input_) +
                                  "' is not supported");
    }
    return Error("unsupported type '" + keyword + "'");
  }

  std::string_view input_;
  std::vector<Token> tokens_;
  int last_valid_ = -1;
  int current_ = -1;
};

// ---------------------------------------------------------------------------------------------
// JSON objects.
// ---------------------------------------------------------------------------------------------

// Java assigns ids to id-less nested fields from a counter; `next_id` is that counter, or
// nullptr where ids are mandatory (schema files).
struct FieldIdCounter {
  int32_t last = -1;
  bool saw_explicit_id = false;
};

Result<DataTypePtr> ParseTypeJson(const Json& json, std::string_view field, FieldIdCounter* ids,
                                  int depth);

Result<DataField> ParseFieldJson(const Json& json, std::string_view field, FieldIdCounter* ids,
                                 int depth) {
  SLUICE_RETURN_NOT_OK(ExpectObject(json, field));
  DataField out;
  const Json* id = FindMember(json, "id");
  if (id != nullptr) {
    if (ids != nullptr && ids->last != -1) {
      return Status::Corruption("field '" + std::string(field) +
                                "': partial field ids are not allowed");
    }
    if (ids != nullptr) ids->saw_explicit_id = true;
    SLUICE_ASSIGN_OR_RETURN(out.id, JsonToInt32(*id, JsonFieldPath(field, "id")));
  } else {
    if (ids == nullptr) {
      return Status::Corruption("missing field '" + JsonFieldPath(field, "id") + "'");
    }
    if (ids->saw_explicit_id) {
      return Status::Corruption("field '" + std::string(field) +
                                "': partial field ids are not allowed");
    }
    out.id = ++ids->last;
  }
  const std::string name_field = JsonFieldPath(field, "name");
  SLUICE_ASSIGN_OR_RETURN(const Json* name, GetMember(json, "name", name_field));
  SLUICE_ASSIGN_OR_RETURN(out.name, JsonToString(*name, name_field));
  const std::string type_field = JsonFieldPath(field, "type");
  SLUICE_ASSIGN_OR_RETURN(const Json* type, GetMember(json, "type", type_field));
  SLUICE_ASSIGN_OR_RETURN(out.type, ParseTypeJson(*type, type_field, ids, depth + 1));
  if (const Json* description = FindMember(json, "description"); description != nullptr) {
    SLUICE_ASSIGN_OR_RETURN(out.description,
                            JsonToString(*description, JsonFieldPath(field, "description")));
  }
  if (const Json* default_value = FindMember(json, "defaultValue"); default_value != nullptr) {
    SLUICE_ASSIGN_OR_RETURN(out.default_value,
                            JsonToString(*default_value, JsonFieldPath(field, "defaultValue")));
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

Result<DataTypePtr> ParseTypeJson(const Json& json, std::string_view field, FieldIdCounter* ids,
                                  int depth) {
  if (depth > kMaxTypeDepth) {
    return Status::Corruption("field '" + std::string(field) + "': type nested too deeply");
  }
  if (json.is_string()) {
    Result<DataTypePtr> type = ParseAtomicDataType(json.get_ref<const std::string&>());
    if (!type.ok()) {
      return Status(type.status().code() == StatusCode::kNotSupported ? StatusCode::kNotSupported
                                                                      : StatusCode::kCorruption,
                    "field '" + std::string(field) + "': " + type.status().message());
    }
    return type;
  }
  if (!json.is_object()) {
    return Status::Corruption("field '" + std::string(field) +
                              "': expected string or object, got " +
                              std::string(JsonTypeName(json)));
  }
  const std::string kind_field = JsonFieldPath(field, "type");
  SLUICE_ASSIGN_OR_RETURN(const Json* kind_json, GetMember(json, "type", kind_field));
  SLUICE_ASSIGN_OR_RETURN(std::string kind, JsonToString(*kind_json, kind_field));
  // Java tests the prefix and looks for "NOT NULL" anywhere, case-sensitively.
  const bool nullable = kind.find("NOT NULL") == std::string::npos;
  auto child = [&](std::string_view key) -> Result<DataTypePtr> {
    const std::string child_field = JsonFieldPath(field, key);
    SLUICE_ASSIGN_OR_RETURN(const Json* member, GetMember(json, key, child_field));
    return ParseTypeJson(*member, child_field, ids, depth + 1);
  };
  if (StartsWith(kind, "ARRAY")) {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, child("element"));
    return DataType::Array(std::move(element), nullable);
  }
  if (StartsWith(kind, "VECTOR")) {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, child("element"));
    const std::string length_field = JsonFieldPath(field, "length");
    SLUICE_ASSIGN_OR_RETURN(const Json* length_json, GetMember(json, "length", length_field));
    SLUICE_ASSIGN_OR_RETURN(int32_t length, JsonToInt32(*length_json, length_field));
    Result<DataTypePtr> vector = MakeVector(std::move(element), length, nullable);
    if (!vector.ok()) {
      return Status::Corruption("field '" + std::string(field) + "': " + vector.status().message());
    }
    return vector;
  }
  if (StartsWith(kind, "MULTISET")) {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr element, child("element"));
    return DataType::Multiset(std::move(element), nullable);
  }
  if (StartsWith(kind, "MAP")) {
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr key, child("key"));
    SLUICE_ASSIGN_OR_RETURN(DataTypePtr value, child("value"));
    return DataType::Map(std::move(key), std::move(value), nullable);
  }
  if (StartsWith(kind, "ROW")) {
    const std::string fields_field = JsonFieldPath(field, "fields");
    SLUICE_ASSIGN_OR_RETURN(const Json* fields_json, GetMember(json, "fields", fields_field));
    SLUICE_RETURN_NOT_OK(ExpectArray(*fields_json, fields_field));
    std::vector<DataField> fields;
    fields.reserve(fields_json->size());
    std::set<std::string, std::less<>> names;
    for (size_t i = 0; i < fields_json->size(); ++i) {
      const std::string item_field = JsonIndexPath(fields_field, i);
      SLUICE_ASSIGN_OR_RETURN(DataField f,
                              ParseFieldJson((*fields_json)[i], item_field, ids, depth + 1));
      if (!names.insert(f.name).second) {
        return Status::Corruption("field '" + item_field + "': duplicate field name '" + f.name +
                                  "'");
      }
      fields.push_back(std::move(f));
    }
    return DataType::Row(std::move(fields), nullable);
  }
  return Status::Corruption("field '" + kind_field + "': unknown nested type '" + kind + "'");
}

}  // namespace

Result<DataTypePtr> ParseAtomicDataType(std::string_view text) {
  return AtomicTypeParser(text, Tokenize(text)).Parse();
}

Result<DataTypePtr> DataTypeFromJson(const Json& json, std::string_view field) {
  FieldIdCounter ids;
  return ParseTypeJson(json, field, &ids, 0);
}

Result<DataField> DataFieldFromJson(const Json& json, std::string_view field) {
  return ParseFieldJson(json, field, nullptr, 0);
}

void WriteDataFieldJson(const DataField& field, JsonWriter* writer) {
  writer->BeginObject();
  writer->IntField("id", field.id);
  writer->StringField("name", field.name);
  writer->Key("type");
  WriteDataTypeJson(*field.type, writer);
  if (field.description) writer->StringField("description", *field.description);
  if (field.default_value) writer->StringField("defaultValue", *field.default_value);
  writer->EndObject();
}

void WriteDataTypeJson(const DataType& type, JsonWriter* writer) {
  const char* suffix = type.nullable() ? "" : " NOT NULL";
  switch (type.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
      writer->BeginObject();
      writer->StringField("type", std::string(TypeRootName(type.root())) + suffix);
      writer->Key("element");
      WriteDataTypeJson(*type.element(), writer);
      writer->EndObject();
      return;
    case TypeRoot::kVector:
      writer->BeginObject();
      writer->StringField("type", std::string("VECTOR") + suffix);
      writer->Key("element");
      WriteDataTypeJson(*type.element(), writer);
      writer->IntField("length", type.length());
      writer->EndObject();
      return;
    case TypeRoot::kMap:
      writer->BeginObject();
      writer->StringField("type", std::string("MAP") + suffix);
      writer->Key("key");
      WriteDataTypeJson(*type.key(), writer);
      writer->Key("value");
      WriteDataTypeJson(*type.value(), writer);
      writer->EndObject();
      return;
    case TypeRoot::kRow:
      writer->BeginObject();
      writer->StringField("type", std::string("ROW") + suffix);
      writer->Key("fields");
      writer->BeginArray();
      for (const DataField& f : type.fields()) WriteDataFieldJson(f, writer);
      writer->EndArray();
      writer->EndObject();
      return;
    default:
      writer->String(type.ToString());
  }
}

std::string DataTypeToJson(const DataType& type) {
  JsonWriter writer;
  WriteDataTypeJson(type, &writer);
  return std::move(writer).Finish();
}

}  // namespace sluice
