#include "sluice/cdc/mysql_sync_action.h"

#include "sluice/cdc/action_arguments.h"
#include "sluice/cdc/mysql/mysql_source.h"
#include "sluice/cdc/sync_action_options.h"

namespace sluice {

namespace {

constexpr std::string_view kSyncTable = "mysql_sync_table";
constexpr std::string_view kSyncDatabase = "mysql_sync_database";

}  // namespace

bool IsMySqlSyncAction(std::string_view action) {
  return action == kSyncTable || action == kSyncDatabase;
}

Result<std::unique_ptr<SyncJob>> NewMySqlSyncJob(std::string_view action,
                                                 const std::vector<std::string>& args,
                                                 SyncJob::Log log) {
  if (!IsMySqlSyncAction(action)) {
    return Status::InvalidArgument("'" + std::string(action) + "' is not a MySQL sync action");
  }
  SLUICE_ASSIGN_OR_RETURN(ActionArguments arguments, ActionArguments::Parse(args));
  if (!arguments.Has("mysql_conf")) {
    return Status::InvalidArgument("argument --mysql_conf is required");
  }
  SLUICE_ASSIGN_OR_RETURN(auto mysql_conf, arguments.ConfigMap("mysql_conf"));
  SyncActionShape shape;
  shape.sync_table = action == kSyncTable;
  shape.own_keys = {"mysql_conf"};
  if (!shape.sync_table) {
    for (std::string_view key : {"mode", "ignore_incompatible", "merge_shards"}) {
      shape.own_keys.push_back(key);
    }
  }
  shape.metadata_columns = {"database_name", "table_name", "op_ts"};
  shape.source_identity = ConfValue(mysql_conf, "hostname") + ":" + ConfValue(mysql_conf, "port") +
                          "/" + ConfValue(mysql_conf, "database-name");
  SLUICE_ASSIGN_OR_RETURN(SyncJobOptions options, ReadSyncJobOptions(action, arguments, shape));
  if (!shape.sync_table) {
    SLUICE_ASSIGN_OR_RETURN(std::optional<std::string> mode, arguments.Get("mode"));
    if (mode && *mode != "divided" && *mode != "combined") {
      return Status::InvalidArgument("--mode " + *mode + ": expected divided or combined");
    }
    SLUICE_ASSIGN_OR_RETURN(std::optional<bool> merge_shards,
                            ReadJavaBoolean(arguments, "merge_shards"));
    if (merge_shards == false) {
      return Status::NotSupported(
          "--merge_shards false is not supported: tables of one name in several databases "
          "go into one table");
    }
    SLUICE_ASSIGN_OR_RETURN(std::optional<bool> ignore_incompatible,
                            ReadJavaBoolean(arguments, "ignore_incompatible"));
    if (ignore_incompatible == true) {
      return Status::NotSupported("--ignore_incompatible true is not supported");
    }
  }
  SLUICE_ASSIGN_OR_RETURN(
      MySqlSourceOptions source_options,
      MySqlSourceOptions::Parse(mysql_conf, shape.sync_table, options.commit_user));
  if (log) {
    for (const std::string& warning : source_options.warnings) log(warning);
  }
  // The snapshot-only mode is a bounded job: it ends once the copy is committed.
  if (source_options.startup_mode == MySqlStartupMode::kSnapshot) options.stop_at_end = true;
  const bool require_primary_keys = !shape.sync_table && options.primary_keys.empty();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<MySqlSource> source,
                          MySqlSource::Make(std::move(source_options), options.type_mapping,
                                            require_primary_keys, log));
  return SyncJob::Open(std::move(options), std::move(source), nullptr, std::move(log));
}

}  // namespace sluice
