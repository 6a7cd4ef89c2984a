// A source server restarted under a running `sluice action <mysql|postgres>_sync_database`: the
// job loses its connection, reconnects with backoff, and goes on from its last transaction; the
// table then equals the source's. The server is one of the test's own (scripts/<x>.sh on a port
// of its own, restarted on its data), not the shared fixture.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "kafka_sync_test_util.h"
#include "source_database.h"

namespace sluice {
namespace {

using test::CommandResult;
using test::ReadRows;
using test::RunShellCommand;
using test::SourceDatabase;
using test::TempDir;

CommandResult Server(const SourceDatabase& source, const std::string& command,
                     const std::string& port) {
  return RunShellCommand(test::SourceDir() + "/" + source.server_script + " " + command +
                         " --port " + port + " 2>&1");
}

// Polls the synced table until it holds `rows` rows (a condition, not a wait for time); false
// when the deadline passes first.
bool WaitForRows(const std::string& warehouse, size_t rows) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    if (test::RunSluice("read ods.t --warehouse '" + warehouse + "' --format jsonl").exit_code ==
            0 &&
        ReadRows(warehouse, "ods.t").size() == rows) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

class DbSyncRestartTest : public ::testing::TestWithParam<const SourceDatabase*> {};

TEST_P(DbSyncRestartTest, JobRecoversFromASourceServerRestart) {
  const SourceDatabase& source = *GetParam();
  const std::string port =
      std::to_string((source.name == "mariadb" ? 13400 : 15600) + getpid() % 150);
  CommandResult r = Server(source, "start", port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // Stopped however the test ends: a server left running would hold what its starter held.
  struct Stop {
    const SourceDatabase& source;
    std::string port;
    ~Stop() { Server(source, "stop", port); }
  } stop{source, port};
  const std::string admin = source.name == "mariadb" ? "" : "sluice";
  r = source.Sql("CREATE DATABASE src", admin, port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = source.Sql(
      "CREATE TABLE t (id INT PRIMARY KEY, v INT); " + source.InsertSeries("t", "n, n", 1, 100),
      "src", port);
  ASSERT_EQ(r.exit_code, 0) << r.out;

  TempDir warehouse;
  TempDir logs;
  const std::string log = logs.path() + "/sync.log";
  // Continuous (no --stop_at_end): the job runs until SIGTERM.
  std::vector<std::string> args = {test::BinaryDir() + "/sluice",
                                   "action",
                                   source.action_prefix + "_sync_database",
                                   "--warehouse",
                                   warehouse.path(),
                                   "--database",
                                   "ods",
                                   "--commit_interval",
                                   "100 ms",
                                   "--" + source.action_prefix + "_conf",
                                   "connect.max-retries=6"};
  for (const std::string& arg : source.ConfArguments("src", port)) args.push_back(arg);
  const pid_t job = test::Spawn(args, log);
  struct Reap {
    pid_t pid;
    ~Reap() {
      if (pid > 0 && ::kill(pid, SIGKILL) == 0) ::waitpid(pid, nullptr, 0);
    }
  } reap{job};
  ASSERT_TRUE(WaitForRows(warehouse.path(), 100)) << test::ReadFileOrFail(log);
  r = source.Sql(source.InsertSeries("t", "n, n", 101, 150) + " DELETE FROM t WHERE id <= 10;",
                 "src", port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(WaitForRows(warehouse.path(), 140)) << test::ReadFileOrFail(log);

  r = Server(source, "restart", port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = source.Sql(
      "UPDATE t SET v = -v WHERE id % 2 = 0; " + source.InsertSeries("t", "n, n", 151, 200), "src",
      port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(WaitForRows(warehouse.path(), 190)) << test::ReadFileOrFail(log);

  ::kill(job, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(job, &status, 0), job);
  reap.pid = -1;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << test::ReadFileOrFail(log);
  EXPECT_NE(test::ReadFileOrFail(log).find("reconnecting"), std::string::npos)
      << "the job should have lost its connection: " << test::ReadFileOrFail(log);
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.t"), source.Rows("src", "t", {"id", "v"}, port));
}

INSTANTIATE_TEST_SUITE_P(Source, DbSyncRestartTest,
                         ::testing::Values(&test::MariaDbSource(), &test::PostgresSource()),
                         [](const ::testing::TestParamInfo<const SourceDatabase*>& info) {
                           return info.param->name;
                         });

}  // namespace
}  // namespace sluice
