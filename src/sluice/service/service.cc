#include "sluice/service/service.h"

#include "sluice/service/http_endpoint.h"

namespace sluice::service {
namespace {

using Clock = std::chrono::steady_clock;

// What the service says of a job's configuration in its log.
std::string Describe(const JobConfig& job) {
  std::string text = job.action;
  for (const std::string& arg : job.args) text += " " + arg;
  if (!job.continuous) {
    text += " (every " + std::to_string(job.every.count()) + " ms)";
  }
  return text;
}

}  // namespace

Service::Service(ServiceConfig config, Options options)
    : config_(std::move(config)),
      options_(std::move(options)),
      log_(config_.log_format, options_.log_out) {}

Service::~Service() { Stop(); }

Result<std::unique_ptr<Service>> Service::Start(ServiceConfig config, Options options) {
  if (!options.run) {
    options.run = [](const JobConfig& job, const std::atomic<bool>& stop,
                     const ActionHooks& hooks) {
      return RunAction(job.action, job.args, stop, hooks);
    };
  }
  std::unique_ptr<Service> service(new Service(std::move(config), std::move(options)));
  service->process_metrics_.RegisterProcessMetrics();
  // The endpoint first: a port in use fails the start before any job has run.
  if (service->config_.metrics.enabled) {
    HttpEndpointOptions endpoint;
    endpoint.host = service->config_.metrics.host;
    endpoint.port = service->config_.metrics.port;
    Service* self = service.get();
    Result<std::unique_ptr<HttpEndpoint>> started =
        HttpEndpoint::Start(endpoint, [self] { return self->MetricsText(); });
    if (!started.ok()) {
      return Status::IOError("metrics.port: " + started.status().message());
    }
    service->endpoint_ = std::move(*started);
    service->log_.Write(LogLevel::kInfo, "",
                        "metrics on http://" + service->endpoint_->address() + "/metrics");
  }
  // The REST catalog before the jobs too: its port in use or its tokens file unreadable fail the
  // start with nothing running.
  if (service->config_.rest_catalog) {
    Result<std::unique_ptr<RestCatalogService>> rest =
        RestCatalogService::Start(*service->config_.rest_catalog);
    if (!rest.ok()) return rest.status().WithContext("rest_catalog");
    service->rest_catalog_ = std::move(*rest);
    service->log_.Write(LogLevel::kInfo, "",
                        "REST catalog on " + service->rest_catalog_->uri() + " serving " +
                            service->config_.rest_catalog->catalog.at("warehouse"));
  }
  for (const JobConfig& job : service->config_.jobs) service->StartJob(job);
  if (service->endpoint_) service->endpoint_->SetReady(true);
  return service;
}

void Service::StartJob(const JobConfig& job) {
  Job entry;
  entry.metrics = std::make_unique<MetricRegistry>();
  entry.metrics->SetConstantLabel("job", job.name);
  MetricRegistry* metrics = entry.metrics.get();
  JobRunner::RunFunction run = [this, metrics](const JobConfig& config,
                                               const std::atomic<bool>& stop, ActionHooks hooks) {
    hooks.metrics = metrics;
    return options_.run(config, stop, hooks);
  };
  entry.runner = std::make_unique<JobRunner>(job, std::move(run), &log_);
  log_.Write(LogLevel::kInfo, job.name, "starting: " + Describe(job));
  entry.runner->Start();
  std::lock_guard<std::mutex> lock(jobs_mu_);
  jobs_[job.name] = std::move(entry);
}

void Service::Reload(ServiceConfig config) {
  if (config.metrics.host != config_.metrics.host || config.metrics.port != config_.metrics.port ||
      config.metrics.enabled != config_.metrics.enabled) {
    log_.Write(LogLevel::kWarn, "",
               "the metrics endpoint keeps its address until the service restarts");
  }
  if (config.rest_catalog.has_value() != config_.rest_catalog.has_value() ||
      (config.rest_catalog &&
       (config.rest_catalog->port != config_.rest_catalog->port ||
        config.rest_catalog->host != config_.rest_catalog->host ||
        config.rest_catalog->catalog != config_.rest_catalog->catalog ||
        config.rest_catalog->tokens_file != config_.rest_catalog->tokens_file))) {
    log_.Write(LogLevel::kWarn, "",
               "the REST catalog keeps its address, catalog and tokens until the service "
               "restarts");
  }
  log_.SetFormat(config.log_format);
  std::map<std::string, const JobConfig*> wanted;
  for (const JobConfig& job : config.jobs) wanted[job.name] = &job;
  // Stop the jobs removed or changed, all at once, then wait for them.
  std::vector<std::string> stopping;
  {
    std::lock_guard<std::mutex> lock(jobs_mu_);
    for (auto& [name, job] : jobs_) {
      auto it = wanted.find(name);
      if (it == wanted.end() || !(*it->second == job.runner->config())) {
        log_.Write(LogLevel::kInfo, name,
                   it == wanted.end() ? "removed from the config: stopping"
                                      : "changed in the config: restarting");
        job.runner->RequestStop();
        stopping.push_back(name);
      }
    }
  }
  const Clock::time_point deadline = Clock::now() + config.shutdown_timeout;
  for (const std::string& name : stopping) {
    JobRunner* runner;
    {
      std::lock_guard<std::mutex> lock(jobs_mu_);
      runner = jobs_[name].runner.get();
    }
    if (!runner->WaitStopped(deadline)) {
      log_.Write(LogLevel::kWarn, name, "still stopping; waiting for it before going on");
    }
    Job gone;
    {
      std::lock_guard<std::mutex> lock(jobs_mu_);
      gone = std::move(jobs_[name]);
      jobs_.erase(name);
    }
    // The runner joins its thread here, before its registry goes.
    gone.runner.reset();
  }
  for (const JobConfig& job : config.jobs) {
    bool running;
    {
      std::lock_guard<std::mutex> lock(jobs_mu_);
      running = jobs_.count(job.name) > 0;
    }
    if (!running) StartJob(job);
  }
  // The REST catalog runs on as it started (see above).
  std::optional<RestCatalogServiceOptions> serving = std::move(config_.rest_catalog);
  config_ = std::move(config);
  config_.rest_catalog = std::move(serving);
}

bool Service::Stop() {
  if (endpoint_) endpoint_->SetReady(false);
  std::vector<JobRunner*> runners;
  {
    std::lock_guard<std::mutex> lock(jobs_mu_);
    for (auto& [name, job] : jobs_) {
      job.runner->RequestStop();
      runners.push_back(job.runner.get());
    }
  }
  const Clock::time_point deadline = Clock::now() + config_.shutdown_timeout;
  bool all = true;
  for (JobRunner* runner : runners) {
    if (!runner->WaitStopped(deadline)) {
      log_.Write(LogLevel::kError, runner->config().name,
                 "did not stop within the shutdown timeout");
      all = false;
    }
  }
  if (all) {
    std::lock_guard<std::mutex> lock(jobs_mu_);
    jobs_.clear();
    if (endpoint_) endpoint_->Stop();
  }
  if (rest_catalog_) rest_catalog_->Stop();
  return all;
}

int Service::metrics_port() const { return endpoint_ ? endpoint_->port() : 0; }

int Service::rest_catalog_port() const { return rest_catalog_ ? rest_catalog_->port() : 0; }

std::vector<std::string> Service::JobNames() const {
  std::lock_guard<std::mutex> lock(jobs_mu_);
  std::vector<std::string> names;
  for (const auto& [name, job] : jobs_) names.push_back(name);
  return names;
}

JobState Service::StateOf(const std::string& job) const {
  std::lock_guard<std::mutex> lock(jobs_mu_);
  auto it = jobs_.find(job);
  return it == jobs_.end() ? JobState{} : it->second.runner->state();
}

std::string Service::MetricsText() {
  std::lock_guard<std::mutex> lock(jobs_mu_);
  std::vector<const MetricRegistry*> registries = {&process_metrics_};
  for (auto& [name, job] : jobs_) {
    JobState state = job.runner->state();
    job.metrics->SetGauge("sluice_job_up",
                          "1 while the job runs or waits for its next scheduled run, 0 while it "
                          "waits to restart after a failure",
                          {}, state.running || !state.last_run_failed ? 1 : 0);
    job.metrics->IncrementCounter("sluice_job_restarts_total", "Restarts after a failure", {},
                                  state.restarts - job.restarts_reported);
    job.restarts_reported = state.restarts;
    job.metrics->SetGauge("sluice_job_last_error_timestamp_seconds",
                          "When the job last failed (seconds since the epoch; 0 never)", {},
                          state.last_failure_time);
    registries.push_back(job.metrics.get());
  }
  return MetricRegistry::PrometheusText(registries);
}

}  // namespace sluice::service
