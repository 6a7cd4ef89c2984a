#include "stream_workload.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <thread>

#include "bench_common.h"
#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/write_builder.h"

namespace sluice::bench {

namespace {

double ProcessCpuSeconds() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

Status Produce(const std::string& path, const ProducerPlan& plan) {
  SLUICE_ASSIGN_OR_RETURN(Table table, Table::Open(path));
  WriteBuilder builder = table.NewWriteBuilder();
  builder.WithCommitUser("stream-bench");
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
  const auto start = std::chrono::steady_clock::now();
  auto next = start;
  int64_t id = 0;
  const std::string payload(64, 'x');
  for (int64_t c = 1;; ++c) {
    if (plan.commits > 0 && c > plan.commits) break;
    if (plan.duration.count() > 0 && std::chrono::steady_clock::now() - start >= plan.duration) {
      break;
    }
    ColumnBatch batch(write->input_type());
    const int64_t stamp = WallMicros();
    for (int64_t i = 0; i < plan.rows_per_commit; ++i) {
      SLUICE_RETURN_NOT_OK(
          batch.AppendRow({Value::Int64(id++), Value::Int64(stamp), Value::String(payload)}));
    }
    SLUICE_RETURN_NOT_OK(write->Write(batch));
    SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages, write->PrepareCommit(c));
    SLUICE_RETURN_NOT_OK(commit->Commit(std::move(messages), c).status());
    if (plan.interval.count() > 0) {
      next += plan.interval;
      std::this_thread::sleep_until(next);
    }
  }
  return write->Close();
}

}  // namespace

int64_t WallMicros() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

std::string CreateQueueTable(const std::string& dir) {
  std::filesystem::remove_all(dir);
  Catalog catalog = Catalog::Filesystem(dir);
  Check(catalog.CreateDatabase("db"), "create database");
  NewTableSpec spec;
  spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "ts", DataType::BigInt(false)),
                  Field(2, "payload", DataType::String())};
  spec.options = {{"write-only", "true"}};
  Check(catalog.CreateTable("db.queue", spec), "create table");
  auto table = catalog.GetTable("db.queue");
  Check(table.status(), "open table");
  return table->path();
}

pid_t StartProducer(const std::string& table, const ProducerPlan& plan) {
  const pid_t pid = ::fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    Status st = Produce(table, plan);
    if (!st.ok()) std::fprintf(stderr, "producer: %s\n", st.ToString().c_str());
    std::fflush(stderr);
    ::_exit(st.ok() ? 0 : 1);
  }
  return pid;
}

FollowResult Follow(const std::string& path, pid_t producer, std::chrono::milliseconds idle) {
  auto table = Table::Open(path);
  Check(table.status(), "open table");
  ReadBuilder read = table->NewReadBuilder();
  read.WithMode(ScanMode::kDelta).WithOption("scan.mode", "from-snapshot");
  read.WithOption("scan.snapshot-id", "1").WithProjection({"ts"});
  auto scan = read.NewStreamScan();
  Check(scan.status(), "stream scan");
  auto table_read = read.NewRead();
  Check(table_read.status(), "read");
  FollowResult result;
  bool producer_done = false;
  while (true) {
    auto plan = scan->Plan();
    Check(plan.status(), "plan");
    if (!plan->snapshot_id) {
      if (producer_done) break;
      int status = 0;
      if (::waitpid(producer, &status, WNOHANG) == producer) {
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) Die("the producer failed");
        producer_done = true;
        continue;  // one more plan: snapshots that landed before it exited
      }
      Check(scan->WaitForNextSnapshot(std::chrono::milliseconds(50)).status(), "wait");
      continue;
    }
    auto reader = table_read->CreateReader(std::move(plan->splits));
    Check(reader.status(), "reader");
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      Check(more.status(), "next");
      if (!*more) break;
      const int64_t arrival = WallMicros();
      // Columns: _ROW_KIND, ts.
      const int64_t* ts = batch.column(1)->data<int64_t>();
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        const int64_t stamp = ts[i];
        if (result.rows == 0) result.first_stamp_us = stamp;
        result.latency_ms.push_back(static_cast<double>(arrival - stamp) / 1000.0);
        ++result.rows;
      }
      result.last_arrival_us = arrival;
    }
  }
  // Idle: nothing commits; the follower loops as `sluice read --follow` does (plan, then wait
  // up to 200 ms for the next snapshot).
  const double cpu0 = ProcessCpuSeconds();
  const auto wall0 = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - wall0 < idle) {
    auto plan = scan->Plan();
    Check(plan.status(), "idle plan");
    if (plan->snapshot_id) Die("a snapshot landed while idle");
    Check(scan->WaitForNextSnapshot(std::chrono::milliseconds(200)).status(), "idle wait");
  }
  result.idle_cpu_s = ProcessCpuSeconds() - cpu0;
  result.idle_wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return result;
}

double Quantile(std::vector<double>* values, double q) {
  if (values->empty()) return 0;
  std::sort(values->begin(), values->end());
  const size_t index = std::min(values->size() - 1, static_cast<size_t>(q * values->size()));
  return (*values)[index];
}

}  // namespace sluice::bench
