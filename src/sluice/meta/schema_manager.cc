#include "sluice/meta/schema_manager.h"

#include <chrono>

#include "sluice/meta/hint_file.h"
#include "sluice/meta/snapshot_manager.h"

namespace sluice {

namespace {

// Rounds of re-reading and re-applying when other writers win the race for the next id.
constexpr int kMaxCommitAttempts = 32;

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

SchemaManager::SchemaManager(std::shared_ptr<FileIO> io, std::string table_path,
                             std::string_view branch)
    : io_(std::move(io)),
      table_path_(std::move(table_path)),
      branch_(NormalizeBranch(branch)),
      branch_path_(BranchPath(table_path_, branch_)) {}

Result<TableSchema> SchemaManager::LoadSchema(int64_t id) const {
  const std::string path = schema_path(id);
  Result<std::string> content = io_->ReadFile(path);
  if (!content.ok()) {
    if (content.status().IsNotFound()) {
      return Status::NotFound("schema " + std::to_string(id) + " does not exist: " + path);
    }
    return content.status();
  }
  Result<TableSchema> schema = TableSchema::FromJson(*content);
  if (!schema.ok()) return schema.status().WithContext(path);
  return schema;
}

Result<bool> SchemaManager::SchemaExists(int64_t id) const { return io_->Exists(schema_path(id)); }

Result<std::optional<TableSchema>> SchemaManager::LatestSchema() const {
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, ListSchemaIds());
  if (ids.empty()) return std::optional<TableSchema>();
  SLUICE_ASSIGN_OR_RETURN(TableSchema schema, LoadSchema(ids.back()));
  return std::optional<TableSchema>(std::move(schema));
}

Result<std::vector<int64_t>> SchemaManager::ListSchemaIds() const {
  return ListVersionedIds(io_.get(), schema_dir(), kSchemaPrefix);
}

Result<std::vector<TableSchema>> SchemaManager::ListSchemas() const {
  SLUICE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, ListSchemaIds());
  std::vector<TableSchema> schemas;
  schemas.reserve(ids.size());
  for (int64_t id : ids) {
    SLUICE_ASSIGN_OR_RETURN(TableSchema schema, LoadSchema(id));
    schemas.push_back(std::move(schema));
  }
  return schemas;
}

Status SchemaManager::CommitSchema(const TableSchema& schema) const {
  const std::string path = schema_path(schema.id());
  SLUICE_RETURN_NOT_OK_CTX(io_->MkDirs(schema_dir()), "creating " + schema_dir());
  Status st = io_->WriteFileAtomic(path, schema.ToJson(), /*overwrite=*/false);
  if (st.IsAlreadyExists()) {
    return Status::AlreadyExists("schema " + std::to_string(schema.id()) +
                                 " already exists: " + path);
  }
  return st;
}

Result<TableSchema> SchemaManager::CreateTable(const NewTableSpec& spec) const {
  SLUICE_ASSIGN_OR_RETURN(std::optional<TableSchema> latest, LatestSchema());
  if (latest) {
    return Status::AlreadyExists("Schema in filesystem exists, creation is not allowed: " +
                                 schema_dir());
  }
  SLUICE_ASSIGN_OR_RETURN(TableSchema schema, MakeInitialSchema(spec, NowMillis()));
  SLUICE_RETURN_NOT_OK(CommitSchema(schema));
  return schema;
}

Result<TableSchema> SchemaManager::CommitChanges(const std::vector<SchemaChange>& changes) const {
  SnapshotManager snapshots(io_, table_path_, branch_);
  SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> latest_snapshot, snapshots.LatestSnapshotId());
  const bool has_snapshots = latest_snapshot.has_value();
  for (int attempt = 0; attempt < kMaxCommitAttempts; ++attempt) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<TableSchema> latest, LatestSchema());
    if (!latest) return Status::NotFound("no table in " + table_path_ + " (no schema)");
    SLUICE_ASSIGN_OR_RETURN(TableSchema next,
                            ApplySchemaChanges(*latest, changes, has_snapshots, NowMillis()));
    Status st = CommitSchema(next);
    if (st.ok()) return next;
    if (!st.IsAlreadyExists()) return st;
  }
  return Status::Conflict("schema change of " + table_path_ +
                          " lost the race for the next "
                          "schema id " +
                          std::to_string(kMaxCommitAttempts) + " times");
}

}  // namespace sluice
