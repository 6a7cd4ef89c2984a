#include "cli/kafka_sync/cdc_format_messages.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace sluice::test {

namespace {

using Ordered = nlohmann::ordered_json;
using nlohmann::json;

constexpr int64_t kEpochMillis = 1700000000000;

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The value of `column` in `row` (null when absent).
json ValueOf(const json& row, const std::string& column) {
  auto it = row.find(column);
  return it == row.end() ? json(nullptr) : *it;
}

// The row's values in the columns' order.
Ordered RowObject(const RowChange& change, const json& row) {
  Ordered out = Ordered::object();
  for (const SourceColumn& column : change.columns) {
    out[column.name] = Ordered::parse(ValueOf(row, column.name).dump());
  }
  return out;
}

// Canal sends every value as text.
Ordered TextRowObject(const RowChange& change, const json& row) {
  Ordered out = Ordered::object();
  for (const SourceColumn& column : change.columns) {
    json value = ValueOf(row, column.name);
    if (value.is_null()) {
      out[column.name] = nullptr;
    } else {
      out[column.name] = value.is_string() ? value.get<std::string>() : value.dump();
    }
  }
  return out;
}

// The columns whose value the update changed, with their values before (canal's and maxwell's
// `old`).
Ordered ChangedBefore(const RowChange& change) {
  Ordered out = Ordered::object();
  for (const SourceColumn& column : change.columns) {
    json before = ValueOf(change.before, column.name);
    if (before != ValueOf(change.row, column.name)) {
      out[column.name] = Ordered::parse(before.dump());
    }
  }
  return out;
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// "2024-03-05 10:00:00" as epoch millis (Debezium's io.debezium.time.Timestamp of a DATETIME).
int64_t EpochMillis(const std::string& text) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  EXPECT_EQ(std::sscanf(text.c_str(), "%d-%d-%d %d:%d:%d", &y, &mo, &d, &h, &mi, &s), 6) << text;
  return ((DaysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60000 + s * 1000;
}

// The Connect schema of a column of MySQL type `mysql_type` (Debezium's MySQL connector).
Ordered ConnectField(const SourceColumn& column, bool optional) {
  const std::string type = Lower(column.mysql_type);
  Ordered field = Ordered::object();
  if (type.starts_with("tinyint") || type.starts_with("smallint")) {
    field["type"] = "int16";
  } else if (type.starts_with("bigint")) {
    field["type"] = "int64";
  } else if (type.starts_with("int") || type.starts_with("mediumint")) {
    field["type"] = "int32";
  } else if (type.starts_with("datetime")) {
    field["type"] = "int64";
    field["name"] = "io.debezium.time.Timestamp";
    field["version"] = 1;
  } else if (type.starts_with("date")) {
    field["type"] = "int32";
    field["name"] = "io.debezium.time.Date";
    field["version"] = 1;
  } else {
    field["type"] = "string";
  }
  field["optional"] = optional;
  field["field"] = column.name;
  return field;
}

// A Debezium row with Connect-typed values (datetimes as epoch millis), or null.
Ordered ConnectRow(const RowChange& change, const json& row) {
  if (row.is_null()) return nullptr;
  Ordered out = Ordered::object();
  for (const SourceColumn& column : change.columns) {
    json value = ValueOf(row, column.name);
    const std::string type = Lower(column.mysql_type);
    if (!value.is_null() && type.starts_with("datetime")) {
      out[column.name] = EpochMillis(value.get<std::string>());
    } else if (!value.is_null() && type.starts_with("date")) {
      out[column.name] = EpochMillis(value.get<std::string>() + " 00:00:00") / 86400000;
    } else {
      out[column.name] = Ordered::parse(value.dump());
    }
  }
  return out;
}

bool IsKey(const RowChange& change, const std::string& column) {
  return std::find(change.primary_keys.begin(), change.primary_keys.end(), column) !=
         change.primary_keys.end();
}

// The Debezium message key: the primary key's values (with its schema when `envelope`).
std::optional<std::string> DebeziumKey(const RowChange& change, const json& row, bool envelope) {
  if (change.primary_keys.empty()) return std::nullopt;
  Ordered payload = Ordered::object();
  Ordered fields = Ordered::array();
  for (const SourceColumn& column : change.columns) {
    if (!IsKey(change, column.name)) continue;
    payload[column.name] = Ordered::parse(ValueOf(row, column.name).dump());
    fields.push_back(ConnectField(column, /*optional=*/false));
  }
  if (!envelope) return payload.dump();
  Ordered schema = {{"type", "struct"},
                    {"fields", fields},
                    {"optional", false},
                    {"name", "src." + change.database + "." + change.table + ".Key"}};
  return Ordered{{"schema", schema}, {"payload", payload}}.dump();
}

std::string DebeziumValue(const RowChange& change, bool envelope, int64_t sequence) {
  const char* op = change.op == RowChange::Op::kInsert   ? "c"
                   : change.op == RowChange::Op::kUpdate ? "u"
                                                         : "d";
  json before = change.op == RowChange::Op::kUpdate   ? change.before
                : change.op == RowChange::Op::kDelete ? change.row
                                                      : json(nullptr);
  json after = change.op == RowChange::Op::kDelete ? json(nullptr) : change.row;
  Ordered source = {{"version", "2.5.0.Final"},
                    {"connector", "mysql"},
                    {"name", "src"},
                    {"ts_ms", kEpochMillis + sequence},
                    {"snapshot", "false"},
                    {"db", change.database},
                    {"table", change.table},
                    {"server_id", 1},
                    {"file", "mysql-bin.000003"},
                    {"pos", 154 + sequence},
                    {"row", 0}};
  Ordered payload = Ordered::object();
  if (envelope) {
    payload["before"] = ConnectRow(change, before);
    payload["after"] = ConnectRow(change, after);
  } else {
    payload["before"] = before.is_null() ? Ordered(nullptr) : RowObject(change, before);
    payload["after"] = after.is_null() ? Ordered(nullptr) : RowObject(change, after);
  }
  payload["source"] = source;
  payload["op"] = op;
  payload["ts_ms"] = kEpochMillis + sequence;
  payload["transaction"] = nullptr;
  if (!envelope) return payload.dump();

  Ordered columns = Ordered::array();
  for (const SourceColumn& column : change.columns) {
    columns.push_back(ConnectField(column, /*optional=*/!IsKey(change, column.name)));
  }
  const std::string prefix = "src." + change.database + "." + change.table;
  auto row_struct = [&](const char* field) {
    return Ordered{{"type", "struct"},
                   {"fields", columns},
                   {"optional", true},
                   {"name", prefix + ".Value"},
                   {"field", field}};
  };
  Ordered source_fields = Ordered::array();
  for (const char* name : {"version", "connector", "name"}) {
    source_fields.push_back({{"type", "string"}, {"optional", false}, {"field", name}});
  }
  source_fields.push_back({{"type", "int64"}, {"optional", false}, {"field", "ts_ms"}});
  source_fields.push_back({{"type", "string"}, {"optional", true}, {"field", "snapshot"}});
  source_fields.push_back({{"type", "string"}, {"optional", false}, {"field", "db"}});
  source_fields.push_back({{"type", "string"}, {"optional", true}, {"field", "table"}});
  source_fields.push_back({{"type", "int64"}, {"optional", false}, {"field", "server_id"}});
  source_fields.push_back({{"type", "string"}, {"optional", false}, {"field", "file"}});
  source_fields.push_back({{"type", "int64"}, {"optional", false}, {"field", "pos"}});
  source_fields.push_back({{"type", "int32"}, {"optional", false}, {"field", "row"}});
  Ordered fields = Ordered::array();
  fields.push_back(row_struct("before"));
  fields.push_back(row_struct("after"));
  fields.push_back({{"type", "struct"},
                    {"fields", source_fields},
                    {"optional", false},
                    {"name", "io.debezium.connector.mysql.Source"},
                    {"field", "source"}});
  fields.push_back({{"type", "string"}, {"optional", false}, {"field", "op"}});
  fields.push_back({{"type", "int64"}, {"optional", true}, {"field", "ts_ms"}});
  fields.push_back({{"type", "struct"},
                    {"fields", Ordered::array()},
                    {"optional", true},
                    {"name", "event.block"},
                    {"field", "transaction"}});
  Ordered schema = {
      {"type", "struct"}, {"fields", fields}, {"optional", false}, {"name", prefix + ".Envelope"}};
  return Ordered{{"schema", schema}, {"payload", payload}}.dump();
}

std::string CanalValue(const RowChange& change, int64_t sequence) {
  const char* type = change.op == RowChange::Op::kInsert   ? "INSERT"
                     : change.op == RowChange::Op::kUpdate ? "UPDATE"
                                                           : "DELETE";
  Ordered mysql_types = Ordered::object();
  Ordered sql_types = Ordered::object();
  for (const SourceColumn& column : change.columns) {
    mysql_types[column.name] = column.mysql_type;
    // java.sql.Types of the column (canal's sqlType); Paimon reads mysqlType.
    sql_types[column.name] = Lower(column.mysql_type).starts_with("varchar") ? 12 : 4;
  }
  Ordered message = {
      {"data", Ordered::array({TextRowObject(change, change.row)})},
      {"database", change.database},
      {"es", kEpochMillis + sequence},
      {"id", sequence + 1},
      {"isDdl", false},
      {"mysqlType", mysql_types},
      {"old", nullptr},
      {"pkNames", change.primary_keys.empty() ? Ordered(nullptr) : Ordered(change.primary_keys)},
      {"sql", ""},
      {"sqlType", sql_types},
      {"table", change.table},
      {"ts", kEpochMillis + sequence + 1},
      {"type", type}};
  if (change.op == RowChange::Op::kUpdate) {
    // The changed columns' old values, as text.
    Ordered old = Ordered::object();
    const Ordered changed = ChangedBefore(change);
    for (const auto& [name, value] : changed.items()) {
      old[name] = value.is_null()
                      ? Ordered(nullptr)
                      : Ordered(value.is_string() ? value.get<std::string>() : value.dump());
    }
    message["old"] = Ordered::array({old});
  }
  return message.dump();
}

std::string MaxwellValue(const RowChange& change, int64_t sequence) {
  const char* type = change.op == RowChange::Op::kInsert   ? "insert"
                     : change.op == RowChange::Op::kUpdate ? "update"
                                                           : "delete";
  Ordered message = {
      {"database", change.database},          {"table", change.table},  {"type", type},
      {"ts", kEpochMillis / 1000 + sequence}, {"xid", 7000 + sequence}, {"commit", true},
      {"data", RowObject(change, change.row)}};
  if (change.op == RowChange::Op::kUpdate) message["old"] = ChangedBefore(change);
  if (!change.primary_keys.empty()) message["primary_key_columns"] = change.primary_keys;
  return message.dump();
}

std::string OggValue(const RowChange& change, int64_t sequence) {
  const char* op = change.op == RowChange::Op::kInsert   ? "I"
                   : change.op == RowChange::Op::kUpdate ? "U"
                                                         : "D";
  char pos[32];
  std::snprintf(pos, sizeof(pos), "%020lld", static_cast<long long>(sequence + 100));
  Ordered message = {{"table", change.database + "." + change.table},
                     {"op_type", op},
                     {"op_ts", "2024-03-05 10:00:00.000000"},
                     {"current_ts", "2024-03-05T10:00:01.000000"},
                     {"pos", pos}};
  if (!change.primary_keys.empty()) message["primary_keys"] = change.primary_keys;
  if (change.op == RowChange::Op::kUpdate) message["before"] = RowObject(change, change.before);
  if (change.op == RowChange::Op::kDelete) {
    message["before"] = RowObject(change, change.row);
  } else {
    message["after"] = RowObject(change, change.row);
  }
  return message.dump();
}

std::string DmsValue(const RowChange& change, int64_t sequence) {
  const char* op = change.op == RowChange::Op::kInsert   ? "insert"
                   : change.op == RowChange::Op::kUpdate ? "update"
                                                         : "delete";
  Ordered data = RowObject(change, change.row);
  if (change.op == RowChange::Op::kUpdate) {
    // The before image (BeforeImageSettings, column filter "all").
    const Ordered before = RowObject(change, change.before);
    for (const auto& [name, value] : before.items()) {
      data["BI_" + name] = value;
    }
  }
  Ordered metadata = {{"timestamp", "2024-03-05T10:00:00.000000Z"},
                      {"record-type", "data"},
                      {"operation", op},
                      {"partition-key-type", "schema-table"},
                      {"schema-name", change.database},
                      {"table-name", change.table},
                      {"transaction-id", 670014899490 + sequence}};
  return Ordered{{"data", data}, {"metadata", metadata}}.dump();
}

// The text of the key columns' values.
std::string KeyText(const RowChange& change, const json& row) {
  std::string key;
  for (const std::string& column : change.primary_keys) key += ValueOf(row, column).dump() + "|";
  return key;
}

}  // namespace

std::vector<CdcFormat> AllCdcFormats() {
  return {CdcFormat::kCanal,   CdcFormat::kDebezium, CdcFormat::kDebeziumSchema,
          CdcFormat::kMaxwell, CdcFormat::kOgg,      CdcFormat::kDms,
          CdcFormat::kJson};
}

std::string ValueFormat(CdcFormat format) {
  switch (format) {
    case CdcFormat::kCanal:
      return "canal-json";
    case CdcFormat::kDebezium:
    case CdcFormat::kDebeziumSchema:
      return "debezium-json";
    case CdcFormat::kMaxwell:
      return "maxwell-json";
    case CdcFormat::kOgg:
      return "ogg-json";
    case CdcFormat::kDms:
      return "aws-dms-json";
    case CdcFormat::kJson:
      return "json";
  }
  return "";
}

std::string FormatName(CdcFormat format) {
  switch (format) {
    case CdcFormat::kCanal:
      return "canal";
    case CdcFormat::kDebezium:
      return "debezium";
    case CdcFormat::kDebeziumSchema:
      return "debezium_schema";
    case CdcFormat::kMaxwell:
      return "maxwell";
    case CdcFormat::kOgg:
      return "ogg";
    case CdcFormat::kDms:
      return "dms";
    case CdcFormat::kJson:
      return "json";
  }
  return "";
}

bool IsTyped(CdcFormat format) {
  return format == CdcFormat::kCanal || format == CdcFormat::kDebeziumSchema;
}

bool CarriesPrimaryKeys(CdcFormat format) {
  return format != CdcFormat::kDms && format != CdcFormat::kJson;
}

bool NamesTable(CdcFormat format) { return format != CdcFormat::kJson; }

KafkaTestMessage EncodeChange(CdcFormat format, const RowChange& change, int64_t sequence) {
  const std::string key = KeyText(change, change.row);
  switch (format) {
    case CdcFormat::kCanal:
      return KafkaMessage(key, CanalValue(change, sequence), 0);
    case CdcFormat::kDebezium:
    case CdcFormat::kDebeziumSchema: {
      const bool envelope = format == CdcFormat::kDebeziumSchema;
      KafkaTestMessage message = KafkaMessage(DebeziumKey(change, change.row, envelope),
                                              DebeziumValue(change, envelope, sequence), 0);
      return message;
    }
    case CdcFormat::kMaxwell:
      return KafkaMessage(key, MaxwellValue(change, sequence), 0);
    case CdcFormat::kOgg:
      return KafkaMessage(key, OggValue(change, sequence), 0);
    case CdcFormat::kDms:
      return KafkaMessage(key, DmsValue(change, sequence), 0);
    case CdcFormat::kJson:
      EXPECT_EQ(change.op, RowChange::Op::kInsert) << "plain json carries inserts only";
      return KafkaMessage(key, RowObject(change, change.row).dump(), 0);
  }
  return KafkaMessage(std::nullopt, std::nullopt);
}

CdcTableModel::CdcTableModel(Engine engine, std::vector<std::string> keys, std::string sum_column)
    : engine_(engine), keys_(std::move(keys)), sum_column_(std::move(sum_column)) {}

std::string CdcTableModel::KeyOf(const json& row) const {
  std::string key;
  for (const std::string& column : keys_) key += ValueOf(row, column).dump() + "|";
  return key;
}

void CdcTableModel::Apply(const RowChange& change) {
  switch (change.op) {
    case RowChange::Op::kInsert:
      Add(change.row);
      break;
    case RowChange::Op::kDelete:
      Retract(change.row);
      break;
    case RowChange::Op::kUpdate:
      Retract(change.before);
      Add(change.row);
      break;
  }
}

void CdcTableModel::Add(const json& row) {
  if (engine_ == Engine::kAppend) {
    appended_.push_back(row);
    return;
  }
  const std::string key = KeyOf(row);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) {
    by_key_[key] = row;
    return;
  }
  json& stored = it->second;
  switch (engine_) {
    case Engine::kDeduplicate:
      stored = row;
      break;
    case Engine::kFirstRow:
      break;
    case Engine::kPartialUpdate:
    case Engine::kAggregation:
      for (const auto& [column, value] : row.items()) {
        if (value.is_null()) continue;
        if (engine_ == Engine::kAggregation && column == sum_column_) {
          json current = ValueOf(stored, column);
          stored[column] = current.is_null() ? value.get<int64_t>()
                                             : current.get<int64_t>() + value.get<int64_t>();
        } else {
          stored[column] = value;
        }
      }
      break;
    case Engine::kAppend:
      break;
  }
}

void CdcTableModel::Retract(const json& row) {
  switch (engine_) {
    case Engine::kDeduplicate:
      by_key_.erase(KeyOf(row));
      break;
    case Engine::kAggregation: {
      auto it = by_key_.find(KeyOf(row));
      if (it == by_key_.end()) break;
      for (const auto& [column, value] : row.items()) {
        if (value.is_null() || std::find(keys_.begin(), keys_.end(), column) != keys_.end()) {
          continue;
        }
        if (column == sum_column_) {
          json current = ValueOf(it->second, column);
          it->second[column] =
              (current.is_null() ? 0 : current.get<int64_t>()) - value.get<int64_t>();
        } else {
          // last_non_null_value retracts to NULL.
          it->second[column] = nullptr;
        }
      }
      break;
    }
    case Engine::kPartialUpdate:
    case Engine::kFirstRow:
    case Engine::kAppend:
      // ignore-delete drops retractions before they reach the table.
      break;
  }
}

std::vector<json> CdcTableModel::Rows(const std::vector<std::string>& columns,
                                      const std::vector<std::string>& text_columns) const {
  std::vector<json> source = appended_;
  for (const auto& [key, row] : by_key_) source.push_back(row);
  std::vector<json> rows;
  for (const json& row : source) {
    json out = json::object();
    for (const std::string& column : columns) {
      json value = ValueOf(row, column);
      const bool as_text =
          std::find(text_columns.begin(), text_columns.end(), column) != text_columns.end();
      if (as_text && !value.is_null() && !value.is_string()) value = value.dump();
      out[column] = value;
    }
    rows.push_back(std::move(out));
  }
  std::sort(rows.begin(), rows.end(),
            [](const json& a, const json& b) { return a.dump() < b.dump(); });
  return rows;
}

}  // namespace sluice::test
