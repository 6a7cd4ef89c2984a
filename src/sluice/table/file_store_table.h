// FileStoreTable: one loaded table (Java FileStoreTable): where it is, its FileIO, the branch
// read, its latest schema, the dynamic options of this load, and which snapshot a read sees.
//
// Snapshot selection follows Java's time travel (TimeTravelUtil, the static starting
// scanners): the latest snapshot, a snapshot id, a tag (the snapshot the tag file carries, even
// after the snapshot itself expired), or the latest snapshot committed at or before a time.
// A time before the earliest snapshot is an error, as in Java's
// StaticFromTimestampStartingScanner.
//
// Thread safety: thread-safe; the schema cache is guarded by a mutex.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sluice/fs/file_io.h"
#include "sluice/io/file_store_path_factory.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/schema_manager.h"
#include "sluice/meta/snapshot.h"
#include "sluice/meta/snapshot_manager.h"
#include "sluice/meta/table_schema.h"
#include "sluice/meta/tag_manager.h"
#include "sluice/result.h"
#include "sluice/table/catalog_lock.h"

namespace sluice {

// Which version of a table a read sees.
struct TableVersion {
  enum class Kind : unsigned char { kLatest, kSnapshotId, kTag, kTimeMillis };

  Kind kind = Kind::kLatest;
  int64_t snapshot_id = 0;  // kSnapshotId
  std::string tag;          // kTag
  int64_t time_millis = 0;  // kTimeMillis: epoch millis

  static TableVersion Latest() { return {}; }
  static TableVersion SnapshotId(int64_t id) { return {Kind::kSnapshotId, id, {}, 0}; }
  static TableVersion Tag(std::string name) { return {Kind::kTag, 0, std::move(name), 0}; }
  static TableVersion AsOfMillis(int64_t millis) { return {Kind::kTimeMillis, 0, {}, millis}; }
  // Epoch millis ("1700000000000") or "YYYY-MM-DD HH:MM:SS[.fff]" read as UTC (Java reads it in
  // the session's local zone; Sluice sessions are UTC). InvalidArgument naming the text.
  static Result<TableVersion> AsOf(std::string_view text);
  // The version Java's time-travel options select: `scan.snapshot-id`, `scan.tag-name`,
  // `scan.timestamp-millis` or `scan.timestamp` (at most one may be set; InvalidArgument naming
  // them otherwise, or naming a value that does not parse); latest when none is set.
  static Result<TableVersion> FromOptions(const CoreOptions& options);
};

class FileStoreTable {
 public:
  // Loads the table at `path` (its latest schema on `branch`). NotFound naming the path when
  // there is no schema (not a table), or naming the branch when it does not exist;
  // InvalidArgument for an option value CoreOptions refuses. `dynamic_options` override the
  // schema's options for this load (Java table.copy(options)).
  static Result<std::shared_ptr<FileStoreTable>> Open(std::shared_ptr<FileIO> io, std::string path,
                                                      std::string_view branch = kMainBranch,
                                                      DynamicOptions dynamic_options = {});

  // The same table on another branch (same dynamic options and catalog lock).
  Result<std::shared_ptr<FileStoreTable>> OnBranch(std::string_view branch) const;
  // The same table loaded again: the latest schema of its branch, `dynamic_options` for this
  // load, the same catalog lock (Java table.copy keeps the CatalogEnvironment). Errors as
  // Open's.
  Result<std::shared_ptr<FileStoreTable>> Reload(DynamicOptions dynamic_options) const;

  // The catalog lock commits to this table hold around the snapshot file (catalog_lock.h), and
  // the table's name in the catalog it locks; null when the table's catalog has none (the
  // filesystem catalog, a table opened by folder, `lock.enabled` off). Set by the catalog that
  // loads the table, before it shares it.
  void SetCatalogLock(std::shared_ptr<const CatalogLock> lock, std::string database,
                      std::string table);
  const std::shared_ptr<const CatalogLock>& catalog_lock() const { return catalog_lock_; }
  // Runs `fn` under the catalog lock of this table on its branch (`table$branch_<name>` off the
  // main branch, Java's object name); just runs it when there is no lock. Under the lock, NotFound
  // naming the table and `fn` not run when the table's folder no longer holds it (renamed or
  // dropped through the catalog since this load).
  Status RunWithCatalogLock(const std::function<Status()>& fn) const;

  const std::shared_ptr<FileIO>& io() const { return io_; }
  const std::string& path() const { return path_; }
  const std::string& branch() const { return branch_; }
  // The latest schema of the branch.
  const TableSchema& schema() const { return *schema_; }
  const std::shared_ptr<const TableSchema>& schema_ptr() const { return schema_; }
  const DynamicOptions& dynamic_options() const { return dynamic_options_; }
  // The schema's options with the dynamic options applied.
  const CoreOptions& options() const { return options_; }
  const SnapshotManager& snapshot_manager() const { return snapshots_; }
  const SchemaManager& schema_manager() const { return schemas_; }
  const TagManager& tag_manager() const { return tags_; }
  const FileStorePathFactory& path_factory() const { return path_factory_; }

  // The schema with `id` of this branch, loaded once. NotFound "schema <id> does not exist".
  Result<std::shared_ptr<const TableSchema>> SchemaById(int64_t id) const;

  // The snapshot `version` selects; nullopt for the latest of a table without snapshots.
  // NotFound naming the snapshot id / tag when they do not exist; InvalidArgument naming the
  // time and the earliest snapshot's time when no snapshot is that old.
  Result<std::optional<Snapshot>> SelectSnapshot(const TableVersion& version) const;

  // The schema a read of `version` sees (Java time travel, AbstractFileStoreTable.tryTimeTravel):
  // the schema the selected snapshot (or tag) was written with, so that an old snapshot shows its
  // old columns; the latest schema for the latest version or a table without snapshots. Errors
  // as SelectSnapshot's.
  Result<std::shared_ptr<const TableSchema>> SchemaForVersion(const TableVersion& version) const;

 private:
  FileStoreTable(std::shared_ptr<FileIO> io, std::string path, std::string branch,
                 std::shared_ptr<const TableSchema> schema, DynamicOptions dynamic_options,
                 CoreOptions options);

  std::shared_ptr<FileIO> io_;
  std::string path_;
  std::string branch_;
  std::shared_ptr<const TableSchema> schema_;
  DynamicOptions dynamic_options_;
  CoreOptions options_;
  SnapshotManager snapshots_;
  SchemaManager schemas_;
  TagManager tags_;
  FileStorePathFactory path_factory_;
  std::shared_ptr<const CatalogLock> catalog_lock_;
  std::string lock_database_;
  std::string lock_table_;

  mutable std::mutex schema_cache_mutex_;
  mutable std::unordered_map<int64_t, std::shared_ptr<const TableSchema>> schema_cache_;
};

}  // namespace sluice
