#include "sluice/table/file_store_table.h"

#include <cctype>
#include <charconv>
#include <utility>

#include "sluice/meta/branch_manager.h"
#include "sluice/meta/file_paths.h"
#include "sluice/predicate/literal.h"
#include "sluice/row/binary_row.h"

namespace sluice {

Result<TableVersion> TableVersion::AsOf(std::string_view text) {
  bool all_digits = !text.empty();
  for (char c : text) all_digits = all_digits && std::isdigit(static_cast<unsigned char>(c));
  if (all_digits) {
    int64_t millis = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), millis);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return Status::InvalidArgument("time-travel timestamp out of range: '" + std::string(text) +
                                     "'");
    }
    return AsOfMillis(millis);
  }
  auto ts = ParseTimestampText(text);
  if (!ts.ok()) {
    return Status::InvalidArgument("time-travel timestamp '" + std::string(text) +
                                   "' is neither epoch millis nor 'YYYY-MM-DD HH:MM:SS'");
  }
  return AsOfMillis(ts->millisecond);
}

Result<TableVersion> TableVersion::FromOptions(const CoreOptions& options) {
  static constexpr std::string_view kKeys[] = {"scan.snapshot-id", "scan.tag-name",
                                               "scan.timestamp-millis", "scan.timestamp"};
  std::string_view key;
  const std::string* value = nullptr;
  for (std::string_view candidate : kKeys) {
    const std::string* found = options.Find(candidate);
    if (found == nullptr) continue;
    if (value != nullptr) {
      return Status::InvalidArgument("only one of the time-travel options may be set, got " +
                                     std::string(key) + " and " + std::string(candidate));
    }
    key = candidate;
    value = found;
  }
  if (value == nullptr) return Latest();
  if (key == "scan.tag-name") return Tag(*value);
  if (key == "scan.timestamp") return AsOf(*value);
  // CoreOptions has parsed the numbers.
  if (key == "scan.snapshot-id") return SnapshotId(*options.scan_snapshot_id());
  return AsOfMillis(*options.scan_timestamp_millis());
}

FileStoreTable::FileStoreTable(std::shared_ptr<FileIO> io, std::string path, std::string branch,
                               std::shared_ptr<const TableSchema> schema,
                               DynamicOptions dynamic_options, CoreOptions options)
    : io_(io),
      path_(std::move(path)),
      branch_(std::move(branch)),
      schema_(std::move(schema)),
      dynamic_options_(std::move(dynamic_options)),
      options_(std::move(options)),
      snapshots_(io, path_, branch_),
      schemas_(io, path_, branch_),
      tags_(io, path_, branch_),
      path_factory_(path_, *schema_, options_) {
  schema_cache_.emplace(schema_->id(), schema_);
}

Result<std::shared_ptr<FileStoreTable>> FileStoreTable::Open(std::shared_ptr<FileIO> io,
                                                             std::string path,
                                                             std::string_view branch,
                                                             DynamicOptions dynamic_options) {
  std::string normalized = NormalizeBranch(branch);
  if (!IsMainBranch(normalized)) {
    SLUICE_ASSIGN_OR_RETURN(bool exists, BranchManager(io, path).BranchExists(normalized));
    if (!exists) {
      return Status::NotFound("branch '" + normalized + "' does not exist in table " + path);
    }
  }
  SchemaManager schemas(io, path, normalized);
  SLUICE_ASSIGN_OR_RETURN(auto latest, schemas.LatestSchema());
  if (!latest) return Status::NotFound("no table at " + path + " (no schema in schema/)");
  auto schema = std::make_shared<const TableSchema>(std::move(*latest));
  auto options = CoreOptions::FromSchema(*schema, dynamic_options);
  if (!options.ok()) return options.status().WithContext("options of table " + path);
  return std::shared_ptr<FileStoreTable>(
      new FileStoreTable(std::move(io), std::move(path), std::move(normalized), std::move(schema),
                         std::move(dynamic_options), std::move(*options)));
}

Result<std::shared_ptr<FileStoreTable>> FileStoreTable::OnBranch(std::string_view branch) const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                          Open(io_, path_, branch, dynamic_options_));
  table->SetCatalogLock(catalog_lock_, lock_database_, lock_table_);
  return table;
}

Result<std::shared_ptr<FileStoreTable>> FileStoreTable::Reload(
    DynamicOptions dynamic_options) const {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                          Open(io_, path_, branch_, std::move(dynamic_options)));
  table->SetCatalogLock(catalog_lock_, lock_database_, lock_table_);
  return table;
}

void FileStoreTable::SetCatalogLock(std::shared_ptr<const CatalogLock> lock, std::string database,
                                    std::string table) {
  catalog_lock_ = std::move(lock);
  lock_database_ = std::move(database);
  lock_table_ = std::move(table);
}

Status FileStoreTable::RunWithCatalogLock(const std::function<Status()>& fn) const {
  if (catalog_lock_ == nullptr) return fn();
  const std::string object =
      IsMainBranch(branch_) ? lock_table_ : lock_table_ + "$branch_" + branch_;
  return catalog_lock_->RunWithLock(lock_database_, object, [&]() -> Status {
    // The catalog renames and drops tables under the same lock: what runs here after one must
    // not write into the old folder (a snapshot there would recreate it, its commit lost).
    SLUICE_ASSIGN_OR_RETURN(bool exists, io_->Exists(SchemaDir(path_)));
    if (!exists) {
      return Status::NotFound("table " + lock_database_ + "." + lock_table_ + " is no longer at " +
                              path_ + " (renamed or dropped since it was loaded)");
    }
    return fn();
  });
}

Result<std::shared_ptr<const TableSchema>> FileStoreTable::SchemaById(int64_t id) const {
  {
    std::lock_guard<std::mutex> lock(schema_cache_mutex_);
    auto it = schema_cache_.find(id);
    if (it != schema_cache_.end()) return it->second;
  }
  SLUICE_ASSIGN_OR_RETURN(TableSchema loaded, schemas_.LoadSchema(id));
  auto schema = std::make_shared<const TableSchema>(std::move(loaded));
  std::lock_guard<std::mutex> lock(schema_cache_mutex_);
  return schema_cache_.emplace(id, std::move(schema)).first->second;
}

Result<std::optional<Snapshot>> FileStoreTable::SelectSnapshot(const TableVersion& version) const {
  switch (version.kind) {
    case TableVersion::Kind::kLatest:
      return snapshots_.LatestSnapshot();
    case TableVersion::Kind::kSnapshotId: {
      SLUICE_ASSIGN_OR_RETURN(bool exists, snapshots_.SnapshotExists(version.snapshot_id));
      if (!exists) {
        return Status::NotFound("snapshot " + std::to_string(version.snapshot_id) +
                                " does not exist in table " + path_ + " (branch " + branch_ + ")");
      }
      SLUICE_ASSIGN_OR_RETURN(Snapshot snapshot, snapshots_.LoadSnapshot(version.snapshot_id));
      return std::optional<Snapshot>(std::move(snapshot));
    }
    case TableVersion::Kind::kTag: {
      SLUICE_ASSIGN_OR_RETURN(bool exists, tags_.TagExists(version.tag));
      if (!exists) {
        return Status::NotFound("tag '" + version.tag + "' does not exist in table " + path_ +
                                " (branch " + branch_ + ")");
      }
      SLUICE_ASSIGN_OR_RETURN(Tag tag, tags_.LoadTag(version.tag));
      return std::optional<Snapshot>(std::move(tag.snapshot));
    }
    case TableVersion::Kind::kTimeMillis: {
      SLUICE_ASSIGN_OR_RETURN(auto snapshot,
                              snapshots_.EarlierOrEqualTimeMillis(version.time_millis));
      if (snapshot) return snapshot;
      SLUICE_ASSIGN_OR_RETURN(auto earliest, snapshots_.EarliestSnapshot());
      return Status::InvalidArgument(
          "there is no snapshot earlier than or equal to timestamp " +
          std::to_string(version.time_millis) + " in table " + path_ + " (branch " + branch_ +
          "); the earliest snapshot's timestamp is " +
          (earliest ? std::to_string(earliest->time_millis) : std::string("null")));
    }
  }
  return Status::Internal("unknown table version kind");
}

Result<std::shared_ptr<const TableSchema>> FileStoreTable::SchemaForVersion(
    const TableVersion& version) const {
  if (version.kind == TableVersion::Kind::kLatest) return schema_;
  SLUICE_ASSIGN_OR_RETURN(std::optional<Snapshot> snapshot, SelectSnapshot(version));
  if (!snapshot || snapshot->schema_id == schema_->id()) return schema_;
  return SchemaById(snapshot->schema_id);
}

}  // namespace sluice
