// Procedures: Java Paimon's table procedures (`CALL sys.create_tag(`table` => 'db.t', ...)`) by
// Java's names and argument names, run on a catalog. What `sluice call NAME arg=value ...` runs.
//
//   create_tag(table, tag, snapshot_id?, time_retained?)
//   create_tag_from_timestamp(table, tag, timestamp, time_retained?)
//   delete_tag(table, tag)                     tag: one name or a comma-separated list
//   rename_tag(table, tagName, targetTagName)
//   replace_tag(table, tag, snapshot_id?, time_retained?)
//   expire_tags(table, older_than?)
//   create_branch(table, branch, tag?, snapshot_id?, ignoreIfExists?)
//   delete_branch(table, branch)               branch: one name or a comma-separated list
//   rename_branch(table, from_branch, to_branch)
//   fast_forward(table, branch)
//   merge_branch(table, branch)                Sluice's: merges `branch` into `table`
//   compact(table, partitions?, compact_strategy?)   partitions: 'k=v,k2=v2;k=v3'
//   reset_consumer(table, consumer_id, next_snapshot_id?)   without an id: deletes it
//   clear_consumers(table, including_consumers?, excluding_consumers?)
//   expire_snapshots(table, retain_max?, retain_min?, older_than?, max_deletes?)
//   expire_changelogs(table, retain_max?, retain_min?, older_than?, max_deletes?, delete_all?)
//   expire_partitions(table, expiration_time?, timestamp_formatter?, timestamp_pattern?,
//                     expire_strategy?, max_expires?)
//   drop_partition(table, partitions)          partitions: 'k=v,k2=v2;k=v3'
//   rollback_to(table, tag | snapshot_id)
//   rollback_to_timestamp(table, timestamp)
//   remove_orphan_files(table, older_than?, dry_run?)
// `table` is `db.table`, or `db.table$branch_<b>` for a branch. Durations are Java's
// (`1 d`, `12 h`, `30 min`); times are epoch millis or 'yyyy-MM-dd HH:mm:ss' (UTC).
//
// Thread safety: functions; each procedure is as safe as the operation it runs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/result.h"

namespace sluice {

class MetricRegistry;

// The procedure names, sorted.
std::vector<std::string> ProcedureNames();

// Runs procedure `name` with `args` (argument name, value) and returns the lines that say what
// it did (Java's result rows). InvalidArgument naming an unknown procedure, an unknown or
// missing argument (with the procedure's arguments), or a value that does not parse; otherwise
// the operation's own error. The procedures with metrics (expire_snapshots: the snapshots
// expired) report into `metrics` when given.
Result<std::vector<std::string>> CallProcedure(
    const Catalog& catalog, std::string_view name,
    const std::vector<std::pair<std::string, std::string>>& args,
    MetricRegistry* metrics = nullptr);

}  // namespace sluice
