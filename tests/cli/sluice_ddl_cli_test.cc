// Drives the `sluice` binary's catalog verbs on a scratch warehouse: create-database,
// create-table, alter-table (changes in command-line order), list, rename-table, drop-table,
// and check on corpus tables and a damaged copy.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

namespace fs = std::filesystem;

using test::CommandResult;
using test::RunSluiceMergingStderr;

nlohmann::json ReadJson(const std::string& path) {
  return nlohmann::json::parse(test::ReadFileOrFail(path));
}

class SluiceDdlCliTest : public ::testing::Test {
 protected:
  std::string wh() const { return " --warehouse " + temp_.path(); }
  std::string schema(int id) const {
    return temp_.path() + "/shop.db/orders/schema/schema-" + std::to_string(id);
  }
  test::TempDir temp_;
};

TEST_F(SluiceDdlCliTest, CreateAlterListRenameDrop) {
  CommandResult r = RunSluiceMergingStderr("create-database shop" + wh());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr(
      "create-table shop.orders" + wh() +
      " --column 'id BIGINT NOT NULL' --column 'dt STRING'"
      " --column \"amount DECIMAL(10, 2) COMMENT 'in euros'\""
      " --column 'tags ARRAY<STRING>' --column 'addr ROW<street STRING, zip INT>'"
      " --primary-key id,dt --partition dt --option bucket=4"
      " --option merge-engine=partial-update --comment 'all orders'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  nlohmann::json s0 = ReadJson(schema(0));
  EXPECT_EQ(s0["version"], 3);
  EXPECT_EQ(s0["primaryKeys"], nlohmann::json::parse(R"(["id","dt"])"));
  EXPECT_EQ(s0["partitionKeys"], nlohmann::json::parse(R"(["dt"])"));
  EXPECT_EQ(s0["fields"][1]["type"], "STRING NOT NULL");  // primary-key columns are NOT NULL
  EXPECT_EQ(s0["fields"][2]["type"], "DECIMAL(10, 2)");
  EXPECT_EQ(s0["fields"][2]["description"], "in euros");
  EXPECT_EQ(s0["fields"][4]["type"]["fields"][1]["id"], 6);
  EXPECT_EQ(s0["highestFieldId"], 6);
  EXPECT_EQ(s0["options"]["bucket"], "4");
  EXPECT_EQ(s0["comment"], "all orders");

  r = RunSluiceMergingStderr("create-table shop.orders" + wh() + " --column 'id INT'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("already exists"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("create-table shop.orders" + wh() +
                             " --column 'id INT' --if-not-exists");
  EXPECT_EQ(r.exit_code, 0) << r.out;

  // Changes apply in command-line order; --first / --after place the column just added.
  r = RunSluiceMergingStderr(
      "alter-table shop.orders" + wh() +
      " --add-column 'qty INT' --after id --rename-column amount=total"
      " --alter-column 'qty BIGINT' --add-column 'note STRING' --first"
      " --move-column tags --after note --set-option snapshot.num-retained.max=10"
      " --reset-option merge-engine");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  nlohmann::json s1 = ReadJson(schema(1));
  std::vector<std::string> names;
  for (const auto& f : s1["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"note", "tags", "id", "qty", "dt", "total", "addr"}));
  EXPECT_EQ(s1["fields"][3]["type"], "BIGINT");
  EXPECT_EQ(s1["fields"][3]["id"], 7);
  EXPECT_EQ(s1["fields"][0]["id"], 8);
  EXPECT_EQ(s1["highestFieldId"], 8);
  EXPECT_EQ(s1["options"]["snapshot.num-retained.max"], "10");
  EXPECT_FALSE(s1["options"].contains("merge-engine"));

  // Refused changes name the column and write nothing.
  r = RunSluiceMergingStderr("alter-table shop.orders" + wh() + " --drop-column id");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("Cannot drop partition key or primary key: [id]"), std::string::npos)
      << r.out;
  r = RunSluiceMergingStderr("alter-table shop.orders" + wh() + " --add-column 'x INT NOT NULL'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("x cannot specify NOT NULL"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("alter-table shop.orders" + wh() + " --alter-column 'addr INT'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("addr"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("alter-table shop.orders" + wh() + " --move-column qty");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("needs --first or --after"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("alter-table shop.orders" + wh() + " --add-column 'y FOO'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("FOO"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(schema(2)));

  r = RunSluiceMergingStderr("list" + wh());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "shop\n");
  r = RunSluiceMergingStderr("list shop" + wh());
  EXPECT_EQ(r.out, "orders\n");
  r = RunSluiceMergingStderr("check shop.orders" + wh());
  EXPECT_EQ(r.exit_code, 0) << r.out;  // no snapshots yet: nothing to contradict

  r = RunSluiceMergingStderr("rename-table shop.orders shop.sales" + wh());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(RunSluiceMergingStderr("list shop" + wh()).out, "sales\n");
  r = RunSluiceMergingStderr("drop-table shop.sales" + wh());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(RunSluiceMergingStderr("list shop" + wh()).out, "");
  r = RunSluiceMergingStderr("drop-table shop.sales" + wh());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("does not exist"), std::string::npos) << r.out;
  EXPECT_EQ(RunSluiceMergingStderr("drop-database shop" + wh()).exit_code, 0);
  EXPECT_EQ(RunSluiceMergingStderr("list" + wh()).out, "");
}

// Java reads a snapshot through the schema that snapshot was written with
// (AbstractFileStoreTable time travel): after a rename and an added column, snapshot 1 still
// shows `s` and no `n`; --schema-id reads it through another schema on purpose.
TEST_F(SluiceDdlCliTest, TimeTravelReadsThroughTheSnapshotsSchema) {
  ASSERT_EQ(RunSluiceMergingStderr("create-database db" + wh()).exit_code, 0);
  CommandResult r =
      RunSluiceMergingStderr("create-table db.t" + wh() + " --column 'id INT' --column 's STRING'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const std::string input = temp_.path() + "/rows.jsonl";
  {
    std::ofstream out(input);
    out << "{\"id\": 1, \"s\": \"a\"}\n";
  }
  r = RunSluiceMergingStderr("write db.t" + wh() + " --input " + input);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr("alter-table db.t" + wh() +
                             " --rename-column s=s2 --add-column 'n INT'");
  ASSERT_EQ(r.exit_code, 0) << r.out;

  r = RunSluiceMergingStderr("read db.t" + wh() + " --snapshot 1 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "id,s\r\n1,a\r\n");
  r = RunSluiceMergingStderr("read db.t" + wh() + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "id,s2,n\r\n1,a,\r\n");
  r = RunSluiceMergingStderr("read db.t" + wh() + " --snapshot 1 --schema-id 1 --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "id,s2,n\r\n1,a,\r\n");
  r = RunSluiceMergingStderr("read db.t" + wh() + " --snapshot 1 --select s2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("unknown column 's2'"), std::string::npos) << r.out;
}

// Java's SchemaValidation asks the format (validateDataFields) before it creates or alters a
// table: Avro holds no TIMESTAMP(9), so such a table is never made.
TEST_F(SluiceDdlCliTest, CreateAndAlterRefuseColumnsTheFormatCannotHold) {
  ASSERT_EQ(RunSluiceMergingStderr("create-database db" + wh()).exit_code, 0);
  CommandResult r = RunSluiceMergingStderr(
      "create-table db.t" + wh() +
      " --column 'id INT' --column 'ts TIMESTAMP(9)' --option file.format=avro");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("column 'ts' of type TIMESTAMP(9) cannot be stored in avro files"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(temp_.path() + "/db.db/t/schema/schema-0"));
  r = RunSluiceMergingStderr("create-table db.t" + wh() +
                             " --column 'id INT' --option file.format=avro");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr("alter-table db.t" + wh() + " --add-column 'ts TIMESTAMP(9)'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("column 'ts' of type TIMESTAMP(9) cannot be stored in avro files"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(temp_.path() + "/db.db/t/schema/schema-1"));
}

TEST_F(SluiceDdlCliTest, ErrorsNameWhatIsWrong) {
  CommandResult r =
      RunSluiceMergingStderr("create-table shop.orders" + wh() + " --column 'id INT'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("database 'shop' does not exist"), std::string::npos) << r.out;
  ASSERT_EQ(RunSluiceMergingStderr("create-database shop" + wh()).exit_code, 0);
  r = RunSluiceMergingStderr("create-table shop.t" + wh() +
                             " --column 'id INT' --primary-key nope");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("nope"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("create-table shop.t" + wh() + " --column 'id INT' --option bucket=3");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("bucket-key"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("create-table shop.t" + wh() + " --column 'id INT' --option nonsense");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("KEY=VALUE"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("create-table shop.t --column 'id INT'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("warehouse"), std::string::npos) << r.out;
  // --catalog-option picks the metastore (Java's catalog options); one Sluice has no
  // implementation of is refused by name, and nothing is created.
  r = RunSluiceMergingStderr("create-database other" + wh() + " --catalog-option metastore=hive");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("metastore=hive"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(temp_.path() + "/other.db"));
  r = RunSluiceMergingStderr("create-database other" + wh() +
                             " --catalog-option metastore=filesystem");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(fs::is_directory(temp_.path() + "/other.db"));
}

TEST_F(SluiceDdlCliTest, CheckPassesOnCorpusTablesAndNamesDamage) {
  const std::string table =
      test::CompatTablesDir() + "/parquet/pk_table_with_alter_table.db/pk_table_with_alter_table";
  CommandResult r = RunSluiceMergingStderr("check " + table);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("6 snapshots"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OK"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("check " + test::CompatTablesDir() +
                             "/orc/pk_dv_index_not_in_data_with_external.db/"
                             "pk_dv_index_not_in_data_with_external --latest"
                             " --path-remap FILE:/tmp/external=../external");
  EXPECT_EQ(r.exit_code, 0) << r.out;

  const std::string copy = temp_.path() + "/copy";
  fs::copy(table, copy, fs::copy_options::recursive);
  std::string victim;
  for (const std::string& f : test::ListFilesRecursive(copy)) {
    if (f.ends_with(".parquet")) victim = f;
  }
  ASSERT_FALSE(victim.empty());
  fs::remove(victim);
  r = RunSluiceMergingStderr("check " + copy);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("PROBLEM data file " + victim + " does not exist"), std::string::npos)
      << r.out;
  r = RunSluiceMergingStderr("check " + temp_.path() + "/nothing");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("no table"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace sluice
