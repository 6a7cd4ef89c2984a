// freshness_bench: how soon a streaming reader sees a commit (issue 13). A producer process
// commits 1,000-row batches into an append table every 20 ms for 30 s; the follower (this
// process, StreamTableScan, woken by inotify on the snapshot directory) stamps each row as it
// arrives. Latency = arrival - the producer's wall clock when it built the row's batch, so it
// includes the commit itself. Then the follower idles 5 s with nothing to read.
//
//   freshness_bench [--rows ROWS_PER_COMMIT] [--dir DIR]
//
// The last line is "RESULT p50_ms=.. p99_ms=.. idle_cpu_pct=..": latency quantiles over rows,
// and the follower's CPU while idle in percent of one core. Java's peer is a Flink source
// polling every `continuous.discovery-interval` (10 s by default); it is not run here.
#include <cstdio>

#include "bench_common.h"
#include "stream_workload.h"

int main(int argc, char** argv) {
  using namespace sluice::bench;
  const Args args = ParseArgs(argc, argv, "freshness_bench", 1000);
  const std::string table = CreateQueueTable(args.dir);
  ProducerPlan plan;
  plan.rows_per_commit = args.rows;
  plan.interval = std::chrono::milliseconds(20);
  plan.duration = std::chrono::seconds(30);
  const pid_t producer = StartProducer(table, plan);
  FollowResult result = Follow(table, producer, std::chrono::seconds(5));
  const double p50 = Quantile(&result.latency_ms, 0.50);
  const double p99 = Quantile(&result.latency_ms, 0.99);
  const double max = Quantile(&result.latency_ms, 1.0);
  const double idle_pct = 100.0 * result.idle_cpu_s / result.idle_wall_s;
  std::printf("rows %lld in %zu arrivals; latency p50 %.2f ms p99 %.2f ms max %.2f ms\n",
              static_cast<long long>(result.rows), result.latency_ms.size(), p50, p99, max);
  std::printf("idle: %.4f s CPU in %.2f s\n", result.idle_cpu_s, result.idle_wall_s);
  std::printf("RESULT p50_ms=%.2f p99_ms=%.2f idle_cpu_pct=%.3f\n", p50, p99, idle_pct);
  return 0;
}
