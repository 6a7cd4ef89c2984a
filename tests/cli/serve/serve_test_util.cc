#include "serve_test_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "cli/cli_test_util.h"
#include "kafka_sync_test_util.h"
#include "test_util.h"

namespace sluice::test {

ServeProcess::ServeProcess(const std::string& config, const std::string& log)
    : log_(log),
      pid_(Spawn({BinaryDir() + "/sluice", "serve", "--config", config, "--metrics-port", "0"},
                 log)) {}

ServeProcess::~ServeProcess() {
  if (running()) Kill();
}

std::string ServeProcess::Log() const {
  std::ifstream in(log_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ServeProcess::MetricsAddress() {
  return FromLog("metrics on http://", "/metrics", "metrics");
}

std::string ServeProcess::RestCatalogUri() {
  const std::string address = FromLog("REST catalog on http://", " ", "its REST catalog");
  return address.empty() ? "" : "http://" + address;
}

std::string ServeProcess::FromLog(std::string_view begin, std::string_view end,
                                  const std::string& what) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string log = Log();
    const size_t at = log.find(begin);
    if (at != std::string::npos) {
      const size_t from = at + begin.size();
      const size_t to = log.find(end, from);
      if (to != std::string::npos) return log.substr(from, to - from);
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      ADD_FAILURE() << "sluice serve exited before serving " << what << ":\n" << log;
      return "";
    }
    // Polls the log for the line (a condition, not a wait for time).
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "sluice serve said nothing of " << what << " within 60 s:\n" << Log();
  return "";
}

int64_t ServeProcess::ResidentBytes() const {
  if (!running()) return 0;
  std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

int ServeProcess::Stop(int signal, std::chrono::seconds within) {
  if (!running()) return -1;
  ::kill(pid_, signal);
  const auto deadline = std::chrono::steady_clock::now() + within;
  while (true) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "sluice serve did not exit within " << within.count() << " s of signal "
                    << signal;
      Kill();
      return -1;
    }
    // Polls for the exit (a condition, not a wait for time).
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void ServeProcess::Kill() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

SnapshotIds SnapshotIdsOf(const std::string& table_dir) {
  SnapshotIds ids;
  std::error_code ec;
  for (const auto& file : std::filesystem::directory_iterator(table_dir + "/snapshot", ec)) {
    const std::string name = file.path().filename().string();
    if (name.rfind("snapshot-", 0) != 0) continue;
    const int64_t id = std::stoll(name.substr(9));
    ids.newest = std::max(ids.newest, id);
    ids.earliest = ids.earliest == 0 ? id : std::min(ids.earliest, id);
  }
  return ids;
}

std::string HttpGet(const std::string& address, const std::string& path) {
  CommandResult r =
      RunShellCommand("curl -sS --fail --max-time 10 'http://" + address + path + "'");
  EXPECT_EQ(r.exit_code, 0) << "GET " << address << path;
  return r.exit_code == 0 ? r.out : "";
}

}  // namespace sluice::test
