// The public API of Sluice (include/sluice/): what engines embed and what the `sluice` command
// uses, nothing else.
//
//   SLUICE_ASSIGN_OR_RETURN(Table table, Table::Open("/warehouse/db.db/orders"));
//   SLUICE_ASSIGN_OR_RETURN(ReadPlan plan,
//                           table.NewRead().WithSnapshot(3).WithWhere("qty > 10").Plan());
//   SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableReader> reader, plan.NewReader());
//   ColumnBatch batch(reader->output_type());
//   while (true) {
//     SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
//     if (!more) break;
//     ...
//   }
//
// Table: a handle on one table (its folder and FileIO), loaded once to check it is a table.
// Branches, dynamic options and the version read are chosen per read, on the ReadBuilder.
//
// Thread safety: a Table is an immutable value; share it freely.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/snapshot.h"
#include "sluice/meta/table_schema.h"

namespace sluice {

class FileStoreTable;
class ReadBuilder;
class WriteBuilder;

class Table {
 public:
  // The table stored in `folder`. NotFound naming the folder when it holds no table.
  static Result<Table> Open(std::string folder, std::shared_ptr<FileIO> io = nullptr);

  // `name` is how errors refer to the table ("db.orders" from a catalog, else its folder).
  const std::string& name() const { return name_; }
  const std::string& path() const;
  // The latest schema of the main branch.
  const TableSchema& schema() const;

  // A read of this table; see read_builder.h.
  ReadBuilder NewRead() const;
  // A write of this table; see write_builder.h.
  WriteBuilder NewWrite() const;

  // The snapshots of the main branch as they are now, oldest first.
  Result<std::vector<Snapshot>> Snapshots() const;

  // The loaded main-branch table (library internals and tests).
  const std::shared_ptr<FileStoreTable>& file_store_table() const { return table_; }

 private:
  friend class Catalog;
  Table(std::string name, std::shared_ptr<FileStoreTable> table)
      : name_(std::move(name)), table_(std::move(table)) {}

  std::string name_;
  std::shared_ptr<FileStoreTable> table_;
};

}  // namespace sluice
