// Row-group statistics of a Parquet column chunk as Sluice ColumnStats, for pruning row groups
// with a predicate.
//
// Only statistics that are trustworthy become min / max: min_value / max_value when the file
// declares type-defined column orders (or the type's order is signed), the deprecated min / max
// only for types whose legacy signed order is also their real order (booleans, signed
// integers, floating point, dates, timestamps). Unsigned integers, INT96, byte arrays and
// decimals stored as bytes without column orders, and NaN bounds are dropped.
//
// Thread safety: pure function.
#pragma once

#include "sluice/data_type.h"
#include "sluice/format/parquet/parquet_metadata.h"
#include "sluice/format/parquet/parquet_schema.h"
#include "sluice/types/column_stats.h"

namespace sluice::parquet {

// `type_defined_order`: the file's ColumnOrder for this column is TYPE_ORDER.
ColumnStats ToColumnStats(const Statistics& stats, const SchemaNode& leaf, const DataType& type,
                          bool type_defined_order);

}  // namespace sluice::parquet
