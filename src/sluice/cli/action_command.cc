#include "sluice/cli/action_command.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "sluice/action.h"
#include "sluice/cli/action_metrics.h"
#include "sluice/cli/command_error.h"

namespace sluice::cli {

struct ActionFlags {
  std::string name;
  std::string runtime_mode;  // "", "batch" or "streaming" (Flink's execution.runtime-mode)
  CLI::App* command = nullptr;
  int metrics_port = -1;  // --metrics-port; -1: no metrics endpoint
};

namespace {

std::atomic<bool> stop_requested{false};

extern "C" void RequestStop(int) { stop_requested.store(true); }

void InstallStopHandlers() {
  struct sigaction action = {};
  action.sa_handler = RequestStop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// "2026-12-07 05:30:01" in UTC, the start of each log line.
std::string Now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

// The progress line: rates since the previous line, lag per partition.
class ProgressLine {
 public:
  ProgressLine() : terminal_(isatty(STDERR_FILENO) == 1), last_(Clock::now()) {}

  void Report(const ActionProgress& p) {
    auto now = Clock::now();
    double seconds = std::chrono::duration<double>(now - last_).count();
    if (seconds <= 0) return;
    double rate = static_cast<double>(p.records - last_records_) / seconds;
    last_ = now;
    last_records_ = p.records;
    if (!terminal_) return;
    std::string line = "sync: " + std::to_string(p.records) + " records (" +
                       std::to_string(static_cast<int64_t>(rate)) + "/s), " +
                       std::to_string(p.tables) + " tables, " + std::to_string(p.schema_changes) +
                       " schema changes";
    if (p.dead_letters > 0) line += ", " + std::to_string(p.dead_letters) + " dead letters";
    std::string lag;
    for (const auto& split : p.lag) {
      if (split.end_offset < 0) continue;
      int64_t behind = split.end_offset - std::max<int64_t>(split.next_offset, 0);
      lag += (lag.empty() ? "" : " ") + split.split + ":" + std::to_string(behind);
    }
    if (!lag.empty()) line += ", lag " + lag;
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    drawn_ = true;
  }

  // Ends the line before a log line or the end.
  void Break() {
    if (drawn_) std::fputc('\n', stderr);
    drawn_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool terminal_;
  bool drawn_ = false;
  Clock::time_point last_;
  int64_t last_records_ = 0;
};

}  // namespace

std::shared_ptr<ActionFlags> AddActionCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<ActionFlags>();
  std::string names;
  for (const std::string& n : ActionNames()) names += (names.empty() ? "" : ", ") + n;
  CLI::App* action = app->add_subcommand(
      "action", "Run one of Java Paimon's actions with Java's arguments: " + names);
  action
      ->add_option("--runtime-mode", flags->runtime_mode,
                   "batch: run once and return; streaming: run until stopped (Flink's "
                   "execution.runtime-mode; default: the action's Java default, streaming for "
                   "compact / compact_database and the sync actions). Before NAME")
      ->check(CLI::IsMember({"batch", "streaming"}, CLI::ignore_case));
  action->add_option("NAME", flags->name, "Action name; `sluice action NAME --help` describes it")
      ->required();
  action
      ->add_option("--metrics-port", flags->metrics_port,
                   "Serve the action's metrics (Prometheus text, as `sluice serve`) on "
                   "http://127.0.0.1:N/metrics while it runs; 0 picks a free port, logged. "
                   "Before NAME")
      ->check(CLI::Range(0, 65535));
  // Everything after the name is the action's, in Java's --key value form; `NAME --help` is
  // the action's own help (Java's), so this command's is `-h` only.
  action->set_help_flag("-h", "Print this help message and exit");
  action->prefix_command();
  flags->command = action;
  *command = action;
  return flags;
}

int RunActionCommand(const ActionFlags& flags) {
  std::vector<std::string> args = flags.command->remaining();
  Result<ActionInfo> info = DescribeAction(flags.name);
  if (!info.ok()) {
    return PrintCommandError("action", info.status());
  }
  if (std::find(args.begin(), args.end(), "--help") != args.end()) {
    std::fputs(info->usage.c_str(), stdout);
    return 0;
  }
  InstallStopHandlers();
  ProgressLine progress;
  ActionHooks hooks;
  hooks.log = [&progress](const std::string& line) {
    progress.Break();
    PrintMaskedLine(Now() + " " + line);
  };
  // The progress line shows a sync's records; a compaction logs each commit instead.
  if (!info->once) hooks.progress = [&progress](const ActionProgress& p) { progress.Report(p); };
  std::string mode = flags.runtime_mode;
  for (char& c : mode) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  hooks.mode = mode == "batch"       ? ActionMode::kBatch
               : mode == "streaming" ? ActionMode::kStreaming
                                     : ActionMode::kDefault;
  std::unique_ptr<ActionMetrics> metrics;
  if (flags.metrics_port >= 0) {
    Result<std::unique_ptr<ActionMetrics>> started =
        ActionMetrics::Start(flags.name, flags.metrics_port);
    if (!started.ok()) {
      return PrintCommandError("action " + flags.name, started.status());
    }
    metrics = std::move(started).value();
    hooks.metrics = metrics->registry();
    hooks.log("metrics on http://" + metrics->address() + "/metrics");
  }
  Status status = RunAction(flags.name, args, stop_requested, hooks);
  progress.Break();
  if (!status.ok()) {
    return PrintCommandError("action " + flags.name, status);
  }
  return 0;
}

}  // namespace sluice::cli
