// A `sluice serve` process for the service's scenario tests: started on a config file, its log
// in a file, its metrics address read from the log, stopped with SIGTERM (or killed) on every
// path.
//
// Thread safety: not thread-safe; one test thread drives it.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice::test {

class ServeProcess {
 public:
  // Starts `sluice serve --config <config> --metrics-port 0`, its stdout and stderr in `log`.
  ServeProcess(const std::string& config, const std::string& log);
  // Kills the process if it still runs.
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  pid_t pid() const { return pid_; }
  // "127.0.0.1:<port>" of /metrics, read from the log once the service says where it listens;
  // empty (with a test failure) when it exits first or says nothing within 60 s.
  std::string MetricsAddress();
  // "http://127.0.0.1:<port>" of the REST catalog of the config's `rest_catalog` section, read
  // from the log as MetricsAddress is.
  std::string RestCatalogUri();
  // The process's resident set (VmRSS), 0 once it is gone.
  int64_t ResidentBytes() const;
  // The log so far.
  std::string Log() const;
  // Sends `signal` and waits up to `within` for the exit; the exit code, -signal when killed
  // by one, or -1 (with a test failure) when it did not exit in time (it is then killed).
  int Stop(int signal, std::chrono::seconds within);
  // SIGKILL, reaped.
  void Kill();
  bool running() const { return pid_ > 0; }

 private:
  // The text between `begin` and the next `end` in the first log line that has them, once the
  // service logged it; empty (with a test failure naming `what`) when it exits first or says
  // nothing within 60 s.
  std::string FromLog(std::string_view begin, std::string_view end, const std::string& what);

  std::string log_;
  pid_t pid_ = -1;
};

// Snapshot ids of the table at `table_dir`: the newest (every commit made one) and the earliest
// still there (every id below it expired); 0 and 0 without snapshots.
struct SnapshotIds {
  int64_t earliest = 0;
  int64_t newest = 0;
};
SnapshotIds SnapshotIdsOf(const std::string& table_dir);

// GET http://<address><path>: the body; empty (with a test failure) on a transport error or a
// status other than 200.
std::string HttpGet(const std::string& address, const std::string& path);

}  // namespace sluice::test
