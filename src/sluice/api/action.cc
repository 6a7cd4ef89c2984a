#include "sluice/action.h"

#include <algorithm>

#include "sluice/api/metrics_access.h"
#include "sluice/api/table_actions.h"
#include "sluice/cdc/kafka_sync_action.h"
#include "sluice/cdc/mysql_sync_action.h"
#include "sluice/cdc/postgres_sync_action.h"

namespace sluice {

namespace {

bool IsSyncAction(std::string_view action) {
  return IsKafkaSyncAction(action) || IsMySqlSyncAction(action) || IsPostgresSyncAction(action);
}

// Java's action names are also accepted with dashes ("kafka-sync-table"), as Java does.
std::string Normalized(std::string_view name) {
  std::string action(name);
  for (char& c : action) {
    if (c == '-') c = '_';
  }
  return action;
}

ActionInfo SyncActionInfo(const std::string& name) {
  const bool table = name.size() > 6 && name.compare(name.size() - 6, 6, "_table") == 0;
  const std::string source = name.substr(0, name.find('_'));
  ActionInfo info;
  info.name = name;
  info.continuous = true;
  info.default_mode = ActionMode::kStreaming;
  info.usage = "Action \"" + name + "\" synchronizes " +
               (table ? "one table" : "a whole database") + " from " + source +
               " into Paimon, until stopped.\n\nSyntax:\n  " + name +
               " --warehouse <warehouse_path> [--catalog_conf <key>=<value> ...] --database "
               "<database_name> \\\n  " +
               (table ? "--table <table_name>"
                      : "[--table_prefix <p>] [--table_suffix <s>] [--table_prefix_db <db>=<p> "
                        "...] [--table_suffix_db <db>=<s> ...] \\\n  [--table_mapping "
                        "<source>=<target> ...] [--including_tables <regex>] [--excluding_tables "
                        "<regex>] \\\n  [--including_dbs <regex>] [--excluding_dbs <regex>] "
                        "[--multiple_table_partition_keys <table>=a,b ...]") +
               " \\\n  --" + source +
               "_conf <key>=<value> ... [--partition_keys a,b] [--primary_keys a,b] "
               "[--type_mapping ...] \\\n  [--computed_column ...] [--metadata_column ...] "
               "[--table_conf <key>=<value> ...] \\\n  "
               "[--sync_primary_keys_from_source_schema true|false]\n"
               "Sluice: [--commit_interval 1s] [--max_buffered_bytes 256mb] [--dead_letter_table "
               "db.t] [--stop_at_end true] [--commit_user U]\n";
  return info;
}

std::string KnownNames() {
  std::string names;
  for (const std::string& n : ActionNames()) names += (names.empty() ? "" : ", ") + n;
  return names;
}

// The mode `requested` resolves to for `info`; InvalidArgument when the action cannot run so.
Result<ActionMode> ResolveMode(const ActionInfo& info, ActionMode requested) {
  const ActionMode mode = requested == ActionMode::kDefault ? info.default_mode : requested;
  if (mode == ActionMode::kStreaming && !info.continuous) {
    return Status::InvalidArgument(info.name +
                                   " runs once and returns; it cannot run in streaming "
                                   "mode (continuously): schedule it instead");
  }
  if (mode == ActionMode::kBatch && !info.once) {
    return Status::InvalidArgument(info.name +
                                   " runs continuously until stopped; it cannot run in "
                                   "batch mode (once)");
  }
  return mode;
}

// A table action's status, naming the action once.
Status Named(const std::string& action, Status status) {
  if (!status.ok() && status.message().rfind(action, 0) != 0) return status.WithContext(action);
  return status;
}

Result<std::unique_ptr<SyncJob>> MakeSyncJob(const std::string& action,
                                             const std::vector<std::string>& args,
                                             SyncJob::Log log) {
  return IsKafkaSyncAction(action)   ? NewKafkaSyncJob(action, args, std::move(log))
         : IsMySqlSyncAction(action) ? NewMySqlSyncJob(action, args, std::move(log))
                                     : NewPostgresSyncJob(action, args, std::move(log));
}

}  // namespace

std::vector<std::string> ActionNames() {
  std::vector<std::string> names = {"kafka_sync_database",    "kafka_sync_table",
                                    "mysql_sync_database",    "mysql_sync_table",
                                    "postgres_sync_database", "postgres_sync_table"};
  for (std::string& name : TableActionNames()) names.push_back(std::move(name));
  std::sort(names.begin(), names.end());
  return names;
}

Result<ActionInfo> DescribeAction(std::string_view name) {
  const std::string action = Normalized(name);
  if (IsSyncAction(action)) return SyncActionInfo(action);
  if (const ActionInfo* info = FindTableAction(action)) return *info;
  return Status::InvalidArgument("unknown action '" + std::string(name) +
                                 "' (actions: " + KnownNames() + ")");
}

Status CheckAction(std::string_view name, const std::vector<std::string>& args, ActionMode mode) {
  const std::string action = Normalized(name);
  SLUICE_ASSIGN_OR_RETURN(ActionInfo info, DescribeAction(action));
  SLUICE_ASSIGN_OR_RETURN(ActionMode resolved, ResolveMode(info, mode));
  if (IsSyncAction(action)) return MakeSyncJob(action, args, nullptr).status();
  Result<ActionArguments> parsed = ActionArguments::Parse(args);
  return Named(action, parsed.ok() ? CheckTableActionArguments(action, *parsed,
                                                               resolved == ActionMode::kStreaming)
                                   : parsed.status());
}

Status RunAction(std::string_view name, const std::vector<std::string>& args,
                 const std::atomic<bool>& stop, const ActionHooks& hooks) {
  const std::string action = Normalized(name);
  SLUICE_ASSIGN_OR_RETURN(ActionInfo info, DescribeAction(action));
  if (std::find(args.begin(), args.end(), "--help") != args.end() ||
      std::find(args.begin(), args.end(), "-help") != args.end()) {
    if (hooks.log) hooks.log(info.usage);
    return Status::OK();
  }
  SLUICE_ASSIGN_OR_RETURN(ActionMode mode, ResolveMode(info, hooks.mode));
  if (!IsSyncAction(action)) {
    Result<ActionArguments> parsed = ActionArguments::Parse(args);
    return Named(action, parsed.ok() ? RunTableAction(action, *parsed,
                                                      mode == ActionMode::kStreaming, stop, hooks)
                                     : parsed.status());
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SyncJob> job, MakeSyncJob(action, args, hooks.log));
  std::function<void(const SyncJobProgress&)> progress;
  if (hooks.progress) {
    progress = [&hooks](const SyncJobProgress& p) {
      ActionProgress out;
      out.messages = p.messages;
      out.records = p.records;
      out.commits = p.commits;
      out.schema_changes = p.schema_changes;
      out.tables = p.tables;
      out.dead_letters = p.dead_letters;
      for (const SplitLag& lag : p.lag) {
        out.lag.push_back({lag.split, lag.next_offset, lag.end_offset});
      }
      hooks.progress(out);
    };
  }
  job->WithMetricRegistry(MetricsAccess::ImplOf(hooks.metrics));
  return job->Run(stop, progress);
}

}  // namespace sluice
