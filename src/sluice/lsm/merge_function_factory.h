// CreateMergeFunction: the merge function of a primary-key table's `merge-engine` (Java
// PrimaryKeyTableUtils.createMergeFunctionFactory), over the table's full value row.
//
// Thread safety: stateless function.
#pragma once

#include <memory>

#include "sluice/lsm/merge_function.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

// InvalidArgument when the options are inconsistent with the schema (see each engine's Make).
Result<std::unique_ptr<MergeFunction>> CreateMergeFunction(const TableSchema& schema,
                                                           const CoreOptions& options);

// What Java checks of the merge function when a table is created or altered
// (SchemaValidation.validateMergeFunction and validateMergeFunctionFactory), on a primary-key
// table: the engine's factory (for partial-update: sequence groups naming existing columns, no
// column in two groups, aggregate functions only on grouped columns, no conflicting delete
// options), and, on partial-update and aggregation, every column's aggregate function
// (`fields.<column>.aggregate-function`, else `fields.default-aggregate-function`) is a known
// one. Whether a function takes the column's type is checked, as in Java, when the merge
// function is created (at the first write). InvalidArgument naming the option, the column and
// the value otherwise. Called by the catalog at CREATE TABLE and ALTER TABLE.
Status ValidateMergeFunction(const TableSchema& schema);

}  // namespace sluice
