#include "service/prometheus/prometheus_harness.h"

#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "test_util.h"

namespace sluice::test {

namespace {

using json = nlohmann::json;
using Clock = std::chrono::system_clock;

// How often WaitForScrape asks Prometheus about its targets (it scrapes every second).
constexpr std::chrono::milliseconds kPollInterval{100};
// Attempts at a free port: another process may take the one picked before Prometheus binds it.
constexpr int kStartAttempts = 3;

std::string Script() { return SourceDir() + "/scripts/prometheus.sh"; }

// Runs `command` through the shell; its exit status and output (stdout and stderr).
std::pair<int, std::string> RunShell(const std::string& command) {
  std::string output;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed for: " + command};
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// A port no one listens on now (the kernel's pick for port 0).
Result<int> FreeLoopbackPort() {
  int sock = socket(AF_INET, SOCK_STREAM, 0);
  if (sock < 0) return Status::IOError("socket() failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  int port = -1;
  if (bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      getsockname(sock, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  close(sock);
  if (port <= 0) return Status::IOError("no free loopback port");
  return port;
}

// Prometheus's RFC 3339 times ("2026-12-07T15:04:05.123456789Z", or with an offset) as
// system-clock times; the epoch when malformed or before it.
Clock::time_point ParseRfc3339(const std::string& text) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return Clock::time_point{};
  }
  // Go's zero time ("0001-01-01T00:00:00Z": never scraped) and anything else that early.
  if (tm.tm_year < 1970) return Clock::time_point{};
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  auto t = Clock::from_time_t(timegm(&tm));
  size_t pos = static_cast<size_t>(consumed);
  if (pos < text.size() && text[pos] == '.') {
    size_t start = ++pos;
    while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
    std::string digits = text.substr(start, pos - start);
    digits.resize(9, '0');
    t += std::chrono::duration_cast<Clock::duration>(
        std::chrono::nanoseconds(std::stoll(digits.substr(0, 9))));
  }
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int hours = 0, minutes = 0;
    std::sscanf(text.c_str() + pos + 1, "%d:%d", &hours, &minutes);
    auto offset = std::chrono::hours(hours) + std::chrono::minutes(minutes);
    t += text[pos] == '+' ? -offset : offset;
  }
  return t;
}

double SampleValue(const json& pair) {
  // [<unix time>, "<value>"]; "NaN" and "+Inf" as strtod reads them.
  return std::strtod(pair.at(1).get<std::string>().c_str(), nullptr);
}

std::vector<PromSample> ParseResult(const json& data) {
  std::vector<PromSample> samples;
  const std::string type = data.at("resultType").get<std::string>();
  const json& result = data.at("result");
  if (type == "scalar") {
    samples.push_back({{}, SampleValue(result)});
    return samples;
  }
  if (type == "string") return samples;
  for (const json& series : result) {
    PromSample sample;
    for (const auto& [key, value] : series.at("metric").items()) {
      sample.labels[key] = value.get<std::string>();
    }
    // A matrix (a range selector alone) shows its last value.
    sample.value = series.contains("value") ? SampleValue(series.at("value"))
                                            : SampleValue(series.at("values").back());
    samples.push_back(std::move(sample));
  }
  return samples;
}

void CollectQueries(const json& panels, std::string* row, std::vector<DashboardQuery>* out,
                    std::vector<std::string>* without_query) {
  for (const json& panel : panels) {
    const std::string type = panel.value("type", "");
    const std::string title = panel.value("title", "");
    if (type == "row") {
      *row = title;
      // A collapsed row holds its panels.
      if (panel.contains("panels")) CollectQueries(panel.at("panels"), row, out, without_query);
      continue;
    }
    size_t before = out->size();
    if (panel.contains("targets")) {
      for (const json& target : panel.at("targets")) {
        if (!target.contains("expr")) continue;
        out->push_back({*row, title, target.value("refId", ""), target.at("expr")});
      }
    }
    if (out->size() == before) without_query->push_back(title);
  }
}

void ReplaceAll(std::string* text, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = text->find(from, pos)) != std::string::npos; pos += to.size()) {
    text->replace(pos, from.size(), to);
  }
}

bool IsNameStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}
bool IsNameChar(char c) { return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

// The position after the bracket closing the one at `open` (`(`, `{` or `[`), strings skipped.
size_t SkipBracketed(const std::string& q, size_t open) {
  const char open_char = q[open];
  const char close_char = open_char == '(' ? ')' : open_char == '{' ? '}' : ']';
  int depth = 0;
  for (size_t i = open; i < q.size(); ++i) {
    char c = q[i];
    if (c == '"' || c == '\'' || c == '`') {
      for (++i; i < q.size() && q[i] != c; ++i) {
        if (q[i] == '\\' && c != '`') ++i;
      }
    } else if (c == open_char) {
      ++depth;
    } else if (c == close_char && --depth == 0) {
      return i + 1;
    }
  }
  return q.size();
}

}  // namespace

Result<std::unique_ptr<PrometheusServer>> PrometheusServer::Start(
    const std::vector<std::string>& targets) {
  std::string output;
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    Result<int> port = FreeLoopbackPort();
    if (!port.ok()) return port.status();
    std::string command = Script() + " start --port " + std::to_string(*port);
    for (const std::string& target : targets) command += " --target " + target;
    auto [code, out] = RunShell(command);
    if (code == 0) {
      return std::unique_ptr<PrometheusServer>(new PrometheusServer(*port, targets));
    }
    output = out;
    // Only a port taken meanwhile is worth another attempt.
    if (out.find("is taken") == std::string::npos) break;
  }
  return Status::IOError("scripts/prometheus.sh did not start Prometheus:\n" + output);
}

PrometheusServer::~PrometheusServer() {
  auto [code, out] = RunShell(Script() + " stop --port " + std::to_string(port_));
  if (code != 0) std::fprintf(stderr, "prometheus harness: stop failed:\n%s", out.c_str());
  std::error_code ignored;  // a directory left behind costs nothing but space
  std::filesystem::remove_all(SourceDir() + "/build/prometheus/" + std::to_string(port_), ignored);
}

Result<std::string> PrometheusServer::Get(const std::string& path_and_query) {
  httplib::Client client("127.0.0.1", port_);
  client.set_connection_timeout(5);
  client.set_read_timeout(30);
  auto res = client.Get(path_and_query);
  if (!res) {
    return Status::IOError("GET http://127.0.0.1:" + std::to_string(port_) + path_and_query + ": " +
                           httplib::to_string(res.error()));
  }
  return res->body;
}

Status PrometheusServer::WaitForScrape(std::chrono::milliseconds timeout) {
  const auto since = Clock::now();
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string state = "no answer from /api/v1/targets";
  while (std::chrono::steady_clock::now() < deadline) {
    Result<std::string> body = Get("/api/v1/targets?state=active");
    if (body.ok()) {
      json answer = json::parse(*body, nullptr, false);
      if (!answer.is_discarded() && answer.value("status", "") == "success") {
        size_t fresh = 0;
        state.clear();
        for (const json& target : answer["data"]["activeTargets"]) {
          const std::string url = target.value("scrapeUrl", "?");
          const std::string health = target.value("health", "?");
          const bool after = ParseRfc3339(target.value("lastScrape", "")) > since;
          if (health == "up" && after) ++fresh;
          state += "\n  " + url + ": " + health + (after ? "" : " (no scrape since the wait)") +
                   " " + target.value("lastError", "");
        }
        if (fresh >= targets_.size()) return Status::OK();
      }
    }
    std::this_thread::sleep_for(kPollInterval);
  }
  return Status::IOError("Prometheus on 127.0.0.1:" + std::to_string(port_) +
                         " did not scrape every target within " + std::to_string(timeout.count()) +
                         " ms:" + state);
}

Result<std::vector<PromSample>> PrometheusServer::Query(const std::string& promql) {
  Result<std::string> body =
      Get("/api/v1/query?query=" + httplib::detail::encode_query_param(promql));
  if (!body.ok()) return body.status();
  json answer = json::parse(*body, nullptr, false);
  if (answer.is_discarded() || !answer.contains("status")) {
    return Status::IOError("query " + promql + ": Prometheus answered no JSON: " + *body);
  }
  if (answer["status"] != "success") {
    return Status::InvalidArgument("query " + promql + ": " + answer.value("errorType", "") + ": " +
                                   answer.value("error", ""));
  }
  try {
    return ParseResult(answer.at("data"));
  } catch (const json::exception& e) {
    return Status::IOError("query " + promql + ": unexpected answer " + *body + ": " + e.what());
  }
}

std::string DashboardPath() { return SourceDir() + "/deploy/grafana/sluice-dashboard.json"; }
std::string MetricsCataloguePath() { return SourceDir() + "/docs/metrics.md"; }

Result<std::vector<DashboardQuery>> ReadDashboardQueries(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError(path + ": cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  json dashboard = json::parse(text.str(), nullptr, false);
  if (dashboard.is_discarded()) return Status::InvalidArgument(path + ": not JSON");
  if (!dashboard.is_object() || !dashboard.contains("panels") || !dashboard["panels"].is_array()) {
    return Status::InvalidArgument(path + ": no `panels` array, not a Grafana dashboard");
  }
  std::vector<DashboardQuery> queries;
  std::vector<std::string> without_query;
  std::string row;
  try {
    CollectQueries(dashboard["panels"], &row, &queries, &without_query);
  } catch (const json::exception& e) {
    return Status::InvalidArgument(path + ": a malformed panel: " + e.what());
  }
  if (!without_query.empty()) {
    return Status::InvalidArgument(path + ": panel \"" + without_query.front() + "\" has no query");
  }
  return queries;
}

std::string ExpandVariables(const std::string& expr, const std::string& job_regex,
                            const std::string& rate_interval) {
  std::string out = expr;
  ReplaceAll(&out, "$__rate_interval", rate_interval);
  ReplaceAll(&out, "${job}", job_regex);
  ReplaceAll(&out, "$job", job_regex);
  return out;
}

std::string PanelResult::Describe() const {
  std::string text = query.row + " / " + query.panel + " [" + query.ref_id + "]: " + promql;
  if (!status.ok()) return text + " -> " + status.ToString();
  text += " -> " + std::to_string(samples.size()) + " series";
  for (const PromSample& s : samples) {
    std::string labels;
    for (const auto& [k, v] : s.labels) labels += (labels.empty() ? "" : ",") + k + "=" + v;
    text += "\n    {" + labels + "} " + std::to_string(s.value);
  }
  return text;
}

std::vector<PanelResult> EvaluateDashboard(PrometheusServer& prometheus,
                                           const std::vector<DashboardQuery>& queries,
                                           const std::string& job_regex,
                                           const std::string& rate_interval) {
  std::vector<PanelResult> results;
  for (const DashboardQuery& query : queries) {
    PanelResult result;
    result.query = query;
    result.promql = ExpandVariables(query.expr, job_regex, rate_interval);
    Result<std::vector<PromSample>> samples = prometheus.Query(result.promql);
    if (samples.ok()) {
      result.samples = std::move(samples).value();
    } else {
      result.status = samples.status();
    }
    results.push_back(std::move(result));
  }
  return results;
}

const PanelResult* FindPanel(const std::vector<PanelResult>& results,
                             const std::string& panel_title, const std::string& ref_id) {
  for (const PanelResult& result : results) {
    if (result.query.panel == panel_title && (ref_id.empty() || result.query.ref_id == ref_id)) {
      return &result;
    }
  }
  return nullptr;
}

std::set<std::string> MetricNamesIn(const std::string& q) {
  // Words that are PromQL's own where a metric name could stand.
  static const std::set<std::string> kKeywords = {
      "and",  "or",       "unless",     "bool",        "offset", "sum",   "min",
      "max",  "avg",      "group",      "stddev",      "stdvar", "count", "count_values",
      "topk", "bottomk",  "quantile",   "inf",         "nan",    "by",    "without",
      "on",   "ignoring", "group_left", "group_right", "atan2"};
  // Followed by a list of label names in parentheses.
  static const std::set<std::string> kLabelLists = {"by",       "without",    "on",
                                                    "ignoring", "group_left", "group_right"};
  std::set<std::string> names;
  size_t i = 0;
  while (i < q.size()) {
    char c = q[i];
    if (c == '"' || c == '\'' || c == '`') {
      for (++i; i < q.size() && q[i] != c; ++i) {
        if (q[i] == '\\' && c != '`') ++i;
      }
      ++i;
    } else if (c == '{' || c == '[') {
      i = SkipBracketed(q, i);  // label matchers, ranges
    } else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      while (i < q.size() && (IsNameChar(q[i]) || q[i] == '.')) ++i;  // 15s, 1e3, 0x1f
    } else if (IsNameStart(c)) {
      size_t start = i;
      while (i < q.size() && IsNameChar(q[i])) ++i;
      std::string word = q.substr(start, i - start);
      size_t next = i;
      while (next < q.size() && std::isspace(static_cast<unsigned char>(q[next]))) ++next;
      std::string lower = word;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (kLabelLists.count(lower) && next < q.size() && q[next] == '(') {
        i = SkipBracketed(q, next);
      } else if (next < q.size() && q[next] == '(') {
        // A function or an aggregation.
      } else if (!kKeywords.count(lower)) {
        names.insert(word);
      }
    } else {
      ++i;
    }
  }
  return names;
}

Result<std::set<std::string>> CataloguedMetricNames(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError(path + ": cannot be read");
  std::set<std::string> names;
  bool metric_table = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("|", 0) != 0) {
      metric_table = false;
      continue;
    }
    // The cells between the bars, trimmed.
    std::vector<std::string> cells;
    std::stringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) {
      size_t b = cell.find_first_not_of(' ');
      size_t e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() < 2) continue;
    if (cells[0] == "Prometheus name") {
      metric_table = true;
      continue;
    }
    if (!metric_table || cells[0].size() < 3 || cells[0].front() != '`' || cells[0].back() != '`') {
      continue;
    }
    std::string name = cells[0].substr(1, cells[0].size() - 2);
    names.insert(name);
    if (cells[1] == "summary") {
      names.insert(name + "_sum");
      names.insert(name + "_count");
    }
  }
  if (names.empty()) return Status::InvalidArgument(path + ": lists no metric");
  return names;
}

}  // namespace sluice::test
