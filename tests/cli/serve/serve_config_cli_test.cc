// A bad service config (an unknown action, a bad argument, a metrics port in use) fails
// `sluice serve` at start with an error naming the job and the key, and no job runs: the
// service never starts half-configured.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <signal.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "cli/cli_test_util.h"
#include "serve_test_util.h"
#include "sluice/catalog.h"
#include "sluice/table_commit.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"
#include "test_util.h"

namespace sluice::test {
namespace {

class ServeConfigCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    warehouse_ = dir_.path() + "/warehouse";
    Catalog catalog = Catalog::Filesystem(warehouse_);
    ASSERT_OK(catalog.CreateDatabase("shop"));
    NewTableSpec spec;
    spec.columns = {DataField{0, "id", DataType::BigInt(false), std::nullopt, std::nullopt}};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "1"}};
    ASSERT_OK(catalog.CreateTable("shop.orders", spec));
    // A snapshot for the tag job to tag.
    Result<Table> table = catalog.GetTable("shop.orders");
    ASSERT_OK(table);
    WriteBuilder builder = table->NewWriteBuilder();
    Result<std::unique_ptr<TableWrite>> write = builder.NewWrite();
    ASSERT_OK(write);
    ColumnBatch batch((*write)->input_type());
    ASSERT_OK(batch.AppendRow({Value::Int64(1)}));
    ASSERT_OK((*write)->Write(batch));
    Result<std::vector<CommitMessage>> messages = (*write)->PrepareCommit();
    ASSERT_OK(messages);
    Result<std::unique_ptr<TableCommit>> commit = builder.NewCommit();
    ASSERT_OK(commit);
    ASSERT_OK((*commit)->Commit(std::move(*messages)));
    ASSERT_OK((*write)->Close());
  }

  // A config of a good job (a tag every hour, the first at start) and `bad`; its path.
  std::string Config(const std::string& bad, const std::string& metrics = "{port: 0}") {
    const std::string config = dir_.path() + "/sluice.yaml";
    std::ofstream(config) << "metrics: " << metrics
                          << "\n"
                             "jobs:\n"
                             "  - name: tagger\n"
                             "    action: create_tag\n"
                             "    args: [--warehouse, '"
                          << warehouse_
                          << "', --database, shop, --table, orders, --tag_name, t1]\n"
                             "    every: 1 h\n"
                          << bad;
    return config;
  }

  CommandResult Serve(const std::string& bad, const std::string& metrics = "{port: 0}") {
    return RunSluice("serve --config '" + Config(bad, metrics) + "'");
  }

  // The good job ran: only when the service started.
  bool TagExists() const {
    return std::filesystem::exists(warehouse_ + "/shop.db/orders/tag/tag-t1");
  }

  TempDir dir_;
  std::string warehouse_;
};

// The control: the good job alone runs (its tag appears) and SIGTERM stops the service.
TEST_F(ServeConfigCliTest, GoodConfigRunsItsJobsUntilSigterm) {
  ServeProcess serve(Config(""), dir_.path() + "/serve.log");
  ASSERT_FALSE(serve.MetricsAddress().empty());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!TagExists() && std::chrono::steady_clock::now() < deadline) {
    // Polls for the tag (a condition, not a wait for time).
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(TagExists()) << serve.Log();
  EXPECT_EQ(serve.Stop(SIGTERM, std::chrono::seconds(30)), 0) << serve.Log();
  EXPECT_NE(serve.Log().find("[tagger] starting: create_tag"), std::string::npos) << serve.Log();
}

TEST_F(ServeConfigCliTest, UnknownActionNamesTheJobAndTheKey) {
  CommandResult r = Serve(
      "  - name: typo\n"
      "    action: compact_databse\n"
      "    args: []\n"
      "    mode: continuous\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("jobs[1] 'typo'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("key 'action'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("compact_databse"), std::string::npos) << r.err;
  EXPECT_FALSE(TagExists());
}

TEST_F(ServeConfigCliTest, BadArgumentNamesTheJobAndTheKey) {
  CommandResult r = Serve(
      "  - name: expire\n"
      "    action: expire_snapshots\n"
      "    args: [--warehouse, /w, --database, shop, --table, orders, --retain_max, many]\n"
      "    every: 10 min\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("jobs[1] 'expire'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("key 'args'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("retain_max"), std::string::npos) << r.err;
  EXPECT_FALSE(TagExists());
}

TEST_F(ServeConfigCliTest, ContinuousExpiryIsRefused) {
  CommandResult r = Serve(
      "  - name: expire\n"
      "    action: expire_snapshots\n"
      "    args: [--warehouse, /w, --database, shop, --table, orders]\n"
      "    mode: continuous\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("jobs[1] 'expire'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("key 'mode'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("every"), std::string::npos) << r.err;
  EXPECT_FALSE(TagExists());
}

TEST_F(ServeConfigCliTest, MetricsPortInUseNamesTheKeyAndTheAddress) {
  // A listener of the test's own holds a port.
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t length = sizeof(address);
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int port = ntohs(address.sin_port);
  CommandResult r = Serve("", "{port: " + std::to_string(port) + "}");
  ::close(fd);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("metrics.port"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << r.err;
  EXPECT_FALSE(TagExists());
}

}  // namespace
}  // namespace sluice::test
