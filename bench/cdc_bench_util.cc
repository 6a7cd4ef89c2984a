#include "cdc_bench_util.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "bench_common.h"
#include "stream_workload.h"

namespace sluice::bench {

int64_t WallMillis() { return WallMicros() / 1000; }

double Seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
}

void Shell(const std::string& command) {
  if (std::system(command.c_str()) != 0) Die("failed: " + command);
}

// The child only makes async-signal-safe calls: the follower threads may hold malloc's lock.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& log, int stdout_fd) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) ::_exit(127);
    ::dup2(stdout_fd >= 0 ? stdout_fd : fd, 1);
    ::dup2(fd, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

void DieWithLog(const std::string& what, const std::string& log) {
  std::string tail = "tail -n 20 '" + log + "' >&2";
  if (std::system(tail.c_str()) != 0) std::fprintf(stderr, "(no log %s)\n", log.c_str());
  Die(what + " (log: " + log + ")");
}

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

ChildUsage WaitChild(pid_t pid, double start_wall_s) {
  ChildUsage result;
  rusage usage{};
  if (::wait4(pid, &result.status, 0, &usage) != pid) Die("wait4");
  result.wall_s = SteadySeconds() - start_wall_s;
  result.user_s = Seconds(usage.ru_utime);
  result.system_s = Seconds(usage.ru_stime);
  result.max_rss_mb = usage.ru_maxrss / 1024;
  return result;
}

namespace {

// Reads the follower's jsonl lines and keeps the stamps.
void ReadFollower(Follower* follower, FollowOptions options, std::atomic<int64_t>* rows) {
  const std::string field = "\"" + options.field + "\":";
  std::string pending;
  char buffer[1 << 16];
  while (true) {
    const ssize_t n = ::read(follower->fd, buffer, sizeof(buffer));
    if (n <= 0) break;
    const int64_t arrival = WallMicros();
    pending.append(buffer, static_cast<size_t>(n));
    size_t start = 0;
    for (size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
      // `_ROW_KIND` comes first: {"_ROW_KIND":"-D",...}
      if (options.skip_retractions && pending.compare(start, 15, R"({"_ROW_KIND":"-)") == 0) {
        continue;
      }
      const size_t at = pending.find(field, start);
      if (at == std::string::npos || at > end) continue;
      size_t digit = at + field.size();
      if (pending[digit] == '"') ++digit;  // STRING columns: the value is quoted
      const int64_t stamp = std::atoll(pending.c_str() + digit);
      if (stamp < options.since) continue;
      follower->arrivals.push_back({stamp, arrival});
      rows->fetch_add(1, std::memory_order_relaxed);
    }
    pending.erase(0, start);
  }
}

}  // namespace

void StartFollower(const std::string& sluice, const std::string& warehouse,
                   const std::string& table, const std::string& log, const FollowOptions& options,
                   std::atomic<int64_t>* rows, Follower* follower) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) Die("pipe");
  follower->pid = Spawn({sluice, "read", table, "--warehouse", warehouse, "--follow", "--format",
                         "jsonl", "--option", "scan.mode=latest"},
                        log, fds[1]);
  ::close(fds[1]);
  follower->fd = fds[0];
  follower->reader = std::thread(ReadFollower, follower, options, rows);
}

void StopFollower(Follower* follower) {
  ::kill(follower->pid, SIGTERM);
  follower->reader.join();
  ::close(follower->fd);
  int status = 0;
  if (::waitpid(follower->pid, &status, 0) != follower->pid) Die("waitpid");
}

void WaitQuiet(const std::atomic<int64_t>& rows, double quiet, double give_up) {
  int64_t seen = -1;
  const double begin = SteadySeconds();
  double quiet_since = begin;
  while (SteadySeconds() - quiet_since < quiet && SteadySeconds() - begin < give_up) {
    ::usleep(100000);
    if (rows.load() != seen) {
      seen = rows.load();
      quiet_since = SteadySeconds();
    }
  }
}

}  // namespace sluice::bench
