#include "sluice/service/job_runner.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "service/service_test_util.h"
#include "test_util.h"

namespace sluice::service {
namespace {

using Clock = std::chrono::steady_clock;

class JobRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override { log_out_ = std::tmpfile(); }
  void TearDown() override { std::fclose(log_out_); }

  std::string LogText() {
    std::fflush(log_out_);
    std::rewind(log_out_);
    std::string text;
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof(buffer), log_out_)) > 0) text.append(buffer, n);
    return text;
  }

  static JobConfig Job(bool continuous) {
    JobConfig job;
    job.name = "j";
    job.action = "test_action";
    job.continuous = continuous;
    job.every = std::chrono::milliseconds(1);
    job.restart_initial = std::chrono::milliseconds(1);
    job.restart_max = std::chrono::milliseconds(4);
    return job;
  }

  std::FILE* log_out_ = nullptr;
};

// A continuous job that fails is restarted, with its failures counted and logged, and a stop
// request ends it while its action runs.
TEST_F(JobRunnerTest, FailedRunsAreRetriedUntilStopped) {
  ServiceLog log(LogFormat::kText, log_out_);
  std::atomic<int> calls{0};
  JobRunner runner(
      Job(true),
      [&](const JobConfig&, const std::atomic<bool>& stop, const ActionHooks& hooks) {
        if (++calls <= 3) return Status::IOError("source down (try " + std::to_string(calls) + ")");
        hooks.log("table d.t created");
        while (!stop.load()) std::this_thread::yield();
        return Status::OK();
      },
      &log);
  runner.Start();
  ASSERT_TRUE(Eventually([&] { return runner.state().running && calls.load() == 4; }));
  JobState state = runner.state();
  EXPECT_EQ(state.runs, 4);
  EXPECT_EQ(state.failures, 3);
  EXPECT_EQ(state.restarts, 3);
  EXPECT_GT(state.last_failure_time, 0);
  EXPECT_NE(state.last_error.find("source down (try 3)"), std::string::npos);
  runner.RequestStop();
  EXPECT_TRUE(runner.WaitStopped(Clock::now() + std::chrono::seconds(20)));
  EXPECT_FALSE(runner.state().running);
  EXPECT_EQ(calls.load(), 4);
  std::string text = LogText();
  EXPECT_NE(text.find("ERROR [j] IO error: source down (try 1); retrying in 1 ms"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("retrying in 4 ms"), std::string::npos) << text;
  EXPECT_NE(text.find("INFO  [j] table d.t created"), std::string::npos) << text;
}

// A scheduled job runs again and again, each run a batch run that returns.
TEST_F(JobRunnerTest, ScheduledJobRunsRepeatedly) {
  ServiceLog log(LogFormat::kText, log_out_);
  std::atomic<int> calls{0};
  JobRunner runner(
      Job(false),
      [&](const JobConfig&, const std::atomic<bool>&, const ActionHooks&) {
        ++calls;
        return Status::OK();
      },
      &log);
  runner.Start();
  ASSERT_TRUE(Eventually([&] { return calls.load() >= 3; }));
  runner.RequestStop();
  EXPECT_TRUE(runner.WaitStopped(Clock::now() + std::chrono::seconds(20)));
  JobState state = runner.state();
  EXPECT_EQ(state.failures, 0);
  EXPECT_EQ(state.restarts, 0);
  EXPECT_EQ(state.runs, calls.load());
  EXPECT_GT(state.last_success_time, 0);
}

// A stop request ends the wait before the next scheduled run at once.
TEST_F(JobRunnerTest, StopEndsTheWaitForTheNextRun) {
  ServiceLog log(LogFormat::kText, log_out_);
  JobConfig job = Job(false);
  job.every = std::chrono::hours(1);
  std::atomic<int> calls{0};
  JobRunner runner(
      job,
      [&](const JobConfig&, const std::atomic<bool>&, const ActionHooks&) {
        ++calls;
        return Status::OK();
      },
      &log);
  runner.Start();
  ASSERT_TRUE(Eventually([&] { return runner.state().last_success_time > 0; }));
  runner.RequestStop();
  EXPECT_TRUE(runner.WaitStopped(Clock::now() + std::chrono::seconds(20)));
  EXPECT_EQ(calls.load(), 1);
}

TEST(ServiceLogTest, JsonLinesAreOneObjectPerLine) {
  std::FILE* out = std::tmpfile();
  ServiceLog log(LogFormat::kJson, out);
  log.Write(LogLevel::kError, "shop-cdc", "bad \"message\"\nat offset 7");
  log.Write(LogLevel::kInfo, "", "started");
  std::fflush(out);
  std::rewind(out);
  char line[512];
  ASSERT_NE(std::fgets(line, sizeof(line), out), nullptr);
  std::string first(line);
  EXPECT_NE(
      first.find(R"("level":"ERROR","job":"shop-cdc","message":"bad \"message\"\nat offset 7"})"),
      std::string::npos)
      << first;
  EXPECT_EQ(first.rfind("{\"time\":\"", 0), 0u) << first;
  ASSERT_NE(std::fgets(line, sizeof(line), out), nullptr);
  EXPECT_NE(std::string(line).find(R"("level":"INFO","message":"started"})"), std::string::npos);
  std::fclose(out);
}

TEST(ServiceLogTest, CredentialsInAMessageAreMasked) {
  std::FILE* out = std::tmpfile();
  ServiceLog log(LogFormat::kText, out);
  log.Write(LogLevel::kError, "lake", "cannot open s3://b/w (s3.secret-key=abc123, s3.region=x)");
  std::fflush(out);
  std::rewind(out);
  char line[512];
  ASSERT_NE(std::fgets(line, sizeof(line), out), nullptr);
  EXPECT_NE(std::string(line).find("(s3.secret-key=******, s3.region=x)"), std::string::npos)
      << line;
  std::fclose(out);
}

}  // namespace
}  // namespace sluice::service
