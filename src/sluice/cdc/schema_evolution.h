// CDC schema evolution (Java UpdatedDataFieldsProcessFunctionBase, Paimon 1.4.2): what a
// record's columns ask of its table, and the table a first record creates (Java
// CdcActionCommonUtils.buildPaimonSchema / schemaCompatible).
//
// SchemaChangesFor walks the record's columns in order:
//   - a column the table lacks is added at the end, nullable (Java adds the source's type and
//     its catalog then refuses a NOT NULL one);
//   - a column whose type equals the table's (ignoring nullability) changes nothing, except a
//     new comment;
//   - another type is compared with CanConvert: CONVERT widens the column (keeping its
//     nullability: Java also emits a nullability change there that its own applier refuses),
//     IGNORE keeps the table's type (the record's values are cast to it), EXCEPTION is an
//     error; DECIMAL columns keep their type under `decimal-no-change`;
//   - a nested column (ROW, ARRAY, MAP, MULTISET) that may CONVERT changes through its parts
//     (Java NestedSchemaUtils): new ROW fields added where the record has them, atomic parts
//     widened through Java's "element" / "value" path markers (`a.element`), a ROW whose
//     existing fields changed their order an error; nested fields the record lacks are kept;
//   - a table column the record lacks is kept.
// Changing a primary-key or partition-key column's type is an error (Java's catalog refuses
// it). Errors are InvalidArgument naming the table, the column and both types: the caller
// stops that table and keeps what is committed.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/cdc_record.h"
#include "sluice/cdc/type_mapping.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/schema_change.h"

namespace sluice {

class ComputedColumn;

// Java UpdatedDataFieldsProcessFunction.ConvertAction.
enum class ConvertAction : unsigned char {
  kConvert,    // the column can become the new type
  kIgnore,     // same family, the table's type is wider: keep it
  kException,  // incompatible
};

// Java canConvert(oldType, newType, typeMapping): CHAR / VARCHAR by length (and, with
// `allow-non-string-to-string`, anything to them), BINARY / VARBINARY by length, TINYINT <
// SMALLINT < INT < BIGINT, FLOAT < DOUBLE, DECIMAL when precision or scale grows, TIMESTAMP by
// precision, ARRAY / MAP / MULTISET / ROW element-wise (map keys must be equal; a nullable
// container cannot become NOT NULL); equal types (ignoring nullability) CONVERT unless a
// nullable type becomes NOT NULL.
ConvertAction CanConvert(const DataType& old_type, const DataType& new_type,
                         const TypeMapping& type_mapping);

// The changes that let `table` hold the columns of `source` (see above), for the table named
// `identifier`. Column names are lower-cased first when the catalog is not case-sensitive.
Result<std::vector<SchemaChange>> SchemaChangesFor(const std::string& identifier,
                                                   const TableSchema& table,
                                                   const CdcSchema& source,
                                                   const TypeMapping& type_mapping,
                                                   bool case_sensitive = true);

// "add column c STRING, update column d type BIGINT" for logs.
std::string DescribeSchemaChanges(const std::vector<SchemaChange>& changes);

// What a sync job asks of the tables it creates (Java's action arguments).
struct NewTableRequest {
  std::vector<std::string> partition_keys;  // --partition_keys
  std::vector<std::string> primary_keys;    // --primary_keys; empty: the record's
  TypeMapping type_mapping;
  std::vector<std::pair<std::string, std::string>> table_conf;  // --table_conf
  // --computed_column, in evaluation order; not owned.
  std::vector<const ComputedColumn*> computed_columns;
  std::vector<std::string> metadata_columns;  // --metadata_column
  std::string metadata_column_prefix;         // --metadata_column_prefix
  bool case_sensitive = true;                 // the catalog's
  // Sync-table: keys that name no column are an error. Sync-database: they are dropped (the
  // record's primary keys are used, partition keys are not set).
  bool strictly_check_specified = true;
  // Sync-database of sources that need primary keys: a table without any is an error.
  bool require_primary_keys = false;
  // --sync_primary_keys_from_source_schema (default true).
  bool sync_primary_keys_from_source = true;
};

// Java buildPaimonSchema: the record's columns (names lower-cased when not case-sensitive;
// `to-nullable` drops NOT NULL), then the computed columns, then the metadata columns; primary
// keys from the request, else from the record; partition keys from the request; the table
// options from --table_conf; the record's comment. Primary-key columns are NOT NULL.
// InvalidArgument for duplicate columns, keys naming no column (when strict), an unknown
// metadata column or a computed column whose input does not suit it.
Result<NewTableSpec> BuildNewTableSpec(const std::string& identifier, const CdcSchema& source,
                                       const NewTableRequest& request);

// Java schemaCompatible: every source column exists in `table` with a type CanConvert (default
// mapping) turns into the table's. InvalidArgument naming the first column that does not.
Status CheckSchemaCompatible(const std::string& identifier, const TableSchema& table,
                             const std::vector<DataField>& source_fields);

// The type of metadata column `name`: Kafka's (Java KafkaMetadataConverter) topic STRING,
// partition INT, offset BIGINT, timestamp TIMESTAMP_LTZ(3), timestamp_type STRING; a
// database source's (Java CdcMetadataConverter) table_name / database_name STRING NOT NULL and
// op_ts TIMESTAMP_LTZ(3) NOT NULL. InvalidArgument for another name.
Result<DataTypePtr> MetadataColumnType(const std::string& name);

}  // namespace sluice
