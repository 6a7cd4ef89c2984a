#include "sluice/cli/serve_command.h"

#include <signal.h>
#include <unistd.h>

#include <optional>
#include <string>

#include "sluice/cli/command_error.h"
#include "sluice/service/service.h"

namespace sluice::cli {

struct ServeFlags {
  std::string config;
  std::optional<int> metrics_port;
};

std::shared_ptr<ServeFlags> AddServeCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<ServeFlags>();
  CLI::App* serve = app->add_subcommand(
      "serve",
      "Run a service: the sync, compaction and upkeep jobs of a YAML config (Java action names "
      "and arguments), with Prometheus metrics on /metrics");
  serve->add_option("--config", flags->config, "The service's YAML config")->required();
  serve->add_option("--metrics-port", flags->metrics_port,
                    "Port of /metrics, /healthz and /readyz (overrides the config's)");
  *command = serve;
  return flags;
}

int RunServe(const ServeFlags& flags) {
  Result<service::ServiceConfig> config = service::LoadServiceConfig(flags.config);
  if (!config.ok()) {
    return PrintCommandError("serve", config.status());
  }
  if (flags.metrics_port) config->metrics.port = *flags.metrics_port;
  // The signals are taken by sigwait below, not by handlers: blocked here, before any job
  // thread exists, so that every thread inherits the mask and none is interrupted.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  Result<std::unique_ptr<service::Service>> started =
      service::Service::Start(std::move(*config), {});
  if (!started.ok()) {
    return PrintCommandError("serve", started.status());
  }
  service::Service& service = **started;
  service.log()->Write(
      service::LogLevel::kInfo, "",
      "serving " + std::to_string(service.JobNames().size()) + " jobs from " + flags.config);
  while (true) {
    int signal = 0;
    if (sigwait(&signals, &signal) != 0) continue;
    if (signal != SIGHUP) break;
    Result<service::ServiceConfig> reloaded = service::LoadServiceConfig(flags.config);
    if (!reloaded.ok()) {
      service.log()->Write(
          service::LogLevel::kError, "",
          "reload refused, the running config is kept: " + reloaded.status().ToString());
      continue;
    }
    if (flags.metrics_port) reloaded->metrics.port = *flags.metrics_port;
    service.log()->Write(service::LogLevel::kInfo, "", "reloading " + flags.config);
    service.Reload(std::move(*reloaded));
  }
  service.log()->Write(service::LogLevel::kInfo, "", "stopping");
  if (!service.Stop()) {
    // A job that did not stop in time holds its thread: leave without waiting for it. What it
    // had not committed is read again by its next run, as after a crash.
    service.log()->Write(service::LogLevel::kError, "", "exiting with jobs still running");
    std::fflush(stderr);
    _exit(1);
  }
  service.log()->Write(service::LogLevel::kInfo, "", "stopped");
  return 0;
}

}  // namespace sluice::cli
