// Actions: Java Paimon's actions, by Java's names and with Java's arguments, run natively
// (what `sluice action NAME ARGS...` and the jobs of a service run). A Paimon user's Flink
// action command line, with `flink run .../paimon-flink-action.jar` replaced by
// `sluice action`, does the same here.
//
//   kafka_sync_table, kafka_sync_database   CDC from Kafka into Paimon tables (canal-json,
//                                           debezium-json, maxwell-json, ogg-json,
//                                           aws-dms-json, json), with schema evolution and
//                                           exactly-once commits; they run until stopped.
//   mysql_sync_*, postgres_sync_*           CDC from MySQL / MariaDB and PostgreSQL, likewise.
//   compact, compact_database               Java's dedicated compaction: streaming (Java's
//                                           default) watches the tables' new snapshots and
//                                           compacts the buckets they wrote until stopped, so
//                                           that `write-only` writers never have to; batch
//                                           compacts what is there once and returns.
//   expire_snapshots, expire_changelogs, expire_partitions, expire_tags, create_tag,
//   create_tag_from_timestamp, delete_tag, rename_tag, replace_tag, create_branch,
//   delete_branch, fast_forward, rollback_to, rollback_to_timestamp, drop_partition,
//   reset_consumer, clear_consumers, remove_orphan_files
//                                           Java's table actions: they run once, each what the
//                                           procedure of its name does (procedures.h).
//
// Every action takes Java's catalog arguments: `--warehouse W` (or `--catalog_conf
// warehouse=W`), a filesystem warehouse. An argument the action does not take is refused
// (Java ignores it). `--help` describes the action (DescribeAction's usage) and runs nothing.
//
// Thread safety: RunAction may run on any thread; `stop` may be set from any thread or a
// signal handler.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"
#include "sluice/status.h"

namespace sluice {

class MetricRegistry;  // metrics.h

// How far a running sync action is, after each of its commit rounds.
struct ActionProgress {
  int64_t messages = 0;        // source messages read
  int64_t records = 0;         // change records written
  int64_t commits = 0;         // table commits
  int64_t schema_changes = 0;  // schema changes applied
  int64_t tables = 0;          // tables written
  int64_t dead_letters = 0;    // messages sent to the dead-letter table
  struct SplitLag {
    std::string split;  // "<topic>-<partition>"
    int64_t next_offset = -1;
    int64_t end_offset = -1;  // -1 when unknown
  };
  std::vector<SplitLag> lag;
};

// How an action runs: Java decides from Flink's `execution.runtime-mode` (STREAMING unless
// set), Sluice from this.
enum class ActionMode {
  kDefault,    // Java's default for the action: continuously for the sync actions and
               // compact / compact_database (STREAMING), once for the others
  kBatch,      // once: do the work there is, then return (`--runtime-mode batch`)
  kStreaming,  // continuously, until `stop` is set (`--runtime-mode streaming`)
};

// What an action is, for a caller that schedules it (DescribeAction).
struct ActionInfo {
  std::string name;
  bool continuous = false;  // runs until stopped (kStreaming)
  bool once = false;        // runs once and returns (kBatch)
  // What kDefault means for it: kStreaming or kBatch.
  ActionMode default_mode = ActionMode::kBatch;
  // Java's syntax lines for the action (its printHelp), with Sluice's additions marked.
  std::string usage;
};

struct ActionHooks {
  // A line per event worth a log line (a table created, a schema change, a dead letter, what a
  // table action did, a compaction committed).
  std::function<void(const std::string&)> log;
  // After each commit round of a sync action, and after each compaction committed by
  // compact / compact_database (`commits`: compactions committed, `tables`: tables watched).
  std::function<void(const ActionProgress&)> progress;
  // Batch or streaming; InvalidArgument from RunAction when the action cannot run so
  // (DescribeAction says how each can).
  ActionMode mode = ActionMode::kDefault;
  // Where what runs reports its metrics (docs/metrics.md): a sync action its source metrics and
  // its tables' Paimon metrics. Null: nowhere. Must outlive RunAction.
  MetricRegistry* metrics = nullptr;
};

// The names RunAction takes, sorted.
std::vector<std::string> ActionNames();

// Whether action `name` (dashes allowed, as in RunAction) runs continuously and/or once, and
// its usage. InvalidArgument naming an unknown action and listing the known ones.
Result<ActionInfo> DescribeAction(std::string_view name);

// Reads and checks action `name`'s `args` for `mode` as RunAction would, and runs nothing (no
// table is opened, no source connected): what a service checks its config with before it
// starts a job. RunAction's InvalidArgument for a bad name, argument or mode.
Status CheckAction(std::string_view name, const std::vector<std::string>& args,
                   ActionMode mode = ActionMode::kDefault);

// Runs action `name` with `args` (Java's, without the name) in `hooks.mode` until it is done or
// `stop` is set; a continuous action then commits what it has and returns OK (within a couple
// of seconds of `stop`, a compaction under way is finished and committed first). A once action
// returns when done (`stop` cuts a compact_database batch run short after the tables in hand).
// InvalidArgument naming the action and an unknown action, a bad argument or a mode the action
// does not run in; the action's own errors otherwise (a malformed message names topic,
// partition and offset).
Status RunAction(std::string_view name, const std::vector<std::string>& args,
                 const std::atomic<bool>& stop, const ActionHooks& hooks = {});

}  // namespace sluice
