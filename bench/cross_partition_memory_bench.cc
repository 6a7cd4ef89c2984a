// cross_partition_memory_bench: the bounded memory of cross-partition upserts (issue 11): N
// distinct keys (the upsert workload's columns plus a partition column p over 16 partitions,
// generated batch by batch, never held whole) written through one FileStoreWrite into a
// cross-partition upsert table (bucket = -1, primary key k) and committed once, so the
// writer's key index must hold N keys: it spills to RocksDB past its 256 MiB budget. Run it
// under `/usr/bin/time -v` for the peak resident size; the program prints its own too.
//
//   cross_partition_memory_bench [--rows N] [--dir DIR]
//
// The table keeps Java's defaults: `write-buffer-size` 256 mb is the budget of all the bucket
// writers' buffers together (MemoryPoolFactory, the largest flushed when it runs out), beside
// the key index's 256 MiB (`dynamic-bucket.target-row-num` 2000000: two buckets per partition
// at 50 million keys).
//
// The last line is "RESULT rows=N peak_rss_mib=M key_index_spills=S buffer_preempts=B".

#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "bench_common.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/table_schema.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "upsert_workload.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::Now;
using bench::Since;

constexpr int32_t kPartitions = 16;

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Rows [first, first + n) of the stream into `batch`: key Mix(i), partition Mix(i) % 16.
void FillBatch(int64_t first, int64_t n, ColumnBatch* batch) {
  batch->Clear();
  for (int c = 0; c < batch->num_columns(); ++c) batch->column(c)->Resize(n);
  ColumnVector* v4 = batch->column(4);
  int32_t* offsets = v4->offset_data();
  offsets[0] = 0;
  std::string chars;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t key = Mix(static_cast<uint64_t>(first + i));
    batch->column(0)->data<int64_t>()[i] = static_cast<int64_t>(key);
    batch->column(1)->data<int32_t>()[i] = static_cast<int32_t>(key & 0xFFFFF);
    batch->column(2)->data<int64_t>()[i] = static_cast<int64_t>(key >> 8);
    batch->column(3)->data<double>()[i] = static_cast<double>(key % 100000) / 100.0;
    batch->column(5)->data<double>()[i] = static_cast<double>((key >> 20) % 1000) / 8.0;
    batch->column(6)->data<int32_t>()[i] = static_cast<int32_t>(key % kPartitions);
    chars.append(8 + static_cast<size_t>((key >> 40) % 17), static_cast<char>('a' + key % 26));
    offsets[i + 1] = static_cast<int32_t>(chars.size());
  }
  v4->values().Resize(chars.size());
  std::memcpy(v4->values().data(), chars.data(), chars.size());
  batch->set_num_rows(n);
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "cross_partition_memory_bench", 10000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir + "/tmp");
  std::vector<DataField> fields = bench::UpsertFields();
  fields.push_back(bench::Field(6, "p", DataType::Int(false)));
  const DataTypePtr type = DataType::Row(fields);
  const std::string path = args.dir + "/db.db/cross_partition";
  auto schema =
      TableSchema::Make(3, 0, fields, 6, {"p"}, {"k"}, {{"bucket", "-1"}}, std::nullopt, 0);
  Check(schema.status(), "schema");
  auto io = LocalFileIO();
  Check(io->MkDirs(SchemaDir(path)), "mkdir");
  Check(io->WriteFileAtomic(SchemaPath(path, 0), schema->ToJson(), false), "schema file");
  auto table = FileStoreTable::Open(io, path);
  Check(table.status(), "open table");

  const Clock t0 = Now();
  FileStoreWriteOptions options;
  options.tmp_dir = args.dir + "/tmp";
  auto write = FileStoreWrite::Open(*table, options);
  Check(write.status(), "open write");
  ColumnBatch batch(type);
  for (int64_t first = 0; first < args.rows; first += bench::kBatchRows) {
    FillBatch(first, std::min(bench::kBatchRows, args.rows - first), &batch);
    Check((*write)->Write(batch), "write");
  }
  auto messages = (*write)->PrepareCommit(1);
  Check(messages.status(), "prepare commit");
  auto commit = FileStoreCommit::Make(*table, "cross-partition-memory-bench");
  Check(commit.status(), "commit");
  ManifestCommittable committable;
  committable.identifier = 1;
  committable.messages = std::move(messages).value();
  Check((*commit)->Commit(committable).status(), "commit");
  const int64_t spills = (*write)->key_index_spills();
  const int64_t preempts = (*write)->write_buffer_pool()->preempt_count();
  Check((*write)->Close(), "close");
  const Clock took = Since(t0);

  int64_t rows = 0;
  auto latest = (*table)->SelectSnapshot(TableVersion::Latest());
  Check(latest.status(), "snapshot");
  if (*latest && (*latest)->total_record_count) rows = *(*latest)->total_record_count;
  if (rows != args.rows) Die("the table holds " + std::to_string(rows) + " rows");
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  bench::PrintTiming(16, "ingest", took, static_cast<double>(args.rows));
  std::printf("RESULT rows=%lld peak_rss_mib=%ld key_index_spills=%lld buffer_preempts=%lld\n",
              static_cast<long long>(rows), usage.ru_maxrss / 1024, static_cast<long long>(spills),
              static_cast<long long>(preempts));
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
