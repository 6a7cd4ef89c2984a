// Service: what `sluice serve` runs: the jobs of a ServiceConfig, each on a JobRunner, the
// metrics endpoint, and the changes a reloaded config asks for.
//
// Start checks the whole config before it starts anything (every job's action and arguments,
// the metrics port), so a bad config never runs half-way. Reload applies a new config: jobs
// removed or changed stop (committing what they have), new and changed ones start, unchanged
// ones run on untouched. Stop asks every job to stop and waits up to the config's
// shutdown_timeout.
//
// Thread safety: Reload, Stop and the accessors from one controlling thread (the CLI's signal
// loop); the jobs run on threads of their own.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "sluice/metrics.h"
#include "sluice/rest_catalog_service.h"
#include "sluice/service/job_runner.h"
#include "sluice/service/service_config.h"
#include "sluice/service/service_log.h"

namespace sluice::service {

class HttpEndpoint;

class Service {
 public:
  struct Options {
    // How a job's action runs: RunAction unless a test says otherwise.
    JobRunner::RunFunction run;
    std::FILE* log_out = stderr;
  };

  // InvalidArgument / IOError naming the job and key, or the metrics address in use.
  static Result<std::unique_ptr<Service>> Start(ServiceConfig config, Options options);
  ~Service();
  Service(const Service&) = delete;
  Service& operator=(const Service&) = delete;

  // Applies `config`; the metrics endpoint keeps its address (a changed one is logged and
  // applies at the next start).
  void Reload(ServiceConfig config);
  // True when every job stopped within the shutdown timeout.
  bool Stop();

  // The port the metrics endpoint listens on (0 when metrics are off).
  int metrics_port() const;
  // The port the REST catalog server listens on (0 when the config has no `rest_catalog`).
  int rest_catalog_port() const;
  // The /metrics body: the jobs' metrics, the engine's and the process's.
  std::string MetricsText();
  ServiceLog* log() { return &log_; }
  std::vector<std::string> JobNames() const;
  JobState StateOf(const std::string& job) const;

 private:
  Service(ServiceConfig config, Options options);
  void StartJob(const JobConfig& job);

  // A job with the registry its action reports to (labelled with the job's name); the registry
  // outlives the runner.
  struct Job {
    std::unique_ptr<MetricRegistry> metrics;
    std::unique_ptr<JobRunner> runner;
    int64_t restarts_reported = 0;
  };

  ServiceConfig config_;
  Options options_;
  ServiceLog log_;
  // The process's metrics (sluice_process_*).
  MetricRegistry process_metrics_;
  mutable std::mutex jobs_mu_;  // guards jobs_ against a scrape during Reload
  std::map<std::string, Job> jobs_;
  std::unique_ptr<HttpEndpoint> endpoint_;
  std::unique_ptr<RestCatalogService> rest_catalog_;
};

}  // namespace sluice::service
