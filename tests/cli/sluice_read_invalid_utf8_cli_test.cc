// `sluice read` of a STRING cell holding bytes that are not UTF-8 (any engine may write such
// bytes: Paimon stores strings as bytes, and the public TableWrite does not check them): every
// output format prints the row as valid UTF-8, each ill-formed part replaced by U+FFFD as Java's
// decoding of a Paimon string (BinaryString.toString) replaces it, and exits 0. The csv and
// table printers once re-parsed the cell's JSON with nlohmann-json, whose exception on the bad
// bytes terminated the process; later all three printed the bytes raw (jsonl then was no JSON).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "sluice/catalog.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::RunSluice;

// Two stray bytes, then an encoded surrogate (one part for Java, three for Unicode).
constexpr char kInvalid[] =
    "ab\xff\xfe"
    "cd\xed\xa0\x80"
    "e";
// What Java prints for kInvalid.
constexpr char kAsJava[] =
    "ab\xEF\xBF\xBD\xEF\xBF\xBD"
    "cd\xEF\xBF\xBD"
    "e";

class SluiceReadInvalidUtf8Test : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {DataField{0, "id", DataType::Int(false), std::nullopt, std::nullopt},
                    DataField{1, "s", DataType::String(), std::nullopt, std::nullopt}};
    ASSERT_OK(catalog.CreateTable("db.t", spec));
    auto table = catalog.GetTable("db.t");
    ASSERT_OK(table);
    WriteBuilder builder = table->NewWriteBuilder();
    auto write = builder.NewWrite();
    ASSERT_OK(write);
    ColumnBatch batch((*write)->input_type());
    ASSERT_OK(batch.AppendRow({Value::Int32(1), Value::String(kInvalid)}));
    ASSERT_OK((*write)->Write(batch));
    auto messages = (*write)->PrepareCommit();
    ASSERT_OK(messages);
    auto commit = builder.NewCommit();
    ASSERT_OK(commit);
    ASSERT_OK((*commit)->Commit(std::move(*messages)));
    ASSERT_OK((*write)->Close());
  }

  CommandResult Read(const std::string& format) {
    return RunSluice("read db.t --warehouse " + dir_.path() + " --format " + format);
  }

  test::TempDir dir_;
};

TEST_F(SluiceReadInvalidUtf8Test, CsvPrintsUtf8) {
  CommandResult r = Read("csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string("id,s\r\n1,") + kAsJava + "\r\n");
}

TEST_F(SluiceReadInvalidUtf8Test, TablePrintsUtf8) {
  CommandResult r = Read("table");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("| 1  | ") + kAsJava + " |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 row\n"), std::string::npos) << r.out;
}

TEST_F(SluiceReadInvalidUtf8Test, JsonLinesPrintsValidJson) {
  CommandResult r = Read("jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string("{\"id\":1,\"s\":\"") + kAsJava + "\"}\n");
  // A strict JSON parser (nlohmann-json refuses ill-formed UTF-8) takes the line.
  const nlohmann::json row = nlohmann::json::parse(r.out);
  EXPECT_EQ(row["s"], kAsJava);
}

// TODO(issue 30): `sluice sql` prints the cell as null, not as Java's U+FFFD text: DuckDB's
// duckdb_vector_assign_string_element_len (sql/vector_filler.cc) turns a VARCHAR that is not
// UTF-8 into NULL. The output is valid JSON all the same.
TEST_F(SluiceReadInvalidUtf8Test, SqlPrintsValidJson) {
  CommandResult r =
      RunSluice("sql --warehouse " + dir_.path() + " \"SELECT id, s FROM db.t\" --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json row = nlohmann::json::parse(r.out);
  EXPECT_EQ(row["id"], 1);
}

}  // namespace
}  // namespace sluice
