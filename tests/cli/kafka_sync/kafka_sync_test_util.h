// Helpers of the `sluice action *_sync_*` tests: canal-json messages, a model of the tables the
// messages make, running the action (and killing it at a commit count), and reading a table
// back as JSON rows.
//
// Thread safety: the functions may be called from several threads.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <nlohmann/json.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "cdc/kafka/kafka_test_util.h"
#include "cli/cli_test_util.h"

namespace sluice::test {

// A canal-json message of one row of `database`.`table` (`type`: INSERT, UPDATE, DELETE);
// `row` maps columns to value text (null: SQL NULL), `mysql_types` columns to MySQL types;
// `pk` names the primary key columns (none: an append table).
std::string CanalMessage(const std::string& database, const std::string& table,
                         const std::string& type, const nlohmann::json& row,
                         const nlohmann::json& mysql_types, const std::vector<std::string>& pk,
                         const nlohmann::json& old = nullptr);

// The rows of `db.table` in `warehouse`, each a JSON object, sorted by their text.
std::vector<nlohmann::json> ReadRows(const std::string& warehouse, const std::string& table);

// The rows a model holds, sorted as ReadRows sorts.
std::vector<nlohmann::json> Sorted(std::vector<nlohmann::json> rows);

// The latest schema file of `db.table` in `warehouse` (its "fields", "primaryKeys",
// "partitionKeys", "options"); null (and a failed test) when the table has none.
nlohmann::json LatestSchema(const std::string& warehouse, const std::string& table);

// Column name -> type text ("BIGINT NOT NULL", "VARCHAR(20)") of LatestSchema; a nested type
// as its schema JSON ({"element":"STRING","type":"ARRAY"}).
std::map<std::string, std::string> ColumnTypes(const std::string& warehouse,
                                               const std::string& table);

// `sluice action <action> --warehouse W <args> --kafka_conf properties.bootstrap.servers=...
// --kafka_conf topic=T --kafka_conf value.format=F --stop_at_end true`.
CommandResult RunSync(const std::string& action, const std::string& warehouse,
                      const std::string& topic, const std::string& format, const std::string& args);

// The snapshots of every table of `database` in `warehouse`: what a sync has committed so far.
int CountSnapshots(const std::string& warehouse, const std::string& database);

// Starts the command `args` (argv[0] a path) with stdout and stderr appended to `log`; its pid.
pid_t Spawn(const std::vector<std::string>& args, const std::string& log);

// Runs the command `args` (stdout and stderr appended to `log`); sends it `signal` once the
// tables of `database` hold `kill_at` snapshots (unless it ends first; -1: never), and waits for
// it, at most 300 s. Returns the exit status (-N when signal N ended it).
int RunUntil(const std::vector<std::string>& args, const std::string& warehouse,
             const std::string& database, int kill_at, const std::string& log,
             int signal = SIGKILL);

// The kill tests' workload: canal-json inserts, updates and deletes of `shop.orders` (key id)
// and `shop.stock` (key sku), inserts of the append table `shop.events`, over two partitions
// (one key's changes in one partition, so in order), and the tables they make when every
// message is applied once.
struct KillWorkload {
  std::vector<KafkaTestMessage> messages;
  std::map<int, nlohmann::json> orders;
  std::map<int, nlohmann::json> stock;
  std::vector<nlohmann::json> events;
};
KillWorkload MakeKillWorkload(int messages, std::mt19937_64& rng);

// Every table of `database` (orders, stock, events) equals the workload's model, and `sluice
// check` is clean on each.
void ExpectTablesHoldKillWorkload(const std::string& warehouse, const std::string& database,
                                  const KillWorkload& workload);

}  // namespace sluice::test
