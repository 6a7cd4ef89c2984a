#include "sluice/base/process_metrics.h"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace sluice {

namespace {

// The fields of /proc/self/stat after the command name (which may hold spaces), so that
// fields[0] is field 3 (state) of proc(5).
std::vector<std::string> StatFields() {
  std::ifstream in("/proc/self/stat");
  std::string line;
  std::getline(in, line);
  size_t close = line.rfind(')');
  std::vector<std::string> fields;
  if (close == std::string::npos) return fields;
  std::istringstream rest(line.substr(close + 1));
  for (std::string field; rest >> field;) fields.push_back(field);
  return fields;
}

// proc(5) field `n` (1-based) as a number, 0 when missing.
double StatField(const std::vector<std::string>& fields, size_t n) {
  return n >= 3 && n - 3 < fields.size() ? std::stod(fields[n - 3]) : 0;
}

double OpenFds() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return 0;
  double count = 0;
  while (dirent* entry = readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  closedir(dir);
  return count - 1;  // the descriptor opendir holds
}

double BootTimeSeconds() {
  std::ifstream in("/proc/stat");
  for (std::string key; in >> key;) {
    if (key == "btime") {
      double value = 0;
      in >> value;
      return value;
    }
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

struct ProcessMetrics {
  std::vector<MetricCallback> callbacks;
};

}  // namespace

void RegisterProcessMetrics(MetricRegistryImpl* registry) {
  registry->Shared<ProcessMetrics>("process", [registry] {
    auto metrics = std::make_shared<ProcessMetrics>();
    MetricGroup group = registry->Group();
    const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
    const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
    auto& cb = metrics->callbacks;
    cb.push_back(group.Callback("sluice_process_resident_memory_bytes",
                                "Resident memory size in bytes.", MetricType::kGauge,
                                [page] { return StatField(StatFields(), 24) * page; }));
    cb.push_back(group.Callback("sluice_process_virtual_memory_bytes",
                                "Virtual memory size in bytes.", MetricType::kGauge,
                                [] { return StatField(StatFields(), 23); }));
    cb.push_back(group.Callback("sluice_process_threads", "Threads of the process.",
                                MetricType::kGauge, [] { return StatField(StatFields(), 20); }));
    cb.push_back(group.Callback("sluice_process_open_fds", "Open file descriptors.",
                                MetricType::kGauge, [] { return OpenFds(); }));
    cb.push_back(group.Callback("sluice_process_cpu_seconds_total",
                                "User and system CPU time spent in seconds.", MetricType::kCounter,
                                [ticks] {
                                  std::vector<std::string> f = StatFields();
                                  return (StatField(f, 14) + StatField(f, 15)) / ticks;
                                }));
    const double start = BootTimeSeconds() + StatField(StatFields(), 22) / ticks;
    cb.push_back(group.Callback("sluice_process_start_time_seconds",
                                "Start time of the process since the epoch in seconds.",
                                MetricType::kGauge, [start] { return start; }));
    return metrics;
  });
}

}  // namespace sluice
