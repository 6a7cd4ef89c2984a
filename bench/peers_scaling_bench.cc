// peers_scaling_bench: Sluice's scan and write on two threads against one, on the same data in
// the same run (issue 16).
//
//   peers_scaling_bench [--rows N] [--dir DIR]
//
// Table: the peers table (bench/peers_rows.h: k INT primary key, f1..f20 STRING of 10 hex
// characters, parquet, zstd) with `bucket = 2`, N rows (default 3,000,000). Sluice's threads
// are those of its public API:
//
//   write  a TableWrite takes one thread (table_write.h); a job writes on two the way Java's
//          writer subtasks do: two TableWrites of one WriteBuilder, each given the rows of its
//          own bucket, their messages committed together. The rows are made and routed to
//          their bucket (RowKeyExtractor, Java's bucket function) before the timing. Both
//          runs have the same two TableWrites, a bucket and half the write buffer each (so the
//          same memory, flushes and files in both); one thread drives both (their batches
//          alternating), or each has a thread of its own. One TableWrite of both buckets on
//          one thread would not do: its writers share one buffer, and Java's rule (flush the
//          largest other writer when the buffer is full) makes small flushes there, then a
//          compaction, so it did 44% more work and the scaling read 2.8. Each run: a fresh
//          table, the writes, one commit.
//   scan   TableRead reads the splits of a plan on a thread pool (ReadBuilder::WithThreads):
//          the table's two buckets are two splits, read with 1 and then 2 threads, every row
//          folded into count, sum(k) and the bytes of the strings.
//
// Best of 3 runs each. The scans' sums must agree with each other and with the rows written,
// and both writes' tables must read the same. Scaling is throughput, so by wall time: the last
// line is "RESULT scan_scaling=R write_scaling=R", the one-thread wall time over the
// two-thread one (2.0 is perfect on two free cores; other processes on the machine lower it).

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_common.h"
#include "peers_rows.h"
#include "sluice/read_builder.h"
#include "sluice/table.h"
#include "sluice/table/sink/row_key_extractor.h"
#include "sluice/write_builder.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::Now;
using bench::PeersScanSum;
using bench::PrintTiming;
using bench::Since;

constexpr int kRuns = 3;
constexpr int kBuckets = 2;
constexpr int kWidth = 18;
constexpr int kWriteBufferMiB = 256;
const std::map<std::string, std::string> kOptions = {{"file.format", "parquet"},
                                                     {"bucket", std::to_string(kBuckets)}};

using Batches = std::vector<std::unique_ptr<ColumnBatch>>;

// The N rows in batches of at most kBatchRows rows per bucket.
std::vector<Batches> RowsByBucket(const FileStoreTable& table, int64_t rows) {
  auto extractor = RowKeyExtractor::Make(table.schema(), table.options());
  Check(extractor.status(), "row key extractor");
  const DataTypePtr type = DataType::Row(bench::PeersFields());
  std::vector<Batches> buckets(kBuckets);
  for (Batches& batches : buckets) batches.push_back(std::make_unique<ColumnBatch>(type));
  bench::PeersRows generator;
  ColumnBatch batch(type);
  for (int64_t done = 0; done < rows; done += bench::kBatchRows) {
    generator.Next(std::min(bench::kBatchRows, rows - done), &batch);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      auto bucket = extractor->Bucket(batch, i);
      Check(bucket.status(), "bucket");
      Batches& batches = buckets[*bucket];
      if (batches.back()->num_rows() == bench::kBatchRows) {
        batches.push_back(std::make_unique<ColumnBatch>(type));
      }
      ColumnBatch* out = batches.back().get();
      out->column(0)->AppendFixed<int32_t>(batch.column(0)->data<int32_t>()[i]);
      for (int c = 1; c < batch.num_columns(); ++c) {
        out->column(c)->AppendBytes(batch.column(c)->GetBytes(i));
      }
      out->set_num_rows(out->num_rows() + 1);
    }
  }
  return buckets;
}

// One write of `buckets` into a fresh table at `path` on `threads` threads (1 or kBuckets).
Clock Write(const std::string& path, const std::vector<Batches>& buckets, int threads) {
  std::filesystem::remove_all(path);
  bench::CreatePrimaryKeyTable(path, bench::PeersFields(), kOptions);
  auto table = Table::Open(path);
  Check(table.status(), "open table");
  const Clock start = Now();
  WriteBuilder builder = table->NewWriteBuilder();
  builder.WithOption("write-buffer-size", std::to_string(kWriteBufferMiB / kBuckets) + " mb");
  std::vector<std::unique_ptr<TableWrite>> writes;
  for (int b = 0; b < kBuckets; ++b) {
    auto write = builder.NewWrite();
    Check(write.status(), "new write");
    writes.push_back(std::move(write).value());
  }
  std::vector<std::vector<CommitMessage>> messages(kBuckets);
  // Thread `t` of `threads` drives the writers of the buckets b with b % threads == t, a batch
  // of each in turn.
  auto run = [&](int t) {
    size_t most = 0;
    for (const Batches& batches : buckets) most = std::max(most, batches.size());
    for (size_t i = 0; i < most; ++i) {
      for (int b = t; b < kBuckets; b += threads) {
        if (i < buckets[b].size()) Check(writes[b]->Write(*buckets[b][i]), "write");
      }
    }
    for (int b = t; b < kBuckets; b += threads) {
      auto prepared = writes[b]->PrepareCommit();
      Check(prepared.status(), "prepare commit");
      messages[b] = std::move(prepared).value();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (std::thread& thread : pool) thread.join();
  std::vector<CommitMessage> all;
  for (std::vector<CommitMessage>& part : messages) {
    for (CommitMessage& message : part) all.push_back(std::move(message));
  }
  auto commit = builder.NewCommit();
  Check(commit.status(), "new commit");
  Check((*commit)->Commit(std::move(all)).status(), "commit");
  for (const std::unique_ptr<TableWrite>& write : writes) Check(write->Close(), "close");
  return Since(start);
}

// Reads the latest snapshot of the table at `path` with `threads` split readers; *splits gets
// the number of splits.
PeersScanSum Scan(const std::string& path, int threads, size_t* splits) {
  auto table = Table::Open(path);
  Check(table.status(), "open table");
  ReadBuilder builder = table->NewReadBuilder().WithThreads(threads);
  auto scan = builder.NewScan();
  Check(scan.status(), "new scan");
  auto plan = scan->Plan();
  Check(plan.status(), "plan");
  *splits = plan->splits.size();
  auto read = builder.NewRead();
  Check(read.status(), "new read");
  auto reader = read->CreateReader(std::move(plan->splits));
  Check(reader.status(), "create reader");
  ColumnBatch batch((*reader)->output_type());
  PeersScanSum sum;
  while (true) {
    auto more = (*reader)->Next(&batch);
    Check(more.status(), "read");
    if (!*more) break;
    sum.Add(batch);
  }
  return sum;
}

int64_t RowsOf(const Batches& batches) {
  int64_t rows = 0;
  for (const std::unique_ptr<ColumnBatch>& batch : batches) rows += batch->num_rows();
  return rows;
}

std::string ToString(const PeersScanSum& sum) {
  return std::to_string(sum.rows) + " rows, sum(k) " + std::to_string(sum.sum_k) + ", " +
         std::to_string(sum.string_bytes) + " string bytes";
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "peers_scaling_bench", 3000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const std::string one = args.dir + "/default.db/one_thread";
  const std::string two = args.dir + "/default.db/two_threads";
  const std::vector<Batches> buckets =
      RowsByBucket(*bench::CreatePrimaryKeyTable(one, bench::PeersFields(), kOptions), args.rows);
  std::printf(
      "table: %lld rows: k INT (primary key, random), f1..f20 STRING(10); bucket %d (%lld and\n"
      "       %lld rows), parquet zstd; best of %d; scaling by wall time\n",
      static_cast<long long>(args.rows), kBuckets, static_cast<long long>(RowsOf(buckets[0])),
      static_cast<long long>(RowsOf(buckets[1])), kRuns);
  std::fflush(stdout);

  Clock write1 = kNoRunYet, write2 = kNoRunYet;
  for (int run = 0; run < kRuns; ++run) {
    KeepBest(&write1, Write(one, buckets, 1));
    KeepBest(&write2, Write(two, buckets, kBuckets));
  }
  Clock scan1 = kNoRunYet, scan2 = kNoRunYet;
  PeersScanSum sum1, sum2;
  size_t splits = 0;
  for (int run = 0; run < kRuns; ++run) {
    Clock start = Now();
    sum1 = Scan(two, 1, &splits);
    KeepBest(&scan1, Since(start));
    start = Now();
    sum2 = Scan(two, 2, &splits);
    KeepBest(&scan2, Since(start));
  }
  if (splits != static_cast<size_t>(kBuckets)) {
    Die("the plan has " + std::to_string(splits) + " splits, not one per bucket");
  }
  const PeersScanSum written = Scan(one, 1, &splits);
  if (!(sum1 == sum2) || !(sum1 == written)) {
    Die("one thread read " + ToString(sum1) + ", two " + ToString(sum2) +
        ", the one-thread write's table " + ToString(written));
  }
  // The random keys repeat a few times in 3 million: the rows merge to fewer.
  if (sum1.rows > args.rows || sum1.rows < args.rows - args.rows / 1000) {
    Die("the tables hold " + std::to_string(sum1.rows) + " rows of " + std::to_string(args.rows));
  }
  const auto rows = static_cast<double>(args.rows);
  const std::string held = "(" + ToString(sum1) + ")";
  PrintTiming(kWidth, "write 1 thread", write1, rows);
  PrintTiming(kWidth, "write 2 threads", write2, rows);
  PrintTiming(kWidth, "scan 1 thread", scan1, static_cast<double>(sum1.rows), held);
  PrintTiming(kWidth, "scan 2 threads", scan2, static_cast<double>(sum1.rows), held);
  std::printf("RESULT scan_scaling=%.2f write_scaling=%.2f\n", scan1.wall / scan2.wall,
              write1.wall / write2.wall);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
