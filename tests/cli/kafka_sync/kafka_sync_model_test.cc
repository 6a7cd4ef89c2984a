// `sluice action kafka_sync_database` / `kafka_sync_table` per format against a model, through
// the real broker: each case is a stream of source row changes, written in each of its formats
// (cdc_format_messages.h) as the tools document them, synced with --stop_at_end, and the table
// read back must equal the model of the changes (by key under the table's merge engine, or a
// list of rows for append tables), with the column types the changes ask for (schema
// evolution: added columns, widened types, narrowing ignored, incompatible changes refused
// with the job exiting 1 and keeping what it committed), --type_mapping, --computed_column and
// --partition_keys.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "cli/kafka_sync/cdc_format_messages.h"
#include "kafka_sync_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CdcFormat;
using test::CdcTableModel;
using test::CommandResult;
using test::RowChange;
using test::SourceColumn;
using Engine = CdcTableModel::Engine;
using Columns = std::vector<SourceColumn>;

// The changes of one source table, built in order.
class Stream {
 public:
  explicit Stream(std::vector<std::string> keys = {"id"}, std::string table = "items")
      : keys_(std::move(keys)), table_(std::move(table)) {}

  Stream& I(const Columns& columns, json row) { return Add(RowChange::Op::kInsert, columns, row); }
  Stream& U(const Columns& columns, json before, json after) {
    Add(RowChange::Op::kUpdate, columns, std::move(after));
    changes_.back().before = std::move(before);
    return *this;
  }
  Stream& D(const Columns& columns, json row) { return Add(RowChange::Op::kDelete, columns, row); }
  std::vector<RowChange> changes() const { return changes_; }

 private:
  Stream& Add(RowChange::Op op, const Columns& columns, json row) {
    changes_.push_back(RowChange{op, "src", table_, columns, keys_, std::move(row), nullptr});
    return *this;
  }

  std::vector<std::string> keys_;
  std::string table_;
  std::vector<RowChange> changes_;
};

struct ModelCase {
  std::string name;
  std::vector<CdcFormat> formats;
  std::vector<RowChange> changes;
  Engine engine = Engine::kDeduplicate;
  std::string sum_column;
  // More action arguments (beyond --warehouse, --database and the Kafka options).
  std::string args;
  // The index of the change the job stops at with an error (-1: none) and its error's words.
  int fail_at = -1;
  std::vector<std::string> error_words;
  // Types the table's columns must end with, where they differ from what the last change
  // declares (narrowing is ignored, type mappings, computed columns).
  std::map<std::string, std::string> types;
  // The table holds every value as text (to-string).
  bool values_as_text = false;
  // Computed columns: adds them to a model row.
  std::function<void(json*)> derive;
  // How the table shows a model row of `format` (BOOLEAN of tinyint(1), timestamps).
  std::function<void(CdcFormat, json*)> as_read;
  std::vector<std::string> partition_keys;
  // With fail_at: arguments that remove the cause, for a second run that must end with the
  // model of every change.
  std::string rerun_args;
  // Columns the second run turns into text.
  std::vector<std::string> rerun_text_columns;
};

const std::vector<CdcFormat> kKeyedFormats = {
    CdcFormat::kCanal,   CdcFormat::kDebezium, CdcFormat::kDebeziumSchema,
    CdcFormat::kMaxwell, CdcFormat::kOgg,      CdcFormat::kDms};
const std::vector<CdcFormat> kTyped = {CdcFormat::kCanal, CdcFormat::kDebeziumSchema};

const std::vector<std::string> kNoKeys;

const Columns kItem = {{"id", "int(11)"}, {"name", "varchar(32)"}, {"qty", "int(11)"}};
const Columns kItemShort = {{"id", "int(11)"}, {"name", "varchar(32)"}};

// The Paimon type a column of `mysql_type` gets in `format` (default type mapping).
std::string ExpectedType(CdcFormat format, const std::string& mysql_type) {
  if (!test::IsTyped(format)) return "STRING";
  if (mysql_type.starts_with("bigint")) return "BIGINT";
  if (mysql_type.starts_with("int")) return "INT";
  if (mysql_type.starts_with("datetime")) {
    return format == CdcFormat::kCanal ? "TIMESTAMP(0)" : "TIMESTAMP(3)";
  }
  if (mysql_type == "tinyint(1)") return format == CdcFormat::kCanal ? "BOOLEAN" : "SMALLINT";
  if (mysql_type.starts_with("varchar")) {
    if (format == CdcFormat::kDebeziumSchema) return "STRING";
    std::string upper = "VARCHAR" + mysql_type.substr(7);
    return upper;
  }
  return "?" + mysql_type;
}

std::string Year(const json& ts) { return ts.is_null() ? "" : ts.get<std::string>().substr(0, 4); }

void DeriveYearAndPrefix(json* row) {
  const json& ts = (*row)["ts"];
  (*row)["y"] = ts.is_null() ? json(nullptr) : json(std::stoi(Year(ts)));
  const json& name = (*row)["name"];
  (*row)["p"] = name.is_null() ? json(nullptr) : json(name.get<std::string>().substr(0, 2));
}

// tinyint(1) reads as BOOLEAN.
void FlagAsBool(CdcFormat /*format*/, json* row) {
  json& flag = (*row)["flag"];
  if (!flag.is_null()) flag = flag.get<int>() != 0;
}

// A DATETIME reads as TIMESTAMP(0) from canal, TIMESTAMP(3) from Debezium's epoch millis.
void TimestampAsRead(CdcFormat format, json* row) {
  json& ts = (*row)["ts"];
  if (!ts.is_null() && format == CdcFormat::kDebeziumSchema) ts = ts.get<std::string>() + ".000";
}

ModelCase& AddCase(std::vector<ModelCase>* cases, std::string name, std::vector<CdcFormat> formats,
                   std::vector<RowChange> changes) {
  ModelCase& c = cases->emplace_back();
  c.name = std::move(name);
  c.formats = std::move(formats);
  c.changes = std::move(changes);
  return c;
}

std::vector<ModelCase> Cases() {
  std::vector<ModelCase> cases;
  // Inserts, updates (of a value, to and from NULL), deletes, a deleted key inserted again.
  AddCase(&cases, "dml", kKeyedFormats,
          Stream()
              .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}})
              .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 7}})
              .I(kItem, {{"id", 3}, {"name", "cap"}, {"qty", nullptr}})
              .U(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}},
                 {{"id", 1}, {"name", "red pen"}, {"qty", 6}})
              .D(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 7}})
              .U(kItem, {{"id", 3}, {"name", "cap"}, {"qty", nullptr}},
                 {{"id", 3}, {"name", "cap"}, {"qty", 9}})
              .I(kItem, {{"id", 4}, {"name", "pad"}, {"qty", 1}})
              .U(kItem, {{"id", 4}, {"name", "pad"}, {"qty", 1}},
                 {{"id", 4}, {"name", nullptr}, {"qty", 1}})
              .I(kItem, {{"id", 2}, {"name", "ink 2"}, {"qty", 8}})
              .changes());
  // A column added mid-stream: later rows have it, earlier rows read NULL.
  AddCase(&cases, "add_column", kKeyedFormats,
          Stream()
              .I(kItemShort, {{"id", 1}, {"name", "pen"}})
              .I(kItemShort, {{"id", 2}, {"name", "ink"}})
              .I(kItem, {{"id", 3}, {"name", "cup"}, {"qty", 5}})
              .U(kItem, {{"id", 1}, {"name", "pen"}, {"qty", nullptr}},
                 {{"id", 1}, {"name", "pen"}, {"qty", 7}})
              .D(kItem, {{"id", 3}, {"name", "cup"}, {"qty", 5}})
              .I(kItem, {{"id", 4}, {"name", "pad"}, {"qty", 2}})
              .changes());
  // Types widened: INT -> BIGINT (a value beyond INT follows), VARCHAR(10) -> VARCHAR(20).
  const Columns narrow = {{"id", "int(11)"}, {"name", "varchar(10)"}, {"qty", "int(11)"}};
  const Columns wide = {{"id", "int(11)"}, {"name", "varchar(20)"}, {"qty", "bigint(20)"}};
  AddCase(&cases, "widen", kTyped,
          Stream()
              .I(narrow, {{"id", 1}, {"name", "pen"}, {"qty", 5}})
              .I(wide, {{"id", 2}, {"name", "fountain pens"}, {"qty", 5000000000}})
              .U(wide, {{"id", 1}, {"name", "pen"}, {"qty", 5}},
                 {{"id", 1}, {"name", "pen"}, {"qty", -6000000000}})
              .changes());
  // Narrowing is ignored (Java's IGNORE): the table keeps the wider types.
  const Columns narrow_qty = {{"id", "int(11)"}, {"name", "varchar(20)"}, {"qty", "int(11)"}};
  {
    ModelCase& c = AddCase(&cases, "narrow_ignored", kTyped,
                           Stream()
                               .I(wide, {{"id", 1}, {"name", "fountain pens"}, {"qty", 5000000000}})
                               .I(narrow_qty, {{"id", 2}, {"name", "pen"}, {"qty", 5}})
                               .changes());
    c.types = {{"qty", "BIGINT"}};
  }
  {
    ModelCase& c = AddCase(&cases, "narrow_varchar_ignored", {CdcFormat::kCanal},
                           Stream()
                               .I(wide, {{"id", 1}, {"name", "fountain pens"}, {"qty", 5}})
                               .I(narrow, {{"id", 2}, {"name", "pen"}, {"qty", 5}})
                               .changes());
    c.types = {{"name", "VARCHAR(20)"}, {"qty", "BIGINT"}};
  }
  // An incompatible change stops the job naming table, column and both types; what came
  // before is committed.
  const Columns text_qty = {{"id", "int(11)"}, {"name", "varchar(32)"}, {"qty", "varchar(10)"}};
  {
    ModelCase& c = AddCase(&cases, "incompatible", kTyped,
                           Stream()
                               .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}})
                               .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 7}})
                               .I(text_qty, {{"id", 3}, {"name", "cup"}, {"qty", "many"}})
                               .I(text_qty, {{"id", 4}, {"name", "pad"}, {"qty", "1"}})
                               .changes());
    c.fail_at = 2;
    c.error_words = {"Cannot convert field qty from type INT to", "ods.items",
                     "incompatible types"};
    // Allowed, INT becomes text.
    c.rerun_args = "--type_mapping allow-non-string-to-string";
    c.rerun_text_columns = {"qty"};
  }
  // --type_mapping, canal's MySQL types.
  const Columns flagged = {
      {"id", "int(11)"}, {"name", "varchar(10)"}, {"flag", "tinyint(1)"}, {"qty", "int(11)"}};
  const std::vector<RowChange> flagged_changes =
      Stream()
          .I(flagged, {{"id", 1}, {"name", "pen"}, {"flag", 1}, {"qty", 5}})
          .I(flagged, {{"id", 2}, {"name", "ink"}, {"flag", 0}, {"qty", nullptr}})
          .U(flagged, {{"id", 2}, {"name", "ink"}, {"flag", 0}, {"qty", nullptr}},
             {{"id", 2}, {"name", "ink"}, {"flag", 1}, {"qty", 3}})
          .changes();
  {
    ModelCase& c = AddCase(&cases, "tinyint1_bool", {CdcFormat::kCanal}, flagged_changes);
    c.as_read = FlagAsBool;
  }
  {
    ModelCase& c = AddCase(&cases, "to_string", {CdcFormat::kCanal}, flagged_changes);
    c.args = "--type_mapping to-string";
    c.types = {
        {"id", "STRING NOT NULL"}, {"name", "STRING"}, {"flag", "STRING"}, {"qty", "STRING"}};
    c.values_as_text = true;
  }
  {
    ModelCase& c = AddCase(&cases, "char_to_string", {CdcFormat::kCanal}, flagged_changes);
    c.args = "--type_mapping char-to-string";
    c.types = {{"name", "STRING"}};
    c.as_read = FlagAsBool;
  }
  {
    ModelCase& c = AddCase(&cases, "tinyint1_not_bool", {CdcFormat::kCanal}, flagged_changes);
    c.args = "--type_mapping tinyint1-not-bool";
    c.types = {{"flag", "TINYINT"}};
  }
  // Merge engines.
  {
    ModelCase& c = AddCase(
        &cases, "partial_update",
        {CdcFormat::kCanal, CdcFormat::kDebeziumSchema, CdcFormat::kMaxwell, CdcFormat::kOgg},
        Stream()
            .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", nullptr}})
            .U(kItem, {{"id", 1}, {"name", "pen"}, {"qty", nullptr}},
               {{"id", 1}, {"name", nullptr}, {"qty", 5}})
            .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 3}})
            .U(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 3}},
               {{"id", 2}, {"name", "ink 2"}, {"qty", nullptr}})
            .D(kItem, {{"id", 2}, {"name", "ink 2"}, {"qty", nullptr}})
            .changes());
    c.engine = Engine::kPartialUpdate;
    c.args =
        "--table_conf merge-engine=partial-update "
        "--table_conf ignore-delete=true";
  }
  {
    ModelCase& c = AddCase(&cases, "aggregation", kTyped,
                           Stream()
                               .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}})
                               .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 3}})
                               .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 1}})
                               .U(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 3}},
                                  {{"id", 1}, {"name", "red pen"}, {"qty", 4}})
                               .I(kItem, {{"id", 2}, {"name", nullptr}, {"qty", 10}})
                               .changes());
    c.engine = Engine::kAggregation;
    c.sum_column = "qty";
    c.args =
        "--table_conf merge-engine=aggregation "
        "--table_conf fields.qty.aggregate-function=sum";
  }
  {
    ModelCase& c = AddCase(
        &cases, "first_row",
        {CdcFormat::kCanal, CdcFormat::kDebeziumSchema, CdcFormat::kMaxwell, CdcFormat::kOgg},
        Stream()
            .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}})
            .U(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}},
               {{"id", 1}, {"name", "red pen"}, {"qty", 6}})
            .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 1}})
            .D(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 1}})
            .I(kItem, {{"id", 3}, {"name", "cup"}, {"qty", 2}})
            .changes());
    c.engine = Engine::kFirstRow;
    c.args = "--table_conf merge-engine=first-row --table_conf ignore-delete=true";
  }
  // Append tables (no primary key): every format's inserts, a column added mid-stream.
  std::vector<CdcFormat> all = test::AllCdcFormats();
  {
    ModelCase& c = AddCase(&cases, "append", all,
                           Stream(kNoKeys)
                               .I(kItemShort, {{"id", 1}, {"name", "pen"}})
                               .I(kItemShort, {{"id", 1}, {"name", "pen"}})
                               .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 4}})
                               .I(kItem, {{"id", 3}, {"name", nullptr}, {"qty", nullptr}})
                               .changes());
    c.engine = Engine::kAppend;
  }
  // Retractions into an append table: dropped with ignore-delete, else the job stops.
  const std::vector<RowChange> retracting =
      Stream(kNoKeys)
          .I(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}})
          .U(kItem, {{"id", 1}, {"name", "pen"}, {"qty", 5}},
             {{"id", 1}, {"name", "red pen"}, {"qty", 5}})
          .D(kItem, {{"id", 1}, {"name", "red pen"}, {"qty", 5}})
          .I(kItem, {{"id", 2}, {"name", "ink"}, {"qty", 1}})
          .changes();
  {
    ModelCase& c = AddCase(&cases, "append_ignore_delete", kKeyedFormats, retracting);
    c.engine = Engine::kAppend;
    c.args = "--table_conf ignore-delete=true";
  }
  {
    ModelCase& c = AddCase(&cases, "append_retraction_refused",
                           {CdcFormat::kCanal, CdcFormat::kOgg}, retracting);
    c.engine = Engine::kAppend;
    c.fail_at = 1;
    c.error_words = {
        "table ods.items has no primary key, so it cannot take a -D "
        "record",
        "ignore-delete"};
    c.rerun_args = "--table_conf ignore-delete=true";
  }
  // --computed_column and --partition_keys.
  const Columns timed = {{"id", "int(11)"}, {"name", "varchar(32)"}, {"ts", "datetime"}};
  {
    ModelCase& c =
        AddCase(&cases, "computed_partitioned", kTyped,
                Stream()
                    .I(timed, {{"id", 1}, {"name", "pen"}, {"ts", "2023-05-01 10:00:00"}})
                    .I(timed, {{"id", 2}, {"name", "inkwell"}, {"ts", "2024-01-02 03:04:05"}})
                    .I(timed, {{"id", 3}, {"name", "cup"}, {"ts", "2024-12-31 23:59:59"}})
                    .U(timed, {{"id", 1}, {"name", "pen"}, {"ts", "2023-05-01 10:00:00"}},
                       {{"id", 1}, {"name", "penny"}, {"ts", "2023-05-01 10:00:00"}})
                    .D(timed, {{"id", 2}, {"name", "inkwell"}, {"ts", "2024-01-02 03:04:05"}})
                    .changes());
    c.args =
        "--computed_column 'y=year(ts)' --computed_column 'p=substring(name,0,2)' "
        "--primary_keys id,y --partition_keys y";
    c.types = {{"y", "INT NOT NULL"}, {"p", "STRING"}};
    c.derive = DeriveYearAndPrefix;
    c.as_read = TimestampAsRead;
    c.partition_keys = {"y"};
  }
  {
    ModelCase& c =
        AddCase(&cases, "computed_partitioned_append", {CdcFormat::kJson, CdcFormat::kMaxwell},
                Stream(kNoKeys)
                    .I(timed, {{"id", 1}, {"name", "pen"}, {"ts", "2023-05-01 10:00:00"}})
                    .I(timed, {{"id", 2}, {"name", "inkwell"}, {"ts", "2024-01-02 03:04:05"}})
                    .I(timed, {{"id", 3}, {"name", "ink"}, {"ts", "2024-12-31 23:59:59"}})
                    .changes());
    c.engine = Engine::kAppend;
    c.args =
        "--computed_column 'y=year(ts)' --computed_column 'p=substring(name,0,2)' "
        "--partition_keys p";
    c.types = {{"y", "INT"}, {"p", "STRING"}};
    c.derive = DeriveYearAndPrefix;
    c.partition_keys = {"p"};
  }
  return cases;
}

const std::vector<ModelCase>& AllCases() {
  static const std::vector<ModelCase> cases = Cases();
  return cases;
}

struct Param {
  const ModelCase* model_case;
  CdcFormat format;
};

void PrintTo(const Param& param, std::ostream* out) {
  *out << param.model_case->name << " in " << test::ValueFormat(param.format);
}

std::vector<Param> Params() {
  std::vector<Param> params;
  for (const ModelCase& c : AllCases()) {
    for (CdcFormat format : c.formats) params.push_back({&c, format});
  }
  return params;
}

class KafkaSyncModelTest : public ::testing::TestWithParam<Param> {};

// The keys of the table `c` makes.
std::vector<std::string> TableKeys(const ModelCase& c) {
  if (c.args.find("--primary_keys id,y") != std::string::npos) return {"id", "y"};
  return c.changes.front().primary_keys;
}

// What the table must hold after the first `applied` changes of `c`.
struct ExpectedTable {
  std::vector<json> rows;
  std::map<std::string, std::string> types;
  std::vector<std::string> keys;
};

ExpectedTable Expected(const ModelCase& c, CdcFormat format, size_t applied,
                       const std::vector<std::string>& text_columns = {}) {
  ExpectedTable out;
  out.keys = TableKeys(c);
  CdcTableModel model(c.engine, out.keys, c.sum_column);
  std::vector<std::string> columns;
  for (size_t i = 0; i < applied; ++i) {
    RowChange change = c.changes[i];
    if (c.derive) {
      c.derive(&change.row);
      if (!change.before.is_null()) c.derive(&change.before);
    }
    model.Apply(change);
    for (const SourceColumn& column : change.columns) {
      if (std::find(columns.begin(), columns.end(), column.name) == columns.end()) {
        columns.push_back(column.name);
      }
      out.types[column.name] = ExpectedType(format, column.mysql_type);
    }
    for (const auto& [name, value] : change.row.items()) {
      if (std::find(columns.begin(), columns.end(), name) == columns.end()) columns.push_back(name);
    }
  }
  for (const std::string& key : out.keys) out.types[key] += " NOT NULL";
  for (const auto& [name, type] : c.types) out.types[name] = type;

  const bool as_text = c.values_as_text || !test::IsTyped(format);
  std::vector<std::string> text = text_columns;
  if (as_text) {
    for (const auto& change : c.changes) {
      for (const SourceColumn& column : change.columns) text.push_back(column.name);
    }
  }
  out.rows = model.Rows(columns, text);
  if (c.as_read && !as_text) {
    for (json& row : out.rows) c.as_read(format, &row);
  }
  out.rows = test::Sorted(std::move(out.rows));
  return out;
}

// Checks that the table equals `expected`, with its column types, keys and partition keys.
void ExpectTable(const ModelCase& c, const std::string& warehouse, const ExpectedTable& expected,
                 const std::string& log) {
  const std::string table = "ods." + c.changes.front().table;
  EXPECT_EQ(test::ReadRows(warehouse, table), expected.rows) << log;
  EXPECT_EQ(test::ColumnTypes(warehouse, table), expected.types);
  json schema = test::LatestSchema(warehouse, table);
  EXPECT_EQ(schema["primaryKeys"],
            json(c.engine == Engine::kAppend ? std::vector<std::string>{} : expected.keys));
  EXPECT_EQ(schema["partitionKeys"], json(c.partition_keys));
}

TEST_P(KafkaSyncModelTest, TableEqualsTheModel) {
  const ModelCase& c = *GetParam().model_case;
  const CdcFormat format = GetParam().format;
  const RowChange& first = c.changes.front();
  std::string topic = test::UniqueTopicName(c.name + "_" + test::FormatName(format));
  ASSERT_OK(test::CreateTopic(topic, 1));
  std::vector<test::KafkaTestMessage> messages;
  for (size_t i = 0; i < c.changes.size(); ++i) {
    messages.push_back(test::EncodeChange(format, c.changes[i], static_cast<int64_t>(i)));
  }
  ASSERT_OK(test::Produce(topic, messages));

  test::TempDir warehouse;
  std::string args = "--database ods " + c.args;
  std::string action = "kafka_sync_database";
  if (!test::NamesTable(format)) {
    action = "kafka_sync_table";
    args += " --table " + first.table;
  }
  if (!test::CarriesPrimaryKeys(format) && !first.primary_keys.empty()) {
    std::string keys;
    for (const std::string& key : first.primary_keys) keys += (keys.empty() ? "" : ",") + key;
    if (c.args.find("--primary_keys") == std::string::npos) args += " --primary_keys " + keys;
  }
  CommandResult r = test::RunSync(action, warehouse.path(), topic, test::ValueFormat(format), args);
  if (c.fail_at < 0) {
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ExpectTable(c, warehouse.path(), Expected(c, format, c.changes.size()), r.err);
    return;
  }
  EXPECT_EQ(r.exit_code, 1) << r.err;
  for (const std::string& words : c.error_words) {
    EXPECT_NE(r.err.find(words), std::string::npos) << words << "\n" << r.err;
  }
  EXPECT_NE(r.err.find("offset " + std::to_string(c.fail_at)), std::string::npos) << r.err;
  // What the job committed before it stopped is readable: the changes before the failed one,
  // or fewer (the job may drop what it had not committed yet; the Kafka offsets it stores then
  // let a restart replay it).
  const std::vector<json> rows = test::ReadRows(warehouse.path(), "ods." + first.table);
  bool prefix = false;
  for (int applied = c.fail_at; applied >= 0 && !prefix; --applied) {
    prefix = rows == Expected(c, format, static_cast<size_t>(applied)).rows;
  }
  EXPECT_TRUE(prefix) << "the table holds no prefix of the changes before offset " << c.fail_at
                      << ": " << json(rows).dump() << "\n"
                      << r.err;
  EXPECT_EQ(test::ColumnTypes(warehouse.path(), "ods." + first.table),
            Expected(c, format, static_cast<size_t>(c.fail_at)).types);
  if (c.rerun_args.empty()) return;
  // Run again with the cause removed: the table ends as if the job never stopped.
  r = test::RunSync(action, warehouse.path(), topic, test::ValueFormat(format),
                    args + " " + c.rerun_args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectTable(c, warehouse.path(), Expected(c, format, c.changes.size(), c.rerun_text_columns),
              r.err);
}

INSTANTIATE_TEST_SUITE_P(Cases, KafkaSyncModelTest, ::testing::ValuesIn(Params()),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return info.param.model_case->name + "_" +
                                  test::FormatName(info.param.format);
                         });

}  // namespace
}  // namespace sluice
