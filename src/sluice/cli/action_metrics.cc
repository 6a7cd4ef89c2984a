#include "sluice/cli/action_metrics.h"

#include <utility>

namespace sluice::cli {

Result<std::unique_ptr<ActionMetrics>> ActionMetrics::Start(const std::string& action, int port) {
  std::unique_ptr<ActionMetrics> metrics(new ActionMetrics());
  // The dashboard's `job` variable lists it by the action's name.
  metrics->registry_.SetConstantLabel("job", action);
  metrics->registry_.RegisterProcessMetrics();
  service::HttpEndpointOptions options;
  options.port = port;
  MetricRegistry* registry = &metrics->registry_;
  SLUICE_ASSIGN_OR_RETURN(metrics->endpoint_, service::HttpEndpoint::Start(options, [registry] {
                            return registry->PrometheusText();
                          }));
  // An action is ready once it runs: nothing comes before it that a probe should wait for.
  metrics->endpoint_->SetReady(true);
  return metrics;
}

ActionMetrics::~ActionMetrics() = default;

}  // namespace sluice::cli
