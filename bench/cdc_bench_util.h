// Shared pieces of the CDC benchmarks (cdc_kafka_bench, cdc_mysql_bench): child processes (the
// `sluice` command, the server scripts) with their resource usage, and followers: one
// `sluice read TABLE --follow --format jsonl` per table whose printed rows this process stamps
// as they arrive.
//
// Thread safety: Spawn only makes async-signal-safe calls in the child, so it may run while
// follower threads do; the rest is thread-compatible.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace sluice::bench {

int64_t WallMillis();
double Seconds(const timeval& t);

// Runs `command` through the shell; dies when it fails.
void Shell(const std::string& command);

// Starts `argv` with stdout to `stdout_fd` (-1: the log) and stderr to the file `log`.
pid_t Spawn(const std::vector<std::string>& argv, const std::string& log, int stdout_fd = -1);

// Prints the last lines of `log` to stderr and dies naming `what`.
[[noreturn]] void DieWithLog(const std::string& what, const std::string& log);

// What a child used: wall time from `start` to its exit, CPU (user + system, wait4) and peak
// resident set.
struct ChildUsage {
  int status = 0;
  double wall_s = 0;
  double user_s = 0;
  double system_s = 0;
  double cpu_s() const { return user_s + system_s; }
  int64_t max_rss_mb = 0;
};
// Waits for `pid` (started at `start_wall_s`, a steady-clock reading in seconds).
ChildUsage WaitChild(pid_t pid, double start_wall_s);
// The steady clock in seconds (for WaitChild's start).
double SteadySeconds();

// A follower of one table: `sluice read TABLE --follow --format jsonl` from the latest snapshot,
// its stdout read by a thread that keeps, for each printed row carrying `field` with a value
// >= `since`, that value and the row's arrival time.
struct Follower {
  pid_t pid = -1;
  int fd = -1;
  std::thread reader;
  struct Arrival {
    int64_t stamp;       // the row's `field`
    int64_t arrival_us;  // WallMicros when its line arrived
  };
  std::vector<Arrival> arrivals;
};

struct FollowOptions {
  std::string field;
  int64_t since = 0;
  // Whether to leave out the rows printed as -D / -U (a deleted or replaced row's image, which
  // carries the stamp of the change that wrote it, not of the one that removed it).
  bool skip_retractions = false;
};

// Starts `*follower` on `table` (`db.table`) of `warehouse` with `sluice` (the binary), its
// stderr to `log`; `rows` counts the rows kept, over every follower.
void StartFollower(const std::string& sluice, const std::string& warehouse,
                   const std::string& table, const std::string& log, const FollowOptions& options,
                   std::atomic<int64_t>* rows, Follower* follower);
// Stops the follower (SIGTERM) and waits for it and its thread.
void StopFollower(Follower* follower);

// Waits until `rows` has not moved for `quiet` seconds (at most `give_up` seconds).
void WaitQuiet(const std::atomic<int64_t>& rows, double quiet, double give_up);

}  // namespace sluice::bench
