// Kafka sync: CDC messages of every format (canal-json, debezium-json with and without the
// schema envelope, maxwell-json, ogg-json, aws-dms-json, plain json) produced to the real broker
// (the `kafka` fixture: a missing broker fails the test), each with a primary-key table and an
// append table whose columns change mid-stream (a column added, types widened), synced by
// `sluice action kafka_sync_database` (kafka_sync_table for plain json) with --stop_at_end;
// then Java Paimon's read and a Flink batch SELECT of every synced table must equal Sluice's
// read and the model of the messages (tests/cli/kafka_sync/cdc_format_messages.h).
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>

#include <cstdio>

#include "cdc/kafka/kafka_test_util.h"
#include "cli/kafka_sync/cdc_format_messages.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

using nlohmann::json;
using Engine = CdcTableModel::Engine;
using Columns = std::vector<SourceColumn>;

constexpr const char* kDatabase = "cdc";

// One synced table: the changes of its source table and what they make.
struct SyncedTable {
  std::string name;
  Engine engine;
  std::vector<RowChange> changes;
};

// The tables of one format's topic: `<format>_orders` (primary key id; a column added and
// types widened mid-stream: INT -> BIGINT, VARCHAR(10) -> VARCHAR(20)) and `<format>_events`
// (no primary key; a column added mid-stream). Plain json has only the append table.
std::vector<SyncedTable> TablesOf(CdcFormat format) {
  const std::string prefix = FormatName(format);
  auto change = [](RowChange::Op op, const std::string& table, const Columns& columns,
                   std::vector<std::string> keys, json row, json before = nullptr) {
    return RowChange{
        op, "shop", table, columns, std::move(keys), std::move(row), std::move(before)};
  };
  using Op = RowChange::Op;
  std::vector<SyncedTable> tables;
  if (format != CdcFormat::kJson) {
    const std::string t = prefix + "_orders";
    const Columns v1 = {{"id", "int(11)"}, {"name", "varchar(10)"}, {"qty", "int(11)"}};
    const Columns v2 = {
        {"id", "int(11)"}, {"name", "varchar(20)"}, {"qty", "bigint(20)"}, {"note", "varchar(32)"}};
    const std::vector<std::string> k = {"id"};
    tables.push_back(
        {t,
         Engine::kDeduplicate,
         {change(Op::kInsert, t, v1, k, {{"id", 1}, {"name", "pen"}, {"qty", 5}}),
          change(Op::kInsert, t, v1, k, {{"id", 2}, {"name", "ink"}, {"qty", 7}}),
          change(Op::kInsert, t, v1, k, {{"id", 3}, {"name", "cap"}, {"qty", nullptr}}),
          change(Op::kUpdate, t, v1, k, {{"id", 1}, {"name", "red pen"}, {"qty", 6}},
                 {{"id", 1}, {"name", "pen"}, {"qty", 5}}),
          change(Op::kDelete, t, v1, k, {{"id", 2}, {"name", "ink"}, {"qty", 7}}),
          // The schema changes here.
          change(Op::kInsert, t, v2, k,
                 {{"id", 4}, {"name", "fountain pens"}, {"qty", 5000000000}, {"note", "gift"}}),
          change(Op::kUpdate, t, v2, k, {{"id", 3}, {"name", "cap"}, {"qty", 9}, {"note", "red"}},
                 {{"id", 3}, {"name", "cap"}, {"qty", nullptr}, {"note", nullptr}}),
          change(Op::kInsert, t, v2, k,
                 {{"id", 2}, {"name", "ink again"}, {"qty", 1}, {"note", nullptr}})}});
  }
  const std::string e = prefix + "_events";
  const Columns e1 = {{"eid", "int(11)"}, {"kind", "varchar(16)"}};
  const Columns e2 = {{"eid", "int(11)"}, {"kind", "varchar(16)"}, {"amount", "int(11)"}};
  tables.push_back(
      {e,
       Engine::kAppend,
       {change(Op::kInsert, e, e1, {}, {{"eid", 1}, {"kind", "view"}}),
        change(Op::kInsert, e, e1, {}, {{"eid", 1}, {"kind", "view"}}),
        change(Op::kInsert, e, e2, {}, {{"eid", 2}, {"kind", "buy"}, {"amount", 30}}),
        change(Op::kInsert, e, e2, {}, {{"eid", 3}, {"kind", nullptr}, {"amount", nullptr}})}});
  return tables;
}

// The rows the model of `table` reads as, normalized as the harness compares them.
std::vector<std::string> ModelRows(const SyncedTable& table, CdcFormat format,
                                   std::vector<Column>* columns) {
  CdcTableModel model(table.engine, table.changes.front().primary_keys);
  std::vector<std::string> names;
  for (const RowChange& change : table.changes) {
    model.Apply(change);
    for (const SourceColumn& column : change.columns) {
      if (std::find(names.begin(), names.end(), column.name) == names.end()) {
        names.push_back(column.name);
      }
    }
  }
  columns->clear();
  for (const std::string& name : names) columns->push_back({name, DataType::String()});
  // Untyped formats make STRING columns.
  const std::vector<std::string> text_columns =
      IsTyped(format) ? std::vector<std::string>{} : names;
  std::vector<std::string> rows;
  for (const json& row : model.Rows(names, text_columns))
    rows.push_back(NormalizeRow(row, *columns));
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(KafkaSyncInterop, JavaAndFlinkReadTheSyncedTables) {
  TempDir dir;
  const std::string warehouse = dir.path();
  struct Synced {
    CdcFormat format;
    SyncedTable table;
  };
  std::vector<Synced> synced;
  for (CdcFormat format : AllCdcFormats()) {
    const std::vector<SyncedTable> tables = TablesOf(format);
    // The tables' changes interleaved, as one source database's log.
    std::vector<KafkaTestMessage> messages;
    size_t longest = 0;
    for (const SyncedTable& table : tables) longest = std::max(longest, table.changes.size());
    for (size_t i = 0; i < longest; ++i) {
      for (const SyncedTable& table : tables) {
        if (i < table.changes.size()) {
          messages.push_back(
              EncodeChange(format, table.changes[i], static_cast<int64_t>(messages.size())));
        }
      }
    }
    const std::string topic = UniqueTopicName("interop_" + FormatName(format));
    // No broker is a failure: the test runs under ctest's `kafka` fixture.
    ASSERT_OK(CreateTopic(topic, 1));
    ASSERT_OK(Produce(topic, messages));

    std::string args = "action ";
    if (NamesTable(format)) {
      args += "kafka_sync_database --database " + std::string(kDatabase);
    } else {
      args += "kafka_sync_table --database " + std::string(kDatabase) + " --table " +
              tables.front().name;
    }
    if (!CarriesPrimaryKeys(format) && format != CdcFormat::kJson) {
      // aws-dms-json names no keys; tables without an `id` column stay append tables.
      args += " --primary_keys id";
    }
    args += " --warehouse " + ShellQuote(warehouse) +
            " --kafka_conf properties.bootstrap.servers=" + KafkaBootstrap() +
            " --kafka_conf topic=" + topic + " --kafka_conf value.format=" + ValueFormat(format) +
            " --kafka_conf scan.startup.mode=earliest-offset --stop_at_end true";
    ASSERT_TRUE(SluiceOk(args, "kafka sync of " + ValueFormat(format)));
    for (const SyncedTable& table : tables) synced.push_back({format, table});
  }

  // Flink reads through a catalog of its own on the warehouse (the driver's `open` makes the
  // environments on first use, and cannot reopen its catalog once a test has used it).
  JavaOracle* flink = Flink();
  const std::string catalog = "kafka_sync_" + std::to_string(::getpid());
  bool flink_open = false;
  if (flink != nullptr) {
    std::string quoted = warehouse;
    for (size_t at = quoted.find('\''); at != std::string::npos; at = quoted.find('\'', at + 2)) {
      quoted.replace(at, 1, "''");
    }
    const json create = {
        {"cmd", "sql"},
        {"sql", "CREATE CATALOG " + catalog + " WITH ('type' = 'paimon', 'warehouse' = '" + quoted +
                    "', 'cache-enabled' = 'false')"}};
    OracleAnswer created = flink->Call(create);
    if (!created.ok()) {
      // No environment yet: `open` makes them.
      OracleAnswer opened = flink->Call({{"cmd", "open"}, {"warehouse", warehouse}});
      if (!opened.ok()) ADD_FAILURE() << "flink open: " << opened.error();
      created = flink->Call(create);
    }
    flink_open = created.ok();
    if (!flink_open) ADD_FAILURE() << "flink create catalog: " << created.error();
  }
  for (const Synced& s : synced) {
    std::vector<Column> columns;
    const std::vector<std::string> model = ModelRows(s.table, s.format, &columns);
    const std::string identifier = std::string(kDatabase) + "." + s.table.name;
    const std::string where = ShellQuote(identifier) + " --warehouse " + ShellQuote(warehouse);
    const ReadRows sluice = SluiceRead(where, columns);
    const ReadRows java =
        JavaRead({{"cmd", "read"}, {"warehouse", warehouse}, {"table", identifier}}, columns);
    const bool java_same = SameRows(
        "java read of " + identifier + " (" + ValueFormat(s.format) + ")", java, sluice, &model);
    ++Counts().reads_compared;
    bool flink_same = false;
    if (flink_open) {
      const ReadRows flink_rows = ProgramRead(
          flink, {{"cmd", "query"}, {"sql", "SELECT * FROM " + catalog + "." + identifier}},
          columns);
      flink_same = SameRows("flink read of " + identifier + " (" + ValueFormat(s.format) + ")",
                            flink_rows, sluice, &model);
      ++Counts().flink_reads;
    }
    std::printf("interop kafka_sync: %s %s: %zu rows, java %s, flink %s\n",
                ValueFormat(s.format).c_str(), identifier.c_str(), model.size(),
                java_same ? "equal" : "DIFFERENT", flink_same ? "equal" : "DIFFERENT");
  }
  ++Counts().scenarios;
}

}  // namespace
}  // namespace sluice::test
