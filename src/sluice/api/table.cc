#include "sluice/table.h"

#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/read_builder.h"
#include "sluice/write_builder.h"

namespace sluice {

Result<Table> Table::Open(std::string folder, std::shared_ptr<FileIO> io) {
  if (io == nullptr) io = LocalFileIO();
  std::string name = folder;
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                          LoadTableFromPath(std::move(io), std::move(folder)));
  return Table(std::move(name), std::move(table));
}

const std::string& Table::path() const { return table_->path(); }

const TableSchema& Table::schema() const { return table_->schema(); }

ReadBuilder Table::NewRead() const { return ReadBuilder(*this); }

WriteBuilder Table::NewWrite() const { return WriteBuilder(*this); }

Result<std::vector<Snapshot>> Table::Snapshots() const {
  return table_->snapshot_manager().ListSnapshots();
}

}  // namespace sluice
