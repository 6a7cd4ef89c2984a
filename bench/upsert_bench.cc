// upsert_bench: single-writer upsert ingest and full read of a primary-key table, next to
// RocksDB on the same workload (issue 6).
//
//   upsert_bench [--rows N] [--dir DIR]
//
// Workload: N upserts of (k BIGINT key, v1 INT, v2 BIGINT, v3 DOUBLE, v4 STRING of 8-24
// characters, v5 DOUBLE); half of them update a key written earlier, keys in random order
// (a bijective mix of a counter). Sluice: a primary-key table (bucket 1, parquet, zstd level 1,
// Paimon's defaults otherwise) written through FileStoreWrite in batches of 65536 rows and
// committed once, then every row of the latest snapshot read through PlanScan and the split
// readers. RocksDB: the same rows as Puts (key, encoded value) in one WriteBatch per input
// batch with the WAL off, zstd level 1
// compression and a 256 MiB memtable, then Flush(), then a full iteration.
// The last line is "RESULT ingest_vs_rocksdb=R read_vs_rocksdb=R": Sluice's rows per CPU second
// over RocksDB's (wall-clock times are printed too).

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_common.h"
#include "sluice/base/coding.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"
#include "upsert_workload.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::DecodeRocksKey;
using bench::Die;
using bench::EncodeRocksKey;
using bench::MakeUpsertWorkload;
using bench::Now;
using bench::PrintTiming;
using bench::Since;
using bench::UpsertFields;

void EncodeValue(const ColumnBatch& b, int64_t i, std::string* out) {
  out->clear();
  char buf[8];
  EncodeFixed32LE(reinterpret_cast<uint8_t*>(buf),
                  static_cast<uint32_t>(b.column(1)->data<int32_t>()[i]));
  out->append(buf, 4);
  EncodeFixed64LE(reinterpret_cast<uint8_t*>(buf),
                  static_cast<uint64_t>(b.column(2)->data<int64_t>()[i]));
  out->append(buf, 8);
  out->append(reinterpret_cast<const char*>(&b.column(3)->data<double>()[i]), 8);
  out->append(reinterpret_cast<const char*>(&b.column(5)->data<double>()[i]), 8);
  out->append(b.column(4)->GetBytes(i));
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "upsert_bench", 10000000);
  const int64_t rows = args.rows;
  const std::string& dir = args.dir;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string table_path = dir + "/db.db/upserts";
  const std::string rocks_path = dir + "/rocksdb";

  const DataTypePtr type = DataType::Row(UpsertFields());
  int64_t distinct = 0;
  auto data = MakeUpsertWorkload(rows, type, &distinct);
  std::printf(
      "workload: %lld upserts of %lld keys: k BIGINT, v1 INT, v2 BIGINT, v3 DOUBLE, "
      "v4 STRING(8-24), v5 DOUBLE\n",
      static_cast<long long>(rows), static_cast<long long>(distinct));

  // ---- Sluice.
  auto table = bench::CreatePrimaryKeyTable(table_path, UpsertFields());
  Clock t0 = Now();
  bench::WriteAndCommitOnce(table, data, "upsert-bench");
  const Clock sluice_ingest = Since(t0);

  t0 = Now();
  int64_t sluice_rows = 0;
  uint64_t sluice_sum = 0;
  {
    auto latest = FileStoreTable::Open(LocalFileIO(), table_path);
    Check(latest.status(), "reopen");
    auto plan = PlanScan(**latest, ScanOptions{});
    Check(plan.status(), "plan");
    for (DataSplit& split : plan->splits) {
      auto reader =
          OpenSplitReader(**latest, (*latest)->schema_ptr(), std::move(split), SplitReadOptions{});
      Check(reader.status(), "open split");
      ColumnBatch batch((*reader)->output_type());
      while (true) {
        auto more = (*reader)->Next(&batch);
        Check(more.status(), "read");
        if (!*more) break;
        const int64_t* k = batch.column(0)->data<int64_t>();
        const int64_t* v2 = batch.column(2)->data<int64_t>();
        for (int64_t i = 0; i < batch.num_rows(); ++i)
          sluice_sum += static_cast<uint64_t>(k[i] ^ v2[i]);
        sluice_rows += batch.num_rows();
      }
    }
  }
  const Clock sluice_read = Since(t0);
  if (sluice_rows != distinct)
    Die("Sluice read " + std::to_string(sluice_rows) + " rows, expected " +
        std::to_string(distinct));

  // ---- RocksDB.
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kZSTD;
  options.bottommost_compression = rocksdb::kZSTD;
  options.compression_opts.level = 1;
  // The memtable as large as Sluice's write buffer (`write-buffer-size`, 256 mb).
  options.write_buffer_size = 256 << 20;
  rocksdb::DB* raw_db = nullptr;
  t0 = Now();
  rocksdb::Status rs = rocksdb::DB::Open(options, rocks_path, &raw_db);
  if (!rs.ok()) Die("rocksdb open: " + rs.ToString());
  std::unique_ptr<rocksdb::DB> db(raw_db);
  {
    rocksdb::WriteOptions wo;
    wo.disableWAL = true;
    char key[8];
    std::string value;
    // One WriteBatch per input batch, as Sluice takes its rows.
    rocksdb::WriteBatch updates;
    for (const auto& batch : data) {
      const int64_t* k = batch->column(0)->data<int64_t>();
      updates.Clear();
      for (int64_t i = 0; i < batch->num_rows(); ++i) {
        EncodeRocksKey(k[i], key);
        EncodeValue(*batch, i, &value);
        rs = updates.Put(rocksdb::Slice(key, 8), value);
        if (!rs.ok()) Die("rocksdb put: " + rs.ToString());
      }
      rs = db->Write(wo, &updates);
      if (!rs.ok()) Die("rocksdb write: " + rs.ToString());
    }
    rs = db->Flush(rocksdb::FlushOptions());
    if (!rs.ok()) Die("rocksdb flush: " + rs.ToString());
  }
  const Clock rocks_ingest = Since(t0);
  data.clear();

  t0 = Now();
  int64_t rocks_rows = 0;
  uint64_t rocks_sum = 0;
  {
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const rocksdb::Slice k = it->key();
      const rocksdb::Slice v = it->value();
      const int64_t key = DecodeRocksKey(k.data());
      const int64_t v2 =
          static_cast<int64_t>(DecodeFixed64LE(reinterpret_cast<const uint8_t*>(v.data()) + 4));
      rocks_sum += static_cast<uint64_t>(key ^ v2);
      ++rocks_rows;
    }
    if (!it->status().ok()) Die("rocksdb iterate: " + it->status().ToString());
  }
  const Clock rocks_read = Since(t0);
  if (rocks_rows != distinct) Die("RocksDB read a wrong count");
  if (rocks_sum != sluice_sum) Die("Sluice and RocksDB disagree on the latest state");

  auto line = [&](const char* what, const Clock& c, int64_t n) {
    PrintTiming(16, what, c, static_cast<double>(n));
  };
  line("ingest sluice", sluice_ingest, rows);
  line("ingest rocksdb", rocks_ingest, rows);
  line("read   sluice", sluice_read, distinct);
  line("read   rocksdb", rocks_read, distinct);
  std::printf("RESULT ingest_vs_rocksdb=%.3f read_vs_rocksdb=%.3f\n",
              rocks_ingest.cpu / sluice_ingest.cpu, rocks_read.cpu / sluice_read.cpu);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
