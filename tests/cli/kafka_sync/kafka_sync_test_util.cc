#include "kafka_sync_test_util.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

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
    types[field["name"].get<std::string>()] = field["type"].get<std::string>();
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

}  // namespace sluice::test
