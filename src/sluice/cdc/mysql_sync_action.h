// The MySQL sync actions, with Java's names and arguments (Java MySqlSyncTableActionFactory /
// MySqlSyncDatabaseActionFactory), reading the server natively (mysql/mysql_source.h):
//
//   mysql_sync_table     the shared sync-table arguments (sync_action_options.h)
//                        --mysql_conf hostname=.. port=.. username=.. password=..
//                        database-name=REGEX table-name=REGEX [server-time-zone=..]
//                        [scan.startup.mode=initial|latest-offset|...] ...
//   mysql_sync_database  the shared sync-database arguments, --mysql_conf (without
//                        table-name), [--mode divided|combined] [--ignore_incompatible B]
//                        [--merge_shards B]
//
// Every source table the patterns select goes into the one table (sync-table) or into the
// table of its name (sync-database; tables of one name in several databases merge, Java's
// merge_shards=true). Sync-database syncs only tables with a primary key, as Java. `--mode`:
// Java's divided mode picks up tables created after the start only at a restart and combined
// mode while running; the native source reads one binlog for all tables and takes a new
// table's rows from its CREATE TABLE on in both modes (a superset of divided's behaviour).
// `--merge_shards false` and `--ignore_incompatible true` are refused: not implemented.
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

bool IsMySqlSyncAction(std::string_view action);

// The job `action` with `args` describes, ready to Run. InvalidArgument naming a missing or bad
// argument (secret values masked).
Result<std::unique_ptr<SyncJob>> NewMySqlSyncJob(std::string_view action,
                                                 const std::vector<std::string>& args,
                                                 SyncJob::Log log);

}  // namespace sluice
