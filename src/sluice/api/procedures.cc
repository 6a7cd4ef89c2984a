#include "sluice/procedures.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>

#include "sluice/api/api_access.h"
#include "sluice/branches.h"
#include "sluice/catalog/catalog_backend.h"
#include "sluice/meta/consumer_manager.h"
#include "sluice/meta/option_value.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table_commit.h"
#include "sluice/table_maintenance.h"
#include "sluice/table_write.h"
#include "sluice/tags.h"
#include "sluice/write_builder.h"

namespace sluice {

namespace {

// The arguments of one call, checked against the procedure's argument list.
class Args {
 public:
  Args(std::string procedure, std::map<std::string, std::string> values, MetricRegistry* metrics)
      : procedure_(std::move(procedure)), values_(std::move(values)), metrics_(metrics) {}

  // Where the procedure reports its metrics; null for none.
  MetricRegistry* metrics() const { return metrics_; }

  std::optional<std::string> Get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }
  Result<std::string> Required(const std::string& name) const {
    std::optional<std::string> v = Get(name);
    if (!v) {
      return Status::InvalidArgument("procedure " + procedure_ + ": argument '" + name +
                                     "' is required");
    }
    return *v;
  }
  Result<std::optional<int64_t>> Long(const std::string& name) const {
    std::optional<std::string> v = Get(name);
    if (!v) return std::optional<int64_t>();
    int64_t out = 0;
    const auto [end, error] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (error != std::errc() || end != v->data() + v->size()) {
      return Status::InvalidArgument("procedure " + procedure_ + ": argument '" + name +
                                     "' expects an integer, got '" + *v + "'");
    }
    return std::optional<int64_t>(out);
  }
  Result<std::optional<int32_t>> Int(const std::string& name) const {
    SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> v, Long(name));
    if (v && (*v < INT32_MIN || *v > INT32_MAX)) {
      return Status::InvalidArgument("procedure " + procedure_ + ": argument '" + name +
                                     "' is out of the INT range: " + std::to_string(*v));
    }
    if (!v) return std::optional<int32_t>();
    return std::optional<int32_t>(static_cast<int32_t>(*v));
  }
  Result<bool> Bool(const std::string& name, bool fallback) const {
    std::optional<std::string> v = Get(name);
    if (!v) return fallback;
    return ParseBooleanOption(procedure_ + " argument " + name, *v);
  }
  // A Java duration ("1 d", "12 h") in millis.
  Result<std::optional<int64_t>> Duration(const std::string& name) const {
    std::optional<std::string> v = Get(name);
    if (!v) return std::optional<int64_t>();
    SLUICE_ASSIGN_OR_RETURN(std::chrono::milliseconds ms,
                            ParseDurationOption(procedure_ + " argument " + name, *v));
    return std::optional<int64_t>(ms.count());
  }
  // Epoch millis or 'yyyy-MM-dd HH:mm:ss[.SSS]' (UTC).
  Result<std::optional<int64_t>> Time(const std::string& name) const {
    std::optional<std::string> v = Get(name);
    if (!v) return std::optional<int64_t>();
    Result<TableVersion> version = TableVersion::AsOf(*v);
    if (!version.ok()) {
      return version.status().WithContext("procedure " + procedure_ + " argument " + name);
    }
    return std::optional<int64_t>(version->time_millis);
  }
  // A comma-separated list.
  Result<std::vector<std::string>> List(const std::string& name) const {
    SLUICE_ASSIGN_OR_RETURN(std::string v, Required(name));
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= v.size()) {
      const size_t comma = std::min(v.find(',', start), v.size());
      std::string item = v.substr(start, comma - start);
      if (!item.empty()) out.push_back(std::move(item));
      start = comma + 1;
    }
    return out;
  }

 private:
  std::string procedure_;
  std::map<std::string, std::string> values_;
  MetricRegistry* metrics_;
};

using Lines = std::vector<std::string>;
using Handler = std::function<Result<Lines>(const Catalog&, const Args&)>;

struct Procedure {
  std::vector<std::string> arguments;  // `table` first
  Handler run;
};

std::string Quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

Result<Table> TableArg(const Catalog& catalog, const Args& args) {
  SLUICE_ASSIGN_OR_RETURN(std::string id, args.Required("table"));
  return catalog.GetTable(id);
}

Result<Lines> CreateOrReplaceTag(const Catalog& catalog, const Args& args, bool replace) {
  SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(catalog, args));
  SLUICE_ASSIGN_OR_RETURN(std::string tag, args.Required("tag"));
  CreateTagOptions options;
  SLUICE_ASSIGN_OR_RETURN(options.snapshot_id, args.Long("snapshot_id"));
  SLUICE_ASSIGN_OR_RETURN(options.time_retained_millis, args.Duration("time_retained"));
  SLUICE_ASSIGN_OR_RETURN(
      int64_t id, replace ? ReplaceTag(table, tag, options) : CreateTag(table, tag, options));
  return Lines{std::string(replace ? "Replaced" : "Created") + " tag " + Quoted(tag) +
               " of snapshot " + std::to_string(id) + " in " + table.name()};
}

// `k1=v1,k2=v2`.
std::string SpecText(const PartitionSpec& spec) {
  std::string out;
  for (const auto& [key, value] : spec) out += (out.empty() ? "" : ",") + key + "=" + value;
  return out;
}

// Java's partitions argument: specs separated by ';', each `k=v[,k2=v2]`.
Result<std::vector<PartitionSpec>> ParsePartitionSpecs(const std::string& text) {
  std::vector<PartitionSpec> specs;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t semi = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, semi - start);
    start = semi + 1;
    if (item.empty()) continue;
    PartitionSpec spec;
    size_t p = 0;
    while (p <= item.size()) {
      const size_t comma = std::min(item.find(',', p), item.size());
      const std::string kv = item.substr(p, comma - p);
      p = comma + 1;
      const size_t eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::InvalidArgument("partition " + Quoted(kv) + " of '" + text +
                                       "' is not key=value");
      }
      spec.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

Result<Lines> CompactTable(const Catalog& catalog, const Args& args) {
  SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(catalog, args));
  const std::string strategy = args.Get("compact_strategy").value_or("full");
  if (strategy != "full" && strategy != "minor") {
    return Status::InvalidArgument(
        "procedure compact: compact_strategy must be 'full' or 'minor', got " + Quoted(strategy));
  }
  std::vector<PartitionSpec> specs;
  if (std::optional<std::string> partitions = args.Get("partitions")) {
    SLUICE_ASSIGN_OR_RETURN(specs, ParsePartitionSpecs(*partitions));
  }
  if (specs.empty()) specs.emplace_back();
  WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> writer, builder.NewWrite());
  Status status;
  for (const PartitionSpec& spec : specs) {
    status = writer->Compact(spec, strategy == "full");
    if (!status.ok()) break;
  }
  Result<std::vector<CommitMessage>> messages =
      status.ok() ? writer->PrepareCommit() : Result<std::vector<CommitMessage>>(status);
  if (!messages.ok()) {
    writer->Close().IgnoreError();  // the first error is the one to report
    return messages.status();
  }
  int64_t before = 0;
  int64_t after = 0;
  for (const CommitMessage& m : *messages) {
    before += m.compact_before_count();
    after += m.compact_after_count();
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
  Result<CommitResult> result = commit->Commit(std::move(*messages));
  SLUICE_RETURN_NOT_OK(writer->Close());
  SLUICE_RETURN_NOT_OK(result.status());
  return Lines{"Compacted " + std::to_string(before) + " files of " + table.name() + " into " +
               std::to_string(after) +
               (result->snapshot_ids.empty()
                    ? std::string(" (nothing to commit)")
                    : " (snapshot " + std::to_string(result->snapshot_ids.back()) + ")")};
}

const std::map<std::string, Procedure>& Registry() {
  static const std::map<std::string, Procedure> registry = {
      {"create_tag",
       {{"table", "tag", "snapshot_id", "time_retained"},
        [](const Catalog& c, const Args& a) { return CreateOrReplaceTag(c, a, false); }}},
      {"replace_tag",
       {{"table", "tag", "snapshot_id", "time_retained"},
        [](const Catalog& c, const Args& a) { return CreateOrReplaceTag(c, a, true); }}},
      {"create_tag_from_timestamp",
       {{"table", "tag", "timestamp", "time_retained"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string tag, a.Required("tag"));
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> ts, a.Time("timestamp"));
          if (!ts) return a.Required("timestamp").status();
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> retained, a.Duration("time_retained"));
          SLUICE_ASSIGN_OR_RETURN(int64_t id, CreateTagFromTimestamp(table, tag, *ts, retained));
          return Lines{"Created tag " + Quoted(tag) + " of snapshot " + std::to_string(id) +
                       " in " + table.name()};
        }}},
      {"delete_tag",
       {{"table", "tag"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> tags, a.List("tag"));
          SLUICE_RETURN_NOT_OK(DeleteTags(table, tags));
          Lines out;
          for (const auto& t : tags)
            out.push_back("Deleted tag " + Quoted(t) + " of " + table.name());
          return out;
        }}},
      {"rename_tag",
       {{"table", "tagName", "targetTagName"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string from, a.Required("tagName"));
          SLUICE_ASSIGN_OR_RETURN(std::string to, a.Required("targetTagName"));
          SLUICE_RETURN_NOT_OK(RenameTag(table, from, to));
          return Lines{"Rename [" + from + "] to [" + to + "] successfully."};
        }}},
      {"expire_tags",
       {{"table", "older_than"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> older_than, a.Time("older_than"));
          SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> expired, ExpireTags(table, older_than));
          if (expired.empty()) return Lines{"No expired tags."};
          return expired;
        }}},
      {"create_branch",
       {{"table", "branch", "tag", "snapshot_id", "ignoreIfExists"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string branch, a.Required("branch"));
          CreateBranchOptions options;
          options.tag = a.Get("tag");
          if (options.tag && options.tag->empty()) options.tag.reset();
          SLUICE_ASSIGN_OR_RETURN(options.snapshot_id, a.Long("snapshot_id"));
          SLUICE_ASSIGN_OR_RETURN(options.ignore_if_exists, a.Bool("ignoreIfExists", false));
          SLUICE_RETURN_NOT_OK(CreateBranch(table, branch, options));
          std::string from = options.tag ? " from tag " + Quoted(*options.tag)
                             : options.snapshot_id
                                 ? " from snapshot " + std::to_string(*options.snapshot_id)
                                 : std::string(" (empty)");
          return Lines{"Created branch " + Quoted(branch) + " of " + table.name() + from};
        }}},
      {"delete_branch",
       {{"table", "branch"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> branches, a.List("branch"));
          SLUICE_RETURN_NOT_OK(DeleteBranches(table, branches));
          Lines out;
          for (const auto& b : branches) {
            out.push_back("Deleted branch " + Quoted(b) + " of " + table.name());
          }
          return out;
        }}},
      {"rename_branch",
       {{"table", "from_branch", "to_branch"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string from, a.Required("from_branch"));
          SLUICE_ASSIGN_OR_RETURN(std::string to, a.Required("to_branch"));
          SLUICE_RETURN_NOT_OK(RenameBranch(table, from, to));
          return Lines{"Renamed branch " + Quoted(from) + " to " + Quoted(to) + " of " +
                       table.name()};
        }}},
      {"fast_forward",
       {{"table", "branch"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string branch, a.Required("branch"));
          SLUICE_RETURN_NOT_OK(FastForward(table, branch));
          return Lines{"Fast-forwarded branch " + Quoted(table.branch()) + " of " + table.name() +
                       " to branch " + Quoted(branch)};
        }}},
      {"merge_branch",
       {{"table", "branch"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string branch, a.Required("branch"));
          SLUICE_ASSIGN_OR_RETURN(MergeBranchResult merged, MergeBranch(table, branch));
          const std::string into = "branch " + Quoted(branch) + " into " + Quoted(table.branch()) +
                                   " of " + table.name();
          if (!merged.snapshot_id) return Lines{"Nothing to merge from " + into};
          Lines out{"Merged " + into + " as snapshot " + std::to_string(*merged.snapshot_id) +
                    " (branch snapshot " + std::to_string(merged.branch_snapshot_id) + ", base " +
                    (merged.base_snapshot_id
                         ? "snapshot " + std::to_string(*merged.base_snapshot_id)
                         : std::string("empty")) +
                    ")"};
          out.push_back("files added: " + std::to_string(merged.files_added) +
                        ", files removed: " + std::to_string(merged.files_removed) +
                        ", index files added: " + std::to_string(merged.index_files_added) +
                        ", index files removed: " + std::to_string(merged.index_files_removed));
          for (int64_t id : merged.schemas_copied) {
            out.push_back("schema " + std::to_string(id) + " copied from the branch");
          }
          return out;
        }}},
      {"compact", {{"table", "partitions", "compact_strategy"}, CompactTable}},
      {"expire_snapshots",
       {{"table", "retain_max", "retain_min", "older_than", "max_deletes"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          ExpireSnapshotsOptions options;
          SLUICE_ASSIGN_OR_RETURN(options.retain_max, a.Int("retain_max"));
          SLUICE_ASSIGN_OR_RETURN(options.retain_min, a.Int("retain_min"));
          SLUICE_ASSIGN_OR_RETURN(options.older_than_millis, a.Time("older_than"));
          SLUICE_ASSIGN_OR_RETURN(options.max_deletes, a.Int("max_deletes"));
          options.metrics = a.metrics();
          SLUICE_ASSIGN_OR_RETURN(ExpireResult expired, ExpireSnapshots(table, options));
          return Lines{"Expired " + std::to_string(expired.expired) + " snapshots of " +
                       table.name() + ", deleted " + std::to_string(expired.files_deleted) +
                       " files"};
        }}},
      {"expire_changelogs",
       {{"table", "retain_max", "retain_min", "older_than", "max_deletes", "delete_all"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          ExpireChangelogsOptions options;
          SLUICE_ASSIGN_OR_RETURN(options.retain_max, a.Int("retain_max"));
          SLUICE_ASSIGN_OR_RETURN(options.retain_min, a.Int("retain_min"));
          SLUICE_ASSIGN_OR_RETURN(options.older_than_millis, a.Time("older_than"));
          SLUICE_ASSIGN_OR_RETURN(options.max_deletes, a.Int("max_deletes"));
          SLUICE_ASSIGN_OR_RETURN(options.delete_all, a.Bool("delete_all", false));
          SLUICE_ASSIGN_OR_RETURN(ExpireResult expired, ExpireChangelogs(table, options));
          return Lines{"Expired " + std::to_string(expired.expired) + " changelogs of " +
                       table.name() + ", deleted " + std::to_string(expired.files_deleted) +
                       " files"};
        }}},
      {"expire_partitions",
       {{"table", "expiration_time", "timestamp_formatter", "timestamp_pattern", "expire_strategy",
         "max_expires"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          ExpirePartitionsOptions options;
          options.expiration_time = a.Get("expiration_time");
          options.timestamp_formatter = a.Get("timestamp_formatter");
          options.timestamp_pattern = a.Get("timestamp_pattern");
          options.expiration_strategy = a.Get("expire_strategy");
          SLUICE_ASSIGN_OR_RETURN(options.max_expires, a.Int("max_expires"));
          SLUICE_ASSIGN_OR_RETURN(std::vector<PartitionSpec> dropped,
                                  ExpirePartitions(table, options));
          Lines out;
          for (const PartitionSpec& spec : dropped) out.push_back(SpecText(spec));
          if (out.empty()) out.push_back("No expired partitions.");
          return out;
        }}},
      {"drop_partition",
       {{"table", "partitions"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string text, a.Required("partitions"));
          SLUICE_ASSIGN_OR_RETURN(std::vector<PartitionSpec> specs, ParsePartitionSpecs(text));
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> id, DropPartitions(table, specs));
          if (!id) return Lines{"No live file in the partitions; nothing dropped."};
          return Lines{"Dropped " + std::to_string(specs.size()) + " partition specs of " +
                       table.name() + " as snapshot " + std::to_string(*id)};
        }}},
      {"rollback_to",
       {{"table", "tag", "snapshot_id"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> id, a.Long("snapshot_id"));
          std::optional<std::string> tag = a.Get("tag");
          if (tag.has_value() == id.has_value()) {
            return Status::InvalidArgument("procedure rollback_to: give tag or snapshot_id");
          }
          if (tag) {
            SLUICE_RETURN_NOT_OK(RollbackToTag(table, *tag));
            return Lines{"Rolled back " + table.name() + " to tag " + Quoted(*tag)};
          }
          SLUICE_RETURN_NOT_OK(RollbackTo(table, *id));
          return Lines{"Rolled back " + table.name() + " to snapshot " + std::to_string(*id)};
        }}},
      {"rollback_to_timestamp",
       {{"table", "timestamp"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> ts, a.Time("timestamp"));
          if (!ts) return a.Required("timestamp").status();
          SLUICE_ASSIGN_OR_RETURN(int64_t id, RollbackToTimestamp(table, *ts));
          return Lines{"Rolled back " + table.name() + " to snapshot " + std::to_string(id)};
        }}},
      {"remove_orphan_files",
       {{"table", "older_than", "dry_run"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          RemoveOrphanFilesOptions options;
          SLUICE_ASSIGN_OR_RETURN(options.older_than_millis, a.Time("older_than"));
          SLUICE_ASSIGN_OR_RETURN(options.dry_run, a.Bool("dry_run", false));
          SLUICE_ASSIGN_OR_RETURN(OrphanFilesResult orphans, RemoveOrphanFiles(table, options));
          Lines out = orphans.files;
          const std::string verb = options.dry_run ? "Found " : "Removed ";
          out.push_back(verb + std::to_string(orphans.files.size()) + " orphan files (" +
                        std::to_string(orphans.bytes) + " bytes)");
          // The warehouse's orphans: the folders of drops a crash cut short.
          SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> dropped,
                                  ApiAccess::BackendOf(c)->PurgeDropped(options.dry_run));
          if (!dropped.empty()) {
            out.insert(out.end(), dropped.begin(), dropped.end());
            out.push_back(verb + std::to_string(dropped.size()) +
                          " folders of dropped tables and databases");
          }
          return out;
        }}},
      {"reset_consumer",
       {{"table", "consumer_id", "next_snapshot_id"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          SLUICE_ASSIGN_OR_RETURN(std::string id, a.Required("consumer_id"));
          SLUICE_ASSIGN_OR_RETURN(std::optional<int64_t> next, a.Long("next_snapshot_id"));
          const FileStoreTable& t = *ApiAccess::FileStoreTableOf(table);
          ConsumerManager consumers(t.io(), t.path(), t.branch());
          if (!next) {
            SLUICE_RETURN_NOT_OK(consumers.DeleteConsumer(id));
            return Lines{"Deleted consumer " + Quoted(id) + " of " + table.name()};
          }
          SLUICE_RETURN_NOT_OK(consumers.ResetConsumer(id, Consumer{*next}));
          return Lines{"Reset consumer " + Quoted(id) + " of " + table.name() +
                       " to next snapshot " + std::to_string(*next)};
        }}},
      {"clear_consumers",
       {{"table", "including_consumers", "excluding_consumers"},
        [](const Catalog& c, const Args& a) -> Result<Lines> {
          SLUICE_ASSIGN_OR_RETURN(Table table, TableArg(c, a));
          const FileStoreTable& t = *ApiAccess::FileStoreTableOf(table);
          ConsumerManager consumers(t.io(), t.path(), t.branch());
          SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> ids, consumers.ListAllIds());
          std::vector<std::string> including;
          std::vector<std::string> excluding;
          if (a.Get("including_consumers")) {
            SLUICE_ASSIGN_OR_RETURN(including, a.List("including_consumers"));
          }
          if (a.Get("excluding_consumers")) {
            SLUICE_ASSIGN_OR_RETURN(excluding, a.List("excluding_consumers"));
          }
          auto listed = [](const std::vector<std::string>& list, const std::string& id) {
            return std::find(list.begin(), list.end(), id) != list.end();
          };
          Lines out;
          for (const std::string& id : ids) {
            if (!including.empty() && !listed(including, id)) continue;
            if (listed(excluding, id)) continue;
            SLUICE_RETURN_NOT_OK(consumers.DeleteConsumer(id));
            out.push_back("Deleted consumer " + Quoted(id) + " of " + table.name());
          }
          if (out.empty()) out.push_back("No consumers cleared.");
          return out;
        }}},
  };
  return registry;
}

}  // namespace

std::vector<std::string> ProcedureNames() {
  std::vector<std::string> names;
  for (const auto& [name, procedure] : Registry()) names.push_back(name);
  return names;
}

Result<std::vector<std::string>> CallProcedure(
    const Catalog& catalog, std::string_view name,
    const std::vector<std::pair<std::string, std::string>>& args, MetricRegistry* metrics) {
  const auto& registry = Registry();
  auto it = registry.find(std::string(name));
  if (it == registry.end()) {
    std::string known;
    for (const auto& [n, p] : registry) known += (known.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("unknown procedure " + Quoted(name) + " (known: " + known + ")");
  }
  const Procedure& procedure = it->second;
  std::map<std::string, std::string> values;
  for (const auto& [key, value] : args) {
    if (std::find(procedure.arguments.begin(), procedure.arguments.end(), key) ==
        procedure.arguments.end()) {
      std::string known;
      for (const auto& a : procedure.arguments) known += (known.empty() ? "" : ", ") + a;
      return Status::InvalidArgument("procedure " + std::string(name) + " has no argument " +
                                     Quoted(key) + " (its arguments: " + known + ")");
    }
    if (!values.emplace(key, value).second) {
      return Status::InvalidArgument("procedure " + std::string(name) + ": argument " +
                                     Quoted(key) + " given twice");
    }
  }
  return procedure.run(catalog, Args(std::string(name), std::move(values), metrics));
}

}  // namespace sluice
