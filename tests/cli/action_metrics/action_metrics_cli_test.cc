// `sluice action --metrics-port N NAME ...` (#33): one job watched as `sluice serve`'s are. A
// Kafka sync (the real broker of the `kafka` fixture) serves its metrics while it runs, a real
// Prometheus scrapes them and the shipped dashboard shows what it read and committed; a port in
// use fails the action before it runs.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cdc/kafka/kafka_test_util.h"
#include "kafka_sync_test_util.h"
#include "service/prometheus/prometheus_harness.h"
#include "sluice/catalog.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

extern char** environ;

namespace sluice::test {
namespace {

using Clock = std::chrono::steady_clock;

// ASan binaries on a loaded 2-core machine start slowly.
constexpr std::chrono::seconds kDeadline{120};
constexpr std::chrono::milliseconds kPoll{100};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A `sluice action ...` child, its stdout and stderr in a file; SIGKILLed and reaped if the test
// leaves it running.
class ActionProcess {
 public:
  ActionProcess(std::vector<std::string> args, std::string log) : log_(std::move(log)) {
    args.insert(args.begin(), {BinaryDir() + "/sluice", "action"});
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
  }
  ~ActionProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }

  std::string Log() const { return ReadAll(log_); }

  // "127.0.0.1:<port>" from the action's "metrics on http://.../metrics" line; empty (with a
  // test failure) when it exits or says nothing first.
  std::string MetricsAddress() {
    static const std::regex line("metrics on http://([0-9.]+:[0-9]+)/metrics");
    const auto deadline = Clock::now() + kDeadline;
    while (Clock::now() < deadline) {
      std::smatch m;
      std::string log = Log();
      if (std::regex_search(log, m, line)) return m[1];
      if (Exited()) break;
      std::this_thread::sleep_for(kPoll);
    }
    ADD_FAILURE() << "no metrics address in the action's log:\n" << Log();
    return "";
  }

  // Waits for the exit (after `signal`, unless 0): the exit code, -N when signal N ended it, or
  // -1 when it did not end in time.
  int Wait(int signal) {
    if (signal != 0) kill(pid_, signal);
    const auto deadline = Clock::now() + kDeadline;
    while (Clock::now() < deadline) {
      if (Exited()) return exit_code_;
      std::this_thread::sleep_for(kPoll);
    }
    return -1;
  }

 private:
  bool Exited() {
    if (pid_ <= 0) return true;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    pid_ = -1;
    return true;
  }

  std::string log_;
  pid_t pid_ = -1;
  int exit_code_ = -1;
};

// The sum of `promql`'s series now; -1 when the query fails.
double Sum(PrometheusServer& prometheus, const std::string& promql) {
  Result<std::vector<PromSample>> samples = prometheus.Query("sum(" + promql + ")");
  if (!samples.ok() || samples->empty()) return -1;
  return (*samples)[0].value;
}

int GetStatus(const std::string& address, const std::string& path) {
  size_t colon = address.rfind(':');
  httplib::Client client(address.substr(0, colon), std::stoi(address.substr(colon + 1)));
  client.set_connection_timeout(5);
  auto res = client.Get(path);
  return res ? res->status : -1;
}

class ActionMetricsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(warehouse_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "1"}};
    ASSERT_OK(catalog.CreateTable("db.orders", spec));
  }

  Table OrdersTable() {
    auto table = Catalog::Filesystem(warehouse_.path()).GetTable("db.orders");
    EXPECT_OK(table);
    return *table;
  }

  // One commit of `rows` upserts.
  void Commit(int64_t first_id, int64_t rows) {
    Table table = OrdersTable();
    WriteBuilder builder = table.NewWriteBuilder();
    ASSERT_OK_AND_ASSIGN(auto write, builder.NewWrite());
    ColumnBatch batch(write->input_type());
    for (int64_t id = first_id; id < first_id + rows; ++id) {
      ASSERT_OK(batch.AppendRow({Value::Int64(id), Value::String("v" + std::to_string(id))}));
    }
    ASSERT_OK(write->Write(batch));
    ASSERT_OK_AND_ASSIGN(auto messages, write->PrepareCommit());
    ASSERT_OK_AND_ASSIGN(auto commit, builder.NewCommit());
    ASSERT_OK(commit->Commit(std::move(messages)).status());
    ASSERT_OK(write->Close());
  }

  TempDir warehouse_;
  TempDir logs_;
};

// A Kafka sync (a continuous action) watched while it runs: its source, commit and process
// panels show what it read and wrote, under the action's name.
TEST_F(ActionMetricsCliTest, ASyncIsWatchedThroughTheDashboard) {
  const std::string topic = UniqueTopicName("action_metrics");
  ASSERT_OK(CreateTopic(topic, 2));
  constexpr int kMessages = 40;
  std::vector<KafkaTestMessage> messages;
  for (int id = 0; id < kMessages; ++id) {
    messages.push_back(
        KafkaMessage(std::to_string(id),
                     CanalMessage("shop", "orders", "INSERT",
                                  {{"id", std::to_string(id)}, {"name", "n" + std::to_string(id)}},
                                  {{"id", "bigint(20)"}, {"name", "varchar(32)"}}, {"id"}),
                     id % 2));
  }
  ASSERT_OK(Produce(topic, messages));

  ActionProcess action({"--metrics-port", "0", "kafka_sync_database", "--warehouse",
                        warehouse_.path(), "--database", "ods", "--commit_interval", "200ms",
                        "--kafka_conf", "properties.bootstrap.servers=" + KafkaBootstrap(),
                        "--kafka_conf", "topic=" + topic, "--kafka_conf", "value.format=canal-json",
                        "--kafka_conf", "scan.startup.mode=earliest-offset"},
                       logs_.path() + "/action.log");
  const std::string address = action.MetricsAddress();
  ASSERT_FALSE(address.empty());
  EXPECT_EQ(address.rfind("127.0.0.1:", 0), 0u) << address;
  EXPECT_EQ(GetStatus(address, "/healthz"), 200);
  EXPECT_EQ(GetStatus(address, "/readyz"), 200);
  ASSERT_OK_AND_ASSIGN(auto prometheus, PrometheusServer::Start({address}));

  // Every message committed, then two scrapes of that.
  const auto deadline = Clock::now() + kDeadline;
  while (Clock::now() < deadline && Sum(*prometheus, "paimon_source_numRecordsIn") < kMessages) {
    std::this_thread::sleep_for(kPoll);
  }
  ASSERT_EQ(Sum(*prometheus, "paimon_source_numRecordsIn"), kMessages) << action.Log();
  ASSERT_OK(prometheus->WaitForScrape(kDeadline));
  ASSERT_OK(prometheus->WaitForScrape(kDeadline));
  EXPECT_EQ(Sum(*prometheus, "paimon_commit_deltaRecordsAppended_total"), kMessages);

  ASSERT_OK_AND_ASSIGN(auto queries, ReadDashboardQueries(DashboardPath()));
  std::vector<PanelResult> all = EvaluateDashboard(*prometheus, queries, "kafka_sync_database");
  for (const PanelResult& r : all) {
    if (r.query.row == "Ingestion" || r.query.row == "Process" ||
        r.query.panel == "Commits since start by kind" ||
        r.query.panel == "Files added / deleted by the last commit") {
      EXPECT_TRUE(r.has_data()) << r.Describe();
    }
  }
  // Both partitions read to their end.
  const PanelResult* lag = FindPanel(all, "Lag per split");
  ASSERT_EQ(lag->samples.size(), 2u) << lag->Describe();
  for (const PromSample& split : lag->samples) EXPECT_EQ(split.value, 0) << lag->Describe();
  const PanelResult* tables = FindPanel(all, "Tables written");
  ASSERT_TRUE(tables->has_data()) << tables->Describe();
  EXPECT_EQ(tables->samples[0].value, 1);
  // The table's commits, under the action's name.
  const PanelResult* commits = FindPanel(all, "Commits since start by kind");
  ASSERT_TRUE(commits->has_data()) << commits->Describe();
  EXPECT_EQ(commits->samples[0].labels.at("job"), "kafka_sync_database");
  EXPECT_EQ(commits->samples[0].labels.at("database"), "ods");
  EXPECT_EQ(commits->samples[0].labels.at("table"), "orders");
  EXPECT_EQ(commits->samples[0].labels.at("kind"), "append");
  EXPECT_GE(commits->samples[0].value, 1);
  const PanelResult* memory = FindPanel(all, "Memory");
  ASSERT_TRUE(memory->has_data());
  EXPECT_EQ(memory->samples[0].labels.at("job"), "kafka_sync_database") << memory->Describe();

  // SIGTERM: the action commits what it has and exits 0, and the endpoint goes with it.
  EXPECT_EQ(action.Wait(SIGTERM), 0) << action.Log();
  EXPECT_EQ(GetStatus(address, "/healthz"), -1);
}

TEST_F(ActionMetricsCliTest, APortInUseFailsBeforeTheActionRuns) {
  int taken = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(taken, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  ASSERT_EQ(bind(taken, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(listen(taken, 1), 0);
  ASSERT_EQ(getsockname(taken, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const std::string port = std::to_string(ntohs(addr.sin_port));
  Commit(0, 5);
  Commit(0, 5);

  ActionProcess action(
      {"--metrics-port", port, "expire_snapshots", "--warehouse", warehouse_.path(), "--database",
       "db", "--table", "orders", "--retain_max", "1"},
      logs_.path() + "/action.log");
  EXPECT_EQ(action.Wait(0), 1);
  const std::string log = action.Log();
  EXPECT_NE(log.find("127.0.0.1:" + port), std::string::npos) << log;
  EXPECT_NE(log.find("in use"), std::string::npos) << log;
  ASSERT_OK_AND_ASSIGN(auto snapshots, OrdersTable().Snapshots());
  EXPECT_EQ(snapshots.size(), 2u) << "the action ran";
  close(taken);

  ActionProcess out_of_range({"--metrics-port", "70000", "expire_snapshots", "--warehouse",
                              warehouse_.path(), "--database", "db", "--table", "orders"},
                             logs_.path() + "/range.log");
  EXPECT_NE(out_of_range.Wait(0), 0);
  EXPECT_NE(out_of_range.Log().find("--metrics-port"), std::string::npos) << out_of_range.Log();
}

}  // namespace
}  // namespace sluice::test
