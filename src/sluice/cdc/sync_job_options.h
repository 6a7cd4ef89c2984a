// SyncJobOptions: what one sync job (Java's kafka_sync_table / kafka_sync_database and,
// later, the database sources' actions) is asked to do, read from Java's action arguments by
// the action (kafka_sync_action.h) and carried out by SyncJob.
//
// Thread safety: a value type.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sluice/cdc/table_name_converter.h"
#include "sluice/cdc/type_mapping.h"

namespace sluice {

struct SyncJobOptions {
  std::string warehouse;
  // The catalog options (--catalog_conf; ReadActionCatalogOptions): the warehouse's file
  // system's options (s3.endpoint, ...).
  std::map<std::string, std::string> catalog_options;
  std::string database;
  // Sync-table: every record goes into this table. Empty: a whole-database sync, routed by
  // `table_names`.
  std::string table;
  TableNameRules table_names;

  // For tables the job creates. `--multiple_table_partition_keys`: a source table's partition
  // keys, before `--partition_keys`.
  std::vector<std::string> partition_keys;
  std::map<std::string, std::vector<std::string>> partition_keys_by_table;
  std::vector<std::string> primary_keys;
  // `--sync_primary_keys_from_source_schema`: a table without `--primary_keys` takes the keys
  // the record names (canal's pkNames, ...); false: it has none.
  bool sync_primary_keys_from_source = true;
  // `--computed_column` arguments ("c=year(ts)"), and `--metadata_column` names.
  std::vector<std::string> computed_columns;
  std::vector<std::string> metadata_columns;
  // `--metadata_column_prefix`: put before each metadata column's name in the table (Java's
  // PrefixedMetadataConverter), so that `topic` cannot clash with a source column of that name.
  std::string metadata_column_prefix;
  TypeMapping type_mapping;
  // `--table_conf`: options of the tables the job creates, and dynamic options of its writes.
  std::vector<std::pair<std::string, std::string>> table_conf;

  // The commit cadence (Java: the checkpoint interval) and the bound on records buffered
  // between commits (their text's bytes); reaching it commits early.
  std::chrono::milliseconds commit_interval{1000};
  int64_t max_buffered_bytes = int64_t{256} << 20;
  // A table's writer is closed after this many commits without records (it reopens on the
  // next record), so that hundreds of quiet tables hold no write buffers.
  int32_t idle_commits_before_close = 10;

  // `db.table` of an append table that takes messages that do not parse (created when
  // missing), or empty: such a message stops the job.
  std::string dead_letter_table;

  // Stop once every split is read to its end (its end when the job saw it idle), committing
  // what was read: a bounded run, for catching up and for tests (beyond Java, whose jobs run
  // until cancelled).
  bool stop_at_end = false;

  // Who commits: the same across restarts of one job, so that the job finds its positions.
  std::string commit_user;
};

}  // namespace sluice
