#include "sluice/action.h"

#include "sluice/api/metrics_access.h"
#include "sluice/cdc/kafka_sync_action.h"
#include "sluice/cdc/mysql_sync_action.h"
#include "sluice/cdc/postgres_sync_action.h"

namespace sluice {

std::vector<std::string> ActionNames() {
  return {"kafka_sync_database", "kafka_sync_table",       "mysql_sync_database",
          "mysql_sync_table",    "postgres_sync_database", "postgres_sync_table"};
}

Status RunAction(std::string_view name, const std::vector<std::string>& args,
                 const std::atomic<bool>& stop, const ActionHooks& hooks) {
  // Java's action names are also accepted with dashes ("kafka-sync-table"), as Java does.
  std::string action(name);
  for (char& c : action) {
    if (c == '-') c = '_';
  }
  if (!IsKafkaSyncAction(action) && !IsMySqlSyncAction(action) && !IsPostgresSyncAction(action)) {
    std::string names;
    for (const std::string& n : ActionNames()) names += (names.empty() ? "" : ", ") + n;
    return Status::InvalidArgument("unknown action '" + std::string(name) + "' (actions: " + names +
                                   ")");
  }
  Result<std::unique_ptr<SyncJob>> made =
      IsKafkaSyncAction(action)   ? NewKafkaSyncJob(action, args, hooks.log)
      : IsMySqlSyncAction(action) ? NewMySqlSyncJob(action, args, hooks.log)
                                  : NewPostgresSyncJob(action, args, hooks.log);
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SyncJob> job, std::move(made));
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
