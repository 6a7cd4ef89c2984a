// Java reads what Sluice writes: seeded random scenarios, one table each (append with bucket -1
// and fixed buckets; primary-key tables with every merge engine; Parquet, ORC and Avro; many
// column types), driven through the `sluice` command: writes, compactions, overwrites and schema
// changes. After every commit the latest rows are compared three ways (Java Paimon, Sluice, the
// model); at the end every snapshot (time travel), every snapshot's delta, a projected and
// filtered read; then Java writes and compacts into the table and Sluice reads the result.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "interop/interop_harness.h"
#include "interop/table_model.h"
#include "test_util.h"

namespace sluice::test {
namespace {

constexpr int kScenarios = 14;
constexpr int kStepsPerScenario = 7;

struct Scenario {
  std::string name;
  TableShape shape;
  std::map<std::string, std::string> options;
  bool bucketed = true;  // false: bucket -1 append table
  int key_space = 16;
};

std::string Pick(std::mt19937_64* rng, const std::vector<std::string>& items) {
  return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(*rng)];
}

bool Chance(std::mt19937_64* rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(*rng) < p;
}

// Avro files hold timestamps of precision <= 6 only (Java refuses the others at CREATE).
bool AvroHolds(const DataTypePtr& type) {
  if ((type->root() == TypeRoot::kTimestamp || type->root() == TypeRoot::kTimestampLtz) &&
      type->precision() > 6) {
    return false;
  }
  if (type->root() == TypeRoot::kArray) return AvroHolds(type->element());
  if (type->root() == TypeRoot::kMap) return AvroHolds(type->key()) && AvroHolds(type->value());
  for (const DataField& field : type->fields()) {
    if (!AvroHolds(field.type)) return false;
  }
  return true;
}

Scenario MakeScenario(int index, std::mt19937_64* rng) {
  static const char* const kKinds[] = {"append-unaware",  "append-fixed",   "deduplicate",
                                       "deduplicate-seq", "partial-update", "aggregation",
                                       "first-row"};
  const std::string kind = kKinds[index % 7];
  const std::string format = std::vector<std::string>{"parquet", "orc", "avro"}[index % 3];
  Scenario s;
  s.name = "s" + std::to_string(index) + "_" + kind + "_" + format;
  for (char& c : s.name) {
    if (c == '-') c = '_';
  }
  TableShape& shape = s.shape;
  const bool partitioned = Chance(rng, 0.5);
  shape.columns.push_back({"id", DataType::BigInt(false)});
  if (partitioned) {
    shape.columns.push_back({"p", DataType::Int(false)});
    shape.partition_keys = {"p"};
  }
  std::vector<DataTypePtr> pool = ValueTypePool();
  if (format == "avro") std::erase_if(pool, [](const DataTypePtr& t) { return !AvroHolds(t); });
  std::shuffle(pool.begin(), pool.end(), *rng);
  for (int i = 0; i < 6; ++i) shape.columns.push_back({"v" + std::to_string(i), pool[i]});

  s.options["file.format"] = format;
  const std::map<std::string, std::vector<std::string>> codecs = {
      {"parquet", {"zstd", "snappy", "gzip", "none"}},
      {"orc", {"zstd", "snappy", "zlib", "lz4", "none"}},
      {"avro", {"zstd", "snappy", "deflate"}}};
  s.options["file.compression"] = Pick(rng, codecs.at(format));
  const std::string buckets = Pick(rng, {"1", "2", "3"});
  if (kind == "append-unaware") {
    s.options["bucket"] = "-1";
    s.bucketed = false;
  } else if (kind == "append-fixed") {
    s.options["bucket"] = buckets;
    s.options["bucket-key"] = "id";
  } else {
    s.options["bucket"] = buckets;
    shape.primary_keys = {"id"};
    if (partitioned) shape.primary_keys.push_back("p");
    shape.merge_engine = kind == "deduplicate-seq" ? "deduplicate" : kind;
    if (shape.merge_engine != "deduplicate") s.options["merge-engine"] = shape.merge_engine;
  }
  if (kind == "deduplicate-seq") {
    shape.columns.push_back({"seq", DataType::BigInt(false)});
    shape.sequence_field = "seq";
    s.options["sequence.field"] = "seq";
  }
  if (kind == "partial-update" && Chance(rng, 0.7)) {
    shape.columns.push_back({"g1", DataType::Int()});
    shape.columns.push_back({"ga", DataType::String()});
    shape.columns.push_back({"gb", DataType::BigInt()});
    shape.sequence_groups["g1"] = {"ga", "gb"};
    s.options["fields.g1.sequence-group"] = "ga,gb";
  }
  if (kind == "aggregation") {
    const std::vector<std::pair<Column, std::string>> aggregated = {
        {{"a_sum", DataType::BigInt()}, "sum"},
        {{"a_max", DataType::Int()}, "max"},
        {{"a_min", DataType::Double()}, "min"},
        {{"a_last", DataType::String()}, "last_value"},
        {{"a_first", DataType::String()}, "first_non_null_value"},
        {{"a_dmax", DataType::Decimal(12, 2)}, "max"},
    };
    for (const auto& [column, fn] : aggregated) {
      shape.columns.push_back(column);
      shape.aggregate_functions[column.name] = fn;
      s.options["fields." + column.name + ".aggregate-function"] = fn;
    }
  }
  return s;
}

// Value columns that no option names: the ones schema changes may touch.
std::vector<std::string> PlainColumns(const TableShape& shape) {
  std::vector<std::string> out;
  for (const Column& column : shape.columns) {
    if (column.name[0] == 'v' || column.name[0] == 'n') out.push_back(column.name);
  }
  return out;
}

nlohmann::json RandomRow(const Scenario& s, const TableShape& shape, std::mt19937_64* rng,
                         bool allow_retract) {
  nlohmann::json row = nlohmann::json::object();
  for (const Column& column : shape.columns) {
    if (column.name == "id") {
      row["id"] =
          shape.primary_keys.empty()
              ? RandomValue(column.type, rng)
              : nlohmann::json(std::uniform_int_distribution<int64_t>(0, s.key_space - 1)(*rng));
    } else if (column.name == "p") {
      row["p"] = std::uniform_int_distribution<int>(0, 2)(*rng);
    } else if (column.name == "seq") {
      row["seq"] = std::uniform_int_distribution<int>(0, 30)(*rng);
    } else if (column.name == "a_sum") {
      row["a_sum"] =
          Chance(rng, 0.1)
              ? nlohmann::json()
              : nlohmann::json(std::uniform_int_distribution<int64_t>(-1000, 1000)(*rng));
    } else if (column.name == "g1") {
      // Never null: a group with a null sequence field keeps or takes the record's values
      // depending on whether the key's records meet in one merge (file layout), which no model
      // step knows.
      row["g1"] = std::uniform_int_distribution<int>(0, 9)(*rng);
    } else {
      row[column.name] = RandomValue(column.type, rng);
    }
  }
  if (shape.merge_engine == "deduplicate" && shape.sequence_field.empty()) {
    const int r = std::uniform_int_distribution<int>(0, 9)(*rng);
    if (allow_retract && r == 0) row["_ROW_KIND"] = "-D";
    if (allow_retract && r == 1) row["_ROW_KIND"] = "-U";
    if (r == 2) row["_ROW_KIND"] = "+U";
  }
  return row;
}

std::vector<nlohmann::json> RandomBatch(const Scenario& s, const TableShape& shape,
                                        std::mt19937_64* rng, bool allow_retract) {
  std::vector<nlohmann::json> rows;
  const int n = std::uniform_int_distribution<int>(1, 25)(*rng);
  for (int i = 0; i < n; ++i) rows.push_back(RandomRow(s, shape, rng, allow_retract));
  return rows;
}

class SluiceTableRun {
 public:
  SluiceTableRun(Scenario scenario, const std::string& warehouse, uint64_t seed)
      : s_(std::move(scenario)), warehouse_(warehouse), rng_(seed), model_(s_.shape) {
    table_ = "interop." + s_.name;
    dir_ = warehouse_ + "/interop.db/" + s_.name;
  }

  void Run() {
    if (!Create()) return;
    for (int step = 0; step < kStepsPerScenario && !Failed(); ++step) {
      const double r = std::uniform_real_distribution<double>(0, 1)(rng_);
      if (step == 0 || r < 0.55) {
        SluiceWrite(RandomBatch(s_, model_.shape(), &rng_, step > 0), false);
      } else if (r < 0.72) {
        SluiceCompact(Chance(&rng_, 0.5));
      } else if (r < 0.8) {
        SluiceWrite(RandomBatch(s_, model_.shape(), &rng_, false), true);
      } else {
        SchemaChange();
      }
    }
    if (Failed()) return;
    CompareEverySnapshot();
    CompareDeltas();
    CompareRanges();
    CompareProjectionAndFilter();
    JavaWritesAndCompacts();
    SluiceOk("check " + ShellQuote(dir_), s_.name + " check");
    Counts().files_compared += DataFileCount(dir_);
    ++Counts().scenarios;
  }

 private:
  static int FailureParts() {
    return ::testing::UnitTest::GetInstance()->current_test_info()->result()->total_part_count();
  }
  // This scenario failed (earlier scenarios' failures do not stop it).
  bool Failed() const { return FailureParts() > parts_at_start_; }

  std::string Where() const {
    return ShellQuote(table_) + " --warehouse " + ShellQuote(warehouse_);
  }

  bool Create() {
    std::string args = "create-table " + Where();
    for (const Column& column : s_.shape.columns) {
      args += " --column " + ShellQuote(column.name + " " + column.type->ToString());
    }
    auto join = [](const std::vector<std::string>& v) {
      std::string out;
      for (const std::string& x : v) out += (out.empty() ? "" : ",") + x;
      return out;
    };
    if (!s_.shape.primary_keys.empty()) args += " --primary-key " + join(s_.shape.primary_keys);
    if (!s_.shape.partition_keys.empty()) args += " --partition " + join(s_.shape.partition_keys);
    for (const auto& [k, v] : s_.options) args += " --option " + ShellQuote(k + "=" + v);
    return SluiceOk(args, s_.name + " create");
  }

  void SluiceWrite(const std::vector<nlohmann::json>& rows, bool overwrite) {
    const std::string input = warehouse_ + "/input-" + s_.name + ".jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    const std::string args = "write " + Where() + " --input " + ShellQuote(input) +
                             " --format jsonl" + (overwrite ? " --overwrite" : "");
    if (!SluiceOk(args, s_.name + (overwrite ? " overwrite" : " write"))) return;
    model_.Apply(rows, overwrite);
    AfterCommit(overwrite ? "sluice overwrite" : "sluice write");
  }

  void SluiceCompact(bool full) {
    if (!SluiceOk("compact " + Where() + (full ? " --full" : ""), s_.name + " compact")) return;
    AfterCommit(full ? "sluice full compaction" : "sluice compaction");
  }

  void SchemaChange() {
    std::vector<std::string> plain = PlainColumns(model_.shape());
    const int choice = std::uniform_int_distribution<int>(0, 3)(rng_);
    std::string alter;
    const std::string added = "n" + std::to_string(next_column_++);
    if (choice == 0 || plain.size() < 2) {
      std::vector<DataTypePtr> pool = ValueTypePool();
      if (s_.options.at("file.format") == "avro") {
        std::erase_if(pool, [](const DataTypePtr& t) { return !AvroHolds(t); });
      }
      Column column{added, pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng_)]};
      alter = "--add-column " + ShellQuote(column.name + " " + column.type->ToString());
      if (!SluiceOk("alter-table " + Where() + " " + alter, s_.name + " add column")) return;
      model_.AddColumn(column);
    } else if (choice == 1) {
      const std::string from = Pick(&rng_, plain);
      alter = "--rename-column " + ShellQuote(from + "=" + added);
      if (!SluiceOk("alter-table " + Where() + " " + alter, s_.name + " rename column")) return;
      model_.RenameColumn(from, added);
    } else if (choice == 2) {
      const std::string name = Pick(&rng_, plain);
      alter = "--drop-column " + ShellQuote(name);
      if (!SluiceOk("alter-table " + Where() + " " + alter, s_.name + " drop column")) return;
      model_.DropColumn(name);
    } else {
      // Widen the first INT / FLOAT column (INT -> BIGINT, FLOAT -> DOUBLE), else add one.
      for (const Column& column : model_.shape().columns) {
        if (std::find(plain.begin(), plain.end(), column.name) == plain.end()) continue;
        DataTypePtr wide;
        if (column.type->root() == TypeRoot::kInt) {
          wide = DataType::BigInt(column.type->nullable());
        } else if (column.type->root() == TypeRoot::kFloat) {
          wide = DataType::Double(column.type->nullable());
        } else {
          continue;
        }
        alter = "--alter-column " + ShellQuote(column.name + " " + wide->ToString());
        if (!SluiceOk("alter-table " + Where() + " " + alter, s_.name + " widen")) return;
        model_.ChangeColumnType(column.name, wide);
        break;
      }
    }
    // A schema change commits no snapshot; the next read still compares.
    CompareLatest("after " + alter);
  }

  // Records the model for the snapshots the last command committed and compares the latest.
  void AfterCommit(const std::string& what) {
    const std::vector<int64_t> ids = SnapshotIds(dir_);
    for (int64_t id : ids) {
      if (states_.count(id) != 0) continue;
      // First-row tables commit their level-0 files, which batch reads skip, and then the
      // compaction that lifts them: the first snapshot shows a state no model step has (it is
      // compared Java against Sluice only).
      const bool intermediate = id != ids.back() && s_.shape.merge_engine == "first-row";
      states_.emplace(id, model_);
      if (intermediate) unmodelled_.insert(id);
    }
    CompareLatest("after " + what);
  }

  nlohmann::json JavaCommand(const std::string& cmd) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", table_}};
  }

  void CompareLatest(const std::string& what) {
    const std::vector<std::string> model = model_.Rows();
    SameRows(s_.name + " latest " + what, JavaRead(JavaCommand("read"), model_.shape().columns),
             SluiceRead(Where(), model_.shape().columns), &model);
    ++Counts().reads_compared;
  }

  void CompareEverySnapshot() {
    for (const auto& [id, state] : states_) {
      nlohmann::json command = JavaCommand("read");
      command["snapshot"] = id;
      const std::vector<std::string> model = state.Rows();
      // Java reads a snapshot through the schema it was written with; so does the model.
      SameRows(s_.name + " snapshot " + std::to_string(id),
               JavaRead(command, state.shape().columns),
               SluiceRead(Where() + " --snapshot " + std::to_string(id), state.shape().columns),
               unmodelled_.count(id) != 0 ? nullptr : &model);
      ++Counts().snapshots_compared;
    }
  }

  void CompareDeltas() {
    for (const auto& [id, state] : states_) {
      if (id < 2) continue;
      nlohmann::json command = JavaCommand("read");
      command["incremental"] = std::to_string(id - 1) + "," + std::to_string(id);
      command["incremental_mode"] = "delta";
      CompareRows("sluice-written/" + s_.shape.merge_engine + "/delta",
                  s_.name + " delta of snapshot " + std::to_string(id),
                  JavaRead(command, model_.shape().columns),
                  SluiceRead(Where() + " --mode delta --snapshot " + std::to_string(id),
                             model_.shape().columns),
                  nullptr);
      ++Counts().deltas_compared;
    }
  }

  // Batch incremental reads of the whole history after snapshot 1 (Java
  // IncrementalDeltaStartingScanner / IncrementalDiffStartingScanner): the delta files of every
  // APPEND snapshot in the range, and for primary-key tables the diff of the two versions'
  // rows. Every row of the diff (but -D) must be its key's row at the end of the range. Java's
  // diff drops the files both versions share before merging each side
  // (SnapshotReaderImpl.toIncrementalPlan), which is right only when a key's newest record alone
  // decides its row: for deduplicate without `sequence.field` the two diffs are compared; for
  // the engines that merge a key's records (or order them by a sequence field) Java's diff
  // gives rows no version of the table has, so only the model check applies. Java's core read
  // of a diff keeps no deletes; Sluice's delta-mode diff adds them as -D, left out here.
  void CompareRanges() {
    if (states_.size() < 3) return;
    const std::string range = "1," + std::to_string(states_.rbegin()->first);
    nlohmann::json command = JavaCommand("read");
    command["incremental"] = range;
    command["incremental_mode"] = "delta";
    CompareRows("sluice-written/" + s_.shape.merge_engine + "/delta",
                s_.name + " delta of snapshots (" + range + "]",
                JavaRead(command, model_.shape().columns),
                SluiceRead(Where() + " --mode delta --option incremental-between=" + range,
                           model_.shape().columns),
                nullptr);
    ++Counts().deltas_compared;
    if (s_.shape.primary_keys.empty()) return;
    ReadRows sluice = SluiceRead(Where() + " --mode delta --option incremental-between=" + range +
                                     " --option incremental-between-scan-mode=diff",
                                 model_.shape().columns);
    ASSERT_TRUE(sluice.rows.has_value()) << sluice.error;
    std::erase_if(*sluice.rows, [](const std::string& row) {
      return nlohmann::json::parse(row).value("_ROW_KIND", "") == "-D";
    });
    const std::vector<std::string> latest = model_.Rows();
    for (const std::string& row : *sluice.rows) {
      nlohmann::json values = nlohmann::json::parse(row);
      values.erase("_ROW_KIND");
      EXPECT_TRUE(std::binary_search(latest.begin(), latest.end(),
                                     NormalizeRow(values, model_.shape().columns)))
          << s_.name << " diff of snapshots (" << range << "] gives a row the table does not have "
          << "at its end: " << row;
    }
    if (s_.shape.merge_engine != "deduplicate" || !s_.shape.sequence_field.empty()) return;
    command["incremental_mode"] = "diff";
    CompareRows("sluice-written/" + s_.shape.merge_engine + "/diff",
                s_.name + " diff of snapshots (" + range + "]",
                JavaRead(command, model_.shape().columns), sluice, nullptr);
    ++Counts().deltas_compared;
  }

  void CompareProjectionAndFilter() {
    const std::vector<std::string> plain = PlainColumns(model_.shape());
    if (plain.empty()) return;
    const std::string column = plain.back();
    const int64_t threshold = s_.shape.primary_keys.empty() ? 0 : s_.key_space / 2;
    std::vector<Column> projected;
    for (const std::string& name : {column, std::string("id")}) {
      projected.push_back(*model_.shape().Find(name));
    }
    std::vector<std::string> model;
    for (const std::string& text : model_.Rows()) {
      nlohmann::json row = nlohmann::json::parse(text);
      if (row["id"].get<int64_t>() <= threshold) continue;
      model.push_back(NormalizeRow({{column, row[column]}, {"id", row["id"]}}, projected));
    }
    std::sort(model.begin(), model.end());
    nlohmann::json command = JavaCommand("read");
    command["projection"] = {column, "id"};
    command["filter"] = nlohmann::json::array({nlohmann::json::array({"id", ">", threshold})});
    SameRows(s_.name + " projection+filter", JavaRead(command, projected),
             SluiceRead(Where() + " --select " + column + ",id --where " +
                            ShellQuote("id > " + std::to_string(threshold)),
                        projected),
             &model);
    ++Counts().reads_compared;
  }

  void JavaWritesAndCompacts() {
    JavaOracle* oracle = Oracle();
    if (oracle == nullptr) return;
    const std::vector<nlohmann::json> rows = RandomBatch(s_, model_.shape(), &rng_, true);
    nlohmann::json write = JavaCommand("write");
    write["rows"] = rows;
    OracleAnswer answer = oracle->Call(write);
    if (!answer.ok()) {
      ++Counts().mismatches;
      ADD_FAILURE() << s_.name << ": Java write into the Sluice table failed: " << answer.error();
      return;
    }
    model_.Apply(rows, false);
    CompareLatest("java write");
    if (s_.bucketed) {
      answer = oracle->Call(JavaCommand("compact"));
      if (!answer.ok()) {
        ++Counts().mismatches;
        ADD_FAILURE() << s_.name
                      << ": Java compaction of the Sluice table failed: " << answer.error();
        return;
      }
      CompareLatest("java full compaction");
    }
    // Sluice goes on writing on top of Java's commits.
    SluiceWrite(RandomBatch(s_, model_.shape(), &rng_, true), false);
    nlohmann::json expire = JavaCommand("expire");
    expire["retain_max"] = 2;
    answer = oracle->Call(expire);
    if (!answer.ok()) {
      ++Counts().mismatches;
      ADD_FAILURE() << s_.name << ": Java expire failed: " << answer.error();
      return;
    }
    CompareLatest("java expire");
  }

  Scenario s_;
  std::string warehouse_;
  std::string table_;
  std::string dir_;
  std::mt19937_64 rng_;
  TableModel model_;
  std::map<int64_t, TableModel> states_;
  std::set<int64_t> unmodelled_;
  int next_column_ = 0;
  const int parts_at_start_ = FailureParts();
};

uint64_t Seed() {
  const char* env = std::getenv("SLUICE_INTEROP_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : 20261201;
}

TEST(Interop, JavaReadsSluiceTables) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  const uint64_t seed = Seed();
  std::printf("interop: seed %llu (SLUICE_INTEROP_SEED)\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  ASSERT_TRUE(SluiceOk("create-database interop --warehouse " + ShellQuote(warehouse.path()),
                       "create-database"));
  for (int i = 0; i < kScenarios; ++i) {
    Scenario scenario = MakeScenario(i, &rng);
    SCOPED_TRACE(scenario.name);
    SluiceTableRun(std::move(scenario), warehouse.path(), rng()).Run();
  }
}

}  // namespace
}  // namespace sluice::test
