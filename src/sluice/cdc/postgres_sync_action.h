// The PostgreSQL sync actions: Java's postgres_sync_table with its arguments (Java
// PostgresSyncTableActionFactory), and postgres_sync_database, which Java has not (beyond),
// reading the server's logical replication natively (postgres/postgres_source.h):
//
//   postgres_sync_table     the shared sync-table arguments (sync_action_options.h)
//                           --postgres_conf hostname=.. port=.. username=.. password=..
//                           database-name=.. schema-name=REGEX table-name=REGEX slot.name=..
//                           decoding.plugin.name=pgoutput [scan.startup.mode=initial|
//                           latest-offset] ...
//   postgres_sync_database  the shared sync-database arguments and --postgres_conf (without
//                           table-name); tables without a primary key are left out
//
// Metadata columns: database_name, table_name, op_ts.
//
// Thread safety: stateless functions.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/cdc/sync_job.h"
#include "sluice/result.h"

namespace sluice {

bool IsPostgresSyncAction(std::string_view action);

// The job `action` with `args` describes, ready to Run. InvalidArgument naming a missing or bad
// argument (secret values masked).
Result<std::unique_ptr<SyncJob>> NewPostgresSyncJob(std::string_view action,
                                                    const std::vector<std::string>& args,
                                                    SyncJob::Log log);

}  // namespace sluice
