// `sluice write` refuses a STRING value that is not UTF-8, in every input format, naming the
// file, the line (the row for Parquet) and the column, and commits nothing: a reader would
// show such bytes as U+FFFD (Java's decoding), not as written.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_test_util.h"
#include "sluice/base/utf8.h"
#include "sluice/catalog.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/fs/file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::RunSluice;

class SluiceWriteInvalidUtf8Test : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {
        DataField{0, "id", DataType::Int(false), std::nullopt, std::nullopt},
        DataField{1, "s", DataType::String(), std::nullopt, std::nullopt},
        DataField{2, "tags", DataType::Array(DataType::String()), std::nullopt, std::nullopt}};
    ASSERT_OK(catalog.CreateTable("db.t", spec));
  }

  std::string Input(const std::string& name, const std::string& text) {
    const std::string path = dir_.path() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // Runs `sluice write` of `path`; expects it to fail with an error holding `words`, as valid
  // UTF-8 itself, and no snapshot.
  void ExpectRefused(const std::string& path, const std::vector<std::string>& words) {
    CommandResult w = RunSluice("write db.t --warehouse " + dir_.path() + " --input " + path);
    EXPECT_EQ(w.exit_code, 1) << path;
    for (const std::string& word : words) {
      EXPECT_NE(w.err.find(word), std::string::npos) << path << ": " << w.err;
    }
    EXPECT_TRUE(IsValidUtf8(w.err)) << w.err;
    CommandResult snapshots = RunSluice("snapshots db.t --warehouse " + dir_.path());
    EXPECT_EQ(snapshots.out.find('\n'), snapshots.out.rfind('\n'))
        << "header only: " << snapshots.out;
  }

  test::TempDir dir_;
};

TEST_F(SluiceWriteInvalidUtf8Test, CsvNamesTheLineAndTheColumn) {
  ExpectRefused(Input("in.csv",
                      "id,s\n1,ok\n2,\"two\nlines\"\n3,ab\xff"
                      "cd\n"),
                {"in.csv line 5: column 's': 'ab\xEF\xBF\xBD"
                 "cd' is not valid UTF-8 (byte 3)"});
  // A nested string's text is JSON, which must be UTF-8 too.
  ExpectRefused(Input("nested.csv", "id,tags\n1,\"[\"\"\xed\xa0\x80\"\"]\"\n"),
                {"nested.csv line 2: column 'tags'"});
}

TEST_F(SluiceWriteInvalidUtf8Test, JsonLinesNamesTheLineAndTheColumn) {
  ExpectRefused(Input("in.jsonl", "{\"id\": 1, \"s\": \"ok\"}\n{\"id\": 2, \"s\": \"\xc3\"}\n"),
                {"in.jsonl line 2: column 's': not valid UTF-8 (byte 17 of the line)"});
}

TEST_F(SluiceWriteInvalidUtf8Test, ParquetNamesTheRowAndTheColumn) {
  // Our Parquet writer stores strings as they come, as other writers may.
  const DataTypePtr file_type = DataType::Row(
      {DataField{0, "id", DataType::Int(false), std::nullopt, std::nullopt},
       DataField{1, "s", DataType::String(), std::nullopt, std::nullopt},
       DataField{2, "tags", DataType::Array(DataType::String()), std::nullopt, std::nullopt}});
  auto write_file = [&](const std::string& name, const ValueList& bad_row) {
    ColumnBatch batch(file_type);
    EXPECT_OK(batch.AppendRow({Value::Int32(0), Value::String("ok"), Value::Array({})}));
    EXPECT_OK(batch.AppendRow(bad_row));
    const std::string path = dir_.path() + "/" + name;
    auto format = FileFormatByName("parquet");
    EXPECT_OK(format);
    auto file = LocalFileIO()->OpenForWrite(path, true);
    EXPECT_OK(file);
    auto writer = (*format)->CreateWriter(std::move(*file), file_type, WriterOptions{});
    EXPECT_OK(writer);
    EXPECT_OK((*writer)->Write(batch));
    EXPECT_OK((*writer)->Finish());
    return path;
  };
  ExpectRefused(write_file("in.parquet",
                           {Value::Int32(1), Value::String("\xf4\x90\x80\x80"), Value::Array({})}),
                {"in.parquet row 1: column 's': not valid UTF-8"});
  ExpectRefused(
      write_file("nested.parquet", {Value::Int32(1), Value::String("ok"),
                                    Value::Array({Value::String("x"), Value::String("\xc0\xaf")})}),
      {"nested.parquet row 1: column 'tags': not valid UTF-8"});
}

}  // namespace
}  // namespace sluice
