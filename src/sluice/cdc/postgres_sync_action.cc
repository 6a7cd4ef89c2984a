#include "sluice/cdc/postgres_sync_action.h"

#include "sluice/cdc/action_arguments.h"
#include "sluice/cdc/postgres/postgres_source.h"
#include "sluice/cdc/sync_action_options.h"

namespace sluice {

namespace {

constexpr std::string_view kSyncTable = "postgres_sync_table";
constexpr std::string_view kSyncDatabase = "postgres_sync_database";

}  // namespace

bool IsPostgresSyncAction(std::string_view action) {
  return action == kSyncTable || action == kSyncDatabase;
}

Result<std::unique_ptr<SyncJob>> NewPostgresSyncJob(std::string_view action,
                                                    const std::vector<std::string>& args,
                                                    SyncJob::Log log) {
  if (!IsPostgresSyncAction(action)) {
    return Status::InvalidArgument("'" + std::string(action) + "' is not a Postgres sync action");
  }
  SLUICE_ASSIGN_OR_RETURN(ActionArguments arguments, ActionArguments::Parse(args));
  if (!arguments.Has("postgres_conf")) {
    return Status::InvalidArgument("argument --postgres_conf is required");
  }
  SLUICE_ASSIGN_OR_RETURN(auto postgres_conf, arguments.ConfigMap("postgres_conf"));
  SyncActionShape shape;
  shape.sync_table = action == kSyncTable;
  shape.own_keys = {"postgres_conf"};
  shape.metadata_columns = {"database_name", "table_name", "op_ts"};
  shape.source_identity =
      ConfValue(postgres_conf, "hostname") + ":" + ConfValue(postgres_conf, "port") + "/" +
      ConfValue(postgres_conf, "database-name") + "/" + ConfValue(postgres_conf, "slot.name");
  SLUICE_ASSIGN_OR_RETURN(SyncJobOptions options, ReadSyncJobOptions(action, arguments, shape));
  SLUICE_ASSIGN_OR_RETURN(PostgresSourceOptions source_options,
                          PostgresSourceOptions::Parse(postgres_conf, shape.sync_table));
  if (log) {
    for (const std::string& warning : source_options.warnings) log(warning);
  }
  const bool require_primary_keys = !shape.sync_table && options.primary_keys.empty();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<PostgresSource> source,
                          PostgresSource::Make(std::move(source_options), options.type_mapping,
                                               shape.sync_table, require_primary_keys, log));
  return SyncJob::Open(std::move(options), std::move(source), nullptr, std::move(log));
}

}  // namespace sluice
