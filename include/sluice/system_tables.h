// System tables: read-only views of a table's metadata with Java Paimon's columns, types and
// order (Java SystemTableLoader): snapshots, schemas, options, tags, branches, consumers,
// manifests, files, file_key_ranges, partitions, buckets, table_indexes, statistics,
// aggregation_fields; over the data: audit_log (rowkind + the columns), binlog (rowkind + each
// column as an array), ro (read-optimized: compacted files only), each a batch read of the
// selected version held in one batch; and the catalog-wide `sys.all_table_options`.
//
//   SLUICE_ASSIGN_OR_RETURN(ColumnBatch rows, ReadSystemTable(catalog, "db.orders$snapshots"));
//
// Identifiers: `db.table$<name>`, `db.table$branch_<b>$<name>` (the system table of a branch),
// `sys.all_table_options`. The file-based tables ($files, $manifests, $partitions, $buckets,
// $table_indexes, $statistics, $file_key_ranges) show the latest snapshot.
//
// Thread safety: functions; the table is only read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/result.h"
#include "sluice/table.h"

namespace sluice {

class Catalog;

// The system table names, in Java's order (without `all_table_options`). Defined by the table
// layer's SystemTableLoader, which serves them.
const std::vector<std::string>& SystemTableNames();

// `name` of `table` (on the table's branch). NotFound naming the unknown system table and the
// known ones.
Result<ColumnBatch> ReadSystemTable(const Table& table, std::string_view name);

// The system table an identifier names (see the top). InvalidArgument when the identifier
// names no system table.
Result<ColumnBatch> ReadSystemTable(const Catalog& catalog, std::string_view identifier);

// Whether `identifier` names a system table: `sys.<x>`, or a `$<x>` suffix other than
// `$branch_<b>`.
bool IsSystemTableIdentifier(std::string_view identifier);

}  // namespace sluice
