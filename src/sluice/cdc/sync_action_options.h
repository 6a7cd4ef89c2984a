// The arguments every sync action of Java Paimon shares (Java SyncTableActionFactoryBase /
// SyncDatabaseActionFactoryBase), read into SyncJobOptions; each source's action
// (kafka_sync_action.h, mysql_sync_action.h) adds its own `--<source>_conf`:
//
//   --warehouse W (or --catalog_conf warehouse=W) --database D [--catalog_conf K=V ...]
//   sync-table:     --table T
//   sync-database:  [--table_prefix P] [--table_suffix S] [--table_prefix_db DB=P ...]
//                   [--table_suffix_db DB=S ...] [--table_mapping SOURCE=TARGET ...]
//                   [--including_tables REGEX] [--excluding_tables REGEX]
//                   [--including_dbs REGEX] [--excluding_dbs REGEX]
//                   [--multiple_table_partition_keys T=a,b ...]
//   both:           [--partition_keys a,b] [--primary_keys a,b] [--type_mapping m1,m2]
//                   [--computed_column 'c=year(ts)' ...] [--metadata_column a,b]
//                   [--metadata_column_prefix P] [--table_conf K=V ...]
//                   [--sync_primary_keys_from_source_schema true|false]
//   beyond Java:    [--commit_interval 1s] [--max_buffered_bytes 256mb]
//                   [--dead_letter_table db.t] [--stop_at_end true] [--commit_user U]
//
// Thread safety: stateless functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/cdc/action_arguments.h"
#include "sluice/cdc/sync_job_options.h"
#include "sluice/result.h"

namespace sluice {

// What distinguishes one action's command line from the shared one.
struct SyncActionShape {
  // `*_sync_table` (one target table, `--table`) or `*_sync_database`.
  bool sync_table = false;
  // The action's own keys beyond the shared ones (`kafka_conf`, `mysql_conf`, `mode`, ...).
  std::vector<std::string_view> own_keys;
  // The metadata columns the source has (Java CdcMetadataProcessor: Kafka's topic, partition,
  // ...; a database's database_name, table_name, op_ts).
  std::vector<std::string_view> metadata_columns;
  // What names the source in the default commit user (the topics, the server and
  // database), so that a restarted job finds its own commits.
  std::string source_identity;
};

// The shared arguments of `action`. InvalidArgument naming an argument the action does not take
// (every unknown one at once), a missing required one or a bad value (secrets masked).
Result<SyncJobOptions> ReadSyncJobOptions(std::string_view action, const ActionArguments& args,
                                          const SyncActionShape& shape);

// `a, b,c` as {"a", "b", "c"} (blanks around items dropped, empty items skipped).
std::vector<std::string> SplitList(const std::string& text);

// The last value of `key` in a `--<x>_conf` list, or empty.
std::string ConfValue(const std::vector<std::pair<std::string, std::string>>& conf,
                      std::string_view key);

}  // namespace sluice
