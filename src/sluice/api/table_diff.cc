#include "sluice/table_diff.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "sluice/api/api_access.h"
#include "sluice/meta/branch_manager.h"
#include "sluice/meta/live_files.h"
#include "sluice/read_builder.h"

namespace sluice {

namespace {

// One side of a diff: the table on a branch and the snapshot read there.
struct Side {
  Table table;
  std::optional<Snapshot> snapshot;
  std::string description;
};

Result<Side> Resolve(const Table& table, std::string_view text) {
  const std::shared_ptr<FileStoreTable>& t = ApiAccess::FileStoreTableOf(table);
  int64_t id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error == std::errc() && end == text.data() + text.size()) {
    SLUICE_ASSIGN_OR_RETURN(Snapshot s, t->snapshot_manager().LoadSnapshot(id));
    return Side{table, std::move(s), "snapshot " + std::to_string(id)};
  }
  std::string_view name = text;
  bool tag = false;
  bool branch = false;
  if (name.substr(0, 4) == "tag:") {
    name.remove_prefix(4);
    tag = true;
  } else if (name.substr(0, 7) == "branch:") {
    name.remove_prefix(7);
    branch = true;
  } else {
    SLUICE_ASSIGN_OR_RETURN(tag, t->tag_manager().TagExists(name));
    if (!tag) {
      SLUICE_ASSIGN_OR_RETURN(branch, BranchManager(t->io(), t->path()).BranchExists(name));
    }
  }
  if (tag) {
    SLUICE_ASSIGN_OR_RETURN(Tag loaded, t->tag_manager().LoadTag(name));
    return Side{
        table, loaded.snapshot,
        "snapshot " + std::to_string(loaded.snapshot.id) + " (tag " + std::string(name) + ")"};
  }
  if (branch) {
    SLUICE_ASSIGN_OR_RETURN(Table on_branch, table.OnBranch(name));
    SLUICE_ASSIGN_OR_RETURN(
        std::optional<Snapshot> latest,
        ApiAccess::FileStoreTableOf(on_branch)->snapshot_manager().LatestSnapshot());
    std::string description =
        latest ? "snapshot " + std::to_string(latest->id) + " (branch " + std::string(name) + ")"
               : "empty branch " + std::string(name);
    return Side{std::move(on_branch), std::move(latest), std::move(description)};
  }
  return Status::NotFound("'" + std::string(text) + "' is no snapshot, tag or branch of " +
                          table.name());
}

Result<std::vector<std::string>> Files(const Side& side) {
  std::vector<std::string> out;
  if (!side.snapshot) return out;
  const FileStoreTable& t = *ApiAccess::FileStoreTableOf(side.table);
  SLUICE_ASSIGN_OR_RETURN(std::vector<ManifestEntry> live,
                          ReadLiveDataFiles(*t.io(), t.path(), *side.snapshot));
  for (const ManifestEntry& e : live) {
    SLUICE_ASSIGN_OR_RETURN(std::string bucket,
                            t.path_factory().BucketPathOfSerialized(e.partition, e.bucket));
    std::string path = DataFilePath(bucket, e.file.file_name, e.file.external_path);
    const std::string prefix = t.path() + "/";
    if (path.compare(0, prefix.size(), prefix) == 0) path = path.substr(prefix.size());
    out.push_back(std::move(path));
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<std::vector<Value>> Rows(const Side& side) {
  std::vector<Value> rows;
  if (!side.snapshot) return rows;
  ReadBuilder read = side.table.NewReadBuilder();
  read.WithSnapshot(side.snapshot->id).WithOrdered(true);
  SLUICE_ASSIGN_OR_RETURN(TableScan scan, read.NewScan());
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
  SLUICE_ASSIGN_OR_RETURN(TableRead table_read, read.NewRead());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader,
                          table_read.CreateReader(std::move(plan.splits)));
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) break;
    for (int64_t i = 0; i < batch.num_rows(); ++i) rows.push_back(batch.GetRow(i));
  }
  return rows;
}

// The key of a row: its primary-key fields (all fields for an append table).
std::string KeyOf(const Value& row, const std::vector<int>& key_fields) {
  std::string key;
  for (int i : key_fields) key += row.list()[i].DebugString() + '\x1f';
  return key;
}

Result<std::vector<int>> KeyFields(const Table& table) {
  const DataTypePtr& type = table.row_type();
  std::vector<int> out;
  if (table.primary_keys().empty()) {
    for (int i = 0; i < type->num_fields(); ++i) out.push_back(i);
    return out;
  }
  for (const std::string& key : table.primary_keys()) {
    const auto& fields = type->fields();
    auto it = std::find_if(fields.begin(), fields.end(),
                           [&](const DataField& f) { return f.name == key; });
    if (it == fields.end()) {
      return Status::Internal("primary key " + key + " is not a column of " + table.name());
    }
    out.push_back(static_cast<int>(it - fields.begin()));
  }
  return out;
}

}  // namespace

Result<TableDiff> DiffTable(const Table& table, std::string_view from, std::string_view to) {
  SLUICE_ASSIGN_OR_RETURN(Side a, Resolve(table, from));
  SLUICE_ASSIGN_OR_RETURN(Side b, Resolve(table, to));
  TableDiff diff;
  diff.from = a.description;
  diff.to = b.description;
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> files_a, Files(a));
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> files_b, Files(b));
  std::set_difference(files_b.begin(), files_b.end(), files_a.begin(), files_a.end(),
                      std::back_inserter(diff.files_added));
  std::set_difference(files_a.begin(), files_a.end(), files_b.begin(), files_b.end(),
                      std::back_inserter(diff.files_removed));

  SLUICE_ASSIGN_OR_RETURN(std::vector<Value> rows_a, Rows(a));
  SLUICE_ASSIGN_OR_RETURN(std::vector<Value> rows_b, Rows(b));
  SLUICE_ASSIGN_OR_RETURN(std::vector<int> key_a, KeyFields(a.table));
  SLUICE_ASSIGN_OR_RETURN(std::vector<int> key_b, KeyFields(b.table));
  // Rows of `from` by key; a multiset for append tables (equal rows share a key).
  std::multimap<std::string, Value> before;
  for (Value& row : rows_a) {
    std::string key = KeyOf(row, key_a);
    before.emplace(std::move(key), std::move(row));
  }
  for (Value& row : rows_b) {
    auto it = before.find(KeyOf(row, key_b));
    if (it == before.end()) {
      diff.rows_added.push_back(std::move(row));
      continue;
    }
    if (!(it->second == row)) diff.rows_changed.emplace_back(it->second, std::move(row));
    before.erase(it);
  }
  for (auto& [key, row] : before) diff.rows_removed.push_back(std::move(row));
  return diff;
}

}  // namespace sluice
