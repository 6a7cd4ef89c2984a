// SystemTable: a read-only table that shows one aspect of a table's metadata, with Java's
// columns (Java SystemTableLoader and the classes of org.apache.paimon.table.system). Read as
// `db.table$<name>` (`db.table$branch_<b>$<name>` for a branch). Read() returns all rows in one
// batch: right for the metadata tables, small next to the data they describe; the tables over
// the data ($audit_log, $binlog, $ro) hold a whole version in memory that way (a batch read;
// their streaming reads are not served).
//
// Values Java renders as text are rendered as Java's toString renders them (system_table_text.h);
// times are Java's LocalDateTime of the epoch millis in the session zone, which for Sluice is
// UTC.
//
// Thread safety: Read() is const and as thread-safe as the table.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

class SystemTable {
 public:
  virtual ~SystemTable() = default;
  // Java's row type: field ids, names, types and nullability in Java's order.
  virtual const DataTypePtr& row_type() const = 0;
  virtual Result<ColumnBatch> Read() const = 0;
};

// The system table names Sluice serves, in Java SystemTableLoader's order.
const std::vector<std::string>& SystemTableNames();
bool IsSystemTableName(std::string_view name);

// NotFound "unknown system table '<name>'" (naming the known ones) when there is none.
Result<std::unique_ptr<SystemTable>> LoadSystemTable(std::shared_ptr<const FileStoreTable> table,
                                                     std::string_view name);

// The snapshot the table's time-travel options select (`scan.snapshot-id`, `scan.tag-name`,
// ...; default the latest), nullopt for a table without snapshots: what the tables showing one
// snapshot's files, manifests, indexes or statistics show.
Result<std::optional<Snapshot>> SelectedSnapshot(const FileStoreTable& table);

// What the system tables over the data ($audit_log, $binlog, $ro) read.
struct DataRowsRequest {
  // A leading `_ROW_KIND` STRING NOT NULL column, primary-key retractions kept (Java
  // AuditLogRead's forceKeepDelete).
  bool with_row_kind = false;
  // Primary-key tables: only the files of the top level, `num-levels` - 1 (Java
  // ReadOptimizedTable's withLevel); append tables read everything.
  bool top_level_only = false;
};

// The leading `rowkind` column of $audit_log and $binlog: STRING, nullable as Java's
// VARCHAR(MAX), with the id of the streaming `_ROW_KIND` column.
DataField RowKindSystemField();

// The rows of the selected version (scan.* options, as SelectedSnapshot) in one batch: the
// reader's output type, [_ROW_KIND] + the table's fields. No snapshot: no rows.
Result<ColumnBatch> ReadDataRows(const FileStoreTable& table, const DataRowsRequest& request);

// The row types of the tables (shared with tests that compare them with Java's).
DataTypePtr SnapshotsTableType();
DataTypePtr SchemasTableType();
DataTypePtr OptionsTableType();
DataTypePtr TagsTableType();
DataTypePtr BranchesTableType();
DataTypePtr ConsumersTableType();
DataTypePtr ManifestsTableType();
DataTypePtr FilesTableType();
DataTypePtr FileKeyRangesTableType();
DataTypePtr PartitionsTableType();
DataTypePtr BucketsTableType();
DataTypePtr TableIndexesTableType();
DataTypePtr StatisticTableType();
DataTypePtr AggregationFieldsTableType();
// Of the table's row type (Java's rowkind column first for the first two).
DataTypePtr AuditLogTableType(const FileStoreTable& table);
DataTypePtr BinlogTableType(const FileStoreTable& table);
DataTypePtr ReadOptimizedTableType(const FileStoreTable& table);
// sys.all_table_options (served by the catalog, which knows every table).
DataTypePtr AllTableOptionsTableType();

// The factories LoadSystemTable dispatches to, one per file.
std::unique_ptr<SystemTable> NewSnapshotsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewSchemasTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewOptionsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewTagsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewBranchesTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewConsumersTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewManifestsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewFilesTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewFileKeyRangesTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewPartitionsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewBucketsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewTableIndexesTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewStatisticTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewAggregationFieldsTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewAuditLogTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewBinlogTable(std::shared_ptr<const FileStoreTable> table);
std::unique_ptr<SystemTable> NewReadOptimizedTable(std::shared_ptr<const FileStoreTable> table);

}  // namespace sluice
