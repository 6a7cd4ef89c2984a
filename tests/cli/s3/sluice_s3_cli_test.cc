// The `sluice` command on a warehouse in a real S3-compatible server (the `s3` fixture,
// scripts/s3.sh): --catalog_conf gives the store's options as Java's actions take them, a table
// folder URI opens with credentials from the environment, separate processes committing to one
// table at once never lose a commit (the conditional create of snapshot-N decides), Java's
// maintenance actions and a Kafka sync (the `kafka` fixture's broker) write there.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "cdc/kafka/kafka_test_util.h"
#include "cli/cli_test_util.h"
#include "test_util.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::RunShellCommand;
using test::RunSluiceMergingStderr;

std::string Endpoint() {
  const char* env = std::getenv("SLUICE_S3_ENDPOINT");
  return env != nullptr && *env != '\0' ? env : "http://127.0.0.1:19400";
}

class SluiceS3CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device random;
    warehouse_ = "s3://sluice/cli-" + std::to_string(random()) + std::to_string(random());
  }
  // The catalog options of the server's test identity, and the warehouse.
  std::string conf() const {
    return " --warehouse " + warehouse_ + " --catalog_conf s3.endpoint=" + Endpoint() +
           " --catalog_conf s3.access-key=sluice-test --catalog_conf "
           "s3.secret-key=sluice-test-secret --catalog_conf s3.path.style.access=true";
  }
  std::string warehouse_;
};

TEST_F(SluiceS3CliTest, CreateWriteReadCheckOnS3) {
  CommandResult r = RunSluiceMergingStderr("create-database shop" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr("create-table shop.t" + conf() +
                             " --column 'id INT NOT NULL' --column 'v STRING' --primary-key id"
                             " --option bucket=1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  test::TempDir dir;
  for (int i = 1; i <= 3; ++i) {
    const std::string input = dir.path() + "/rows" + std::to_string(i) + ".jsonl";
    std::ofstream(input) << ("{\"id\":" + std::to_string(i) + ",\"v\":\"a" + std::to_string(i) +
                             "\"}\n{\"id\":0,\"v\":\"z" + std::to_string(i) + "\"}\n");
    r = RunSluiceMergingStderr("write shop.t --input " + input + conf());
    ASSERT_EQ(r.exit_code, 0) << r.out;
  }
  r = RunSluiceMergingStderr("read shop.t --format jsonl" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out,
            "{\"id\":0,\"v\":\"z3\"}\n{\"id\":1,\"v\":\"a1\"}\n{\"id\":2,\"v\":\"a2\"}\n"
            "{\"id\":3,\"v\":\"a3\"}\n");
  r = RunSluiceMergingStderr("sql \"SELECT count(*) AS n FROM shop.t\" --format jsonl" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "{\"n\":4}\n");
  r = RunSluiceMergingStderr("check shop.t" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("3 snapshots"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("list" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("shop"), std::string::npos) << r.out;

  // The folder URI, with the credentials and endpoint from the environment and options.
  r = RunShellCommand("AWS_ACCESS_KEY_ID=sluice-test AWS_SECRET_ACCESS_KEY=sluice-test-secret " +
                      test::BinaryDir() + "/sluice read " + warehouse_ +
                      "/shop.db/t --format jsonl --catalog_conf s3.endpoint=" + Endpoint() +
                      " --catalog_conf s3.path.style.access=true 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("{\"id\":0,\"v\":\"z3\"}"), std::string::npos) << r.out;
}

TEST_F(SluiceS3CliTest, ErrorsNameTheStoreAndNeverTheSecret) {
  CommandResult r = RunSluiceMergingStderr(
      "list --warehouse " + warehouse_ + " --catalog_conf s3.endpoint=" + Endpoint() +
      " --catalog_conf s3.access-key=sluice-test --catalog_conf s3.secret-key=WRONG-SECRET-42"
      " --catalog_conf s3.path.style.access=true --catalog_conf s3.attempts.maximum=1");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("403"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("sluice"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("WRONG-SECRET-42"), std::string::npos) << r.out;

  r = RunSluiceMergingStderr("list --warehouse gs://bucket/w");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("scheme 'gs'"), std::string::npos) << r.out;
}

// Four processes, each writing three commits of its own keys to one table at the same time:
// every commit is in the table, each as one snapshot.
TEST_F(SluiceS3CliTest, ConcurrentCommittersNeverLoseACommit) {
  ASSERT_EQ(RunSluiceMergingStderr("create-database shop" + conf()).exit_code, 0);
  CommandResult r = RunSluiceMergingStderr(
      "create-table shop.t" + conf() +
      " --column 'id INT NOT NULL' --column 'w INT' --primary-key id --option bucket=1"
      " --option write-only=true");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  constexpr int kWriters = 4;
  constexpr int kCommits = 3;
  test::TempDir dir;
  std::string script;
  for (int w = 0; w < kWriters; ++w) {
    script += "(";
    for (int c = 0; c < kCommits; ++c) {
      const int id = w * kCommits + c;
      const std::string input = dir.path() + "/rows" + std::to_string(id) + ".jsonl";
      std::ofstream(input) << ("{\"id\":" + std::to_string(id) + ",\"w\":" + std::to_string(w) +
                               "}\n");
      script += test::BinaryDir() + "/sluice write shop.t --input " + input + conf() +
                " || echo WRITE-FAILED; ";
    }
    script += ") & ";
  }
  script += "wait";
  r = RunShellCommand("(" + script + ") 2>&1");
  EXPECT_EQ(r.out.find("WRITE-FAILED"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr(
      "sql \"SELECT count(*) AS n, count(DISTINCT w) AS writers FROM shop.t\" --format jsonl" +
      conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "{\"n\":12,\"writers\":4}\n");
  r = RunSluiceMergingStderr("read 'shop.t$snapshots' --format jsonl" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  int snapshots = 0;
  for (size_t at = 0; (at = r.out.find("\"snapshot_id\":", at)) != std::string::npos; ++at) {
    ++snapshots;
  }
  EXPECT_EQ(snapshots, kWriters * kCommits) << r.out;
  EXPECT_NE(r.out.find("\"snapshot_id\":12,"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr("check shop.t" + conf());
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

// Java's maintenance actions take the store's options as --catalog_conf: a compaction, a
// snapshot expiry and an orphan-file cleanup (object listings: a stray object removed) on an S3
// table.
TEST_F(SluiceS3CliTest, MaintenanceActionsOnS3) {
  ASSERT_EQ(RunSluiceMergingStderr("create-database shop" + conf()).exit_code, 0);
  CommandResult r = RunSluiceMergingStderr(
      "create-table shop.t" + conf() +
      " --column 'id INT NOT NULL' --column 'v INT' --primary-key id --option bucket=1"
      " --option write-only=true");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  test::TempDir dir;
  for (int i = 1; i <= 4; ++i) {
    const std::string input = dir.path() + "/rows" + std::to_string(i) + ".jsonl";
    std::ofstream(input) << "{\"id\":" << i << ",\"v\":" << i << "}\n";
    ASSERT_EQ(RunSluiceMergingStderr("write shop.t --input " + input + conf()).exit_code, 0);
  }
  r = RunSluiceMergingStderr("action --runtime-mode batch compact --database shop --table t" +
                             conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("compacted 4 files of shop.t into 1 (snapshot 5)"), std::string::npos)
      << r.out;
  r = RunSluiceMergingStderr(
      "action expire_snapshots --database shop --table t --retain_max 1 --retain_min 1" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Expired 4 snapshots of shop.t"), std::string::npos) << r.out;
  // An orphan: a data file no snapshot names (a failed writer's leftover), put with curl's own
  // Signature V4 so that Sluice's client is not what creates it.
  const std::string orphan_url = Endpoint() + "/sluice/" +
                                 warehouse_.substr(strlen("s3://sluice/")) +
                                 "/shop.db/t/bucket-0/data-orphan-0.parquet";
  const std::string curl =
      "curl -s -o /dev/null -w '%{http_code}' --aws-sigv4 aws:amz:us-east-1:s3"
      " --user sluice-test:sluice-test-secret"
      " -H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' ";
  const std::string orphan = dir.path() + "/orphan";
  std::ofstream(orphan) << "not a table's file";
  ASSERT_EQ(RunShellCommand(curl + "-T " + orphan + " '" + orphan_url + "'").out, "200");
  r = RunSluiceMergingStderr(
      "action remove_orphan_files --database shop --table t --older_than '2999-01-01 00:00:00'" +
      conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Removed 1 orphan files"), std::string::npos) << r.out;
  EXPECT_EQ(RunShellCommand(curl + "-I '" + orphan_url + "'").out, "404");
  r = RunSluiceMergingStderr("check shop.t" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("1 snapshots, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 data files"), std::string::npos) << r.out;
  r = RunSluiceMergingStderr(
      "sql \"SELECT count(*) AS n, sum(v) AS s FROM shop.t\" --format jsonl" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out, "{\"n\":4,\"s\":\"10\"}\n");  // SUM of INT is HUGEINT, printed as text
}

// A Kafka sync into an S3 warehouse: tables created, rows upserted and a column added there.
TEST_F(SluiceS3CliTest, KafkaSyncIntoS3) {
  const std::string topic = test::UniqueTopicName("s3-sync");
  ASSERT_OK(test::CreateTopic(topic, 1));
  auto message = [](const std::string& type, const nlohmann::json& row) {
    nlohmann::json types = {{"id", "INT"}, {"name", "VARCHAR(20)"}};
    if (row.contains("qty")) types["qty"] = "INT";
    return nlohmann::json(
               {{"data", nlohmann::json::array({row})},
                {"database", "shop"},
                {"table", "orders"},
                {"type", type},
                {"isDdl", false},
                {"pkNames", {"id"}},
                {"mysqlType", types},
                {"old", type == "UPDATE" ? nlohmann::json::array({nlohmann::json::object()})
                                         : nlohmann::json(nullptr)},
                {"es", 1700000000000},
                {"ts", 1700000000001}})
        .dump();
  };
  std::vector<test::KafkaTestMessage> messages = {
      test::KafkaMessage(std::nullopt, message("INSERT", {{"id", "1"}, {"name", "a"}})),
      test::KafkaMessage(std::nullopt, message("INSERT", {{"id", "2"}, {"name", "b"}})),
      test::KafkaMessage(std::nullopt, message("UPDATE", {{"id", "1"}, {"name", "a2"}})),
      test::KafkaMessage(std::nullopt,
                         message("INSERT", {{"id", "3"}, {"name", "c"}, {"qty", "7"}})),
  };
  ASSERT_OK(test::Produce(topic, messages));
  CommandResult r = RunSluiceMergingStderr(
      "action kafka_sync_database --database ods" + conf() +
      " --kafka_conf properties.bootstrap.servers=" + test::KafkaBootstrap() +
      " --kafka_conf topic=" + topic +
      " --kafka_conf value.format=canal-json --kafka_conf scan.startup.mode=earliest-offset"
      " --stop_at_end true");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = RunSluiceMergingStderr("read ods.orders --format jsonl" + conf());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out,
            "{\"id\":1,\"name\":\"a2\",\"qty\":null}\n"
            "{\"id\":2,\"name\":\"b\",\"qty\":null}\n"
            "{\"id\":3,\"name\":\"c\",\"qty\":7}\n");
  r = RunSluiceMergingStderr("check ods.orders" + conf());
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_OK(test::DeleteTopic(topic));
}

}  // namespace
}  // namespace sluice
