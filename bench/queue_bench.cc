// queue_bench: an append table as a message queue (issue 13). One producer process commits
// 10,000-row batches back to back until --rows rows are in; the follower (this process,
// StreamTableScan) consumes them as they commit.
//
//   queue_bench [--rows N] [--dir DIR]
//
// The last line is "RESULT queue_rows_per_s=.. lag_ms=.. lag_p99_ms=..": rows over the time
// from the first row's stamp to the last row's arrival, and the end-to-end lag of a row
// (arrival - the producer's clock when it built the row's batch) at p50 and p99.
#include <cstdio>

#include "bench_common.h"
#include "stream_workload.h"

int main(int argc, char** argv) {
  using namespace sluice::bench;
  const Args args = ParseArgs(argc, argv, "queue_bench", 2000000);
  const std::string table = CreateQueueTable(args.dir);
  ProducerPlan plan;
  plan.rows_per_commit = 10000;
  plan.commits = (args.rows + plan.rows_per_commit - 1) / plan.rows_per_commit;
  const pid_t producer = StartProducer(table, plan);
  FollowResult result = Follow(table, producer, std::chrono::milliseconds(0));
  const double seconds = static_cast<double>(result.last_arrival_us - result.first_stamp_us) / 1e6;
  const double rate = static_cast<double>(result.rows) / seconds;
  const double p50 = Quantile(&result.latency_ms, 0.50);
  const double p99 = Quantile(&result.latency_ms, 0.99);
  std::printf("rows %lld in %.2f s (%lld commits)\n", static_cast<long long>(result.rows), seconds,
              static_cast<long long>(plan.commits));
  std::printf("RESULT queue_rows_per_s=%.0f lag_ms=%.2f lag_p99_ms=%.2f\n", rate, p50, p99);
  return 0;
}
