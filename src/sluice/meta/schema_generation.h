// Creating a table's first schema and applying ALTER TABLE changes to a schema, as Java's
// Schema / SchemaManager.generateTableSchema do:
//
//   - field ids: a new table numbers its columns from 0 in declaration order (a nested ROW's
//     fields after their column, each nested field after its own children, Java
//     ReassignFieldId); an added column takes highestFieldId + 1. Ids are never reused.
//   - primary-key columns become NOT NULL (unless `primary-key.nullable`); `primary-key` and
//     `partition` options turn into the key lists.
//   - options are written in java.util.HashMap order (java_hash_map.h), replaying the copies
//     Java makes, so that the schema file is the one Java would write.
//   - changes follow Java's rules: added columns must be nullable; partition keys cannot be
//     renamed, dropped or retyped; primary keys cannot be dropped, retyped or made nullable;
//     type changes only along types/cast_rules.h (DataTypeCasts + CastExecutors; explicit casts
//     allowed unless `disable-explicit-type-casting`); nullable -> NOT NULL only when
//     `alter-column-null-to-not-null.disabled = false`; once the table has snapshots, immutable
//     options (`bucket-key`, `merge-engine`, ...) cannot change, `bucket` cannot go to or from
//     -1 nor be reset; renames carry into `bucket-key`, `sequence.field`, `fields.<col>.*` and
//     sequence groups.
//   - the result is validated by ValidateTableSchema (schema_validation.h), as Java's
//     SchemaManager runs SchemaValidation on every schema it writes.
//
// Errors are InvalidArgument / NotSupported / NotFound / AlreadyExists naming the column or
// option, with Java's wording where it has one.
//
// Thread safety: value types and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"
#include "sluice/schema_change.h"

namespace sluice {

// Schema 0 of a new table, as Java's catalog createTable writes it; validated.
Result<TableSchema> MakeInitialSchema(const NewTableSpec& spec, int64_t time_millis);

// The next schema after `changes` (id + 1), validated. `has_snapshots`: the table holds data,
// which forbids some option changes.
Result<TableSchema> ApplySchemaChanges(const TableSchema& schema,
                                       const std::vector<SchemaChange>& changes, bool has_snapshots,
                                       int64_t time_millis);

}  // namespace sluice
