// The Kafka sync actions, with Java's names and arguments (Java KafkaSyncTableActionFactory /
// KafkaSyncDatabaseActionFactory):
//
//   kafka_sync_table     --warehouse W --database D --table T [--partition_keys a,b]
//                        [--primary_keys a,b] [--type_mapping to-string,...]
//                        [--computed_column 'c=year(ts)' ...] [--metadata_column topic,offset]
//                        [--metadata_column_prefix P] --kafka_conf K=V ... [--catalog_conf K=V ...]
//                        [--table_conf K=V ...]
//   kafka_sync_database  --warehouse W --database D [--table_prefix P] [--table_suffix S]
//                        [--table_prefix_db DB=P ...] [--table_suffix_db DB=S ...]
//                        [--table_mapping SOURCE=TARGET ...] [--including_tables REGEX]
//                        [--excluding_tables REGEX] [--including_dbs REGEX] [--excluding_dbs REGEX]
//                        [--partition_keys ...] [--multiple_table_partition_keys T=a,b ...]
//                        [--primary_keys ...] [--type_mapping ...] [--metadata_column ...]
//                        --kafka_conf ... [--catalog_conf ...] [--table_conf ...]
//   both                 [--sync_primary_keys_from_source_schema false]: tables without
//                        --primary_keys get no keys from the records
//
// `--warehouse` may also come as `--catalog_conf warehouse=W`, as in Java. `value.format` of
// `--kafka_conf` picks the parser (record_parser.h). Beyond Java: `--commit_interval` (a
// duration, default 1s; Java commits at Flink checkpoints), `--max_buffered_bytes`,
// `--dead_letter_table db.t`, `--stop_at_end true` (commit and exit once every partition is
// read to its end), and `--commit_user` (default: derived from the action, the
// database, the table and the topics, so a restarted job finds its own commits).
//
// Java arguments that have no meaning without Flink (`--parallelism` style Flink settings are
// not action arguments; `--eager_init`...) are accepted where they
// change nothing here and refused where they would change the result and are not implemented.
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

// Whether `action` is one of the actions below.
bool IsKafkaSyncAction(std::string_view action);

// The job `action` with `args` describes, ready to Run. InvalidArgument naming a missing or bad
// argument (secret values masked).
Result<std::unique_ptr<SyncJob>> NewKafkaSyncJob(std::string_view action,
                                                 const std::vector<std::string>& args,
                                                 SyncJob::Log log);

}  // namespace sluice
