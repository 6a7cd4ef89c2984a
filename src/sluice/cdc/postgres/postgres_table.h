// PostgresTable: a source table of the logical replication source: its columns (pg_catalog, or
// the stream's Relation message after a DDL), their Paimon types (postgres_type_utils.h), its
// primary key, and the CdcSchema its records carry.
//
// Thread safety: a value type.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/cdc_record.h"
#include "sluice/cdc/postgres/postgres_connection.h"
#include "sluice/cdc/postgres/postgres_type_utils.h"
#include "sluice/cdc/type_mapping.h"
#include "sluice/result.h"

namespace sluice {

struct PostgresColumn {
  std::string name;
  PostgresType type;
  uint32_t type_oid = 0;
  bool nullable = true;
  DataTypePtr data_type;
};

struct PostgresTable {
  std::string schema;
  std::string name;
  std::vector<PostgresColumn> columns;
  std::vector<std::string> primary_keys;
  std::shared_ptr<const CdcSchema> schema_of_records;

  // "schema.table".
  std::string Identifier() const { return schema + "." + name; }
  // Builds schema_of_records from the columns and keys; NotSupported naming a column whose
  // type has no mapping.
  Status Finish(const TypeMapping& type_mapping);
};

// The base tables whose schema matches `schema_pattern` and whose name matches
// `table_pattern` (whole-name regexes), sorted, the system schemas excluded.
Result<std::vector<std::pair<std::string, std::string>>> ListPostgresTables(
    PostgresConnection& connection, const std::string& schema_pattern,
    const std::string& table_pattern);

// Reads `schema`.`table` from pg_catalog. NotFound when it does not exist.
Result<PostgresTable> ReadPostgresTable(PostgresConnection& connection, const std::string& schema,
                                        const std::string& table, const TypeMapping& type_mapping);

}  // namespace sluice
