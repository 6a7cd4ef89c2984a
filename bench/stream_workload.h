// The streaming benchmarks' workload (freshness_bench, queue_bench): a producer process commits
// batches of (id BIGINT, ts BIGINT, payload STRING) rows into an append table, `ts` the
// producer's wall clock in microseconds when it built the batch; a follower (the parent process)
// reads the table through StreamTableScan and stamps each row as it arrives.
//
// Thread safety: call from one thread; StartProducer forks, so call it before any thread starts.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice::bench {

// Creates the append table `<dir>/db.db/queue` (write-only: no compaction) and returns its path.
std::string CreateQueueTable(const std::string& dir);

struct ProducerPlan {
  int64_t rows_per_commit = 1000;
  // Start of one commit to the next; zero commits back to back.
  std::chrono::milliseconds interval{0};
  // Stop after this long (when > 0) or after this many commits (when > 0).
  std::chrono::milliseconds duration{0};
  int64_t commits = 0;
};

// Forks a producer process committing into `table` as `plan` says; returns its pid. The child
// exits 0 when done, 1 on an error (printed to stderr).
pid_t StartProducer(const std::string& table, const ProducerPlan& plan);

// Microseconds of the wall clock (CLOCK_REALTIME: comparable across processes).
int64_t WallMicros();

struct FollowResult {
  int64_t rows = 0;
  // Per row: arrival minus the producer's stamp, in milliseconds.
  std::vector<double> latency_ms;
  int64_t first_stamp_us = 0;
  int64_t last_arrival_us = 0;
  // CPU and wall time of an idle wait after the producer finished, for the idle cost.
  double idle_cpu_s = 0;
  double idle_wall_s = 0;
};

// Follows `table` from its first snapshot until `producer` has exited and every snapshot is
// read, then waits `idle` more with nothing to read. Dies when the producer failed.
FollowResult Follow(const std::string& table, pid_t producer, std::chrono::milliseconds idle);

// The q-quantile (0..1) of `values` (sorts them).
double Quantile(std::vector<double>* values, double q);

}  // namespace sluice::bench
