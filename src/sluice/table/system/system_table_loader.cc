#include <algorithm>

#include "sluice/table/system/system_table.h"

namespace sluice {

namespace {

using Factory = std::unique_ptr<SystemTable> (*)(std::shared_ptr<const FileStoreTable>);

struct Entry {
  std::string name;
  Factory factory;
};

// Java SystemTableLoader's names, in its order, for the tables Sluice serves.
const std::vector<Entry>& Entries() {
  static const std::vector<Entry> entries = {
      {"manifests", NewManifestsTable},
      {"snapshots", NewSnapshotsTable},
      {"options", NewOptionsTable},
      {"schemas", NewSchemasTable},
      {"partitions", NewPartitionsTable},
      {"buckets", NewBucketsTable},
      {"audit_log", NewAuditLogTable},
      {"files", NewFilesTable},
      {"file_key_ranges", NewFileKeyRangesTable},
      {"tags", NewTagsTable},
      {"branches", NewBranchesTable},
      {"consumers", NewConsumersTable},
      {"ro", NewReadOptimizedTable},
      {"aggregation_fields", NewAggregationFieldsTable},
      {"statistics", NewStatisticTable},
      {"binlog", NewBinlogTable},
      {"table_indexes", NewTableIndexesTable},
  };
  return entries;
}

}  // namespace

const std::vector<std::string>& SystemTableNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Entry& e : Entries()) out.push_back(e.name);
    return out;
  }();
  return names;
}

Result<std::optional<Snapshot>> SelectedSnapshot(const FileStoreTable& table) {
  SLUICE_ASSIGN_OR_RETURN(TableVersion version, TableVersion::FromOptions(table.options()));
  return table.SelectSnapshot(version);
}

bool IsSystemTableName(std::string_view name) {
  const auto& names = SystemTableNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

Result<std::unique_ptr<SystemTable>> LoadSystemTable(std::shared_ptr<const FileStoreTable> table,
                                                     std::string_view name) {
  for (const Entry& e : Entries()) {
    if (e.name == name) return e.factory(std::move(table));
  }
  std::string known;
  for (const Entry& e : Entries()) known += (known.empty() ? "" : ", ") + e.name;
  return Status::NotFound("unknown system table '" + std::string(name) + "' (known: " + known +
                          ")");
}

}  // namespace sluice
