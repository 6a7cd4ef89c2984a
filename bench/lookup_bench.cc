// lookup_bench: random point lookups of existing keys in a fully compacted primary-key table
// (k BIGINT key, v STRING of 8-23 characters, n BIGINT; one bucket) through Sluice's lookup
// engine (TableLookup's LocalTableQuery: LookupLevels over sort lookup files), against RocksDB
// Get over the same rows (one fully compacted column family), in the same run (issue 12).
// Both get the same block cache (1 gb); lookup files are built and RocksDB is compacted before
// the timing, then both answer the same sequence of random keys, the values checked, in three
// alternating rounds (best of 3 each: a shared machine's load changes between rounds, not
// within one pair).
//
//   lookup_bench [--rows N] [--dir DIR]
//
// The last line is "RESULT lookup_vs_rocksdb=R lookups_per_s=L rocksdb_per_s=G": Sluice's
// lookups per CPU second over RocksDB's.

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/write_batch.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"
#include "sluice/table/query/local_table_query.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::Now;
using bench::Since;

constexpr int64_t kCacheBytes = int64_t{1} << 30;

std::string ValueText(int64_t k) {
  return "v" + std::to_string(k * 2654435761LL % 1000000007LL) + std::string(k % 16, 'x');
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "lookup_bench", 10000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const int64_t rows = args.rows;
  std::vector<DataField> fields = {bench::Field(0, "k", DataType::BigInt(false)),
                                   bench::Field(1, "v", DataType::String()),
                                   bench::Field(2, "n", DataType::BigInt())};
  const DataTypePtr type = DataType::Row(fields);
  std::vector<std::unique_ptr<ColumnBatch>> data;
  for (int64_t start = 0; start < rows; start += bench::kBatchRows) {
    auto batch = std::make_unique<ColumnBatch>(type);
    const int64_t end = std::min(rows, start + bench::kBatchRows);
    for (int64_t k = start; k < end; ++k) {
      batch->column(0)->AppendFixed<int64_t>(k);
      batch->column(1)->AppendBytes(ValueText(k));
      batch->column(2)->AppendFixed<int64_t>(k * 7);
    }
    batch->set_num_rows(end - start);
    data.push_back(std::move(batch));
  }

  // ---- Sluice: write, fully compact, commit.
  const std::string path = args.dir + "/db.db/t";
  auto table =
      bench::CreatePrimaryKeyTable(path, fields,
                                   {{"bucket", "1"},
                                    {"lookup.cache-max-memory-size", std::to_string(kCacheBytes)},
                                    {"full-compaction.delta-commits", "1"}});
  bench::WriteAndCommitOnce(table, data, "lookup-bench");
  auto latest = FileStoreTable::Open(LocalFileIO(), path);
  Check(latest.status(), "reopen");
  auto query = LocalTableQuery::Make(*latest, TableVersion::Latest(), args.dir);
  Check(query.status(), "query");

  // The same random existing keys for both.
  const int64_t lookups = std::min<int64_t>(rows, 2000000);
  std::mt19937_64 rng(12);
  std::vector<int64_t> keys(static_cast<size_t>(lookups));
  for (int64_t& k : keys) k = static_cast<int64_t>(rng() % static_cast<uint64_t>(rows));

  // Warm-up: the lookup files are built (by the first lookup, timed) and the blocks cached.
  ValueList key(1);
  key[0] = Value::Int64(0);
  const Clock build_start = Now();
  Check((*query)->Lookup(key).status(), "first lookup");
  const Clock build = Since(build_start);
  for (int64_t k = 0; k < rows; k += 97) {
    key[0] = Value::Int64(k);
    auto row = (*query)->Lookup(key);
    Check(row.status(), "warm-up lookup");
  }
  for (int64_t k : keys) {
    key[0] = Value::Int64(k);
    Check((*query)->Lookup(key).status(), "warm-up lookup");
  }
  int64_t sluice_sum = 0;
  auto run_sluice = [&]() {
    const Clock t0 = Now();
    sluice_sum = 0;
    for (int64_t k : keys) {
      key[0] = Value::Int64(k);
      auto row = (*query)->Lookup(key);
      Check(row.status(), "lookup");
      if (!*row) Die("Sluice lost key " + std::to_string(k));
      sluice_sum += (**row)[2].int64() + static_cast<int64_t>((**row)[1].bytes().size());
    }
    return Since(t0);
  };

  // ---- RocksDB: the same rows, compacted, the same cache.
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kZSTD;
  options.bottommost_compression = rocksdb::kZSTD;
  options.compression_opts.level = 1;
  options.write_buffer_size = 256 << 20;
  rocksdb::BlockBasedTableOptions table_options;
  table_options.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(kCacheBytes));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table_options));
  rocksdb::DB* raw_db = nullptr;
  rocksdb::Status rs = rocksdb::DB::Open(options, args.dir + "/rocksdb", &raw_db);
  if (!rs.ok()) Die("rocksdb open: " + rs.ToString());
  std::unique_ptr<rocksdb::DB> db(raw_db);
  {
    rocksdb::WriteOptions wo;
    wo.disableWAL = true;
    char k8[8];
    std::string value;
    rocksdb::WriteBatch updates;
    for (const auto& batch : data) {
      updates.Clear();
      const int64_t* k = batch->column(0)->data<int64_t>();
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        bench::EncodeRocksKey(k[i], k8);
        value.assign(batch->column(1)->GetBytes(i));
        value.append(std::to_string(k[i] * 7));
        rs = updates.Put(rocksdb::Slice(k8, 8), value);
        if (!rs.ok()) Die("rocksdb put: " + rs.ToString());
      }
      rs = db->Write(wo, &updates);
      if (!rs.ok()) Die("rocksdb write: " + rs.ToString());
    }
    rs = db->Flush(rocksdb::FlushOptions());
    if (!rs.ok()) Die("rocksdb flush: " + rs.ToString());
    rs = db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr);
    if (!rs.ok()) Die("rocksdb compact: " + rs.ToString());
  }
  data.clear();
  std::string value;
  char k8[8];
  for (int64_t k : keys) {
    bench::EncodeRocksKey(k, k8);
    rs = db->Get(rocksdb::ReadOptions(), rocksdb::Slice(k8, 8), &value);
    if (!rs.ok()) Die("rocksdb warm-up get: " + rs.ToString());
  }
  auto run_rocks = [&]() {
    const Clock t0 = Now();
    int64_t found = 0;
    for (int64_t k : keys) {
      bench::EncodeRocksKey(k, k8);
      rs = db->Get(rocksdb::ReadOptions(), rocksdb::Slice(k8, 8), &value);
      if (!rs.ok()) Die("rocksdb get: " + rs.ToString());
      found += value.empty() ? 0 : 1;
    }
    if (found != lookups) Die("RocksDB lost keys");
    return Since(t0);
  };

  constexpr int kRounds = 3;
  Clock sluice = bench::kNoRunYet;
  Clock rocks = bench::kNoRunYet;
  for (int round = 0; round < kRounds; ++round) {
    bench::KeepBest(&sluice, run_sluice());
    bench::KeepBest(&rocks, run_rocks());
  }

  const double n = static_cast<double>(lookups);
  bench::PrintTiming(8, "sluice", sluice, n, "checksum " + std::to_string(sluice_sum));
  bench::PrintTiming(8, "rocksdb", rocks, n);
  bench::PrintTiming(8, "build", build, static_cast<double>(rows), "the lookup file, first lookup");
  std::printf("RESULT lookup_vs_rocksdb=%.3f lookups_per_s=%.0f rocksdb_per_s=%.0f\n",
              rocks.cpu / sluice.cpu, n / sluice.cpu, n / rocks.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
