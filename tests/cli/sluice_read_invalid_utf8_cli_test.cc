// `sluice read` of a STRING cell holding invalid UTF-8 (any engine may write such bytes: Paimon
// stores strings as bytes): every output format prints the row and exits 0. The csv and table
// printers used to re-parse the cell's JSON with nlohmann-json, whose exception on the bad
// bytes terminated the process.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_test_util.h"
#include "sluice/catalog.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::RunSluice;

constexpr char kInvalid[] =
    "ab\xff\xfe"
    "cd";

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

TEST_F(SluiceReadInvalidUtf8Test, CsvPrintsTheBytesAsTheyAre) {
  CommandResult r = Read("csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string("id,s\r\n1,") + kInvalid + "\r\n");
}

TEST_F(SluiceReadInvalidUtf8Test, TablePrintsTheBytesAsTheyAre) {
  CommandResult r = Read("table");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(std::string("| 1  | ") + kInvalid + " |"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 row\n"), std::string::npos) << r.out;
}

TEST_F(SluiceReadInvalidUtf8Test, JsonLinesPrintsTheRow) {
  CommandResult r = Read("jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::string("{\"id\":1,\"s\":\"") + kInvalid + "\"}\n");
}

}  // namespace
}  // namespace sluice
