#include "sluice/service/service.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <thread>

#include "service/service_test_util.h"
#include "test_util.h"

namespace sluice::service {
namespace {

using Clock = std::chrono::steady_clock;

// Jobs that run until stopped, counting their starts and stops by job name and first argument.
class FakeActions {
 public:
  JobRunner::RunFunction Run() {
    return [this](const JobConfig& job, const std::atomic<bool>& stop, const ActionHooks& hooks) {
      if (hooks.metrics == nullptr) return Status::InvalidArgument("no registry handed to the job");
      const std::string key = job.name + ":" + (job.args.empty() ? "" : job.args[0]);
      Count(&started_, key);
      while (!stop.load()) std::this_thread::yield();
      Count(&stopped_, key);
      return Status::OK();
    };
  }
  int started(const std::string& key) { return Get(started_, key); }
  int stopped(const std::string& key) { return Get(stopped_, key); }

 private:
  void Count(std::map<std::string, int>* counts, const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    ++(*counts)[key];
  }
  int Get(const std::map<std::string, int>& counts, const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
  }

  std::mutex mu_;
  std::map<std::string, int> started_;
  std::map<std::string, int> stopped_;
};

JobConfig Job(std::string name, std::string arg) {
  JobConfig job;
  job.name = std::move(name);
  job.action = "kafka_sync_database";
  job.args = {std::move(arg)};
  return job;
}

// A reload stops the jobs removed or changed, starts the new and changed ones, and leaves the
// unchanged ones running; Stop stops every job; /metrics shows each job's sluice_job_* series.
TEST(ServiceTest, ReloadAppliesTheDifference) {
  FakeActions actions;
  std::FILE* log = std::tmpfile();
  ServiceConfig config;
  config.metrics.port = 0;
  config.jobs = {Job("a", "v1"), Job("b", "v1"), Job("c", "v1")};
  Result<std::unique_ptr<Service>> service = Service::Start(config, {actions.Run(), log});
  ASSERT_TRUE(test::IsOk(service));
  ASSERT_TRUE(Eventually([&] {
    return actions.started("a:v1") == 1 && actions.started("b:v1") == 1 &&
           actions.started("c:v1") == 1;
  }));
  EXPECT_GT((*service)->metrics_port(), 0);

  ServiceConfig next;
  next.metrics.port = 0;
  next.jobs = {Job("a", "v1"), Job("b", "v2"), Job("d", "v1")};
  (*service)->Reload(next);
  ASSERT_TRUE(
      Eventually([&] { return actions.started("b:v2") == 1 && actions.started("d:v1") == 1; }));
  EXPECT_EQ(actions.stopped("b:v1"), 1);
  EXPECT_EQ(actions.stopped("c:v1"), 1);
  EXPECT_EQ(actions.started("a:v1"), 1);
  EXPECT_EQ(actions.stopped("a:v1"), 0);
  EXPECT_EQ((*service)->JobNames(), (std::vector<std::string>{"a", "b", "d"}));

  const std::string metrics = (*service)->MetricsText();
  for (const char* job : {"a", "b", "d"}) {
    EXPECT_NE(metrics.find(std::string("sluice_job_up{job=\"") + job + "\"} 1"), std::string::npos)
        << metrics;
  }
  EXPECT_EQ(metrics.find("job=\"c\""), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("sluice_process_resident_memory_bytes"), std::string::npos);

  EXPECT_TRUE((*service)->Stop());
  EXPECT_EQ(actions.stopped("a:v1"), 1);
  EXPECT_EQ(actions.stopped("b:v2"), 1);
  EXPECT_EQ(actions.stopped("d:v1"), 1);
  std::fclose(log);
}

// A job that fails is counted and reported down while the others run on.
TEST(ServiceTest, AFailingJobLeavesTheOthersRunning) {
  FakeActions actions;
  std::atomic<int> failures{0};
  JobRunner::RunFunction run = [&](const JobConfig& job, const std::atomic<bool>& stop,
                                   const ActionHooks& hooks) {
    if (job.name == "broken") {
      ++failures;
      return Status::IOError("source down");
    }
    return actions.Run()(job, stop, hooks);
  };
  std::FILE* log = std::tmpfile();
  ServiceConfig config;
  config.metrics.enabled = false;
  JobConfig broken = Job("broken", "x");
  broken.restart_initial = std::chrono::milliseconds(1);
  broken.restart_max = std::chrono::milliseconds(2);
  config.jobs = {broken, Job("fine", "x")};
  Result<std::unique_ptr<Service>> service = Service::Start(config, {run, log});
  ASSERT_TRUE(test::IsOk(service));
  ASSERT_TRUE(Eventually([&] { return failures.load() >= 3 && actions.started("fine:x") == 1; }));
  EXPECT_EQ(actions.stopped("fine:x"), 0);
  const std::string metrics = (*service)->MetricsText();
  EXPECT_NE(metrics.find("sluice_job_up{job=\"fine\"} 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("sluice_job_restarts_total{job=\"broken\"}"), std::string::npos)
      << metrics;
  EXPECT_GE((*service)->StateOf("broken").failures, 3);
  EXPECT_TRUE((*service)->Stop());
  std::fclose(log);
}

}  // namespace
}  // namespace sluice::service
