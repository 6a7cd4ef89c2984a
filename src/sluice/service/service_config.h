// ServiceConfig: what `sluice serve --config FILE` runs, read from YAML.
//
//   metrics: {port: 9249, host: 127.0.0.1}   # /metrics, /healthz, /readyz; port 0 picks one
//   log: {format: text}                      # or json: one JSON object per line
//   shutdown_timeout: 30 s                   # SIGTERM: jobs commit and stop within this
//   jobs:
//     - name: shop-cdc
//       action: kafka_sync_database          # a Java action name, as `sluice action` takes it
//       args: [--warehouse, /lake, --database, shop, --kafka_conf, topic=shop]
//       mode: continuous                     # or `every: 10m` for a scheduled job
//       restart_backoff: {initial: 1 s, max: 5 min}
//   rest_catalog:                            # a REST catalog server (rest_catalog_service.h)
//     port: 8181                             # 0 picks one
//     host: 127.0.0.1
//     tokens_file: /etc/sluice/tokens        # TOKEN [databases=db1,db2], one a line
//     catalog: {metastore: filesystem, warehouse: /lake}   # as --catalog_conf takes them
//     prefix: catalog                        # optional: the API's path prefix
//     max_body_bytes: 1048576                # optional
//     threads: 8                             # optional
//     data_token: {s3.access-key: .., ...}   # optional: handed to clients for the files
//
// `jobs` may be left out when the service runs a REST catalog only.
// Keys are checked: an unknown key, a missing one or a bad value is an error naming the file,
// the job and the key (with its line), so that a typo never runs half a configuration. A key
// once accepted keeps its meaning in later versions, so a config written for one version keeps
// working.
//
// Thread safety: values; the parse functions are pure.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/rest_catalog_service.h"
#include "sluice/result.h"

namespace sluice::service {

struct JobConfig {
  std::string name;
  std::string action;  // as written (Java's names; dashes accepted as `sluice action` does)
  std::vector<std::string> args;
  // Continuous jobs run until stopped (a sync, a dedicated compaction); scheduled ones run
  // once every `every`, the first run at start.
  bool continuous = true;
  std::chrono::milliseconds every{0};
  // A failed run is retried after `restart_initial`, doubling up to `restart_max`; a run that
  // lasted longer than `restart_max` starts the doubling afresh.
  std::chrono::milliseconds restart_initial{1000};
  std::chrono::milliseconds restart_max{300000};

  bool operator==(const JobConfig&) const = default;
};

struct MetricsConfig {
  bool enabled = true;
  std::string host = "127.0.0.1";
  int port = 9249;
};

enum class LogFormat { kText, kJson };

struct ServiceConfig {
  MetricsConfig metrics;
  LogFormat log_format = LogFormat::kText;
  std::chrono::milliseconds shutdown_timeout{30000};
  std::vector<JobConfig> jobs;
  std::optional<RestCatalogServiceOptions> rest_catalog;
};

// `source` names the text in errors (the file's path). InvalidArgument naming the source, the
// job and the key for anything not understood: malformed YAML (with its line), an unknown key,
// a job without a name / action or with a duplicate name, an action `sluice action` does not
// know, a mode the action cannot run in (a sync scheduled with `every`, an expiry run
// continuously), or arguments the action refuses.
Result<ServiceConfig> ParseServiceConfig(std::string_view yaml, std::string_view source);

// Reads and parses the file at `path`; IOError naming it when it cannot be read.
Result<ServiceConfig> LoadServiceConfig(const std::string& path);

}  // namespace sluice::service
