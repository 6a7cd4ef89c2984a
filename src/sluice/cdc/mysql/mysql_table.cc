#include "sluice/cdc/mysql/mysql_table.h"

#include <charconv>
#include <regex>

#include "sluice/base/base64.h"
#include "sluice/base/json_writer.h"
#include "sluice/cdc/geometry_json.h"
#include "sluice/types/time_zone.h"
#include "sluice/value.h"

namespace sluice {

namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool IsZeroDate(std::string_view text) { return text.substr(0, 10) == "0000-00-00"; }

// A SET's text-protocol value "a,b" as the JSON array ["a","b"].
std::string SetAsJsonArray(std::string_view text) {
  std::vector<std::string> items;
  size_t start = 0;
  while (!text.empty() && start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    items.emplace_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    AppendJsonString(items[i], &out);
  }
  return out + "]";
}

// A TINYINT(1) as BOOLEAN: any non-zero integer is true.
std::string BooleanText(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size()) return value != 0 ? "1" : "0";
  return std::string(text);
}

// "1700000000.123456" (UNIX_TIMESTAMP of a TIMESTAMP(6)) as the wall clock in `zone`, with
// the column's fraction digits.
Result<std::optional<std::string>> EpochAsWallClock(std::string_view text, int32_t precision,
                                                    const TimeZone& zone) {
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  int64_t seconds = 0;
  auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
  if (error != std::errc() || end != whole.data() + whole.size()) {
    return Status::Corruption("TIMESTAMP epoch '" + std::string(text) + "' is not a number");
  }
  int64_t nanos = 0;
  if (dot != std::string_view::npos) {
    std::string digits(text.substr(dot + 1, 9));
    digits.resize(9, '0');
    nanos = std::stoll(digits);
  }
  // The zero TIMESTAMP ('0000-00-00 00:00:00') is epoch 0, which no real TIMESTAMP can be
  // (their range starts one second later).
  if (seconds == 0 && nanos == 0) return std::optional<std::string>();
  int64_t local = seconds + zone.OffsetAt(seconds);
  Timestamp ts{local * 1000 + nanos / 1000000, static_cast<int32_t>(nanos % 1000000)};
  return std::optional<std::string>(ts.ToString(precision));
}

}  // namespace

bool MySqlColumn::is_unsigned() const { return Contains(type.name, "UNSIGNED"); }

bool MySqlColumn::is_binary() const {
  return type.name == "BINARY" || type.name == "VARBINARY" || Contains(type.name, "BLOB");
}

bool MySqlColumn::is_timestamp() const { return type.name == "TIMESTAMP"; }

std::string MySqlTable::SnapshotQuery() const {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (i > 0) sql += ", ";
    const std::string column = QuoteMySqlIdentifier(columns[i].name);
    sql += columns[i].is_timestamp() ? "UNIX_TIMESTAMP(" + column + ")" : column;
  }
  return sql + " FROM " + QuoteMySqlIdentifier(database) + "." + QuoteMySqlIdentifier(name);
}

Result<std::optional<std::string>> MySqlTable::SnapshotValue(size_t i,
                                                             std::optional<std::string> text,
                                                             const TimeZone& zone) const {
  if (!text) return text;
  const MySqlColumn& column = columns[i];
  const std::string& type = column.type.name;
  if (column.is_timestamp()) return EpochAsWallClock(*text, column.type.length, zone);
  if (type == "DATE" || type == "DATETIME") {
    if (IsZeroDate(*text)) return std::optional<std::string>();
    return text;
  }
  if (type == "BIT") {
    // The text protocol gives BIT(n) as its (n + 7) / 8 bytes, big-endian.
    if (column.data_type->root() == TypeRoot::kBoolean) {
      bool set = false;
      for (char c : *text) set = set || c != 0;
      return std::optional<std::string>(set ? "1" : "0");
    }
    return std::optional<std::string>(Base64Encode(*text));
  }
  if (IsMySqlSetType(type)) return std::optional<std::string>(SetAsJsonArray(*text));
  if (IsMySqlSpatialType(type)) {
    SLUICE_ASSIGN_OR_RETURN(std::string json, MySqlGeometryToJson(*text));
    return std::optional<std::string>(std::move(json));
  }
  return BinlogValue(i, std::move(text));
}

std::optional<std::string> MySqlTable::BinlogValue(size_t i,
                                                   std::optional<std::string> text) const {
  if (text && columns[i].data_type->root() == TypeRoot::kBoolean && columns[i].type.name != "BIT") {
    return BooleanText(*text);
  }
  return text;
}

Result<std::vector<std::pair<std::string, std::string>>> ListMySqlTables(
    MySqlConnection& connection, const std::string& database_pattern,
    const std::string& table_pattern) {
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<MySqlRow> rows,
      connection.Query("SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES "
                       "WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA NOT IN "
                       "('mysql', 'information_schema', 'performance_schema', 'sys') "
                       "ORDER BY TABLE_SCHEMA, TABLE_NAME"));
  std::regex database_regex(database_pattern);
  std::regex table_regex(table_pattern);
  std::vector<std::pair<std::string, std::string>> tables;
  for (const MySqlRow& row : rows) {
    if (!row[0] || !row[1]) continue;
    if (std::regex_match(*row[0], database_regex) && std::regex_match(*row[1], table_regex)) {
      tables.emplace_back(*row[0], *row[1]);
    }
  }
  return tables;
}

Result<MySqlTable> ReadMySqlTable(MySqlConnection& connection, const std::string& database,
                                  const std::string& table, const TypeMapping& type_mapping) {
  MySqlTable out;
  out.database = database;
  out.name = table;
  const std::string where = " WHERE TABLE_SCHEMA = " + connection.QuoteString(database) +
                            " AND TABLE_NAME = " + connection.QuoteString(table);
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<MySqlRow> columns,
      connection.Query("SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, CHARACTER_SET_NAME, "
                       "COLUMN_COMMENT FROM information_schema.COLUMNS" +
                       where + " ORDER BY ORDINAL_POSITION"));
  if (columns.empty()) {
    return Status::NotFound("mysql " + connection.address() + ": table " + out.Identifier() +
                            " does not exist");
  }
  auto schema = std::make_shared<CdcSchema>();
  for (const MySqlRow& row : columns) {
    MySqlColumn column;
    column.name = row[0].value_or("");
    const std::string column_type = row[1].value_or("");
    auto parsed = ParseMySqlType(column_type);
    if (!parsed.ok())
      return parsed.status().WithContext("column " + out.Identifier() + "." + column.name);
    column.type = std::move(*parsed);
    column.nullable = row[2].value_or("YES") == "YES";
    column.charset = row[3].value_or("");
    auto type = MySqlTypeToDataType(column.type, type_mapping);
    if (!type.ok())
      return type.status().WithContext("column " + out.Identifier() + "." + column.name);
    column.data_type = (*type)->WithNullable(column.nullable);
    DataField field{0, column.name, column.data_type, {}, {}};
    if (row[4] && !row[4]->empty()) field.description = *row[4];
    schema->fields.push_back(std::move(field));
    out.columns.push_back(std::move(column));
  }
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<MySqlRow> keys,
      connection.Query("SELECT COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE" + where +
                       " AND CONSTRAINT_NAME = 'PRIMARY' ORDER BY ORDINAL_POSITION"));
  for (const MySqlRow& row : keys) {
    if (row[0]) out.primary_keys.push_back(*row[0]);
  }
  schema->primary_keys = out.primary_keys;
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<MySqlRow> comment,
      connection.Query("SELECT TABLE_COMMENT FROM information_schema.TABLES" + where));
  if (!comment.empty() && comment[0][0] && !comment[0][0]->empty())
    schema->comment = *comment[0][0];
  out.schema = std::move(schema);
  return out;
}

}  // namespace sluice
