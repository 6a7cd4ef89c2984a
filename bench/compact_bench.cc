// compact_bench: a full compaction of five overlapping sorted runs of a primary-key bucket
// (issue 17) through Sluice's compaction, against RocksDB compacting the same records, and
// against Sluice's row-by-row merge measured before the columnar sorted-run merge replaced it.
//
//   compact_bench [--rows N] [--dir DIR] [--baseline-seconds S]
//
// Records: N in total (default 5,000,000) over K = N * 10 / 46 keys; k BIGINT primary key, a INT,
// b DOUBLE, c STRING (8-23 characters). Run 0 holds every key, runs 1-4 each update 90% of the
// keys (later runs win), run 4 deletes 1% of the keys (as mor_bench).
//
//   sluice   a table (bucket 1, parquet, zstd level 1, Paimon's defaults otherwise): each run
//            written as one level-0 file by the table's key-value writer (DataFileWriterFactory),
//            then a full compaction through the bucket's compact manager, as FileStoreWrite builds
//            it (MakeMergeTreeCompactManagerFactory: universal compaction,
//            MergeTreeCompactRewriter), into Parquet files at the top level with deletes dropped.
//   rocksdb  the same records as Puts (and Deletes) with auto compactions off, zstd level 1, one
//            Flush per run (five overlapping L0 files), then CompactRange over the whole range.
// Both results are read back (not timed) and folded into checksums (count, sum(k), sum(a),
// sum(strlen(c))) that must agree. Best of 3 compactions, each from the same five runs.
//
// rowwise: the process CPU seconds of the same Sluice compaction with the row-by-row merge that
// compaction used up to commit 4ee6878 (SortedRunMergeReader over Values, one virtual
// merge-function call per record; since replaced by SortedRunMerge). To measure it again, build
// this benchmark at commit 4ee6878 and run it with the same --rows: its "compact sluice" line is
// the figure, to give here as --baseline-seconds. Without it, the figure recorded below (default
// --rows, on the shared 2-core build machine) is used, scaled by N over the default.
//
// The last line is "RESULT compact_vs_rocksdb=R compact_vs_rowwise=R": records per CPU second,
// ours over RocksDB's, and the columnar merge over the row-by-row one.

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench_common.h"
#include "sluice/base/coding.h"
#include "sluice/fs/file_io.h"
#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_manager.h"
#include "sluice/meta/file_paths.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/data_split.h"

namespace sluice {
namespace {

using bench::AppendRunRecord;
using bench::Check;
using bench::Checksum;
using bench::Clock;
using bench::DecodeRocksKey;
using bench::DeletedInRun;
using bench::Die;
using bench::EncodeRocksKey;
using bench::InRun;
using bench::kBatchRows;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::kRuns;
using bench::Now;
using bench::PrintTiming;
using bench::ReadChecksum;
using bench::RunValueA;
using bench::RunValueB;
using bench::RunValueC;
using bench::Since;

constexpr int kRepeats = 3;
constexpr int64_t kDefaultRows = 5000000;
// CPU seconds of the row-by-row compaction at kDefaultRows: this benchmark built at commit
// 4ee6878 (SortedRunMergeReader), `bench/run.sh compact`, best of 3, on the 2-core build
// machine, 2026-12-01 (RocksDB took 2.036 s in the same run).
constexpr double kRowwiseSecondsAtDefaultRows = 2.265;

// Writes run r with the table's key-value writer as one level-0 file.
DataFileMeta WriteRun(DataFileWriterFactory& writers, int r, int64_t keys) {
  std::unique_ptr<RollingDataFileWriter> writer =
      writers.NewKeyValueWriter(/*level=*/0, FileSource::kAppend);
  ColumnBatch batch(writers.key_value_type());
  std::string text;
  auto flush = [&] {
    if (batch.num_rows() == 0) return;
    Check(writer->Write(batch), "write run");
    batch.Clear();
  };
  for (int64_t k = 0; k < keys; ++k) {
    if (!InRun(k, r)) continue;
    AppendRunRecord(k, r, keys, &batch, &text);
    if (batch.num_rows() == kBatchRows) flush();
  }
  flush();
  auto files = writer->Close();
  Check(files.status(), "close run");
  if (files->size() != 1) Die("run " + std::to_string(r) + " rolled into several files");
  return files->front();
}

Checksum ReadFiles(const FileStoreTable& table, const std::string& bucket_path,
                   const std::vector<DataFileMeta>& files) {
  DataSplit split;
  split.bucket_path = bucket_path;
  split.total_buckets = 1;
  split.raw_convertible = true;
  for (const DataFileMeta& file : files) {
    split.data_files.push_back(file);
    split.data_file_paths.push_back(bucket_path + "/" + file.file_name);
  }
  return ReadChecksum(table, split);
}

rocksdb::Options RocksOptions() {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kZSTD;
  options.bottommost_compression = rocksdb::kZSTD;
  options.compression_opts.level = 1;
  options.bottommost_compression_opts = options.compression_opts;
  options.bottommost_compression_opts.enabled = true;
  options.disable_auto_compactions = true;
  // One memtable per run, so that each flush writes the run as one L0 file.
  options.write_buffer_size = 512 << 20;
  return options;
}

std::unique_ptr<rocksdb::DB> OpenRocks(const std::string& path) {
  rocksdb::DB* raw = nullptr;
  rocksdb::Status rs = rocksdb::DB::Open(RocksOptions(), path, &raw);
  if (!rs.ok()) Die("rocksdb open: " + rs.ToString());
  return std::unique_ptr<rocksdb::DB>(raw);
}

void WriteRocksRuns(const std::string& path, int64_t keys) {
  std::unique_ptr<rocksdb::DB> db = OpenRocks(path);
  rocksdb::WriteOptions wo;
  wo.disableWAL = true;
  char key[8];
  std::string value;
  std::string text;
  rocksdb::WriteBatch batch;
  auto write = [&] {
    rocksdb::Status rs = db->Write(wo, &batch);
    if (!rs.ok()) Die("rocksdb write: " + rs.ToString());
    batch.Clear();
  };
  for (int r = 0; r < kRuns; ++r) {
    for (int64_t k = 0; k < keys; ++k) {
      if (!InRun(k, r)) continue;
      EncodeRocksKey(k, key);
      rocksdb::Status rs;
      if (DeletedInRun(k, r)) {
        rs = batch.Delete(rocksdb::Slice(key, 8));
      } else {
        value.clear();
        uint8_t buf[8];
        EncodeFixed32LE(buf, static_cast<uint32_t>(RunValueA(k, r)));
        value.append(reinterpret_cast<const char*>(buf), 4);
        const double b = RunValueB(k, r);
        value.append(reinterpret_cast<const char*>(&b), 8);
        RunValueC(k, r, &text);
        value.append(text);
        rs = batch.Put(rocksdb::Slice(key, 8), value);
      }
      if (!rs.ok()) Die("rocksdb put: " + rs.ToString());
      if (batch.Count() == kBatchRows) write();
    }
    write();
    rocksdb::Status rs = db->Flush(rocksdb::FlushOptions());
    if (!rs.ok()) Die("rocksdb flush: " + rs.ToString());
  }
  std::string l0;
  db->GetProperty("rocksdb.num-files-at-level0", &l0);
  if (l0 != std::to_string(kRuns)) Die("RocksDB holds " + l0 + " L0 files, expected 5");
}

Checksum ReadRocks(rocksdb::DB* db) {
  Checksum sum;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    const rocksdb::Slice v = it->value();
    sum.sum_k += DecodeRocksKey(k.data());
    sum.sum_a += static_cast<int32_t>(DecodeFixed32LE(reinterpret_cast<const uint8_t*>(v.data())));
    sum.sum_c += static_cast<int64_t>(v.size()) - 12;
    ++sum.rows;
  }
  if (!it->status().ok()) Die("rocksdb iterate: " + it->status().ToString());
  return sum;
}

int Main(int argc, char** argv) {
  // --baseline-seconds is ours; the rest goes to the common parser.
  std::optional<double> baseline_seconds;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--baseline-seconds") == 0 && i + 1 < argc) {
      baseline_seconds = std::strtod(argv[++i], nullptr);
      if (!(*baseline_seconds > 0)) Die("--baseline-seconds must be positive");
      continue;
    }
    rest.push_back(argv[i]);
  }
  const bench::Args args =
      bench::ParseArgs(static_cast<int>(rest.size()), rest.data(), "compact_bench", kDefaultRows);
  const int64_t keys = std::max<int64_t>(1, args.rows * 10 / 46);
  const std::string& dir = args.dir;
  std::filesystem::remove_all(dir);
  const std::string table_path = dir + "/db.db/compact";
  const std::string bucket_path = BucketPath(table_path, "", 0);
  const std::string rocks_runs = dir + "/rocksdb-runs";
  const std::string rocks_path = dir + "/rocksdb";
  std::filesystem::create_directories(bucket_path);

  std::shared_ptr<const FileStoreTable> table =
      bench::CreatePrimaryKeyTable(table_path, bench::RunFields());
  auto writers = DataFileWriterFactory::Make(LocalFileIO(), table->schema_ptr(), table->options(),
                                             bucket_path);
  Check(writers.status(), "writer factory");

  Clock t0 = Now();
  std::vector<DataFileMeta> runs;
  int64_t records = 0;
  for (int r = 0; r < kRuns; ++r) {
    runs.push_back(WriteRun(**writers, r, keys));
    records += runs.back().row_count;
  }
  WriteRocksRuns(rocks_runs, keys);
  std::printf(
      "records: %lld in %d overlapping level-0 runs over %lld keys: k BIGINT (primary key), a "
      "INT, b DOUBLE, c STRING(8-23); run 0 all keys, runs 1-%d 90%% each, run %d deletes 1%% "
      "(written in %.1f s)\n",
      static_cast<long long>(records), kRuns, static_cast<long long>(keys), kRuns - 1, kRuns - 1,
      Since(t0).wall);

  auto factory = MakeMergeTreeCompactManagerFactory(table);
  Check(factory.status(), "compact manager factory");
  Clock sluice = kNoRunYet, rocks = kNoRunYet;
  Checksum ours, theirs;
  for (int repeat = 0; repeat < kRepeats; ++repeat) {
    auto manager = (*factory)(EmptySerializedRow(), 0, runs, *writers);
    Check(manager.status(), "compact manager");
    t0 = Now();
    Check((**manager).TriggerCompaction(/*full_compaction=*/true), "trigger compaction");
    auto result = (**manager).GetCompactionResult(/*blocking=*/true);
    KeepBest(&sluice, Since(t0));
    Check(result.status(), "compaction");
    if (!*result) Die("the compaction did nothing");
    ours = ReadFiles(*table, bucket_path, (*result)->after);
    for (const DataFileMeta& file : (*result)->after) {
      std::filesystem::remove(bucket_path + "/" + file.file_name);
    }

    std::filesystem::remove_all(rocks_path);
    std::filesystem::copy(rocks_runs, rocks_path);
    std::unique_ptr<rocksdb::DB> db = OpenRocks(rocks_path);
    t0 = Now();
    rocksdb::CompactRangeOptions range;
    range.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    rocksdb::Status rs = db->CompactRange(range, nullptr, nullptr);
    KeepBest(&rocks, Since(t0));
    if (!rs.ok()) Die("rocksdb compact: " + rs.ToString());
    theirs = ReadRocks(db.get());
  }
  if (!(ours == theirs)) {
    Die("Sluice compacted to " + ours.ToString() + " but RocksDB to " + theirs.ToString());
  }
  std::printf("result: %s (same from RocksDB)\n", ours.ToString().c_str());

  const double rowwise = baseline_seconds
                             ? *baseline_seconds
                             : kRowwiseSecondsAtDefaultRows * static_cast<double>(args.rows) /
                                   static_cast<double>(kDefaultRows);
  const double n = static_cast<double>(records);
  PrintTiming(16, "compact sluice", sluice, n);
  PrintTiming(16, "compact rocksdb", rocks, n);
  std::printf("compact rowwise : cpu %.3f s (%s)\n", rowwise,
              baseline_seconds ? "--baseline-seconds" : "recorded at commit 4ee6878");
  std::printf("RESULT compact_vs_rocksdb=%.2f compact_vs_rowwise=%.2f\n", rocks.cpu / sluice.cpu,
              rowwise / sluice.cpu);
  std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
