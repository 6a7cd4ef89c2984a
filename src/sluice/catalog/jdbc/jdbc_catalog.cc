#include "sluice/catalog/jdbc/jdbc_catalog.h"

#include <utility>

#include "sluice/catalog/identifier.h"
#include "sluice/catalog/jdbc/jdbc_catalog_lock.h"
#include "sluice/catalog/jdbc/jdbc_catalog_tables.h"
#include "sluice/catalog/jdbc/jdbc_distributed_lock_dialect.h"
#include "sluice/fs/file_io_factory.h"
#include "sluice/fs/s3/s3_path.h"
#include "sluice/meta/file_paths.h"

namespace sluice {

namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

}  // namespace

JdbcCatalog::JdbcCatalog(std::shared_ptr<FileIO> io, std::string warehouse,
                         JdbcCatalogOptions options, std::shared_ptr<JdbcClientPool> connections,
                         std::shared_ptr<const CatalogLock> lock)
    : io_(io),
      files_(std::move(io), std::move(warehouse)),
      options_(std::move(options)),
      connections_(std::move(connections)),
      lock_(std::move(lock)) {}

Result<std::shared_ptr<const JdbcCatalog>> JdbcCatalog::Open(
    std::shared_ptr<FileIO> io, std::string warehouse,
    const std::map<std::string, std::string>& options) {
  // Java's default of lock.enabled: whether the warehouse is an object store.
  const bool object_store = IsS3Scheme(PathScheme(warehouse));
  SLUICE_ASSIGN_OR_RETURN(JdbcCatalogOptions parsed,
                          JdbcCatalogOptions::Parse(options, object_store));
  auto connections = std::make_shared<JdbcClientPool>(parsed.uri, parsed.driver_properties,
                                                      static_cast<size_t>(parsed.client_pool_size));
  const JdbcDistributedLockDialect dialect =
      JdbcDistributedLockDialect::For(parsed.uri.protocol, parsed.lock_key_max_length);
  std::vector<std::string> statements = jdbc_tables::CreateStatements();
  if (parsed.lock_enabled) statements.push_back(dialect.create_table);
  auto create = [&](JdbcConnection& connection) -> Status {
    for (const std::string& sql : statements) {
      SLUICE_RETURN_NOT_OK(connection.Execute(sql, {}).status());
    }
    return Status::OK();
  };
  Status created = connections->Run(create);
  // Two catalogs creating a table at once can both get past PostgreSQL's IF NOT EXISTS and one
  // fails on the catalog's unique index; the table is there then.
  if (!created.ok()) created = connections->Run(create);
  if (!created.ok()) {
    return created.WithContext("initializing JDBC catalog '" + parsed.catalog_key + "' at " +
                               parsed.uri.masked);
  }
  std::shared_ptr<const CatalogLock> lock;
  if (parsed.lock_enabled) {
    lock =
        std::make_shared<JdbcCatalogLock>(connections, parsed.catalog_key, dialect,
                                          parsed.lock_check_max_sleep, parsed.lock_acquire_timeout);
  }
  return std::shared_ptr<const JdbcCatalog>(
      new JdbcCatalog(std::move(io), std::move(warehouse), std::move(parsed),
                      std::move(connections), std::move(lock)));
}

std::string JdbcCatalog::Describe() const {
  return "JDBC catalog '" + options_.catalog_key + "' at " + options_.uri.masked;
}

Status JdbcCatalog::RunWithLock(const std::string& database, const std::string& table,
                                const std::function<Status()>& fn) const {
  if (lock_ == nullptr) return fn();
  return lock_->RunWithLock(database, table, fn);
}

Result<bool> JdbcCatalog::DatabaseExists(const std::string& database) const {
  Result<bool> exists = connections_->Call<bool>([&](JdbcConnection& connection) {
    return jdbc_tables::DatabaseExists(connection, options_.catalog_key, database);
  });
  if (!exists.ok()) return exists.status().WithContext("looking up database '" + database + "'");
  return exists;
}

Result<bool> JdbcCatalog::TableExists(const std::string& database, const std::string& table) const {
  Result<bool> exists = connections_->Call<bool>([&](JdbcConnection& connection) {
    return jdbc_tables::TableExists(connection, options_.catalog_key, database, table);
  });
  if (!exists.ok()) {
    return exists.status().WithContext("looking up table " + database + "." + table);
  }
  return exists;
}

Status JdbcCatalog::CheckDatabaseExists(const std::string& database) const {
  SLUICE_ASSIGN_OR_RETURN(bool exists, DatabaseExists(database));
  if (!exists) {
    return Status::NotFound("database '" + database + "' does not exist in " + Describe());
  }
  return Status::OK();
}

std::map<std::string, std::string> JdbcCatalog::TableProperties(const TableSchema& schema) const {
  std::map<std::string, std::string> properties;
  if (!options_.sync_all_properties) return properties;
  for (const auto& [key, value] : schema.options()) properties[key] = value;
  // Java JdbcCatalog.convertToPropertiesTableKey.
  if (!schema.primary_keys().empty()) properties["primary-key"] = Join(schema.primary_keys());
  if (!schema.partition_keys().empty()) properties["partition"] = Join(schema.partition_keys());
  if (!schema.bucket_keys().empty()) properties["bucket-key"] = Join(schema.bucket_keys());
  return properties;
}

Result<std::vector<std::string>> JdbcCatalog::ListDatabases() const {
  auto databases = connections_->Call<std::vector<std::string>>([&](JdbcConnection& connection) {
    return jdbc_tables::ListDatabases(connection, options_.catalog_key);
  });
  if (!databases.ok()) {
    return databases.status().WithContext("listing the databases of " + Describe());
  }
  return databases;
}

Result<std::vector<std::string>> JdbcCatalog::ListTables(std::string_view database) const {
  const std::string name(database);
  SLUICE_RETURN_NOT_OK(CheckDatabaseExists(name));
  auto tables = connections_->Call<std::vector<std::string>>([&](JdbcConnection& connection) {
    return jdbc_tables::ListTables(connection, options_.catalog_key, name);
  });
  if (!tables.ok()) {
    return tables.status().WithContext("listing the tables of database '" + name + "'");
  }
  return tables;
}

Status JdbcCatalog::CreateDatabase(std::string_view database, bool ignore_if_exists) const {
  SLUICE_RETURN_NOT_OK(CheckNewDatabaseName(database));
  const std::string name(database);
  auto exists = [&] {
    return ignore_if_exists
               ? Status::OK()
               : Status::AlreadyExists("database '" + name + "' already exists in " + Describe());
  };
  SLUICE_ASSIGN_OR_RETURN(bool found, DatabaseExists(name));
  if (found) return exists();
  // Java JdbcCatalog.createDatabaseImpl: the rows only; the folder comes with the first table.
  const std::map<std::string, std::string> properties = {{"exists", "true"},
                                                         {"location", DatabasePath(name)}};
  Status st = connections_->Run([&](JdbcConnection& connection) {
    return jdbc_tables::InsertDatabaseProperties(connection, options_.catalog_key, name,
                                                 properties);
  });
  if (st.IsAlreadyExists()) return exists();  // created meanwhile by another
  return st.WithContext("creating database '" + name + "' in " + Describe());
}

Status JdbcCatalog::DropDatabase(std::string_view database, bool ignore_if_not_exists,
                                 bool cascade) const {
  SLUICE_RETURN_NOT_OK(CheckName(database, "database"));
  const std::string name(database);
  SLUICE_ASSIGN_OR_RETURN(bool found, DatabaseExists(name));
  if (!found) {
    if (ignore_if_not_exists) return Status::OK();
    return Status::NotFound("database '" + name + "' does not exist in " + Describe());
  }
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> tables, ListTables(name));
  if (!cascade && !tables.empty()) {
    std::string list;
    for (const std::string& t : tables) list += (list.empty() ? "" : ", ") + t;
    return Status::InvalidArgument("database '" + name + "' is not empty (tables: " + list + ")");
  }
  // Java deletes only the rows; the tables' files go too here, each table as DropTable drops it.
  for (const std::string& table : tables) {
    SLUICE_RETURN_NOT_OK(DropTable(name + "." + table, /*ignore_if_not_exists=*/true));
  }
  return connections_
      ->RunInTransaction([&](JdbcConnection& connection) {
        return jdbc_tables::DeleteDatabase(connection, options_.catalog_key, name);
      })
      .WithContext("dropping database '" + name + "' from " + Describe());
}

Status JdbcCatalog::CreateTable(std::string_view identifier, const NewTableSpec& spec,
                                bool ignore_if_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "createTable"));
  SLUICE_RETURN_NOT_OK(CheckDatabaseExists(name.database));
  auto exists = [&] {
    return ignore_if_exists ? Status::OK()
                            : Status::AlreadyExists("table " + name.FullName() +
                                                    " already exists in " + Describe());
  };
  SLUICE_ASSIGN_OR_RETURN(bool found, TableExists(name.database, name.table));
  if (found) return exists();
  const std::string path = files_.TablePath(name.database, name.table);
  return RunWithLock(name.database, name.table, [&]() -> Status {
    // Schema 0 first (Java's order): its atomic creation decides between two creators; the
    // filesystem catalog's checks (options, merge function, a dropped table's leftovers) apply.
    SLUICE_RETURN_NOT_OK_CTX(io_->MkDirs(DatabasePath(name.database)),
                             "creating table " + name.FullName());
    Status st = files_.CreateTable(identifier, spec, /*ignore_if_exists=*/false);
    if (st.IsAlreadyExists()) {
      SLUICE_ASSIGN_OR_RETURN(bool registered, TableExists(name.database, name.table));
      if (registered) return exists();
      return Status::AlreadyExists(
          "table " + name.FullName() + " is not in " + Describe() + ", but its folder " + path +
          " already holds a table (being created by another catalog now, or left by one that "
          "failed before registering it): " +
          st.message());
    }
    SLUICE_RETURN_NOT_OK(st);
    Result<std::shared_ptr<FileStoreTable>> created =
        files_.LoadTable(name.database, name.table, kMainBranch, {});
    Status registered = created.status();
    if (registered.ok()) {
      registered = connections_->RunInTransaction([&](JdbcConnection& connection) -> Status {
        SLUICE_RETURN_NOT_OK(
            jdbc_tables::InsertTable(connection, options_.catalog_key, name.database, name.table));
        return jdbc_tables::ReplaceTableProperties(connection, options_.catalog_key, name.database,
                                                   name.table,
                                                   TableProperties((*created)->schema()));
      });
    }
    // The row is there already: another registered this folder meanwhile (Java's repair_table);
    // the table stays.
    if (registered.IsAlreadyExists()) return exists();
    if (!registered.ok()) {
      // Java deletes the folder it created when the row cannot be inserted.
      files_.DropTable(identifier, /*ignore_if_not_exists=*/true).IgnoreError();
      return registered.WithContext("registering table " + name.FullName() + " in " + Describe());
    }
    return Status::OK();
  });
}

Status JdbcCatalog::DropTable(std::string_view identifier, bool ignore_if_not_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "dropTable"));
  return RunWithLock(name.database, name.table, [&]() -> Status {
    Result<int64_t> deleted =
        connections_->CallInTransaction<int64_t>([&](JdbcConnection& connection) {
          return jdbc_tables::DeleteTable(connection, options_.catalog_key, name.database,
                                          name.table);
        });
    SLUICE_RETURN_NOT_OK_CTX(deleted.status(),
                             "dropping table " + name.FullName() + " from " + Describe());
    if (*deleted == 0) {
      if (ignore_if_not_exists) return Status::OK();
      return Status::NotFound("table " + name.FullName() + " does not exist in " + Describe());
    }
    // The row is gone: the table is dropped. Its folder goes next; a failure there leaves files
    // no catalog lists (the next drop of the name or orphan cleanup removes them).
    return files_.DropTable(identifier, /*ignore_if_not_exists=*/true)
        .WithContext("table " + name.FullName() + " is dropped from " + Describe() +
                     ", but deleting its folder failed");
  });
}

Result<TableSchema> JdbcCatalog::AlterTable(std::string_view identifier,
                                            const std::vector<SchemaChange>& changes) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "alterTable"));
  SLUICE_ASSIGN_OR_RETURN(bool found, TableExists(name.database, name.table));
  if (!found) {
    return Status::NotFound("table " + name.FullName() + " does not exist in " + Describe());
  }
  std::optional<TableSchema> altered;
  SLUICE_RETURN_NOT_OK(RunWithLock(name.database, name.table, [&]() -> Status {
    SLUICE_ASSIGN_OR_RETURN(altered, files_.AlterTable(identifier, changes));
    return connections_
        ->RunInTransaction([&](JdbcConnection& connection) {
          return jdbc_tables::ReplaceTableProperties(connection, options_.catalog_key,
                                                     name.database, name.table,
                                                     TableProperties(*altered));
        })
        .WithContext("table " + name.FullName() + " is altered, but updating its properties in " +
                     Describe() + " failed");
  }));
  return std::move(*altered);
}

Status JdbcCatalog::RenameTable(std::string_view from, std::string_view to,
                                bool ignore_if_not_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier source, Identifier::ParseDataTable(from, "renameTable"));
  SLUICE_ASSIGN_OR_RETURN(Identifier target, Identifier::ParseDataTable(to, "renameTable"));
  SLUICE_RETURN_NOT_OK(CheckDatabaseExists(target.database));
  const std::string what = "renaming table " + source.FullName() + " to " + target.FullName();
  return RunWithLock(source.database, source.table, [&]() -> Status {
    auto move_rows = [&](const Identifier& a, const Identifier& b) {
      return connections_->CallInTransaction<int64_t>([&](JdbcConnection& connection) {
        return jdbc_tables::RenameTable(connection, options_.catalog_key, a.database, a.table,
                                        b.database, b.table);
      });
    };
    Result<int64_t> moved = move_rows(source, target);
    if (moved.status().IsAlreadyExists()) {
      return Status::AlreadyExists("table " + target.FullName() + " already exists in " +
                                   Describe());
    }
    SLUICE_RETURN_NOT_OK_CTX(moved.status(), what + " in " + Describe());
    if (*moved == 0) {
      if (ignore_if_not_exists) return Status::OK();
      return Status::NotFound("table " + source.FullName() + " does not exist in " + Describe());
    }
    // Then the folder (Java moves it when it holds schemas).
    Status st = io_->MkDirs(DatabasePath(target.database));
    if (st.ok()) st = files_.RenameTable(from, to, /*ignore_if_not_exists=*/true);
    if (!st.ok()) {
      Result<int64_t> back = move_rows(target, source);
      if (!back.ok()) {
        return st.WithContext(what + " (its rows in " + Describe() +
                              " now name the new table, and moving them back failed too: " +
                              back.status().message() + ")");
      }
      return st.WithContext(what);
    }
    return Status::OK();
  });
}

Result<std::shared_ptr<FileStoreTable>> JdbcCatalog::LoadTable(
    std::string_view database, std::string_view table, std::string_view branch,
    DynamicOptions dynamic_options) const {
  const std::string db(database);
  const std::string name(table);
  SLUICE_ASSIGN_OR_RETURN(bool found, TableExists(db, name));
  if (!found) {
    return Status::NotFound("table " + db + "." + name + " does not exist in " + Describe());
  }
  Result<std::shared_ptr<FileStoreTable>> loaded =
      files_.LoadTable(database, table, branch, std::move(dynamic_options));
  if (!loaded.ok()) {
    if (loaded.status().IsNotFound() && IsMainBranch(NormalizeBranch(branch))) {
      return Status::NotFound("table " + db + "." + name + " is in " + Describe() +
                              ", but there is no Paimon table in " +
                              files_.TablePath(database, table));
    }
    return loaded.status();
  }
  if (lock_ != nullptr) (*loaded)->SetCatalogLock(lock_, db, name);
  return loaded;
}

}  // namespace sluice
