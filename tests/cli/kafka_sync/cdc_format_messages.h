// The messages of the CDC formats Kafka sync reads (canal-json, debezium-json with and without
// Kafka Connect's schema envelope, maxwell-json, ogg-json, aws-dms-json, plain json), written as
// those tools document them from one description of a source row change, and a model of the
// Paimon table the changes make (by primary key under a merge engine, or a list of rows).
//
// Used by the per-format model tests (kafka_sync_model_test.cc) and the interop test that has
// Java Paimon and Flink read the synced tables (tests/interop/kafka_sync_interop_test.cc).
//
//   RowChange change{RowChange::Op::kInsert, "src", "items", {{"id", "int(11)"}}, {"id"},
//                    {{"id", 1}}};
//   KafkaTestMessage message = EncodeChange(CdcFormat::kCanal, change, /*sequence=*/0);
//
// Thread safety: pure functions; a CdcTableModel is used by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cdc/kafka/kafka_test_util.h"

namespace sluice::test {

enum class CdcFormat : unsigned char {
  kCanal,           // canal-json: values as text, `mysqlType`, `pkNames`, `old` of UPDATE
  kDebezium,        // debezium-json without the schema envelope: untyped, keys from the key
  kDebeziumSchema,  // debezium-json with the envelope (JsonConverter schemas.enable=true)
  kMaxwell,         // maxwell-json: `data`, `old`, `primary_key_columns`
  kOgg,             // ogg-json: `table` "db.table", `op_type` I/U/D, `before` / `after`
  kDms,             // aws-dms-json: `data` (BI_ columns: the before image), `metadata`
  kJson,            // json: the row itself, inserts only
};

std::vector<CdcFormat> AllCdcFormats();
// The `value.format` of `format`.
std::string ValueFormat(CdcFormat format);
// A name for test names: "canal", "debezium_schema", ...
std::string FormatName(CdcFormat format);
// Whether the messages carry column types (canal's mysqlType, Debezium's Connect schema); the
// other formats' columns are STRING.
bool IsTyped(CdcFormat format);
// Whether the messages name the primary keys (else the action's --primary_keys does).
bool CarriesPrimaryKeys(CdcFormat format);
// Whether the messages name their database and table (plain json does not).
bool NamesTable(CdcFormat format);

// A source column and its MySQL type ("int(11)", "bigint(20)", "varchar(10)", "tinyint(1)",
// "datetime"); Debezium's Connect types are derived from it.
struct SourceColumn {
  std::string name;
  std::string mysql_type;
};

struct RowChange {
  enum class Op : unsigned char { kInsert, kUpdate, kDelete };
  Op op = Op::kInsert;
  std::string database;
  std::string table;
  // The table's columns at the time of the change, in order.
  std::vector<SourceColumn> columns;
  std::vector<std::string> primary_keys;  // empty: a table without primary key
  // Column -> value (a JSON number, string or null; a datetime as "2024-03-05 10:00:00"); a
  // column absent here is NULL. Insert and update: the row after; delete: the deleted row.
  nlohmann::json row;
  // Update: the row before.
  nlohmann::json before;
};

// The message of `change` in `format` (key: the primary key where the format keys by it).
// `sequence` numbers the message (positions, transaction ids).
KafkaTestMessage EncodeChange(CdcFormat format, const RowChange& change, int64_t sequence);

// The table a stream of changes makes in Paimon, as Java's CDC sink writes them: an insert is
// +I of the row, a delete -D of the row, an update -D of the row before then +I of the row
// after (Java's parsers emit no -U/+U).
class CdcTableModel {
 public:
  enum class Engine : unsigned char {
    kDeduplicate,    // the last row of a key
    kPartialUpdate,  // the last non-null value of each column (with ignore-delete)
    kAggregation,    // `sum_column` summed (retractions subtract), others last non-null
    kFirstRow,       // the first row of a key (with ignore-delete)
    kAppend,         // every +I; -D dropped (with ignore-delete)
  };

  CdcTableModel(Engine engine, std::vector<std::string> keys, std::string sum_column = "");

  void Apply(const RowChange& change);
  // The rows, each with every column of `columns` (absent: null), the non-null values of
  // `text_columns` as their text (tables of untyped formats hold STRING columns). Sorted by
  // text.
  std::vector<nlohmann::json> Rows(const std::vector<std::string>& columns,
                                   const std::vector<std::string>& text_columns = {}) const;

 private:
  void Add(const nlohmann::json& row);
  void Retract(const nlohmann::json& row);
  std::string KeyOf(const nlohmann::json& row) const;

  Engine engine_;
  std::vector<std::string> keys_;
  std::string sum_column_;
  std::map<std::string, nlohmann::json> by_key_;
  std::vector<nlohmann::json> appended_;
};

}  // namespace sluice::test
