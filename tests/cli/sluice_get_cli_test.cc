// Drives `sluice get` on tables written with `sluice write`: the latest merged row of each key
// (updates, deletes, partial updates across writes, composite partitioned keys, before and
// after compaction), absent keys printing nothing, --keys files, the output formats, and bad
// keys failing with a message naming the field.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <string>

#include "cli/cli_test_util.h"
#include "sluice/catalog/filesystem_catalog.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

class SluiceGetCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = std::make_unique<FilesystemCatalog>(LocalFileIO(), dir_.path());
    ASSERT_OK(catalog_->CreateDatabase("db"));
  }

  void CreateTable(const std::string& name, std::vector<DataField> columns,
                   std::vector<std::string> primary_keys, std::vector<std::string> partition_keys,
                   TableOptions options) {
    NewTableSpec spec;
    spec.columns = std::move(columns);
    spec.primary_keys = std::move(primary_keys);
    spec.partition_keys = std::move(partition_keys);
    spec.options = std::move(options);
    ASSERT_OK(catalog_->CreateTable(name, spec));
  }

  std::string File(const std::string& name, const std::string& text) {
    const std::string path = dir_.path() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  void Write(const std::string& table, const std::string& jsonl) {
    test::CommandResult r = test::RunSluice("write " + table + " --warehouse " + dir_.path() +
                                            " --input " + File("in.jsonl", jsonl));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }

  test::CommandResult Get(const std::string& table, const std::string& args) {
    return test::RunSluice("get " + table + " --warehouse " + dir_.path() + " " + args);
  }

  test::TempDir dir_;
  std::unique_ptr<FilesystemCatalog> catalog_;
};

TEST_F(SluiceGetCliTest, LatestRowOfEachKeyAndNothingForAbsentOnes) {
  CreateTable("db.users",
              {Field(0, "id", DataType::BigInt(false)), Field(1, "name", DataType::String()),
               Field(2, "score", DataType::Int())},
              {"id"}, {}, {{"bucket", "2"}});
  Write("db.users",
        "{\"id\": 1, \"name\": \"ann\", \"score\": 10}\n"
        "{\"id\": 2, \"name\": \"bob\", \"score\": 20}\n"
        "{\"id\": 3, \"name\": \"cid\", \"score\": 30}\n");
  Write("db.users",
        "{\"id\": 1, \"name\": \"ann\", \"score\": 11}\n"
        "{\"_ROW_KIND\": \"-D\", \"id\": 2}\n");

  test::CommandResult r = Get("db.users", "--key id=1 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"id\":1,\"name\":\"ann\",\"score\":11}\n");
  // Deleted and never written keys print nothing; rows come in the order of the keys.
  r = Get("db.users", "--key id=3 --key id=2 --key id=99 --key id=1 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":3,\"name\":\"cid\",\"score\":30}\n"
            "{\"id\":1,\"name\":\"ann\",\"score\":11}\n");
  r = Get("db.users", "--key id=99 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");

  r = Get("db.users", "--keys " + File("keys.txt", "id=3\n\nid=1\r\n") + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,name,score\r\n3,cid,30\r\n1,ann,11\r\n");

  // The same answers after a full compaction, and at an older snapshot the older row.
  test::CommandResult c =
      test::RunSluice("compact db.users --warehouse " + dir_.path() + " --full");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  r = Get("db.users", "--key id=1 --key id=2 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"id\":1,\"name\":\"ann\",\"score\":11}\n");
  r = Get("db.users", "--key id=1 --key id=2 --snapshot 1 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"id\":1,\"name\":\"ann\",\"score\":10}\n"
            "{\"id\":2,\"name\":\"bob\",\"score\":20}\n");

  r = Get("db.users", "--key id=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ann"), std::string::npos) << r.out;
}

TEST_F(SluiceGetCliTest, CompositePartitionedKeyOfPartialUpdateTable) {
  CreateTable("db.profile",
              {Field(0, "dt", DataType::String(false)), Field(1, "id", DataType::BigInt(false)),
               Field(2, "email", DataType::String()), Field(3, "city", DataType::String())},
              {"dt", "id"}, {"dt"}, {{"bucket", "3"}, {"merge-engine", "partial-update"}});
  Write("db.profile", "{\"dt\": \"d1\", \"id\": 1, \"email\": \"a@x\"}\n");
  Write("db.profile",
        "{\"dt\": \"d1\", \"id\": 1, \"city\": \"Oslo\"}\n"
        "{\"dt\": \"d2\", \"id\": 1, \"city\": \"Rome\"}\n");
  test::CommandResult r = Get("db.profile", "--key id=1,dt=d1 --key dt=d2,id=1 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"dt\":\"d1\",\"id\":1,\"email\":\"a@x\",\"city\":\"Oslo\"}\n"
            "{\"dt\":\"d2\",\"id\":1,\"email\":null,\"city\":\"Rome\"}\n");
  r = Get("db.profile", "--key dt=d3,id=1 --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(SluiceGetCliTest, BadKeysFailNamingTheField) {
  CreateTable("db.t", {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())},
              {"id"}, {}, {{"bucket", "1"}});
  Write("db.t", "{\"id\": 1, \"v\": \"x\"}\n");
  test::CommandResult r = Get("db.t", "--key v=x");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("'v' is not a primary key field"), std::string::npos) << r.err;
  r = Get("db.t", "--key id=abc");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("field 'id'"), std::string::npos) << r.err;
  r = Get("db.t", "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--key"), std::string::npos) << r.err;
  r = Get("db.t", "--keys " + File("bad.txt", "id=1\nid\n"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bad.txt line 2"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sluice
