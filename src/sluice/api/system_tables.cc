#include "sluice/system_tables.h"

#include "sluice/api/api_access.h"
#include "sluice/catalog.h"
#include "sluice/secret_mask.h"
#include "sluice/table/system/system_table.h"

namespace sluice {

namespace {

constexpr std::string_view kSystemDatabase = "sys";
constexpr std::string_view kBranchPrefix = "branch_";
constexpr std::string_view kAllTableOptions = "all_table_options";

// `db.table[$branch_b]` and the system table name of `db.table[$branch_b]$name`.
struct SystemTableIdentifier {
  std::string table;
  std::string name;
};

std::optional<SystemTableIdentifier> SplitIdentifier(std::string_view identifier) {
  const size_t last = identifier.rfind('$');
  if (last == std::string_view::npos) return std::nullopt;
  std::string_view name = identifier.substr(last + 1);
  if (name.substr(0, kBranchPrefix.size()) == kBranchPrefix) return std::nullopt;
  return SystemTableIdentifier{std::string(identifier.substr(0, last)), std::string(name)};
}

Result<ColumnBatch> AllTableOptions(const Catalog& catalog) {
  ColumnBatch batch(AllTableOptionsTableType());
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> databases, catalog.ListDatabases());
  for (const std::string& db : databases) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> tables, catalog.ListTables(db));
    for (const std::string& t : tables) {
      Result<Table> table = catalog.GetTable(db + "." + t);
      if (!table.ok()) {
        if (table.status().IsNotFound()) continue;  // dropped meanwhile
        return table.status();
      }
      for (const auto& [key, value] : table->options()) {
        SLUICE_RETURN_NOT_OK(
            batch.AppendRow({Value::String(db), Value::String(t), Value::String(key),
                             Value::String(MaskedOptionValue(key, value))}));
      }
    }
  }
  return batch;
}

}  // namespace

Result<ColumnBatch> ReadSystemTable(const Table& table, std::string_view name) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SystemTable> system,
                          LoadSystemTable(ApiAccess::FileStoreTableOf(table), name));
  Result<ColumnBatch> rows = system->Read();
  if (!rows.ok()) return rows.status().WithContext(table.name() + "$" + std::string(name));
  return rows;
}

Result<ColumnBatch> ReadSystemTable(const Catalog& catalog, std::string_view identifier) {
  const size_t dot = identifier.find('.');
  if (dot != std::string_view::npos && identifier.substr(0, dot) == kSystemDatabase) {
    const std::string_view name = identifier.substr(dot + 1);
    if (name == kAllTableOptions) return AllTableOptions(catalog);
    return Status::NotFound("unknown global system table '" + std::string(identifier) +
                            "' (known: sys.all_table_options)");
  }
  std::optional<SystemTableIdentifier> split = SplitIdentifier(identifier);
  if (!split) {
    return Status::InvalidArgument("'" + std::string(identifier) +
                                   "' names no system table (expected db.table$<name>)");
  }
  SLUICE_ASSIGN_OR_RETURN(Table table, catalog.GetTable(split->table));
  return ReadSystemTable(table, split->name);
}

bool IsSystemTableIdentifier(std::string_view identifier) {
  const size_t dot = identifier.find('.');
  if (dot != std::string_view::npos && identifier.substr(0, dot) == kSystemDatabase) return true;
  return SplitIdentifier(identifier).has_value();
}

}  // namespace sluice
