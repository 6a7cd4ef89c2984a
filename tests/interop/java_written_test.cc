// Sluice reads what Java writes: at test time the Java oracle writes a fresh corpus of what the
// fixed corpus (../shared/compat) lacks: changelog producers, deletion vectors, dynamic-bucket
// and cross-partition tables, tags, branches, file indexes, row tracking, expired snapshots.
// Sluice reads every snapshot, tag and branch of each, and the rows must equal Java's.
//
// What Sluice cannot read yet is on the expected-failure list (expected_failures.cc), with the
// reason; the run prints each with its count.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "cli/cli_test_util.h"
#include "interop/interop_harness.h"
#include "test_util.h"

namespace sluice::test {
namespace {

struct JavaCase {
  std::string name;
  std::vector<Column> columns;
  std::vector<std::string> primary_keys;
  std::vector<std::string> partition_keys;
  std::map<std::string, std::string> options;
  // Steps: "write", "compact", "tag:T" (tags the latest snapshot), "branch:B:T" (branch B from
  // tag T), "write-branch:B", "expire:N" (keep N snapshots).
  std::vector<std::string> steps;
  // Compare each snapshot's changelog (Java incremental changelog mode) with Sluice's delta.
  bool changelog = false;
};

std::vector<Column> KeyedColumns(bool partitioned) {
  std::vector<Column> columns = {{"id", DataType::BigInt(false)}};
  if (partitioned) columns.push_back({"p", DataType::Int(false)});
  columns.push_back({"v_int", DataType::Int()});
  columns.push_back({"v_str", DataType::String()});
  columns.push_back({"v_dec", DataType::Decimal(20, 4)});
  columns.push_back({"v_ts", DataType::Timestamp(6)});
  return columns;
}

std::vector<JavaCase> Cases() {
  const std::vector<std::string> writes = {"write", "write", "write", "compact", "write"};
  std::vector<JavaCase> cases;
  auto pk = [&](std::string name, std::map<std::string, std::string> options,
                bool partitioned = false) {
    JavaCase c;
    c.name = std::move(name);
    c.columns = KeyedColumns(partitioned);
    c.primary_keys = {"id"};
    if (partitioned) {
      c.partition_keys = {"p"};
      c.primary_keys.push_back("p");
    }
    c.options = std::move(options);
    c.steps = writes;
    return c;
  };
  for (const char* producer : {"input", "lookup", "full-compaction"}) {
    JavaCase c = pk(std::string("changelog_") + producer,
                    {{"bucket", "2"}, {"changelog-producer", producer}});
    c.changelog = true;
    cases.push_back(c);
  }
  cases.push_back(pk("dv_pk", {{"bucket", "2"}, {"deletion-vectors.enabled", "true"}}, true));
  cases.push_back(
      pk("dv_pk_orc",
         {{"bucket", "1"}, {"deletion-vectors.enabled", "true"}, {"file.format", "orc"}}));
  cases.push_back(
      pk("dynamic_bucket", {{"bucket", "-1"}, {"dynamic-bucket.target-row-num", "5"}}, true));
  {
    JavaCase c = pk("tags_and_branch", {{"bucket", "2"}});
    c.steps = {"write",  "tag:t1",       "write",           "compact",
               "tag:t2", "branch:b1:t1", "write-branch:b1", "write"};
    cases.push_back(c);
  }
  {
    JavaCase c =
        pk("auto_tags",
           {{"bucket", "1"}, {"tag.automatic-creation", "batch"}, {"tag.num-retained-max", "10"}});
    cases.push_back(c);
  }
  {
    JavaCase c = pk("fallback_branch", {{"bucket", "1"}});
    c.steps = {"write", "tag:base", "branch:fb:base", "write-branch:fb", "write"};
    cases.push_back(c);
  }
  cases.push_back(
      pk("bloom_index", {{"bucket", "2"}, {"file-index.bloom-filter.columns", "v_str"}}));
  {
    JavaCase c;
    c.name = "append_file_indexes";
    c.columns = KeyedColumns(true);
    c.partition_keys = {"p"};
    c.options = {{"bucket", "-1"},
                 {"file-index.bitmap.columns", "v_int"},
                 {"file-index.bsi.columns", "id"},
                 {"file-index.bloom-filter.columns", "v_str"}};
    c.steps = {"write", "write", "write"};
    cases.push_back(c);
  }
  {
    JavaCase c;
    c.name = "append_row_tracking";
    c.columns = KeyedColumns(false);
    c.options = {{"bucket", "-1"}, {"row-tracking.enabled", "true"}};
    c.steps = {"write", "write", "write"};
    cases.push_back(c);
  }
  {
    JavaCase c = pk("expired_decoupled_changelog", {{"bucket", "1"},
                                                    {"changelog-producer", "input"},
                                                    {"changelog.num-retained.max", "10"},
                                                    {"snapshot.num-retained.min", "1"}});
    c.steps = {"write", "write", "write", "write", "expire:2", "write"};
    cases.push_back(c);
  }
  cases.push_back(pk("avro_aggregation", {{"bucket", "2"},
                                          {"file.format", "avro"},
                                          {"merge-engine", "aggregation"},
                                          {"fields.v_int.aggregate-function", "sum"},
                                          {"fields.v_dec.aggregate-function", "max"}}));
  cases.push_back(
      pk("partial_update_lookup",
         {{"bucket", "1"}, {"merge-engine", "partial-update"}, {"changelog-producer", "lookup"}}));
  return cases;
}

class JavaCaseRun {
 public:
  JavaCaseRun(JavaCase c, const std::string& warehouse, uint64_t seed)
      : c_(std::move(c)), warehouse_(warehouse), rng_(seed) {
    table_ = "jw." + c_.name;
    dir_ = warehouse_ + "/jw.db/" + c_.name;
  }

  void Run() {
    JavaOracle* oracle = Oracle();
    if (oracle == nullptr) return;
    nlohmann::json create = Command("create_table");
    nlohmann::json fields = nlohmann::json::array();
    for (const Column& column : c_.columns) {
      fields.push_back({{"name", column.name}, {"type", PaimonJson(column.type)}});
    }
    create["fields"] = fields;
    create["primary_keys"] = c_.primary_keys;
    create["partition_keys"] = c_.partition_keys;
    create["options"] = c_.options;
    if (!Java(create, "create")) return;
    for (const std::string& step : c_.steps) {
      if (!Step(step)) return;
    }
    Verify();
  }

 private:
  nlohmann::json Command(const std::string& cmd) const {
    return {{"cmd", cmd}, {"warehouse", warehouse_}, {"table", table_}};
  }

  bool Java(const nlohmann::json& command, const std::string& what) {
    OracleAnswer answer = Oracle()->Call(command);
    if (answer.ok()) return true;
    ++Counts().mismatches;
    ADD_FAILURE() << c_.name << " " << what << " (Java): " << answer.error();
    return false;
  }

  nlohmann::json Rows() {
    nlohmann::json rows = nlohmann::json::array();
    const int n = std::uniform_int_distribution<int>(5, 30)(rng_);
    for (int i = 0; i < n; ++i) {
      nlohmann::json row = nlohmann::json::object();
      for (const Column& column : c_.columns) {
        if (column.name == "id" && !c_.primary_keys.empty()) {
          row["id"] = std::uniform_int_distribution<int64_t>(0, 19)(rng_);
        } else if (column.name == "p") {
          row["p"] = std::uniform_int_distribution<int>(0, 2)(rng_);
        } else if (column.name == "v_int" && c_.options.count("fields.v_int.aggregate-function")) {
          row["v_int"] = std::uniform_int_distribution<int>(-100, 100)(rng_);
        } else {
          row[column.name] = RandomValue(column.type, &rng_);
        }
      }
      rows.push_back(row);
    }
    return rows;
  }

  bool Step(const std::string& step) {
    const size_t colon = step.find(':');
    const std::string verb = step.substr(0, colon);
    const std::string arg = colon == std::string::npos ? "" : step.substr(colon + 1);
    if (verb == "write" || verb == "write-branch") {
      nlohmann::json command = Command("write");
      command["rows"] = Rows();
      if (verb == "write-branch") {
        command["branch"] = arg;
        branches_.insert(arg);
      }
      return Java(command, step);
    }
    if (verb == "compact") return Java(Command("compact"), step);
    if (verb == "tag") {
      nlohmann::json ids = Oracle()->Call(Command("snapshots")).head.value("ids", nlohmann::json());
      if (!ids.is_array() || ids.empty()) return Java(Command("snapshots"), step);
      nlohmann::json command = Command("create_tag");
      command["tag"] = arg;
      command["snapshot"] = ids.back();
      tags_.insert(arg);
      return Java(command, step);
    }
    if (verb == "branch") {
      const size_t sep = arg.find(':');
      nlohmann::json command = Command("create_branch");
      command["new_branch"] = arg.substr(0, sep);
      command["from_tag"] = arg.substr(sep + 1);
      branches_.insert(arg.substr(0, sep));
      if (!Java(command, step)) return false;
      if (c_.name == "fallback_branch") {
        // The main branch falls back to `fb` for partitions it lacks (Java scan.fallback-branch).
        return SluiceOk("alter-table " + Where() + " --set-option " +
                            ShellQuote("scan.fallback-branch=" + arg.substr(0, sep)),
                        c_.name + " set fallback branch");
      }
      return true;
    }
    if (verb == "expire") {
      nlohmann::json command = Command("expire");
      command["retain_max"] = std::stoi(arg);
      return Java(command, step);
    }
    ADD_FAILURE() << "unknown step " << step;
    return false;
  }

  std::string Where() const {
    return ShellQuote(table_) + " --warehouse " + ShellQuote(warehouse_);
  }

  // One comparison; "<case>/<kind>" names it on the expected-failure list.
  void Check(const std::string& kind, const std::string& what, const nlohmann::json& java_command,
             const std::string& sluice_args) {
    CompareRows(c_.name + "/" + kind, c_.name + " " + what, JavaRead(java_command, c_.columns),
                SluiceRead(sluice_args, c_.columns), nullptr);
    ++Counts().reads_compared;
  }

  void Verify() {
    nlohmann::json ids = Oracle()->Call(Command("snapshots")).head.value("ids", nlohmann::json());
    for (const nlohmann::json& id : ids) {
      nlohmann::json command = Command("read");
      command["snapshot"] = id;
      Check("snapshot", "snapshot " + id.dump(), command, Where() + " --snapshot " + id.dump());
      ++Counts().snapshots_compared;
      if (c_.changelog && id.get<int64_t>() > ids.front().get<int64_t>()) {
        nlohmann::json changelog = Command("read");
        changelog["incremental"] = std::to_string(id.get<int64_t>() - 1) + "," + id.dump();
        changelog["incremental_mode"] = "changelog";
        Check("changelog", "changelog of snapshot " + id.dump(), changelog,
              Where() + " --mode delta --snapshot " + id.dump());
        ++Counts().deltas_compared;
      }
    }
    Check("latest", "latest", Command("read"), Where());
    for (const std::string& tag : tags_) {
      nlohmann::json command = Command("read");
      command["tag"] = tag;
      Check("tag", "tag " + tag, command, Where() + " --tag " + ShellQuote(tag));
    }
    for (const std::string& branch : branches_) {
      nlohmann::json command = Command("read");
      command["branch"] = branch;
      Check("branch", "branch " + branch, command, Where() + " --branch " + ShellQuote(branch));
    }
    Counts().files_compared += DataFileCount(dir_);
    ++Counts().scenarios;
  }

  JavaCase c_;
  std::string warehouse_;
  std::string table_;
  std::string dir_;
  std::mt19937_64 rng_;
  std::set<std::string> tags_;
  std::set<std::string> branches_;
};

TEST(Interop, SluiceReadsJavaTables) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  std::mt19937_64 rng(7);
  for (JavaCase c : Cases()) {
    SCOPED_TRACE(c.name);
    JavaCaseRun(std::move(c), warehouse.path(), rng()).Run();
  }
}

// CREATE TABLE accepts and refuses what Java does (file formats that cannot hold a column).
TEST(Interop, CreateTableAgreesWithJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  ASSERT_TRUE(SluiceOk("create-database ddl --warehouse " + ShellQuote(warehouse.path()),
                       "create-database"));
  const DataTypePtr nested =
      DataType::Row({{0, "ts", DataType::Timestamp(9), std::nullopt, std::nullopt}});
  const std::vector<std::pair<std::string, DataTypePtr>> cases = {
      {"avro", DataType::Timestamp(9)},    {"avro", DataType::Timestamp(6)},
      {"avro", DataType::TimestampLtz(9)}, {"avro", nested},
      {"parquet", DataType::Timestamp(9)}, {"orc", DataType::Timestamp(9)}};
  int index = 0;
  for (const auto& [format, type] : cases) {
    const std::string name = "t" + std::to_string(index++);
    nlohmann::json create = {
        {"cmd", "create_table"}, {"warehouse", warehouse.path()}, {"table", "java." + name}};
    create["fields"] = nlohmann::json::array(
        {{{"name", "id"}, {"type", "BIGINT"}}, {{"name", "c"}, {"type", PaimonJson(type)}}});
    create["options"] = {{"file.format", format}};
    const bool java_ok = Oracle()->Call(create).ok();
    const bool sluice_ok =
        RunSluice("create-table ddl." + name + " --warehouse " + ShellQuote(warehouse.path()) +
                  " --column 'id BIGINT' --column " + ShellQuote("c " + type->ToString()) +
                  " --option file.format=" + format)
            .exit_code == 0;
    ++Counts().reads_compared;
    if (java_ok != sluice_ok) {
      ++Counts().mismatches;
      ADD_FAILURE() << "create-table " << format << " with " << type->ToString() << ": Java "
                    << (java_ok ? "accepts" : "refuses") << ", Sluice "
                    << (sluice_ok ? "accepts" : "refuses");
    }
  }
}

}  // namespace
}  // namespace sluice::test

namespace sluice::test {
namespace {

// `file.compression` per format as Java takes it: a table of each side is created and written
// with it; a codec one side refuses the other must refuse too (Avro "none": Java's Avro knows
// no such codec), and where both write, each reads the other's files (Parquet "lz4").
TEST(Interop, FileCompressionAgreesWithJava) {
  ASSERT_NE(Oracle(), nullptr);
  TempDir warehouse;
  ASSERT_TRUE(SluiceOk("create-database codec --warehouse " + ShellQuote(warehouse.path()),
                       "create-database"));
  const std::vector<Column> columns = {{"id", DataType::BigInt(false)}, {"v", DataType::String()}};
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"avro", "none"},   {"avro", "zstd"},    {"avro", "null"}, {"avro", "lz4"},
      {"parquet", "lz4"}, {"parquet", "none"}, {"orc", "lz4"}};
  int index = 0;
  for (const auto& [format, compression] : cases) {
    SCOPED_TRACE(format + " " + compression);
    // Parquet lz4: a dictionary page larger than Hadoop's Lz4Codec buffer (256 KiB), so that
    // the codec's blocks must be cut as Hadoop's reader takes them.
    const bool big_pages = format == "parquet" && compression == "lz4";
    std::vector<nlohmann::json> rows;
    for (int i = 0; i < (big_pages ? 1500 : 200); ++i) {
      std::string v = "value " + std::to_string(i % 17);
      if (big_pages) {
        for (int k = 0; v.size() < 220; ++k) v += std::to_string((i * 7919 + k * 104729) % 997);
      }
      rows.push_back({{"id", i}, {"v", v}});
    }
    std::vector<std::string> model;
    for (const nlohmann::json& row : rows) model.push_back(NormalizeRow(row, columns));
    std::sort(model.begin(), model.end());
    const std::string java_table = "codec.java" + std::to_string(index);
    const std::string sluice_table = "codec.sluice" + std::to_string(index++);
    const std::string where = " --warehouse " + ShellQuote(warehouse.path());
    nlohmann::json create = {
        {"cmd", "create_table"}, {"warehouse", warehouse.path()}, {"table", java_table}};
    create["fields"] = nlohmann::json::array(
        {{{"name", "id"}, {"type", "BIGINT NOT NULL"}}, {{"name", "v"}, {"type", "STRING"}}});
    create["options"] = {{"file.format", format}, {"file.compression", compression}};
    const bool java_created = Oracle()->Call(create).ok();
    nlohmann::json write = {
        {"cmd", "write"}, {"warehouse", warehouse.path()}, {"table", java_table}, {"rows", rows}};
    const OracleAnswer java_write = java_created ? Oracle()->Call(write) : OracleAnswer{};
    const bool sluice_created =
        RunSluice("create-table " + sluice_table + where +
                  " --column 'id BIGINT NOT NULL' --column 'v STRING' --option file.format=" +
                  format + " --option file.compression=" + compression)
            .exit_code == 0;
    const std::string input = warehouse.path() + "/rows.jsonl";
    {
      std::ofstream out(input);
      for (const nlohmann::json& row : rows) out << row.dump() << "\n";
    }
    const CommandResult sluice_write =
        sluice_created ? RunSluice("write " + sluice_table + where + " --input " +
                                   ShellQuote(input) + " --format jsonl")
                       : CommandResult{};
    ++Counts().reads_compared;
    if (java_created != sluice_created || java_write.ok() != (sluice_write.exit_code == 0)) {
      ++Counts().mismatches;
      ADD_FAILURE() << format << " file.compression=" << compression << ": Java "
                    << (java_created ? "creates" : "refuses to create") << " and "
                    << (java_write.ok() ? "writes"
                                        : "refuses to write (" + java_write.error() + ")")
                    << ", Sluice " << (sluice_created ? "creates" : "refuses to create") << " and "
                    << (sluice_write.exit_code == 0
                            ? "writes"
                            : "refuses to write (" + sluice_write.err + ")");
      continue;
    }
    if (!java_write.ok()) {
      // Both refuse: Sluice's error names the option and the value.
      EXPECT_NE(
          sluice_write.err.find("file.compression / manifest.compression '" + compression + "'"),
          std::string::npos)
          << sluice_write.err;
      continue;
    }
    SameRows(java_table + " (Java's " + format + " " + compression + ")",
             JavaRead({{"cmd", "read"}, {"warehouse", warehouse.path()}, {"table", java_table}},
                      columns),
             SluiceRead(java_table + where, columns), &model);
    SameRows(sluice_table + " (Sluice's " + format + " " + compression + ")",
             JavaRead({{"cmd", "read"}, {"warehouse", warehouse.path()}, {"table", sluice_table}},
                      columns),
             SluiceRead(sluice_table + where, columns), &model);
    Counts().files_compared += 2;
  }
}

}  // namespace
}  // namespace sluice::test
