// Actions: Java Paimon's actions, by Java's names and with Java's arguments, run natively
// (what `sluice action NAME ARGS...` and the jobs of a service run). A Paimon user's Flink
// action command line, with `flink run .../paimon-flink-action.jar` replaced by
// `sluice action`, does the same here.
//
//   kafka_sync_table, kafka_sync_database   CDC from Kafka into Paimon tables (canal-json,
//                                           debezium-json, maxwell-json, ogg-json,
//                                           aws-dms-json, json), with schema evolution and
//                                           exactly-once commits; they run until stopped.
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

struct ActionHooks {
  // A line per event worth a log line (a table created, a schema change, a dead letter).
  std::function<void(const std::string&)> log;
  std::function<void(const ActionProgress&)> progress;
  // Where what runs reports its metrics (docs/metrics.md): a sync action its source metrics and
  // its tables' Paimon metrics. Null: nowhere. Must outlive RunAction.
  MetricRegistry* metrics = nullptr;
};

// The names RunAction takes.
std::vector<std::string> ActionNames();

// Runs action `name` with `args` (Java's, without the name) until it is done or `stop` is set;
// a continuous action then commits what it has and returns OK. InvalidArgument naming an
// unknown action or a bad argument; the action's own errors otherwise (a malformed message
// names topic, partition and offset).
Status RunAction(std::string_view name, const std::vector<std::string>& args,
                 const std::atomic<bool>& stop, const ActionHooks& hooks = {});

}  // namespace sluice
