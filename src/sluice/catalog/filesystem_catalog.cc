#include "sluice/catalog/filesystem_catalog.h"

#include <algorithm>
#include <utility>

#include "sluice/base/uuid.h"
#include "sluice/catalog/identifier.h"
#include "sluice/lsm/merge_function_factory.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/schema_manager.h"
#include "sluice/meta/snapshot_manager.h"
#include "sluice/table/source/column_cast.h"

namespace sluice {

namespace {

constexpr std::string_view kDatabaseSuffix = ".db";
// A table or database being dropped is first renamed to
// `<warehouse>/.sluice-dropped.<name>.<uuid>` (MoveToDropped), then deleted: the rename is the
// one step that makes it vanish, so a crash leaves it whole or gone, and what a crash leaves of
// the deletion is a folder of this name, which the next drop or orphan cleanup removes. The
// name is one Java ignores: Java lists as databases only the warehouse's folders named `*.db`
// (AbstractCatalog.listDatabasesInFileSystem), and this one ends with a UUID; inside a `*.db`
// folder Java would list any folder holding schema files as a table, hidden names included,
// hence the warehouse and not the database folder.
constexpr std::string_view kDroppedPrefix = ".sluice-dropped.";

// The folders of a table's state that a table created in its place would inherit: its
// snapshots, schemas, tags, branches, changelogs and consumers.
constexpr std::string_view kStateDirs[] = {"snapshot", "schema",    "tag",
                                           "branch",   "changelog", "consumer"};

std::string BaseName(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The state folders of kStateDirs under the table folder `path` that hold an entry (temporary
// files, whose names start with '.', aside), e.g. "snapshot/ and schema/"; empty when none does.
Result<std::string> LeftoverState(FileIO& io, const std::string& path) {
  std::vector<std::string> found;
  for (std::string_view dir : kStateDirs) {
    Result<std::vector<FileStatus>> entries = io.ListDir(JoinPath(path, dir));
    if (!entries.ok()) {
      if (entries.status().IsNotFound()) continue;
      return entries.status().WithContext("looking for what is left in table folder " + path);
    }
    for (const FileStatus& entry : *entries) {
      if (BaseName(entry.path).starts_with('.')) continue;
      found.push_back(std::string(dir) + "/");
      break;
    }
  }
  std::string out;
  for (size_t i = 0; i < found.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == found.size() ? " and " : ", ") + found[i];
  }
  return out;
}

// The error of a table folder (at `path`, of `identifier`) that holds `found` but no schema.
std::string LeftoverMessage(const std::string& path, const std::string& found,
                            const std::string& identifier) {
  return "table folder " + path + " still holds " + found +
         " of a dropped or half-created table: remove the folder, or drop " + identifier +
         " (which removes what is left)";
}

Result<bool> HasSnapshots(const std::shared_ptr<FileIO>& io, const std::string& path) {
  SnapshotManager snapshots(io, path);
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest, snapshots.LatestSnapshotId());
  return latest.has_value();
}

}  // namespace

FilesystemCatalog::FilesystemCatalog(std::shared_ptr<FileIO> io, std::string warehouse)
    : io_(std::move(io)), warehouse_(StripFileScheme(warehouse)) {
  while (warehouse_.size() > 1 && warehouse_.back() == '/') warehouse_.pop_back();
}

Result<std::vector<std::string>> FilesystemCatalog::ListDatabases() const {
  auto entries = io_->ListDir(warehouse_);
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) {
      return Status::NotFound("warehouse " + warehouse_ + " does not exist");
    }
    return entries.status().WithContext("listing warehouse " + warehouse_);
  }
  std::vector<std::string> databases;
  for (const auto& entry : *entries) {
    std::string name = BaseName(entry.path);
    if (!entry.is_dir || name.size() <= kDatabaseSuffix.size() ||
        !name.ends_with(kDatabaseSuffix)) {
      continue;
    }
    databases.push_back(name.substr(0, name.size() - kDatabaseSuffix.size()));
  }
  std::sort(databases.begin(), databases.end());
  return databases;
}

Result<std::vector<std::string>> FilesystemCatalog::ListTables(std::string_view database) const {
  const std::string dir =
      JoinPath(warehouse_, std::string(database) + std::string(kDatabaseSuffix));
  auto entries = io_->ListDir(dir);
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) {
      return Status::NotFound("database '" + std::string(database) +
                              "' does not exist in warehouse " + warehouse_);
    }
    return entries.status().WithContext("listing database " + dir);
  }
  std::vector<std::string> tables;
  for (const auto& entry : *entries) {
    if (!entry.is_dir) continue;
    // A table is a folder with a schema file, as Java's FileSystemCatalog lists them: a create
    // killed before its first schema file leaves a folder that is no table (create names it).
    auto schemas = io_->ListDir(SchemaDir(entry.path));
    if (!schemas.ok()) {
      if (schemas.status().IsNotFound()) continue;
      return schemas.status().WithContext("listing tables of " + dir);
    }
    bool has_schema = false;
    for (const auto& schema : *schemas) {
      has_schema = has_schema || BaseName(schema.path).rfind("schema-", 0) == 0;
    }
    if (has_schema) tables.push_back(BaseName(entry.path));
  }
  std::sort(tables.begin(), tables.end());
  return tables;
}

std::string FilesystemCatalog::TablePath(std::string_view database, std::string_view table) const {
  return JoinPath(DatabasePath(database), table);
}

std::string FilesystemCatalog::DatabasePath(std::string_view database) const {
  return JoinPath(warehouse_, std::string(database) + std::string(kDatabaseSuffix));
}

Status FilesystemCatalog::CreateDatabase(std::string_view database, bool ignore_if_exists) const {
  SLUICE_RETURN_NOT_OK(CheckNewDatabaseName(database));
  const std::string path = DatabasePath(database);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(path));
  if (exists) {
    if (ignore_if_exists) return Status::OK();
    return Status::AlreadyExists("database '" + std::string(database) +
                                 "' already exists in warehouse " + warehouse_);
  }
  SLUICE_RETURN_NOT_OK_CTX(io_->MkDirs(path), "creating database " + std::string(database));
  return Status::OK();
}

Status FilesystemCatalog::DropDatabase(std::string_view database, bool ignore_if_not_exists,
                                       bool cascade) const {
  SLUICE_RETURN_NOT_OK(CheckName(database, "database"));
  Result<std::vector<std::string>> tables = ListTables(database);
  if (!tables.ok()) {
    if (tables.status().IsNotFound() && ignore_if_not_exists) return Status::OK();
    return tables.status();
  }
  if (!cascade && !tables->empty()) {
    std::string list;
    for (const std::string& t : *tables) list += (list.empty() ? "" : ", ") + t;
    return Status::InvalidArgument("database '" + std::string(database) +
                                   "' is not empty (tables: " + list + ")");
  }
  const std::string what = "database '" + std::string(database) + "'";
  SLUICE_ASSIGN_OR_RETURN(std::string dropped, MoveToDropped(DatabasePath(database), database));
  SLUICE_RETURN_NOT_OK(DeleteDropped(dropped, what));
  PurgeDropped().status().IgnoreError();  // others' leftovers: the next drop tries again
  return Status::OK();
}

Result<std::string> FilesystemCatalog::MoveToDropped(const std::string& folder,
                                                     std::string_view name) const {
  const std::string dropped =
      JoinPath(warehouse_, std::string(kDroppedPrefix) + std::string(name) + "." + NewUuidV4());
  SLUICE_RETURN_NOT_OK_CTX(io_->RenameNoReplace(folder, dropped), "moving " + folder + " away");
  // The rename is durable once both directories are synced; the new name's first, so that a
  // power loss between the two leaves the folder in both places at worst, never in neither.
  SLUICE_RETURN_NOT_OK(io_->SyncDir(warehouse_));
  if (ParentDir(folder) != warehouse_) SLUICE_RETURN_NOT_OK(io_->SyncDir(ParentDir(folder)));
  return dropped;
}

Status FilesystemCatalog::DeleteDropped(const std::string& dropped, const std::string& what) const {
  return io_->Delete(dropped, /*recursive=*/true)
      .WithContext(what + " is dropped, but deleting its files in " + dropped +
                   " failed (the next drop deletes them)");
}

Result<std::vector<std::string>> FilesystemCatalog::PurgeDropped(bool dry_run) const {
  Result<std::vector<FileStatus>> entries = io_->ListDir(warehouse_);
  if (!entries.ok()) {
    if (entries.status().IsNotFound()) return std::vector<std::string>{};
    return entries.status().WithContext("listing warehouse " + warehouse_);
  }
  std::vector<std::string> folders;
  Status first;
  for (const FileStatus& entry : *entries) {
    if (!entry.is_dir || !BaseName(entry.path).starts_with(kDroppedPrefix)) continue;
    folders.push_back(entry.path);
    if (dry_run) continue;
    Status st = io_->Delete(entry.path, /*recursive=*/true);
    if (first.ok() && !st.ok()) first = st.WithContext("deleting dropped folder " + entry.path);
  }
  if (!first.ok()) return first;
  return folders;
}

Status FilesystemCatalog::CreateTable(std::string_view identifier, const NewTableSpec& spec,
                                      bool ignore_if_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "createTable"));
  SLUICE_ASSIGN_OR_RETURN(bool database_exists, io_->Exists(DatabasePath(name.database)));
  if (!database_exists) {
    return Status::NotFound("database '" + name.database + "' does not exist in warehouse " +
                            warehouse_);
  }
  const std::string path = TablePath(name.database, name.table);
  SLUICE_ASSIGN_OR_RETURN(std::string leftover, LeftoverState(*io_, path));
  if (!leftover.empty()) {
    SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> schema_ids,
                            SchemaManager(io_, path).ListSchemaIds());
    if (schema_ids.empty()) {
      // A table created here would take over its snapshots (and serve its rows).
      return Status::AlreadyExists(LeftoverMessage(path, leftover, name.FullName()));
    }
    if (ignore_if_exists) return Status::OK();
    return Status::AlreadyExists("table " + name.FullName() + " already exists in warehouse " +
                                 warehouse_);
  }
  // The options must be ones a table can be opened with.
  SLUICE_ASSIGN_OR_RETURN(TableSchema schema, MakeInitialSchema(spec, 0));
  SLUICE_RETURN_NOT_OK(CoreOptions::FromSchema(schema).status());
  // Java builds the merge function at CREATE TABLE (SchemaValidation.validateMergeFunction).
  SLUICE_RETURN_NOT_OK(ValidateMergeFunction(schema));
  Result<TableSchema> created = SchemaManager(io_, path).CreateTable(spec);
  if (!created.ok()) {
    if (created.status().IsAlreadyExists()) {
      if (ignore_if_exists) return Status::OK();
      return Status::AlreadyExists("table " + name.FullName() + " already exists in warehouse " +
                                   warehouse_);
    }
    return created.status().WithContext("creating table " + name.FullName());
  }
  return Status::OK();
}

Status FilesystemCatalog::DropTable(std::string_view identifier, bool ignore_if_not_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "dropTable"));
  const std::string path = TablePath(name.database, name.table);
  SchemaManager schemas(io_, path);
  SLUICE_ASSIGN_OR_RETURN(std::optional<TableSchema> latest, schemas.LatestSchema());
  if (!latest) {
    // A folder of state with no schema is what a drop killed half-way left before drops went
    // through a rename (or what Java's recursive delete leaves): dropping it finishes the drop.
    SLUICE_ASSIGN_OR_RETURN(std::string leftover, LeftoverState(*io_, path));
    if (leftover.empty()) {
      if (ignore_if_not_exists) return Status::OK();
      return Status::NotFound("table " + name.FullName() + " does not exist in warehouse " +
                              warehouse_);
    }
  }
  // Data files written to external paths go with the table, as in Java.
  std::vector<std::string> external;
  const std::string* paths = latest ? latest->FindOption("data-file.external-paths") : nullptr;
  if (paths != nullptr) {
    size_t start = 0;
    while (start <= paths->size()) {
      size_t comma = paths->find(',', start);
      std::string part =
          paths->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!part.empty()) external.push_back(StripFileScheme(part));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  Result<std::string> dropped = MoveToDropped(path, name.FullName());
  if (!dropped.ok()) return dropped.status().WithContext("dropping " + name.FullName());
  // From here on the table is gone: a crash leaves at most files no table refers to. External
  // paths a crash leaves undeleted stay (PurgeDropped does not read them: a table created
  // later may use the same paths).
  for (const std::string& dir : external) {
    SLUICE_RETURN_NOT_OK_CTX(io_->Delete(dir, /*recursive=*/true),
                             "dropping the external data of " + name.FullName());
  }
  SLUICE_RETURN_NOT_OK(DeleteDropped(*dropped, "table " + name.FullName()));
  PurgeDropped().status().IgnoreError();  // others' leftovers: the next drop tries again
  return Status::OK();
}

Result<TableSchema> FilesystemCatalog::AlterTable(std::string_view identifier,
                                                  const std::vector<SchemaChange>& changes) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "alterTable"));
  const std::string path = TablePath(name.database, name.table);
  SchemaManager schemas(io_, path);
  SLUICE_ASSIGN_OR_RETURN(std::vector<TableSchema> history, schemas.ListSchemas());
  if (history.empty()) {
    return Status::NotFound("table " + name.FullName() + " does not exist in warehouse " +
                            warehouse_);
  }
  // Check the result before committing: its options must open, and every file written under an
  // earlier type of a column must cast to the new type when read.
  SLUICE_ASSIGN_OR_RETURN(bool has_snapshots, HasSnapshots(io_, path));
  SLUICE_ASSIGN_OR_RETURN(TableSchema next,
                          ApplySchemaChanges(history.back(), changes, has_snapshots, 0));
  SLUICE_RETURN_NOT_OK(CoreOptions::FromSchema(next).status());
  SLUICE_RETURN_NOT_OK(ValidateMergeFunction(next));
  // (A table without snapshots has no files yet.)
  for (const DataField& field : next.fields()) {
    if (!has_snapshots) break;
    for (const TableSchema& old : history) {
      const DataField* before = old.FieldById(field.id);
      if (before == nullptr || before->type->Equals(*field.type)) continue;
      SLUICE_RETURN_NOT_OK_CTX(CheckCastSupported(*before->type, *field.type, field.name),
                               "table " + name.FullName() + " holds files written under schema " +
                                   std::to_string(old.id()) +
                                   ", which could not be read after "
                                   "this change");
    }
  }
  Result<TableSchema> committed = schemas.CommitChanges(changes);
  if (!committed.ok()) return committed.status().WithContext("altering table " + name.FullName());
  return committed;
}

Status FilesystemCatalog::RenameTable(std::string_view from, std::string_view to,
                                      bool ignore_if_not_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier source, Identifier::ParseDataTable(from, "renameTable"));
  SLUICE_ASSIGN_OR_RETURN(Identifier target, Identifier::ParseDataTable(to, "renameTable"));
  const std::string from_path = TablePath(source.database, source.table);
  const std::string to_path = TablePath(target.database, target.table);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(SchemaDir(from_path)));
  if (!exists) {
    if (ignore_if_not_exists) return Status::OK();
    return Status::NotFound("table " + source.FullName() + " does not exist in warehouse " +
                            warehouse_);
  }
  SLUICE_ASSIGN_OR_RETURN(bool database_exists, io_->Exists(DatabasePath(target.database)));
  if (!database_exists) {
    return Status::NotFound("database '" + target.database + "' does not exist in warehouse " +
                            warehouse_);
  }
  SLUICE_ASSIGN_OR_RETURN(std::string leftover, LeftoverState(*io_, to_path));
  SLUICE_ASSIGN_OR_RETURN(bool target_is_table, io_->Exists(SchemaDir(to_path)));
  if (!leftover.empty() && !target_is_table) {
    return Status::AlreadyExists(LeftoverMessage(to_path, leftover, target.FullName()));
  }
  Status st = io_->RenameNoReplace(from_path, to_path);
  if (st.IsAlreadyExists()) {
    return Status::AlreadyExists("table " + target.FullName() + " already exists in warehouse " +
                                 warehouse_ + " (folder " + to_path + ")");
  }
  // The rename survives a power loss once both directories are synced (file_io.h).
  if (st.ok()) st = io_->SyncDir(ParentDir(to_path));
  if (st.ok() && ParentDir(from_path) != ParentDir(to_path)) {
    st = io_->SyncDir(ParentDir(from_path));
  }
  return st.WithContext("renaming table " + source.FullName() + " to " + target.FullName());
}

Result<std::shared_ptr<FileStoreTable>> FilesystemCatalog::LoadTable(
    std::string_view database, std::string_view table, std::string_view branch,
    DynamicOptions dynamic_options) const {
  const std::string path = TablePath(database, table);
  SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(SchemaDir(path)));
  if (!exists) {
    return Status::NotFound("table " + std::string(database) + "." + std::string(table) +
                            " does not exist in warehouse " + warehouse_);
  }
  return FileStoreTable::Open(io_, path, branch, std::move(dynamic_options));
}

Result<std::shared_ptr<FileStoreTable>> LoadTableFromPath(std::shared_ptr<FileIO> io,
                                                          std::string folder,
                                                          std::string_view branch,
                                                          DynamicOptions dynamic_options) {
  folder = StripFileScheme(folder);
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  SLUICE_ASSIGN_OR_RETURN(bool exists, io->Exists(SchemaDir(folder)));
  if (!exists) return Status::NotFound("no table in folder " + folder + " (no schema/ directory)");
  return FileStoreTable::Open(std::move(io), std::move(folder), branch, std::move(dynamic_options));
}

}  // namespace sluice
