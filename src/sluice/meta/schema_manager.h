// SchemaManager: loads the schema versions of one branch of a table (Java SchemaManager), and
// commits new ones. The latest schema is the one with the highest id in schema/.
//
// A commit claims `schema/schema-<id>` with an atomic no-replace write: of two writers racing
// for the same id exactly one wins; the loser re-reads the latest schema and applies its
// changes again (as Java's commitChanges loop does), or fails with a Conflict after a few
// rounds.
//
// Thread safety: const methods are as thread-safe as the FileIO; the object is immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/schema_generation.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

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

  // Writes schema 0 of a new table (Java SchemaManager.createTable). AlreadyExists naming the
  // path when the branch already has a schema.
  Result<TableSchema> CreateTable(const NewTableSpec& spec) const;
  // Applies `changes` to the latest schema and commits the result as the next schema (Java
  // commitChanges). NotFound when there is no table; the change's own error when a change is
  // not allowed; Conflict when other writers keep winning the race for the next id.
  Result<TableSchema> CommitChanges(const std::vector<SchemaChange>& changes) const;
  // Claims schema/schema-<schema.id()> with `schema`'s JSON; AlreadyExists if that id exists.
  Status CommitSchema(const TableSchema& schema) const;

 private:
  std::shared_ptr<FileIO> io_;
  std::string table_path_;
  std::string branch_;
  std::string branch_path_;
};

}  // namespace sluice
