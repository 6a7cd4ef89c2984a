#include "kafka_sync_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace sluice::test {

std::string CanalMessage(const std::string& database, const std::string& table,
                         const std::string& type, const nlohmann::json& row,
                         const nlohmann::json& mysql_types, const std::vector<std::string>& pk,
                         const nlohmann::json& old) {
  nlohmann::json message = {{"data", nlohmann::json::array({row})},
                            {"database", database},
                            {"table", table},
                            {"type", type},
                            {"isDdl", false},
                            {"pkNames", pk},
                            {"mysqlType", mysql_types},
                            {"es", 1700000000000},
                            {"ts", 1700000000001}};
  // Canal's UPDATE carries the changed columns' old values (none changed: an empty object).
  nlohmann::json changed = old.is_null() && type == "UPDATE" ? nlohmann::json::object() : old;
  message["old"] = changed.is_null() ? nlohmann::json(nullptr) : nlohmann::json::array({changed});
  return message.dump();
}

std::vector<nlohmann::json> Sorted(std::vector<nlohmann::json> rows) {
  std::sort(rows.begin(), rows.end(),
            [](const nlohmann::json& a, const nlohmann::json& b) { return a.dump() < b.dump(); });
  return rows;
}

std::vector<nlohmann::json> ReadRows(const std::string& warehouse, const std::string& table) {
  CommandResult r = RunSluice("read " + table + " --warehouse '" + warehouse + "' --format jsonl");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<nlohmann::json> rows;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return Sorted(std::move(rows));
}

nlohmann::json LatestSchema(const std::string& warehouse, const std::string& table) {
  const size_t dot = table.find('.');
  std::filesystem::path dir = std::filesystem::path(warehouse) / (table.substr(0, dot) + ".db") /
                              table.substr(dot + 1) / "schema";
  int64_t latest = -1;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("schema-", 0) == 0)
      latest = std::max<int64_t>(latest, std::stoll(name.substr(7)));
  }
  if (latest < 0) {
    ADD_FAILURE() << "no schema file in " << dir;
    return nullptr;
  }
  std::ifstream in(dir / ("schema-" + std::to_string(latest)));
  return nlohmann::json::parse(in);
}

std::map<std::string, std::string> ColumnTypes(const std::string& warehouse,
                                               const std::string& table) {
  std::map<std::string, std::string> types;
  nlohmann::json schema = LatestSchema(warehouse, table);
  if (schema.is_null()) return types;
  for (const auto& field : schema["fields"]) {
    const nlohmann::json& type = field["type"];
    types[field["name"].get<std::string>()] =
        type.is_string() ? type.get<std::string>() : type.dump();
  }
  return types;
}

CommandResult RunSync(const std::string& action, const std::string& warehouse,
                      const std::string& topic, const std::string& format,
                      const std::string& args) {
  return RunSluice("action " + action + " --warehouse '" + warehouse + "' " + args +
                   " --kafka_conf properties.bootstrap.servers=" + KafkaBootstrap() +
                   " --kafka_conf topic=" + topic + " --kafka_conf value.format=" + format +
                   " --kafka_conf scan.startup.mode=earliest-offset --stop_at_end true");
}

int CountSnapshots(const std::string& warehouse, const std::string& database) {
  int count = 0;
  std::error_code ec;
  std::filesystem::path db = std::filesystem::path(warehouse) / (database + ".db");
  for (const auto& table : std::filesystem::directory_iterator(db, ec)) {
    std::filesystem::path snapshots = table.path() / "snapshot";
    for (const auto& file : std::filesystem::directory_iterator(snapshots, ec)) {
      if (file.path().filename().string().rfind("snapshot-", 0) == 0) ++count;
    }
  }
  return count;
}

pid_t Spawn(const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> argv_text = args;
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

int RunUntil(const std::vector<std::string>& args, const std::string& warehouse,
             const std::string& database, int kill_at, const std::string& log, int signal) {
  // The longest one run may take before the test gives up on it.
  constexpr auto kRunDeadline = std::chrono::seconds(300);
  const pid_t pid = Spawn(args, log);
  auto deadline = std::chrono::steady_clock::now() + kRunDeadline;
  while (true) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ADD_FAILURE() << "the sync did not end within the deadline";
      return -SIGKILL;
    }
    if (kill_at >= 0 && CountSnapshots(warehouse, database) >= kill_at) {
      ::kill(pid, signal);
      kill_at = -1;
      // A SIGTERM'd job commits and exits by itself; a SIGKILL'd one is reaped below.
      continue;
    }
    // Polls the table folders for the kill point (a condition, not a wait for time).
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

KillWorkload MakeKillWorkload(int count, std::mt19937_64& rng) {
  using nlohmann::json;
  KillWorkload workload;
  std::map<int, json>& orders = workload.orders;
  std::map<int, json>& stock = workload.stock;
  std::vector<json>& events = workload.events;
  std::vector<KafkaTestMessage>& messages = workload.messages;
  const json order_types = {{"id", "int(11)"}, {"name", "varchar(32)"}, {"qty", "int(11)"}};
  const json stock_types = {{"sku", "int(11)"}, {"level", "bigint(20)"}};
  const json event_types = {{"seq", "int(11)"}, {"what", "varchar(16)"}};
  for (int i = 0; i < count; ++i) {
    int pick = static_cast<int>(rng() % 3);
    if (pick == 0) {
      int id = static_cast<int>(rng() % 200);
      json row = {{"id", std::to_string(id)},
                  {"name", "n" + std::to_string(rng() % 1000)},
                  {"qty", std::to_string(rng() % 50)}};
      std::string type = orders.count(id) ? (rng() % 4 == 0 ? "DELETE" : "UPDATE") : "INSERT";
      if (type == "DELETE") {
        row = {{"id", std::to_string(id)},
               {"name", orders[id]["name"].get<std::string>()},
               {"qty", std::to_string(orders[id]["qty"].get<int>())}};
        orders.erase(id);
      } else {
        orders[id] = {
            {"id", id}, {"name", row["name"]}, {"qty", std::stoi(row["qty"].get<std::string>())}};
      }
      // One key, one partition: its changes stay in order.
      messages.push_back(
          KafkaMessage("o" + std::to_string(id),
                       CanalMessage("shop", "orders", type, row, order_types, {"id"}), id % 2));
    } else if (pick == 1) {
      int sku = static_cast<int>(rng() % 50);
      int64_t level = static_cast<int64_t>(rng() % 100000);
      std::string type = stock.count(sku) ? "UPDATE" : "INSERT";
      stock[sku] = {{"sku", sku}, {"level", level}};
      messages.push_back(KafkaMessage(
          "s" + std::to_string(sku),
          CanalMessage("shop", "stock", type,
                       {{"sku", std::to_string(sku)}, {"level", std::to_string(level)}},
                       stock_types, {"sku"}),
          sku % 2));
    } else {
      std::string what = "e" + std::to_string(rng() % 10);
      events.push_back({{"seq", i}, {"what", what}});
      messages.push_back(
          KafkaMessage("e",
                       CanalMessage("shop", "events", "INSERT",
                                    {{"seq", std::to_string(i)}, {"what", what}}, event_types, {}),
                       static_cast<int>(rng() % 2)));
    }
  }
  return workload;
}

void ExpectTablesHoldKillWorkload(const std::string& warehouse, const std::string& database,
                                  const KillWorkload& workload) {
  std::vector<nlohmann::json> expected_orders;
  for (const auto& [id, row] : workload.orders) expected_orders.push_back(row);
  std::vector<nlohmann::json> expected_stock;
  for (const auto& [sku, row] : workload.stock) expected_stock.push_back(row);
  EXPECT_EQ(ReadRows(warehouse, database + ".orders"), Sorted(expected_orders));
  EXPECT_EQ(ReadRows(warehouse, database + ".stock"), Sorted(expected_stock));
  std::vector<nlohmann::json> read_events = ReadRows(warehouse, database + ".events");
  // The sizes first: a duplicate or a lost row shows in them before the long lists.
  EXPECT_EQ(read_events.size(), workload.events.size());
  EXPECT_EQ(read_events, Sorted(workload.events));
  for (const std::string table : {"orders", "stock", "events"}) {
    CommandResult check =
        RunSluice("check " + database + "." + table + " --warehouse '" + warehouse + "'");
    EXPECT_EQ(check.exit_code, 0) << table << ": " << check.out << check.err;
  }
}

}  // namespace sluice::test
