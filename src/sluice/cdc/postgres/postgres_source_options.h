// PostgresSourceOptions: the `--postgres_conf` of Java Paimon's postgres_sync_table (Flink CDC's
// PostgresSourceOptions names, read by Java PostgresActionUtils), for the native logical
// replication source.
//
//   hostname, port (5432), username, password   the server and a role with REPLICATION (and
//                                  CREATE on the database when the publication is created)
//   database-name                  required: the one database read
//   schema-name, table-name        required regexes that must match whole schema / table names
//                                  (table-name: sync-table only; sync-database takes every table)
//   slot.name                      required: the replication slot (created when missing); its
//                                  confirmed position moves only to what the tables committed
//   decoding.plugin.name           pgoutput, the only plugin read (Flink CDC's default
//                                  decoderbufs is not in PostgreSQL itself)
//   debezium.publication.name      the publication pgoutput reads (dbz_publication, Debezium's
//                                  name), created when missing: FOR TABLE the selected tables
//                                  (sync-table), FOR ALL TABLES (sync-database)
//   scan.startup.mode              initial (the default: the slot's exported snapshot, then
//                                  the stream) or latest-offset (the stream from now)
//   scan.snapshot.fetch.size       rows per snapshot message (1024)
//   connect.timeout (30 s), connect.max-retries (3), heartbeat.interval (30 s: how often the
//                                  source reports its position to the server when idle)
//
// Flink CDC's chunked-snapshot tuning keys and other `debezium.*` keys are accepted with a
// warning; an unknown key is an error naming it.
//
// Thread safety: a value type.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/postgres/postgres_connection.h"
#include "sluice/cdc/source_conf.h"
#include "sluice/result.h"

namespace sluice {

struct PostgresSourceOptions {
  PostgresConnectOptions connect;
  std::string schema_pattern;
  std::string table_pattern = ".*";
  std::string slot_name;
  std::string publication_name = "dbz_publication";
  bool snapshot = true;  // scan.startup.mode initial (else latest-offset)
  // scan.snapshot.fetch.size, connect.timeout (also in `connect`), connect.max-retries,
  // heartbeat.interval (source_conf.h).
  SourceTuning tuning;
  std::vector<std::string> warnings;

  static Result<PostgresSourceOptions> Parse(
      const std::vector<std::pair<std::string, std::string>>& conf, bool sync_table);
};

}  // namespace sluice
