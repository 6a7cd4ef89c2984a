#include "sluice/service/job_runner.h"

#include <algorithm>

namespace sluice::service {
namespace {

using Clock = std::chrono::steady_clock;

double EpochSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string DurationText(std::chrono::milliseconds d) {
  if (d.count() % 1000 != 0) return std::to_string(d.count()) + " ms";
  return std::to_string(d.count() / 1000) + " s";
}

}  // namespace

JobRunner::JobRunner(JobConfig config, RunFunction run, ServiceLog* log)
    : config_(std::move(config)), run_(std::move(run)), log_(log) {}

JobRunner::~JobRunner() {
  RequestStop();
  if (thread_.joinable()) thread_.join();
}

void JobRunner::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void JobRunner::RequestStop() {
  stop_.store(true);
  std::lock_guard<std::mutex> lock(mu_);
  wake_.notify_all();
}

bool JobRunner::WaitStopped(Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  return wake_.wait_until(lock, deadline, [this] { return finished_; });
}

JobState JobRunner::state() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_;
}

bool JobRunner::WaitUntil(Clock::time_point until) {
  std::unique_lock<std::mutex> lock(mu_);
  return !wake_.wait_until(lock, until, [this] { return stop_.load(); });
}

Status JobRunner::RunOnce() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    state_.running = true;
    ++state_.runs;
  }
  ActionHooks hooks;
  hooks.log = [this](const std::string& line) { log_->Write(LogLevel::kInfo, config_.name, line); };
  hooks.mode = config_.continuous ? ActionMode::kStreaming : ActionMode::kBatch;
  Status status = run_(config_, stop_, hooks);
  std::lock_guard<std::mutex> lock(mu_);
  state_.running = false;
  state_.last_run_failed = !status.ok();
  if (status.ok()) {
    state_.last_success_time = EpochSeconds();
  } else {
    ++state_.failures;
    state_.last_failure_time = EpochSeconds();
    state_.last_error = status.ToString();
  }
  return status;
}

void JobRunner::Loop() {
  std::chrono::milliseconds backoff = config_.restart_initial;
  while (!stop_.load()) {
    const Clock::time_point started = Clock::now();
    Status status = RunOnce();
    if (stop_.load()) {
      if (!status.ok()) log_->Write(LogLevel::kError, config_.name, status.ToString());
      break;
    }
    Clock::time_point next;
    if (status.ok() && !config_.continuous) {
      backoff = config_.restart_initial;
      next = std::max(started + config_.every, Clock::now());
    } else {
      // A failed run, or a continuous action that returned although nobody stopped it: both
      // are retried. A run that lasted longer than the longest backoff was healthy for a while,
      // so the doubling starts afresh.
      if (Clock::now() - started > config_.restart_max) backoff = config_.restart_initial;
      std::string why = status.ok() ? "returned without being stopped" : status.ToString();
      log_->Write(LogLevel::kError, config_.name, why + "; retrying in " + DurationText(backoff));
      next = Clock::now() + backoff;
      backoff = std::min(backoff * 2, config_.restart_max);
    }
    if (!WaitUntil(next)) break;
    if (!status.ok() || config_.continuous) {
      std::lock_guard<std::mutex> lock(mu_);
      ++state_.restarts;
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  finished_ = true;
  wake_.notify_all();
}

}  // namespace sluice::service
