#include "sluice/table_lookup.h"

#include "sluice/api/api_access.h"
#include "sluice/table/query/local_table_query.h"

namespace sluice {

struct TableLookup::Rep {
  std::unique_ptr<LocalTableQuery> query;
  DataTypePtr row_type;
};

TableLookup::TableLookup(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
TableLookup::TableLookup(TableLookup&&) noexcept = default;
TableLookup& TableLookup::operator=(TableLookup&&) noexcept = default;
TableLookup::~TableLookup() = default;

Result<TableLookup> TableLookup::Make(const Table& table, std::optional<int64_t> snapshot_id) {
  const std::shared_ptr<FileStoreTable>& store = ApiAccess::FileStoreTableOf(table);
  const TableVersion version =
      snapshot_id ? TableVersion::SnapshotId(*snapshot_id) : TableVersion::Latest();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<LocalTableQuery> query,
                          LocalTableQuery::Make(store, version));
  auto rep = std::make_unique<Rep>();
  rep->row_type = query->schema().LogicalRowType();
  rep->query = std::move(query);
  return TableLookup(std::move(rep));
}

const DataTypePtr& TableLookup::key_type() const { return rep_->query->key_type(); }
const DataTypePtr& TableLookup::row_type() const { return rep_->row_type; }

Result<std::optional<ValueList>> TableLookup::Lookup(const ValueList& key) {
  return rep_->query->Lookup(key);
}

Status TableLookup::Lookup(const std::vector<ValueList>& keys, ColumnBatch* out) {
  for (const ValueList& key : keys) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<ValueList> row, rep_->query->Lookup(key));
    if (row) SLUICE_RETURN_NOT_OK(out->AppendRow(*row));
  }
  return Status::OK();
}

}  // namespace sluice
