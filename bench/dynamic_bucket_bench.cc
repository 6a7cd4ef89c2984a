// dynamic_bucket_bench: the upsert workload of bench/run.sh upsert into a dynamic-bucket
// primary-key table (bucket = -1: bucket assignment through the hash index, HASH files written
// at commit), then into a fixed-bucket table with as many buckets as the dynamic one ended
// with, both written through FileStoreWrite in batches of 65536 rows, committed once, then read
// in full (issue 11).
//
// The cross-partition variant: the same upserts with a partition column p (16 partitions) in
// a cross-partition upsert table (bucket = -1, primary key k without p): a new key lands in a
// random partition, an update stays in its key's partition except for 5% of the updates,
// which move the key to another (Sluice retracts it from the old one); against RocksDB doing
// the same updates as read-modify-write (a Get of the key's row, then a Put of the new row;
// WAL off, zstd level 1, a 256 MiB memtable as upsert_bench's, then Flush).
//
//   dynamic_bucket_bench [--rows N] [--dir DIR]
//
// The last line is "RESULT dynamic_vs_fixed=R cross_partition_vs_rocksdb=R": the dynamic
// table's ingest rows per CPU second over the fixed table's, and the cross-partition table's
// over RocksDB's read-modify-write (read times are printed too).

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench_common.h"
#include "sluice/base/coding.h"
#include "sluice/batch/column_take.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/table_schema.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/file_store_write.h"
#include "upsert_workload.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::Now;
using bench::PrintTiming;
using bench::Since;

struct Run {
  Clock ingest;
  Clock read;
  int64_t rows = 0;
  std::set<int32_t> buckets;
};

Run WriteAndRead(const std::string& path, int32_t buckets,
                 const std::vector<std::unique_ptr<ColumnBatch>>& data) {
  Run run;
  auto table = bench::CreatePrimaryKeyTable(path, bench::UpsertFields(),
                                            {{"bucket", std::to_string(buckets)}});
  Clock t0 = Now();
  bench::WriteAndCommitOnce(table, data, "dynamic-bucket-bench");
  run.ingest = Since(t0);
  t0 = Now();
  run.rows = bench::ReadLatestRows(path, &run.buckets);
  run.read = Since(t0);
  return run;
}

// ---- Cross-partition upserts.

constexpr int32_t kPartitions = 16;

std::vector<DataField> CrossPartitionFields() {
  std::vector<DataField> fields = bench::UpsertFields();
  fields.push_back(bench::Field(6, "p", DataType::Int(false)));
  return fields;
}

// The upsert workload's batches with a partition column: a new key in a random partition,
// an update in its key's partition, but 5% of the updates move the key to another one.
std::vector<std::unique_ptr<ColumnBatch>> WithPartitions(
    const std::vector<std::unique_ptr<ColumnBatch>>& data, const DataTypePtr& type,
    int64_t* moves) {
  std::mt19937_64 rng(20261202);
  std::unordered_map<int64_t, int32_t> where;
  std::vector<std::unique_ptr<ColumnBatch>> out;
  *moves = 0;
  for (const auto& batch : data) {
    auto withp = std::make_unique<ColumnBatch>(type);
    for (int c = 0; c < batch->num_columns(); ++c) AppendAll(*batch->column(c), withp->column(c));
    ColumnVector* p = withp->column(batch->num_columns());
    p->Resize(batch->num_rows());
    const int64_t* k = batch->column(0)->data<int64_t>();
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      auto [it, fresh] = where.try_emplace(k[i], 0);
      if (fresh) {
        it->second = static_cast<int32_t>(rng() % kPartitions);
      } else if (rng() % 100 < 5) {
        it->second =
            static_cast<int32_t>((it->second + 1 + rng() % (kPartitions - 1)) % kPartitions);
        ++*moves;
      }
      p->data<int32_t>()[i] = it->second;
    }
    withp->set_num_rows(batch->num_rows());
    out.push_back(std::move(withp));
  }
  return out;
}

std::shared_ptr<const FileStoreTable> CreateCrossPartitionTable(const std::string& path) {
  auto schema = TableSchema::Make(3, 0, CrossPartitionFields(), 6, {"p"}, {"k"}, {{"bucket", "-1"}},
                                  std::nullopt, 0);
  Check(schema.status(), "schema");
  auto io = LocalFileIO();
  Check(io->MkDirs(SchemaDir(path)), "mkdir");
  Check(io->WriteFileAtomic(SchemaPath(path, 0), schema->ToJson(), false), "schema file");
  auto table = FileStoreTable::Open(io, path);
  Check(table.status(), "open table");
  return std::move(table).value();
}

struct CrossPartitionRun {
  Clock ingest;
  int64_t rows = 0;  // read back
};

CrossPartitionRun WriteCrossPartition(const std::string& dir,
                                      const std::vector<std::unique_ptr<ColumnBatch>>& data) {
  CrossPartitionRun run;
  const std::string path = dir + "/db.db/cross_partition";
  auto table = CreateCrossPartitionTable(path);
  std::filesystem::create_directories(dir + "/tmp");
  FileStoreWriteOptions options;
  options.tmp_dir = dir + "/tmp";
  Clock t0 = Now();
  bench::WriteAndCommitOnce(table, data, "cross-partition-bench", options);
  run.ingest = Since(t0);
  run.rows = bench::ReadLatestRows(path);
  return run;
}

// The row as RocksDB keeps it: p, then v1, v2, v3, v5 fixed-width, then v4.
void EncodeRow(const ColumnBatch& b, int64_t i, std::string* out) {
  out->clear();
  uint8_t buf[8];
  EncodeFixed32LE(buf, static_cast<uint32_t>(b.column(6)->data<int32_t>()[i]));
  out->append(reinterpret_cast<const char*>(buf), 4);
  EncodeFixed32LE(buf, static_cast<uint32_t>(b.column(1)->data<int32_t>()[i]));
  out->append(reinterpret_cast<const char*>(buf), 4);
  EncodeFixed64LE(buf, static_cast<uint64_t>(b.column(2)->data<int64_t>()[i]));
  out->append(reinterpret_cast<const char*>(buf), 8);
  out->append(reinterpret_cast<const char*>(&b.column(3)->data<double>()[i]), 8);
  out->append(reinterpret_cast<const char*>(&b.column(5)->data<double>()[i]), 8);
  out->append(b.column(4)->GetBytes(i));
}

// Read-modify-write: each update reads its key's row (where Sluice's key index looks the key
// up) and writes the new one.
Clock RocksReadModifyWrite(const std::string& path,
                           const std::vector<std::unique_ptr<ColumnBatch>>& data, int64_t* rows,
                           int64_t* moved) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kZSTD;
  options.bottommost_compression = rocksdb::kZSTD;
  options.compression_opts.level = 1;
  options.write_buffer_size = 256 << 20;
  rocksdb::DB* raw = nullptr;
  Clock t0 = Now();
  rocksdb::Status rs = rocksdb::DB::Open(options, path, &raw);
  if (!rs.ok()) Die("rocksdb open: " + rs.ToString());
  std::unique_ptr<rocksdb::DB> db(raw);
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  const rocksdb::ReadOptions ro;
  char key[8];
  std::string old_value;
  std::string value;
  *moved = 0;
  for (const auto& batch : data) {
    const int64_t* k = batch->column(0)->data<int64_t>();
    const int32_t* p = batch->column(6)->data<int32_t>();
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      bench::EncodeRocksKey(k[i], key);
      rs = db->Get(ro, rocksdb::Slice(key, 8), &old_value);
      if (rs.ok()) {
        if (DecodeFixed32LE(reinterpret_cast<const uint8_t*>(old_value.data())) !=
            static_cast<uint32_t>(p[i])) {
          ++*moved;
        }
      } else if (!rs.IsNotFound()) {
        Die("rocksdb get: " + rs.ToString());
      }
      EncodeRow(*batch, i, &value);
      rs = db->Put(wo, rocksdb::Slice(key, 8), value);
      if (!rs.ok()) Die("rocksdb put: " + rs.ToString());
    }
  }
  rs = db->Flush(rocksdb::FlushOptions());
  if (!rs.ok()) Die("rocksdb flush: " + rs.ToString());
  const Clock ingest = Since(t0);
  *rows = 0;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(ro));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++*rows;
  if (!it->status().ok()) Die("rocksdb iterate: " + it->status().ToString());
  return ingest;
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "dynamic_bucket_bench", 10000000);
  std::filesystem::remove_all(args.dir);
  std::filesystem::create_directories(args.dir);
  const DataTypePtr type = DataType::Row(bench::UpsertFields());
  int64_t distinct = 0;
  auto data = bench::MakeUpsertWorkload(args.rows, type, &distinct);
  std::printf("workload: %lld upserts of %lld keys (the upsert benchmark's)\n",
              static_cast<long long>(args.rows), static_cast<long long>(distinct));

  const Run dynamic = WriteAndRead(args.dir + "/db.db/dynamic", -1, data);
  if (dynamic.rows != distinct) Die("the dynamic-bucket table read a wrong count");
  const int32_t buckets = static_cast<int32_t>(dynamic.buckets.size());
  const Run fixed = WriteAndRead(args.dir + "/db.db/fixed", buckets, data);
  if (fixed.rows != distinct) Die("the fixed-bucket table read a wrong count");

  std::printf(
      "dynamic-bucket table: %d buckets (dynamic-bucket.target-row-num 2000000); fixed: %d\n",
      buckets, buckets);
  PrintTiming(16, "ingest dynamic", dynamic.ingest, static_cast<double>(args.rows));
  PrintTiming(16, "ingest fixed", fixed.ingest, static_cast<double>(args.rows));
  PrintTiming(16, "read   dynamic", dynamic.read, static_cast<double>(distinct));
  PrintTiming(16, "read   fixed", fixed.read, static_cast<double>(distinct));

  const DataTypePtr cross_type = DataType::Row(CrossPartitionFields());
  int64_t moves = 0;
  const auto cross_data = WithPartitions(data, cross_type, &moves);
  data.clear();
  std::printf(
      "cross-partition workload: the same upserts over %d partitions, %lld of them move "
      "their key to another partition\n",
      kPartitions, static_cast<long long>(moves));
  const CrossPartitionRun cross = WriteCrossPartition(args.dir, cross_data);
  if (cross.rows != distinct) Die("the cross-partition table read a wrong count");
  int64_t rocks_rows = 0;
  int64_t rocks_moved = 0;
  const Clock rocks =
      RocksReadModifyWrite(args.dir + "/rocksdb", cross_data, &rocks_rows, &rocks_moved);
  if (rocks_rows != distinct) Die("RocksDB read a wrong count");
  if (rocks_moved != moves) Die("RocksDB saw a different number of moves");
  PrintTiming(16, "ingest cross-p.", cross.ingest, static_cast<double>(args.rows));
  PrintTiming(16, "ingest rocks rmw", rocks, static_cast<double>(args.rows));
  std::printf("RESULT dynamic_vs_fixed=%.3f cross_partition_vs_rocksdb=%.3f\n",
              fixed.ingest.cpu / dynamic.ingest.cpu, rocks.cpu / cross.ingest.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
