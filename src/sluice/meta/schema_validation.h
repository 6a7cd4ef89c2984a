// Validation of a table schema as Java's SchemaValidation.validateTableSchema does it, run on
// every schema before it is written: the first schema of a new table (CREATE TABLE) and the
// result of every ALTER TABLE (schema_change.h applies the changes, this checks the result).
//
// The rules that matter to tables Sluice writes, in this order:
//   - primary-key and partition columns of primitive types; `primary-key.nullable` only with
//     primary keys;
//   - bucket: -1 takes no `bucket-key` (an append table no `full-compaction.delta-commits`, a
//     primary-key table valid `dynamic-bucket.*` options),
//     otherwise at least 1 (-2 for primary-key tables), a bucketed append table needs a
//     `bucket-key`, bucket keys of non-nested types;
//   - `sequence.field`: existing columns, once each, none with an aggregate function, not on the
//     first-row merge engine nor with cross-partition updates;
//   - `merge-engine` and `changelog-producer` names; a changelog producer only with primary
//     keys, and on first-row only `none` / `lookup`;
//   - no column with a system name (`_SEQUENCE_NUMBER`, `_VALUE_KIND`, `_LEVEL`, `rowkind`,
//     `_ROW_ID`) or the `_KEY_` prefix; `rowkind.field` names a column;
//   - deletion vectors only with the changelog producers none / input / lookup, and not on the
//     first-row merge engine (unless `pk-clustering-override`);
//   - the file format holds every column (FileFormat.validateDataFields: `file.format = avro`
//     holds no TIMESTAMP(9), ORC no VARIANT), and no level `file.format.per.level` writes as
//     Avro has a timestamp above precision 6.
//
// Errors are InvalidArgument naming the column or option, with Java's wording.
//
// Thread safety: a pure function.
#pragma once

#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/status.h"

namespace sluice {

// OK when `schema` passes every rule above, else the first rule it breaks.
Status ValidateTableSchema(const TableSchema& schema);

// The `dynamic-bucket.*` options of a dynamic-bucket table (`bucket` = -1 with a primary key):
// values Java's assigners cannot work with (a zero or negative target row number or assigner
// count, a `max-buckets` neither -1 nor positive) are an InvalidArgument naming the option.
// Called by ValidateTableSchema and before every dynamic-bucket write.
Status ValidateDynamicBucketOptions(const CoreOptions& options);

}  // namespace sluice
