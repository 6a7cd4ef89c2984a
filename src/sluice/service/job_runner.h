// JobRunner: one job of the service on a thread of its own. A continuous job runs its action
// until stopped; a scheduled one runs it once every `every` (the first run at start). A run that
// fails is logged and retried with backoff (doubling from restart_initial to restart_max), so
// one job's failure (a source down, a table with an incompatible schema change) never stops the
// others or the service.
//
// Thread safety: Start once; RequestStop, WaitStopped and state() from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "sluice/action.h"
#include "sluice/service/service_config.h"
#include "sluice/service/service_log.h"

namespace sluice::service {

// What a job has done so far, for the service's metrics and its log.
struct JobState {
  bool running = false;          // a run is under way
  bool last_run_failed = false;  // the last run ended in an error (a retry is due)
  int64_t runs = 0;              // runs started
  int64_t failures = 0;          // runs that returned an error
  int64_t restarts = 0;          // runs started again after a failure
  // Seconds since the epoch; 0 = never.
  double last_success_time = 0;
  double last_failure_time = 0;
  std::string last_error;
};

class JobRunner {
 public:
  // Runs one action to its end: RunAction for the service, a stand-in in the runner's tests.
  using RunFunction = std::function<Status(const JobConfig& job, const std::atomic<bool>& stop,
                                           const ActionHooks& hooks)>;

  // `log` must outlive the runner.
  JobRunner(JobConfig config, RunFunction run, ServiceLog* log);
  // Stops the job and waits for its thread.
  ~JobRunner();
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  void Start();
  // Asks the job to stop: its action commits what it has and returns; a wait ends at once.
  void RequestStop();
  // True once the job's thread has ended; false if `deadline` came first.
  bool WaitStopped(std::chrono::steady_clock::time_point deadline);

  const JobConfig& config() const { return config_; }
  JobState state() const;

 private:
  void Loop();
  // One run of the action, with its bookkeeping; the run's status.
  Status RunOnce();
  // Waits until `until` or a stop request; false on a stop request.
  bool WaitUntil(std::chrono::steady_clock::time_point until);

  const JobConfig config_;
  const RunFunction run_;
  ServiceLog* const log_;

  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool finished_ = false;
  JobState state_;
  std::thread thread_;
};

}  // namespace sluice::service
