// Validation of a table schema as Java's SchemaValidation.validateTableSchema does it, run on
// every schema before it is written: the first schema of a new table (CREATE TABLE) and the
// result of every ALTER TABLE (schema_generation.h applies the changes, this checks the result).
//
// The rules, in Java's order:
//   - primary-key, partition and `upsert-key` columns exist and are of primitive types; no
//     `upsert-key` beside a primary key; `primary-key.nullable` only with primary keys;
//   - bucket: -1 takes no `bucket-key` (an append table no `full-compaction.delta-commits`, a
//     primary-key table valid `dynamic-bucket.*` options),
//     otherwise at least 1 (-2 for primary-key tables), a bucketed append table needs a
//     `bucket-key`, bucket keys of non-nested types;
//   - `scan.mode` (as resolved from the scan options) with exactly the options that say where it
//     starts and none of another mode's (validateStartupMode);
//   - every `fields.<names>.<suffix>` option names existing columns (any suffix: aggregate
//     functions, sequence groups, ignore-retract, ...; `fields.default-aggregate-function`
//     excepted);
//   - `sequence.field`: existing columns, once each, none with an aggregate function, not on the
//     first-row merge engine nor with cross-partition updates;
//   - `merge-engine` and `changelog-producer` names; a changelog producer only with primary
//     keys, and on first-row only `none` / `lookup`; `streaming-read-overwrite` only with primary
//     keys and not with the `full-compaction` / `lookup` producers;
//   - `snapshot.num-retained.min` >= 1 and <= `snapshot.num-retained.max`, the same for
//     `changelog.num-retained.*` (defaulting to the snapshot values);
//   - `blob-descriptor-field` / `blob-external-storage-field` name BLOB columns (the latter with
//     `blob-external-storage-path`);
//   - no column with a system name (`_SEQUENCE_NUMBER`, `_VALUE_KIND`, `_LEVEL`, `rowkind`,
//     `_ROW_ID`) or the `_KEY_` prefix; `partition.expiration-time` only when partitioned;
//     `record-level.time-field` names an INT / BIGINT / timestamp column; `rowkind.field` names
//     a column;
//   - deletion vectors only with the changelog producers none / input / lookup, and not on the
//     first-row merge engine (unless `pk-clustering-override`);
//   - the file format holds every column (FileFormat.validateDataFields: `file.format = avro`
//     holds no TIMESTAMP(9), ORC no VARIANT), and no level `file.format.per.level` writes as
//     Avro has a timestamp above precision 6;
//   - `vector-field` names VECTOR columns;
//   - row tracking only on bucket -1 append tables; data evolution with row tracking, without
//     deletion vectors or incremental clustering; a BLOB column needs data evolution
//     (validateRowTracking); incremental clustering (validateIncrementalClustering), chain
//     tables (validateChainTable), `table-read.sequence-number.enabled` only with primary
//     keys, `pk-clustering-override` (validatePkClusteringOverride).
//
// Java also builds the merge function here (validateMergeFunction, validateMergeFunctionFactory);
// in Sluice that lives above this layer, in lsm/merge_function_factory.h (ValidateMergeFunction),
// and the catalog calls it after this at CREATE TABLE and ALTER TABLE.
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
