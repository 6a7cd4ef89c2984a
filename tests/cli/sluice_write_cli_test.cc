// Drives `sluice write`, `sluice compact` and `sluice snapshots` on tables created in a
// temporary warehouse: JSON lines, CSV and Parquet input into append tables (bucket-unaware and
// fixed buckets, partitioned) and primary-key tables (deduplicate and partial-update, with
// -U / +U / -D rows), read back with `sluice read --format jsonl` and compared as multisets;
// compaction, partition overwrite, input errors naming the line, column and value (and leaving
// no snapshot), and CheckTable passing on every table written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sluice/catalog/filesystem_catalog.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/meta/schema_generation.h"
#include "sluice/table/table_checker.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

using nlohmann::json;

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

CommandResult RunSluice(const std::string& args) {
  test::TempDir dir;
  const std::string err_path = dir.path() + "/stderr";
  const std::string cmd = test::BinaryDir() + "/sluice " + args + " 2>" + err_path;
  CommandResult result;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return result;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) result.out.append(buf, n);
  const int status = pclose(p);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_path);
  std::stringstream text;
  text << err.rdbuf();
  result.err = text.str();
  return result;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

// The rows of `sluice read --format jsonl` output (or of expected JSON lines), sorted by
// their text.
std::vector<std::string> SortedRows(const std::string& jsonl) {
  std::vector<std::string> rows;
  std::istringstream in(jsonl);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) rows.push_back(json::parse(line).dump());
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

class SluiceWriteCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = std::make_unique<FilesystemCatalog>(LocalFileIO(), dir_.path());
    ASSERT_OK(catalog_->CreateDatabase("db"));
  }

  void TearDown() override {
    // Every table a test wrote passes the structural check.
    for (const std::string& name : tables_) {
      auto table = catalog_->LoadTable(name);
      ASSERT_OK(table);
      auto report = RunTableCheck(**table);
      ASSERT_OK(report);
      EXPECT_TRUE(report->ok()) << name << ": " << report->problems.front();
      EXPECT_GT(report->files_read, 0) << name;
    }
  }

  void CreateTable(const std::string& name, std::vector<DataField> columns,
                   std::vector<std::string> primary_keys, std::vector<std::string> partition_keys,
                   TableOptions options) {
    NewTableSpec spec;
    spec.columns = std::move(columns);
    spec.primary_keys = std::move(primary_keys);
    spec.partition_keys = std::move(partition_keys);
    spec.options = std::move(options);
    Status st = catalog_->CreateTable(name, spec);
    ASSERT_OK(st);
    tables_.push_back(name);
  }

  std::string Input(const std::string& name, const std::string& text) {
    const std::string path = dir_.path() + "/" + name;
    WriteText(path, text);
    return path;
  }

  CommandResult Write(const std::string& table, const std::string& input,
                      const std::string& extra = "") {
    return RunSluice("write " + table + " --warehouse " + dir_.path() + " --input " + input + " " +
                     extra);
  }

  std::vector<std::string> Read(const std::string& table, const std::string& extra = "") {
    CommandResult r =
        RunSluice("read " + table + " --warehouse " + dir_.path() + " --format jsonl " + extra);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return SortedRows(r.out);
  }

  // The lines of `sluice snapshots` after the header.
  std::vector<std::string> Snapshots(const std::string& table) {
    CommandResult r = RunSluice("snapshots " + table + " --warehouse " + dir_.path());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
  }

  test::TempDir dir_;
  std::unique_ptr<FilesystemCatalog> catalog_;
  std::vector<std::string> tables_;
};

TEST_F(SluiceWriteCliTest, JsonlIntoAppendTableReadsBackEveryType) {
  CreateTable("db.events",
              {Field(0, "id", DataType::BigInt(false)), Field(1, "name", DataType::String()),
               Field(2, "price", DataType::Decimal(10, 2)), Field(3, "day", DataType::Date()),
               Field(4, "ts", DataType::Timestamp(3)),
               Field(5, "tags", DataType::Array(DataType::String())),
               Field(6, "attrs", DataType::Map(DataType::String(false), DataType::Int())),
               Field(7, "payload", DataType::Bytes()), Field(8, "ok", DataType::Boolean()),
               Field(9, "score", DataType::Double())},
              {}, {}, {});
  const std::string rows =
      R"({"id": 1, "name": "apple", "price": "1.50", "day": "2024-01-01", "ts": "2024-01-01 10:00:00.123", "tags": ["a", "b"], "attrs": [["x", 1]], "payload": {"base64": "AAEC"}, "ok": true, "score": 0.5})"
      "\n"
      R"({"id": 2, "name": "pear, \"green\"", "price": 2, "ok": false, "score": "-Infinity"})"
      "\n\n"
      R"({"id": 3, "name": null, "tags": [], "score": -1e300})"
      "\n";
  CommandResult w = Write("db.events", Input("a.jsonl", rows));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(w.out, "");
  EXPECT_EQ(w.err, "");  // quiet when not on a terminal
  const std::vector<std::string> expected = SortedRows(
      R"({"id":1,"name":"apple","price":"1.50","day":"2024-01-01","ts":"2024-01-01 10:00:00.123","tags":["a","b"],"attrs":[["x",1]],"payload":{"base64":"AAEC"},"ok":true,"score":0.5})"
      "\n"
      R"({"id":2,"name":"pear, \"green\"","price":"2.00","day":null,"ts":null,"tags":null,"attrs":null,"payload":null,"ok":false,"score":"-Infinity"})"
      "\n"
      R"({"id":3,"name":null,"price":null,"day":null,"ts":null,"tags":[],"attrs":null,"payload":null,"ok":null,"score":-1e300})");
  EXPECT_EQ(Read("db.events"), expected);

  // A second write appends a second snapshot.
  w = Write("db.events", Input("b.jsonl", R"({"id": 4})"
                                          "\n"));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(Read("db.events").size(), 4u);
  const std::vector<std::string> snapshots = Snapshots("db.events");
  ASSERT_EQ(snapshots.size(), 2u);
  EXPECT_NE(snapshots[1].find("APPEND"), std::string::npos) << snapshots[1];
}

TEST_F(SluiceWriteCliTest, CsvIntoPartitionedBucketedAppendTable) {
  CreateTable("db.sales",
              {Field(0, "dt", DataType::String(false)), Field(1, "id", DataType::Int(false)),
               Field(2, "note", DataType::String()), Field(3, "qty", DataType::BigInt())},
              {}, {"dt"}, {{"bucket", "2"}, {"bucket-key", "id"}});
  const std::string csv =
      "id,dt,note,qty\r\n"
      "1,2024-01-01,plain,10\r\n"
      "2,2024-01-01,\"with, comma and \"\"quotes\"\"\",\r\n"
      "3,2024-01-02,\"\",30\n"
      "4,2024-01-02,,40\n"
      "5,2024-01-02,\"two\nlines\",50\n";
  CommandResult w = Write("db.sales", Input("s.csv", csv));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(
      Read("db.sales"),
      SortedRows(R"({"dt":"2024-01-01","id":1,"note":"plain","qty":10})"
                 "\n"
                 R"({"dt":"2024-01-01","id":2,"note":"with, comma and \"quotes\"","qty":null})"
                 "\n"
                 R"({"dt":"2024-01-02","id":3,"note":"","qty":30})"
                 "\n"
                 R"({"dt":"2024-01-02","id":4,"note":null,"qty":40})"
                 "\n"
                 R"({"dt":"2024-01-02","id":5,"note":"two\nlines","qty":50})"));
  EXPECT_EQ(Read("db.sales", "--partition dt=2024-01-02").size(), 3u);

  // Overwrite one partition: the other keeps its rows.
  w = Write("db.sales", Input("o.csv", "dt,id,qty\n2024-01-01,7,70\n"),
            "--overwrite --partition dt=2024-01-01");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(Read("db.sales", "--partition dt=2024-01-01"),
            SortedRows(R"({"dt":"2024-01-01","id":7,"note":null,"qty":70})"));
  EXPECT_EQ(Read("db.sales", "--partition dt=2024-01-02").size(), 3u);
  const std::vector<std::string> snapshots = Snapshots("db.sales");
  ASSERT_EQ(snapshots.size(), 2u);
  EXPECT_NE(snapshots[1].find("OVERWRITE"), std::string::npos) << snapshots[1];

  // A dynamic overwrite replaces only the partitions the rows fall in.
  w = Write("db.sales",
            Input("d.jsonl", R"({"dt": "2024-01-02", "id": 8})"
                             "\n"),
            "--overwrite");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(Read("db.sales").size(), 2u);

  // A static overwrite with no rows empties the partition.
  w = Write("db.sales", Input("empty.jsonl", ""), "--overwrite --partition dt=2024-01-02");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(Read("db.sales"), SortedRows(R"({"dt":"2024-01-01","id":7,"note":null,"qty":70})"));
  EXPECT_EQ(Snapshots("db.sales").size(), 4u);
}

TEST_F(SluiceWriteCliTest, ParquetInputMatchesColumnsByNameAndCasts) {
  CreateTable("db.p",
              {Field(0, "id", DataType::BigInt(false)), Field(1, "name", DataType::String()),
               Field(2, "extra", DataType::Double())},
              {}, {}, {});
  // A file with the columns in another order, `id` as INT (cast to BIGINT), no `extra`.
  const DataTypePtr file_type =
      DataType::Row({Field(0, "name", DataType::String()), Field(1, "id", DataType::Int(false))});
  ColumnBatch batch(file_type);
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(batch.AppendRow(
        {i == 1 ? Value::Null() : Value::String("n" + std::to_string(i)), Value::Int32(i * 10)}));
  }
  const std::string path = dir_.path() + "/in.parquet";
  {
    auto format = FileFormatByName("parquet");
    ASSERT_OK(format);
    auto file = LocalFileIO()->OpenForWrite(path, true);
    ASSERT_OK(file);
    auto writer = (*format)->CreateWriter(std::move(*file), file_type, WriterOptions{});
    ASSERT_OK(writer);
    ASSERT_OK((*writer)->Write(batch));
    ASSERT_OK((*writer)->Finish());
  }
  CommandResult w = Write("db.p", path);
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(Read("db.p"), SortedRows(R"({"id":0,"name":"n0","extra":null})"
                                     "\n"
                                     R"({"id":10,"name":null,"extra":null})"
                                     "\n"
                                     R"({"id":20,"name":"n2","extra":null})"));
}

TEST_F(SluiceWriteCliTest, PrimaryKeyTableTakesUpdatesAndDeletesThenCompacts) {
  CreateTable("db.users",
              {Field(0, "id", DataType::BigInt(false)), Field(1, "name", DataType::String()),
               Field(2, "score", DataType::Int())},
              {"id"}, {}, {{"bucket", "2"}});
  ASSERT_EQ(Write("db.users", Input("1.jsonl", R"({"id": 1, "name": "ann", "score": 10})"
                                               "\n"
                                               R"({"id": 2, "name": "bob", "score": 20})"
                                               "\n"
                                               R"({"id": 3, "name": "cid", "score": 30})"
                                               "\n"))
                .exit_code,
            0);
  CommandResult w = Write(
      "db.users", Input("2.jsonl", R"({"_ROW_KIND": "-U", "id": 1, "name": "ann", "score": 10})"
                                   "\n"
                                   R"({"_ROW_KIND": "+U", "id": 1, "name": "ann", "score": 11})"
                                   "\n"
                                   R"({"_ROW_KIND": "-D", "id": 2})"
                                   "\n"
                                   R"({"id": 4, "name": "dan", "score": 40})"
                                   "\n"));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  // CSV carries row kinds too.
  w = Write("db.users", Input("3.csv", "_ROW_KIND,id,name,score\n+I,5,eve,50\n-D,3,,\n"));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::vector<std::string> expected = SortedRows(R"({"id":1,"name":"ann","score":11})"
                                                       "\n"
                                                       R"({"id":4,"name":"dan","score":40})"
                                                       "\n"
                                                       R"({"id":5,"name":"eve","score":50})");
  EXPECT_EQ(Read("db.users"), expected);

  CommandResult c = RunSluice("compact db.users --warehouse " + dir_.path() + " --full");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Read("db.users"), expected);
  std::vector<std::string> snapshots = Snapshots("db.users");
  ASSERT_EQ(snapshots.size(), 4u);
  EXPECT_NE(snapshots[3].find("COMPACT"), std::string::npos) << snapshots[3];
  // After a full compaction there is nothing left to compact.
  c = RunSluice("compact db.users --warehouse " + dir_.path() + " --full");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Read("db.users"), expected);
}

TEST_F(SluiceWriteCliTest, PartialUpdateMergesColumnsAcrossWrites) {
  CreateTable("db.profile",
              {Field(0, "dt", DataType::String(false)), Field(1, "id", DataType::BigInt(false)),
               Field(2, "email", DataType::String()), Field(3, "city", DataType::String())},
              {"dt", "id"}, {"dt"}, {{"bucket", "1"}, {"merge-engine", "partial-update"}});
  ASSERT_EQ(Write("db.profile", Input("1.jsonl", R"({"dt": "d1", "id": 1, "email": "a@x"})"
                                                 "\n"))
                .exit_code,
            0);
  ASSERT_EQ(Write("db.profile", Input("2.jsonl", R"({"dt": "d1", "id": 1, "city": "Oslo"})"
                                                 "\n"
                                                 R"({"dt": "d2", "id": 1, "city": "Rome"})"
                                                 "\n"))
                .exit_code,
            0);
  const std::vector<std::string> expected =
      SortedRows(R"({"dt":"d1","id":1,"email":"a@x","city":"Oslo"})"
                 "\n"
                 R"({"dt":"d2","id":1,"email":null,"city":"Rome"})");
  EXPECT_EQ(Read("db.profile"), expected);
  CommandResult c =
      RunSluice("compact db.profile --warehouse " + dir_.path() + " --full --partition dt=d1");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Read("db.profile"), expected);
}

TEST_F(SluiceWriteCliTest, BadInputFailsNamingLineColumnAndValueAndCommitsNothing) {
  CreateTable("db.t",
              {Field(0, "id", DataType::BigInt(false)), Field(1, "price", DataType::Decimal(5, 2)),
               Field(2, "day", DataType::Date())},
              {}, {}, {});
  struct Case {
    std::string file;
    std::string text;
    std::vector<std::string> expected;  // substrings of the error
  };
  const std::vector<Case> cases = {
      {"bad_decimal.jsonl",
       "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3, \"price\": \"abc\"}\n",
       {"line 3", "column 'price'", "'abc'", "DECIMAL(5, 2)"}},
      {"too_many_digits.jsonl",
       "{\"id\": 1, \"price\": \"1.234\"}\n",
       {"line 1", "column 'price'", "'1.234'", "fraction digits"}},
      {"overflow.jsonl",
       "{\"id\": 1, \"price\": \"1234.5\"}\n",
       {"line 1", "column 'price'", "integer digits"}},
      {"bad_date.jsonl",
       "\n{\"id\": 1, \"day\": \"2024-13-01\"}\n",
       {"line 2", "column 'day'", "'2024-13-01'", "DATE"}},
      {"unknown.jsonl",
       "{\"id\": 1, \"colour\": \"red\"}\n",
       {"line 1", "unknown column 'colour'"}},
      {"missing.jsonl", "{\"price\": \"1.00\"}\n", {"line 1", "column 'id' is NOT NULL"}},
      {"null_key.jsonl", "{\"id\": null}\n", {"line 1", "column 'id' is NOT NULL"}},
      {"not_json.jsonl", "{\"id\": 1}\n{\"id\": \n", {"line 2", "not JSON"}},
      {"string_int.jsonl", "{\"id\": \"x1\"}\n", {"line 1", "column 'id'", "'x1'", "BIGINT"}},
      {"row_kind.jsonl", "{\"id\": 1, \"_ROW_KIND\": \"-D\"}\n", {"no primary key"}},
      {"bad_kind.jsonl", "{\"id\": 1, \"_ROW_KIND\": \"?\"}\n", {"line 1", "'?'", "row kind"}},
      {"fields.csv", "id,price\n1,2.00\n2\n", {"line 3", "1 fields, the header has 2"}},
      {"csv_value.csv",
       "id,day\n1,2024-01-01\n2,tomorrow\n",
       {"line 3", "column 'day'", "'tomorrow'"}},
      {"csv_unknown.csv", "id,colour\n", {"line 1", "unknown column 'colour'"}},
      {"quote.csv", "id,price\n1,\"2.00\n", {"line 2", "quoted field is not closed"}},
  };
  for (const Case& c : cases) {
    CommandResult w = Write("db.t", Input(c.file, c.text));
    EXPECT_EQ(w.exit_code, 1) << c.file;
    for (const std::string& part : c.expected) {
      EXPECT_NE(w.err.find(part), std::string::npos) << c.file << ": " << w.err;
    }
    EXPECT_NE(w.err.find(c.file), std::string::npos) << c.file << ": " << w.err;
  }
  EXPECT_TRUE(Snapshots("db.t").empty());
  // No data file was left behind either.
  EXPECT_TRUE(test::ListFilesRecursive(dir_.path() + "/db.db/t/bucket-0").empty());

  CommandResult w = Write("db.t", Input("ok.jsonl", "{\"id\": 1}\n"), "--format avro");
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find("unknown input format 'avro'"), std::string::npos) << w.err;
  w = Write("db.t", dir_.path() + "/missing.jsonl");
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find("missing.jsonl"), std::string::npos) << w.err;
  w = Write("db.t", Input("ok2.jsonl", "{\"id\": 1}\n"), "--overwrite --partition id=1");
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find("not a partition key"), std::string::npos) << w.err;
  w = Write("db.nope", Input("ok3.jsonl", "{\"id\": 1}\n"));
  EXPECT_EQ(w.exit_code, 1);
  EXPECT_NE(w.err.find("db.nope"), std::string::npos) << w.err;

  // The table still takes good input; then the checker has a file to read.
  w = Write("db.t",
            Input("good.jsonl", "{\"id\": 1, \"price\": \"-1.5\", \"day\": \"2024-02-29\"}\n"));
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(Read("db.t"), SortedRows(R"({"id":1,"price":"-1.50","day":"2024-02-29"})"));
}

TEST_F(SluiceWriteCliTest, LargeInputIsWrittenInBoundedBatchesAsOneCommit) {
  CreateTable("db.big", {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::Int())},
              {"id"}, {}, {{"bucket", "3"}});
  std::string rows;
  for (int i = 0; i < 5000; ++i) {
    // Every key twice: the second value wins.
    rows += "{\"id\": " + std::to_string(i % 2500) + ", \"v\": " + std::to_string(i) + "}\n";
  }
  CommandResult w = Write("db.big", Input("big.jsonl", rows), "--batch-rows 700");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::vector<std::string> read = Read("db.big");
  ASSERT_EQ(read.size(), 2500u);
  EXPECT_NE(std::find(read.begin(), read.end(), json::parse(R"({"id":7,"v":2507})").dump()),
            read.end());
  EXPECT_EQ(Snapshots("db.big").size(), 1u);

  // Standard input works as well.
  const std::string cmd = "printf '{\"id\": 9999, \"v\": 1}\\n' | " + test::BinaryDir() +
                          "/sluice write db.big --warehouse " + dir_.path() + " --input -";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_EQ(Read("db.big").size(), 2501u);
}

TEST_F(SluiceWriteCliTest, CompactsSmallFilesOfBucketUnawareAppendTable) {
  CreateTable("db.a", {Field(0, "dt", DataType::String(false)), Field(1, "id", DataType::BigInt())},
              {}, {"dt"}, {});
  // dt=d1 gets 6 small files (compaction.min.file-num is 5), dt=d2 gets 2.
  for (int i = 0; i < 6; ++i) {
    std::string lines = "{\"dt\": \"d1\", \"id\": " + std::to_string(i) + "}\n";
    if (i < 2) lines += "{\"dt\": \"d2\", \"id\": " + std::to_string(100 + i) + "}\n";
    ASSERT_EQ(Write("db.a", Input(std::to_string(i) + ".jsonl", lines)).exit_code, 0);
  }
  auto files_of = [&](const std::string& dt) {
    return test::ListFilesRecursive(dir_.path() + "/db.db/a/dt=" + dt + "/bucket-0").size();
  };
  ASSERT_EQ(files_of("d1"), 6u);
  const std::vector<std::string> expected = Read("db.a");
  ASSERT_EQ(expected.size(), 8u);

  CommandResult c = RunSluice("compact db.a --warehouse " + dir_.path());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Read("db.a"), expected);
  std::vector<std::string> snapshots = Snapshots("db.a");
  ASSERT_EQ(snapshots.size(), 7u);
  EXPECT_NE(snapshots[6].find("COMPACT"), std::string::npos) << snapshots[6];
  // The 6 small files of d1 became one (the old ones stay until snapshots expire); d2's two
  // are too few for a compaction that is not full.
  EXPECT_EQ(files_of("d1"), 7u);
  EXPECT_EQ(files_of("d2"), 2u);

  c = RunSluice("compact db.a --warehouse " + dir_.path() + " --full --partition dt=d2");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Read("db.a"), expected);
  EXPECT_EQ(Snapshots("db.a").size(), 8u);
  EXPECT_EQ(files_of("d2"), 3u);

  // Nothing is left to compact: no snapshot.
  c = RunSluice("compact db.a --warehouse " + dir_.path() + " --full");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Snapshots("db.a").size(), 8u);
}

TEST_F(SluiceWriteCliTest, CompactsFixedBucketAppendTable) {
  CreateTable("db.f", {Field(0, "id", DataType::BigInt(false))}, {}, {},
              {{"bucket", "1"}, {"bucket-key", "id"}});
  for (int i = 0; i < 3; ++i) {
    const std::string line = "{\"id\": " + std::to_string(i) + "}\n";
    ASSERT_EQ(Write("db.f", Input(std::to_string(i) + ".jsonl", line)).exit_code, 0);
  }
  const std::vector<std::string> expected = Read("db.f");
  ASSERT_EQ(expected.size(), 3u);
  CommandResult c = RunSluice("compact db.f --warehouse " + dir_.path() + " --full");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(Read("db.f"), expected);
  std::vector<std::string> snapshots = Snapshots("db.f");
  ASSERT_EQ(snapshots.size(), 4u);
  EXPECT_NE(snapshots[3].find("COMPACT"), std::string::npos) << snapshots[3];
}

}  // namespace
}  // namespace sluice
