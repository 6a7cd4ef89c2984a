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

}  // namespace sluice
