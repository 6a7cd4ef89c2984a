#include "sluice/service/service_config.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "sluice/action.h"
#include "sluice/temporal_text.h"

namespace sluice::service {
namespace {

// Where a value sits, for errors: "sluice.yaml: jobs[1] 'shop-cdc': key 'every' (line 7)".
struct Place {
  std::string source;
  std::string scope;  // "" at the top, "metrics", "jobs[1] 'shop-cdc'", ...

  Status Error(std::string_view key, const YAML::Node& node, const std::string& what) const {
    std::string where = source + ": ";
    if (!scope.empty()) where += scope + ": ";
    where += "key '" + std::string(key) + "'";
    if (node.IsDefined() && node.Mark().line >= 0) {
      where += " (line " + std::to_string(node.Mark().line + 1) + ")";
    }
    return Status::InvalidArgument(where + ": " + what);
  }
};

// Every key of `map` must be one of `known`.
Status CheckKeys(const Place& place, const YAML::Node& map,
                 std::initializer_list<std::string_view> known) {
  for (const auto& entry : map) {
    const std::string key = entry.first.Scalar();
    bool found = false;
    std::string names;
    for (std::string_view k : known) {
      found = found || k == key;
      names += (names.empty() ? "" : ", ") + std::string(k);
    }
    if (!found) return place.Error(key, entry.first, "unknown key (keys: " + names + ")");
  }
  return Status::OK();
}

Result<std::string> ReadScalar(const Place& place, const YAML::Node& map, std::string_view key) {
  YAML::Node node = map[std::string(key)];
  // A missing key is an invalid node, which throws on any question but IsDefined.
  if (!node.IsDefined()) return place.Error(key, map, "missing");
  if (!node.IsScalar()) return place.Error(key, node, "expected a value");
  return node.Scalar();
}

Result<std::chrono::milliseconds> ReadDuration(const Place& place, const YAML::Node& map,
                                               std::string_view key) {
  SLUICE_ASSIGN_OR_RETURN(std::string text, ReadScalar(place, map, key));
  Result<std::chrono::milliseconds> duration = ParseDuration(text);
  if (!duration.ok()) return place.Error(key, map[std::string(key)], duration.status().message());
  if (duration->count() <= 0) {
    return place.Error(key, map[std::string(key)], "must be longer than 0 ms, got '" + text + "'");
  }
  return *duration;
}

Status ReadMetrics(const Place& top, const YAML::Node& node, MetricsConfig* metrics) {
  Place place{top.source, "metrics"};
  if (node.IsNull()) return Status::OK();
  if (!node.IsMap()) return top.Error("metrics", node, "expected a map (port, host, enabled)");
  SLUICE_RETURN_NOT_OK(CheckKeys(place, node, {"port", "host", "enabled"}));
  if (node["port"]) {
    SLUICE_ASSIGN_OR_RETURN(std::string text, ReadScalar(place, node, "port"));
    char* end = nullptr;
    long port = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || port < 0 || port > 65535) {
      return place.Error("port", node["port"], "expected a port 0..65535, got '" + text + "'");
    }
    metrics->port = static_cast<int>(port);
  }
  if (node["host"]) {
    SLUICE_ASSIGN_OR_RETURN(metrics->host, ReadScalar(place, node, "host"));
  }
  if (node["enabled"]) {
    SLUICE_ASSIGN_OR_RETURN(std::string text, ReadScalar(place, node, "enabled"));
    if (text != "true" && text != "false") {
      return place.Error("enabled", node["enabled"], "expected true or false, got '" + text + "'");
    }
    metrics->enabled = text == "true";
  }
  return Status::OK();
}

Status ReadLog(const Place& top, const YAML::Node& node, LogFormat* format) {
  Place place{top.source, "log"};
  if (!node.IsMap()) return top.Error("log", node, "expected a map (format)");
  SLUICE_RETURN_NOT_OK(CheckKeys(place, node, {"format"}));
  if (!node["format"]) return Status::OK();
  SLUICE_ASSIGN_OR_RETURN(std::string text, ReadScalar(place, node, "format"));
  if (text == "text") {
    *format = LogFormat::kText;
  } else if (text == "json") {
    *format = LogFormat::kJson;
  } else {
    return place.Error("format", node["format"], "expected text or json, got '" + text + "'");
  }
  return Status::OK();
}

// The action's name, its mode and its arguments, checked by the action itself, so that a job
// that would fail on its first run fails here, before anything starts.
Status CheckJobAction(const Place& place, const YAML::Node& node, const JobConfig& job) {
  Result<ActionInfo> info = DescribeAction(job.action);
  if (!info.ok()) return place.Error("action", node["action"], info.status().message());
  if (job.continuous && !info->continuous) {
    return place.Error(
        "mode", node["mode"].IsDefined() ? node["mode"] : node,
        "action '" + job.action + "' runs once and returns; schedule it with `every: <duration>`");
  }
  if (!job.continuous && !info->once) {
    return place.Error(
        "every", node["every"],
        "action '" + job.action + "' runs until stopped; give it `mode: continuous` instead");
  }
  Status checked = CheckAction(job.action, job.args,
                               job.continuous ? ActionMode::kStreaming : ActionMode::kBatch);
  if (!checked.ok()) {
    return place.Error("args", node["args"].IsDefined() ? node["args"] : node, checked.message());
  }
  return Status::OK();
}

Result<JobConfig> ReadJob(const Place& top, size_t index, const YAML::Node& node) {
  Place place{top.source, "jobs[" + std::to_string(index) + "]"};
  if (!node.IsMap()) return top.Error("jobs", node, "each job is a map (name, action, args, ...)");
  JobConfig job;
  SLUICE_ASSIGN_OR_RETURN(job.name, ReadScalar(place, node, "name"));
  if (job.name.empty()) return place.Error("name", node["name"], "a job needs a name");
  place.scope += " '" + job.name + "'";
  SLUICE_RETURN_NOT_OK(
      CheckKeys(place, node, {"name", "action", "args", "mode", "every", "restart_backoff"}));
  SLUICE_ASSIGN_OR_RETURN(job.action, ReadScalar(place, node, "action"));
  if (node["args"]) {
    if (!node["args"].IsSequence()) {
      return place.Error("args", node["args"], "expected a list of arguments");
    }
    for (const auto& arg : node["args"]) {
      if (!arg.IsScalar()) return place.Error("args", arg, "each argument is one value");
      job.args.push_back(arg.Scalar());
    }
  }
  if (node["mode"] && node["every"]) {
    return place.Error("every", node["every"],
                       "a job is `mode: continuous` or `every: D`, not both");
  }
  if (node["mode"]) {
    SLUICE_ASSIGN_OR_RETURN(std::string mode, ReadScalar(place, node, "mode"));
    if (mode != "continuous") {
      return place.Error(
          "mode", node["mode"],
          "expected continuous (or `every: <duration>` for a scheduled job), got '" + mode + "'");
    }
  } else if (node["every"]) {
    job.continuous = false;
    SLUICE_ASSIGN_OR_RETURN(job.every, ReadDuration(place, node, "every"));
  } else {
    return place.Error("mode", node,
                       "say how the job runs: `mode: continuous` or `every: <duration>`");
  }
  if (YAML::Node backoff = node["restart_backoff"]) {
    Place inner{place.source, place.scope + ": restart_backoff"};
    if (!backoff.IsMap()) return place.Error("restart_backoff", backoff, "expected {initial, max}");
    SLUICE_RETURN_NOT_OK(CheckKeys(inner, backoff, {"initial", "max"}));
    if (backoff["initial"]) {
      SLUICE_ASSIGN_OR_RETURN(job.restart_initial, ReadDuration(inner, backoff, "initial"));
    }
    if (backoff["max"]) {
      SLUICE_ASSIGN_OR_RETURN(job.restart_max, ReadDuration(inner, backoff, "max"));
    }
    if (job.restart_max < job.restart_initial) {
      return inner.Error("max", backoff["max"], "is shorter than `initial`");
    }
  }
  SLUICE_RETURN_NOT_OK(CheckJobAction(place, node, job));
  return job;
}

Result<int64_t> ReadPositive(const Place& place, const YAML::Node& map, std::string_view key,
                             int64_t max) {
  SLUICE_ASSIGN_OR_RETURN(std::string text, ReadScalar(place, map, key));
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value <= 0 || value > max) {
    return place.Error(key, map[std::string(key)],
                       "expected a number 1.." + std::to_string(max) + ", got '" + text + "'");
  }
  return static_cast<int64_t>(value);
}

Status ReadRestCatalog(const Place& top, const YAML::Node& node,
                       std::optional<RestCatalogServiceOptions>* out) {
  Place place{top.source, "rest_catalog"};
  if (!node.IsMap()) {
    return top.Error("rest_catalog", node, "expected a map (port, host, tokens_file, catalog)");
  }
  SLUICE_RETURN_NOT_OK(CheckKeys(place, node,
                                 {"port", "host", "tokens_file", "catalog", "prefix",
                                  "max_body_bytes", "threads", "data_token"}));
  RestCatalogServiceOptions options;
  if (node["port"]) {
    SLUICE_ASSIGN_OR_RETURN(std::string text, ReadScalar(place, node, "port"));
    char* end = nullptr;
    long port = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || port < 0 || port > 65535) {
      return place.Error("port", node["port"], "expected a port 0..65535, got '" + text + "'");
    }
    options.port = static_cast<int>(port);
  }
  if (node["host"]) {
    SLUICE_ASSIGN_OR_RETURN(options.host, ReadScalar(place, node, "host"));
  }
  SLUICE_ASSIGN_OR_RETURN(options.tokens_file, ReadScalar(place, node, "tokens_file"));
  if (options.tokens_file.empty()) {
    return place.Error("tokens_file", node["tokens_file"], "names no file");
  }
  YAML::Node catalog = node["catalog"];
  if (!catalog.IsDefined()) return place.Error("catalog", node, "missing");
  if (!catalog.IsMap() || catalog.size() == 0) {
    return place.Error("catalog", catalog,
                       "expected the catalog's options {metastore: .., warehouse: .., ...}");
  }
  for (const auto& entry : catalog) {
    if (!entry.second.IsScalar()) {
      return place.Error("catalog", entry.second,
                         "option '" + entry.first.Scalar() + "' is not one value");
    }
    options.catalog[entry.first.Scalar()] = entry.second.Scalar();
  }
  if (options.catalog.count("warehouse") == 0) {
    return place.Error("catalog", catalog, "the catalog's 'warehouse' is required");
  }
  if (node["prefix"]) {
    SLUICE_ASSIGN_OR_RETURN(options.prefix, ReadScalar(place, node, "prefix"));
    if (options.prefix.empty() || options.prefix.find('/') != std::string::npos) {
      return place.Error("prefix", node["prefix"], "expected one path segment");
    }
  }
  if (node["max_body_bytes"]) {
    SLUICE_ASSIGN_OR_RETURN(options.max_body_bytes,
                            ReadPositive(place, node, "max_body_bytes", int64_t{1} << 30));
  }
  if (node["threads"]) {
    SLUICE_ASSIGN_OR_RETURN(int64_t threads, ReadPositive(place, node, "threads", 256));
    options.threads = static_cast<int>(threads);
  }
  if (YAML::Node token = node["data_token"]) {
    if (!token.IsMap()) {
      return place.Error("data_token", token, "expected file system options {s3.endpoint: ..}");
    }
    for (const auto& entry : token) {
      if (!entry.second.IsScalar()) {
        return place.Error("data_token", entry.second,
                           "option '" + entry.first.Scalar() + "' is not one value");
      }
      options.data_token[entry.first.Scalar()] = entry.second.Scalar();
    }
  }
  *out = std::move(options);
  return Status::OK();
}

Result<ServiceConfig> ParseDocument(const YAML::Node& root, std::string_view source) {
  Place top{std::string(source), ""};
  if (!root.IsMap()) {
    return Status::InvalidArgument(top.source + ": expected a map with `jobs` (and `metrics`)");
  }
  SLUICE_RETURN_NOT_OK(
      CheckKeys(top, root, {"metrics", "log", "shutdown_timeout", "jobs", "rest_catalog"}));
  ServiceConfig config;
  if (root["metrics"]) SLUICE_RETURN_NOT_OK(ReadMetrics(top, root["metrics"], &config.metrics));
  if (root["log"]) SLUICE_RETURN_NOT_OK(ReadLog(top, root["log"], &config.log_format));
  if (root["shutdown_timeout"]) {
    SLUICE_ASSIGN_OR_RETURN(config.shutdown_timeout, ReadDuration(top, root, "shutdown_timeout"));
  }
  if (root["rest_catalog"]) {
    SLUICE_RETURN_NOT_OK(ReadRestCatalog(top, root["rest_catalog"], &config.rest_catalog));
  }
  YAML::Node jobs = root["jobs"];
  // A service may serve a REST catalog and run no job.
  if (!jobs.IsDefined() && config.rest_catalog) return config;
  if (!jobs.IsDefined() || !jobs.IsSequence()) {
    return top.Error("jobs", jobs.IsDefined() ? jobs : root, "expected a list of jobs");
  }
  std::set<std::string> names;
  for (size_t i = 0; i < jobs.size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(JobConfig job, ReadJob(top, i, jobs[i]));
    if (!names.insert(job.name).second) {
      return top.Error("jobs", jobs[i], "two jobs are named '" + job.name + "'");
    }
    config.jobs.push_back(std::move(job));
  }
  return config;
}

}  // namespace

Result<ServiceConfig> ParseServiceConfig(std::string_view yaml, std::string_view source) {
  // yaml-cpp reports malformed text and type mismatches by throwing; none may leave here.
  try {
    return ParseDocument(YAML::Load(std::string(yaml)), source);
  } catch (const YAML::Exception& e) {
    std::string where = std::string(source);
    if (e.mark.line >= 0) where += " (line " + std::to_string(e.mark.line + 1) + ")";
    return Status::InvalidArgument(where + ": not valid YAML: " + e.msg);
  }
}

Result<ServiceConfig> LoadServiceConfig(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read the service config " + path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::IOError("cannot read the service config " + path);
  return ParseServiceConfig(text.str(), path);
}

}  // namespace sluice::service
