// ActionMetrics: what `sluice action --metrics-port N NAME ...` serves while the action runs, so
// that a single job can be watched as `sluice serve`'s are: the action's MetricRegistry (handed
// to RunAction through ActionHooks::metrics) with the process metrics, every series labelled
// `job` = the action's name, on http://127.0.0.1:N/metrics (HttpEndpoint: /healthz, /readyz
// too). The same Prometheus scrape config and Grafana dashboard (deploy/) read it.
//
// Thread safety: the registry may be updated from any thread; Start and destruction from one.
#pragma once

#include <memory>
#include <string>

#include "sluice/metrics.h"
#include "sluice/result.h"
#include "sluice/service/http_endpoint.h"

namespace sluice::cli {

class ActionMetrics {
 public:
  // Serves on 127.0.0.1:`port` (0 picks a free one) until destroyed. IOError naming the
  // address when the port is in use.
  static Result<std::unique_ptr<ActionMetrics>> Start(const std::string& action, int port);
  // Stops serving.
  ~ActionMetrics();
  ActionMetrics(const ActionMetrics&) = delete;
  ActionMetrics& operator=(const ActionMetrics&) = delete;

  // The registry to hand to the action; it outlives the action's run.
  MetricRegistry* registry() { return &registry_; }
  // "127.0.0.1:<port>".
  std::string address() const { return endpoint_->address(); }

 private:
  ActionMetrics() = default;

  MetricRegistry registry_;
  // Declared after the registry: stopped before the registry it renders goes.
  std::unique_ptr<service::HttpEndpoint> endpoint_;
};

}  // namespace sluice::cli
