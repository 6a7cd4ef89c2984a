#include "sluice/meta/schema_manager.h"

#include "sluice/meta/hint_file.h"

namespace sluice {

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

}  // namespace sluice
