// Errors of the public read API: each names what is missing or wrong. Damaged tables are copies
// of corpus tables in a temporary directory (the corpus itself is never modified).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "api/api_test_util.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

const char kAlterTable[] = "parquet/append_table_with_alter_table.db/append_table_with_alter_table";

std::string CorpusTable(const std::string& relative) {
  return test::CompatTablesDir() + "/" + relative;
}

// Copies a corpus table into `dir` and returns the copy's folder.
std::string CopyTable(const std::string& relative, const test::TempDir& dir) {
  const std::string copy = dir.path() + "/copy_table";
  fs::copy(CorpusTable(relative), copy, fs::copy_options::recursive);
  return copy;
}

// Reads every row; the first error.
Status ReadAll(const ReadBuilder& read) {
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, test::ReaderOf(read));
  ColumnBatch batch(reader->output_type());
  while (true) {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
    if (!more) return Status::OK();
  }
}

void ExpectErrorNaming(const Status& status, StatusCode code, const std::string& name) {
  EXPECT_TRUE(test::HasError(status, code, {name}));
}

TEST(ReadErrorsTest, MissingDataFileIsNamed) {
  test::TempDir dir;
  const std::string table_dir = CopyTable(kAlterTable, dir);
  std::string victim;
  for (const auto& entry : fs::recursive_directory_iterator(table_dir)) {
    if (entry.path().extension() == ".parquet") victim = entry.path().string();
  }
  ASSERT_FALSE(victim.empty());
  fs::remove(victim);
  auto table = Table::Open(table_dir);
  ASSERT_OK(table);
  ExpectErrorNaming(ReadAll(table->NewReadBuilder()), StatusCode::kNotFound,
                    fs::path(victim).filename().string());
}

TEST(ReadErrorsTest, ManifestEntryWithAMissingSchemaIsNamed) {
  // Files written under schema 0, the table now at schema 1: schema-0 is gone.
  test::TempDir dir;
  const std::string table_dir = CopyTable(kAlterTable, dir);
  fs::remove(table_dir + "/schema/schema-0");
  auto table = Table::Open(table_dir);
  ASSERT_OK(table);
  ExpectErrorNaming(ReadAll(table->NewReadBuilder()), StatusCode::kNotFound, "schema 0");
}

TEST(ReadErrorsTest, UnknownTableIsNamed) {
  ExpectErrorNaming(Table::Open("/nonexistent/warehouse/db.db/orders").status(),
                    StatusCode::kNotFound, "/nonexistent/warehouse/db.db/orders");
  const Catalog catalog = Catalog::Filesystem(test::CompatTablesDir() + "/parquet");
  ExpectErrorNaming(catalog.GetTable("append_09.no_such_table").status(), StatusCode::kNotFound,
                    "append_09.no_such_table");
  auto found = catalog.GetTable("append_09.append_09");
  EXPECT_OK(found);
}

TEST(ReadErrorsTest, UnknownVersionBranchColumnAndZoneAreNamed) {
  auto table = Table::Open(CorpusTable(kAlterTable));
  ASSERT_OK(table);
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithSnapshot(77)), StatusCode::kNotFound, "77");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithTag("no_such_tag")), StatusCode::kNotFound,
                    "no_such_tag");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithBranch("no_such_branch")),
                    StatusCode::kNotFound, "no_such_branch");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithSchemaId(9)), StatusCode::kNotFound,
                    "schema 9");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithProjection({"a", "no_such_column"})),
                    StatusCode::kInvalidArgument, "no_such_column");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithWhere("a > 1 AND bogus = 2")),
                    StatusCode::kInvalidArgument, "bogus");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithWhere("a > ")),
                    StatusCode::kInvalidArgument, "position");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithSessionTimeZone("Mars/Olympus_Mons")),
                    StatusCode::kNotFound, "Mars/Olympus_Mons");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithAsOf("yesterday")),
                    StatusCode::kInvalidArgument, "yesterday");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithSnapshot(1).WithTag("t")),
                    StatusCode::kInvalidArgument, "at most one");
  ExpectErrorNaming(ReadAll(table->NewReadBuilder().WithLimit(-1)), StatusCode::kInvalidArgument,
                    "limit");
}

}  // namespace
}  // namespace sluice
