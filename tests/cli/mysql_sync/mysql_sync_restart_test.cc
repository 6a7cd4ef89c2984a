// A source server restarted under a running `sluice action mysql_sync_database`: the job loses
// its binlog connection, reconnects with backoff, and goes on from its last transaction; the
// table then equals MariaDB's. The server is one of the test's own (scripts/mariadb.sh on a port
// of its own, restarted on its data), not the shared fixture.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "kafka_sync_test_util.h"
#include "mariadb_test_util.h"

namespace sluice {
namespace {

using nlohmann::json;
using test::CommandResult;
using test::ReadRows;
using test::RunShellCommand;
using test::TempDir;

// SQL against the test's server on `port`.
CommandResult Sql(const std::string& port, const std::string& sql) {
  return RunShellCommand(
      "MYSQL_PWD=sluice mariadb --no-defaults --protocol=tcp --host=127.0.0.1 "
      "--port=" +
      port + " --user=sluice --batch --skip-column-names -e \"" + sql + "\" 2>&1");
}

CommandResult Server(const std::string& command, const std::string& port) {
  return RunShellCommand(test::SourceDir() + "/scripts/mariadb.sh " + command + " --port " + port +
                         " 2>&1");
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

TEST(MySqlSyncRestartTest, JobRecoversFromASourceServerRestart) {
  const std::string port = std::to_string(13400 + getpid() % 500);
  CommandResult r = Server("start", port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  // Stopped however the test ends: a server left running would hold what its starter held.
  struct Stop {
    std::string port;
    ~Stop() { Server("stop", port); }
  } stop{port};
  r = Sql(port,
          "CREATE DATABASE src; CREATE TABLE src.t (id INT PRIMARY KEY, v INT); "
          "INSERT INTO src.t SELECT seq, seq FROM src.seq_1_to_100;");
  ASSERT_EQ(r.exit_code, 0) << r.out;

  TempDir warehouse;
  TempDir logs;
  const std::string log = logs.path() + "/sync.log";
  // Continuous (no --stop_at_end): the job runs until SIGTERM.
  const pid_t job = test::Spawn({test::BinaryDir() + "/sluice",
                                 "action",
                                 "mysql_sync_database",
                                 "--warehouse",
                                 warehouse.path(),
                                 "--database",
                                 "ods",
                                 "--mysql_conf",
                                 "hostname=127.0.0.1",
                                 "--mysql_conf",
                                 "port=" + port,
                                 "--mysql_conf",
                                 "username=sluice",
                                 "--mysql_conf",
                                 "password=sluice",
                                 "--mysql_conf",
                                 "database-name=src",
                                 "--mysql_conf",
                                 "connect.max-retries=6",
                                 "--commit_interval",
                                 "100 ms"},
                                log);
  struct Reap {
    pid_t pid;
    ~Reap() {
      if (pid > 0 && ::kill(pid, SIGKILL) == 0) ::waitpid(pid, nullptr, 0);
    }
  } reap{job};
  ASSERT_TRUE(WaitForRows(warehouse.path(), 100)) << test::ReadFileOrFail(log);
  r = Sql(port,
          "INSERT INTO src.t SELECT seq, seq FROM src.seq_101_to_150; DELETE FROM src.t WHERE "
          "id <= 10;");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(WaitForRows(warehouse.path(), 140)) << test::ReadFileOrFail(log);

  r = Server("restart", port);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = Sql(port,
          "UPDATE src.t SET v = -v WHERE id % 2 = 0; INSERT INTO src.t SELECT seq, seq FROM "
          "src.seq_151_to_200;");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  ASSERT_TRUE(WaitForRows(warehouse.path(), 190)) << test::ReadFileOrFail(log);

  ::kill(job, SIGTERM);
  int status = 0;
  ASSERT_EQ(::waitpid(job, &status, 0), job);
  reap.pid = -1;
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << test::ReadFileOrFail(log);
  EXPECT_NE(test::ReadFileOrFail(log).find("reconnecting"), std::string::npos)
      << "the job should have lost its connection: " << test::ReadFileOrFail(log);

  r = Sql(port, "SELECT JSON_OBJECT('id', id, 'v', v) FROM src.t");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::vector<json> expected;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty()) expected.push_back(json::parse(line));
  }
  EXPECT_EQ(ReadRows(warehouse.path(), "ods.t"), test::Sorted(expected));
}

}  // namespace
}  // namespace sluice
