// MySqlSourceOptions: the `--mysql_conf` of Java Paimon's MySQL CDC actions (Flink CDC's
// MySqlSourceOptions names, read by Java MySqlActionUtils), for the native binlog source.
//
//   hostname, port (3306), username, password   the server and the account (REPLICATION
//                                  SLAVE, REPLICATION CLIENT, SELECT, RELOAD or LOCK TABLES
//                                  for MySQL proper's snapshot lock)
//   database-name                  required; a regex that must match a whole database name
//   table-name                     sync-table: required, a regex matching whole table names;
//                                  sync-database: refused, as Java does (--including_tables)
//   server-id                      the replica id the binlog dump announces (a number or a
//                                  range "5400-5404", whose first is used); default 5400 +
//                                  a hash of the job, so that two jobs do not clash
//   server-time-zone               the zone of TIMESTAMP columns' wall clocks (default UTC)
//   scan.startup.mode              initial (the default: a snapshot, then the binlog from
//                                  the snapshot's position), latest-offset, earliest-offset,
//                                  specific-offset (scan.startup.specific-offset.file / .pos),
//                                  snapshot (the snapshot only, then the job ends)
//   scan.snapshot.fetch.size       rows per snapshot message (1024)
//   connect.timeout                a duration (30 s); connect.max-retries (3): a lost
//                                  connection is retried that many times, with backoff,
//                                  before the job fails
//   heartbeat.interval             how often an idle server sends a heartbeat (30 s)
//
// Flink CDC's tuning keys for its parallel chunked snapshot (`scan.incremental.*`, `chunk-*`,
// `connection.pool.size`, ...), `jdbc.properties.*` and `debezium.*` have nothing to tune here:
// they are accepted with a warning. An unknown key is an error naming it.
//
// Thread safety: a value type.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/mysql/mysql_connection.h"
#include "sluice/cdc/source_conf.h"
#include "sluice/result.h"

namespace sluice {

enum class MySqlStartupMode { kInitial, kLatest, kEarliest, kSpecificOffset, kSnapshot };

struct MySqlSourceOptions {
  MySqlConnectOptions connect;
  std::string database_pattern;
  std::string table_pattern = ".*";
  uint32_t server_id = 0;
  std::string server_time_zone = "UTC";
  MySqlStartupMode startup_mode = MySqlStartupMode::kInitial;
  std::string specific_offset_file;
  int64_t specific_offset_pos = 4;
  // scan.snapshot.fetch.size, connect.timeout (also in `connect`), connect.max-retries,
  // heartbeat.interval (source_conf.h).
  SourceTuning tuning;
  // Keys accepted without effect, for the job's log.
  std::vector<std::string> warnings;

  // Reads `--mysql_conf`; `sync_table` says whether `table-name` is required or refused.
  // `job_identity` seeds the default server id. InvalidArgument naming the key and (masked)
  // value.
  static Result<MySqlSourceOptions> Parse(
      const std::vector<std::pair<std::string, std::string>>& conf, bool sync_table,
      const std::string& job_identity);
};

}  // namespace sluice
