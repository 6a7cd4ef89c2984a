#include "sluice/cdc/postgres/postgres_table.h"

#include <regex>

namespace sluice {

Status PostgresTable::Finish(const TypeMapping& type_mapping) {
  auto schema = std::make_shared<CdcSchema>();
  for (PostgresColumn& column : columns) {
    auto type = PostgresTypeToDataType(column.type, type_mapping);
    if (!type.ok()) return type.status().WithContext("column " + Identifier() + "." + column.name);
    column.data_type = (*type)->WithNullable(column.nullable);
    schema->fields.push_back({0, column.name, column.data_type, {}, {}});
  }
  schema->primary_keys = primary_keys;
  schema_of_records = std::move(schema);
  return Status::OK();
}

Result<std::vector<std::pair<std::string, std::string>>> ListPostgresTables(
    PostgresConnection& connection, const std::string& schema_pattern,
    const std::string& table_pattern) {
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<PostgresRow> rows,
      connection.Query("SELECT table_schema, table_name FROM information_schema.tables WHERE "
                       "table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', "
                       "'information_schema') ORDER BY 1, 2"));
  const std::regex schema_regex(schema_pattern);
  const std::regex table_regex(table_pattern);
  std::vector<std::pair<std::string, std::string>> tables;
  for (const PostgresRow& row : rows) {
    if (row[0] && row[1] && std::regex_match(*row[0], schema_regex) &&
        std::regex_match(*row[1], table_regex)) {
      tables.emplace_back(*row[0], *row[1]);
    }
  }
  return tables;
}

Result<PostgresTable> ReadPostgresTable(PostgresConnection& connection, const std::string& schema,
                                        const std::string& table, const TypeMapping& type_mapping) {
  PostgresTable out;
  out.schema = schema;
  out.name = table;
  const std::string relation = connection.QuoteLiteral(connection.QuoteIdentifier(schema) + "." +
                                                       connection.QuoteIdentifier(table));
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<PostgresRow> columns,
      connection.Query(
          "SELECT a.attname, t.typname, (t.typtype = 'e' OR coalesce(e.typtype = 'e', false)), "
          "a.atttypmod, a.attnotnull, a.atttypid FROM pg_attribute a JOIN pg_type t ON "
          "t.oid = a.atttypid LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typelem <> 0 "
          "WHERE a.attrelid = to_regclass(" +
          relation + ") AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum"));
  if (columns.empty()) {
    return Status::NotFound("postgres " + connection.address() + ": table " + out.Identifier() +
                            " does not exist");
  }
  for (const PostgresRow& row : columns) {
    PostgresColumn column;
    column.name = row[0].value_or("");
    column.type.name = row[1].value_or("");
    column.type.is_enum = row[2].value_or("f") == "t";
    column.type.modifier = std::stoi(row[3].value_or("-1"));
    column.nullable = row[4].value_or("f") != "t";
    column.type_oid = static_cast<uint32_t>(std::stoul(row[5].value_or("0")));
    out.columns.push_back(std::move(column));
  }
  SLUICE_ASSIGN_OR_RETURN(
      std::vector<PostgresRow> keys,
      connection.Query("SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = "
                       "i.indrelid AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(" +
                       relation +
                       ") AND i.indisprimary ORDER BY array_position(i.indkey::int2[], "
                       "a.attnum)"));
  for (const PostgresRow& row : keys) {
    if (row[0]) out.primary_keys.push_back(*row[0]);
  }
  SLUICE_RETURN_NOT_OK(out.Finish(type_mapping));
  return out;
}

}  // namespace sluice
