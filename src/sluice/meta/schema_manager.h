// SchemaManager: loads the schema versions of one branch of a table (Java SchemaManager).
// The latest schema is the one with the highest id in schema/.
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/result.h"
#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/table_schema.h"

namespace sluice {

class SchemaManager {
 public:
  SchemaManager(std::shared_ptr<FileIO> io, std::string table_path,
                std::string_view branch = kMainBranch);

  const std::string& branch() const { return branch_; }
  std::string schema_dir() const { return SchemaDir(branch_path_); }
  std::string schema_path(int64_t id) const { return SchemaPath(branch_path_, id); }

  // NotFound "schema <id> does not exist: <path>" when missing; a malformed file is a
  // Corruption naming the path and the field.
  Result<TableSchema> LoadSchema(int64_t id) const;
  Result<bool> SchemaExists(int64_t id) const;
  // nullopt when there is no schema (not a table).
  Result<std::optional<TableSchema>> LatestSchema() const;
  // Ids of all schema files, ascending.
  Result<std::vector<int64_t>> ListSchemaIds() const;
  Result<std::vector<TableSchema>> ListSchemas() const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  std::string branch_;
  std::string branch_path_;
};

}  // namespace sluice
