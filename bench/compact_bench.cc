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
#include "sluice/meta/table_schema.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/file_store_table.h"
#include "sluice/table/sink/merge_tree_compact_rewriter.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::kBatchRows;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::Now;
using bench::PrintTiming;
using bench::Since;

constexpr int kRuns = 5;
constexpr int kRepeats = 3;
constexpr int64_t kDefaultRows = 5000000;
// CPU seconds of the row-by-row compaction at kDefaultRows: this benchmark built at commit
// 4ee6878 (SortedRunMergeReader), `bench/run.sh compact`, best of 3, on the 2-core build
// machine, 2026-12-01 (RocksDB took 2.036 s in the same run).
constexpr double kRowwiseSecondsAtDefaultRows = 2.265;

uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

bool InRun(int64_t k, int r) {
  return r == 0 || Mix(static_cast<uint64_t>(k)) % 10 != static_cast<uint64_t>(r);
}
bool DeletedInRun(int64_t k, int r) {
  return r == kRuns - 1 && Mix(static_cast<uint64_t>(k) + 17) % 100 == 0;
}
int32_t ValueA(int64_t k, int r) { return static_cast<int32_t>(k % 100000) * 7 + r; }
double ValueB(int64_t k, int r) { return static_cast<double>(k) * 0.25 + r; }
// c of key k in run r, into *text.
void ValueC(int64_t k, int r, std::string* text) {
  const uint64_t h = Mix(static_cast<uint64_t>(k) * kRuns + static_cast<uint64_t>(r));
  text->assign(8 + h % 16, static_cast<char>('a' + h % 26));
  (*text)[0] = static_cast<char>('A' + r);
}

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

std::vector<DataField> TableFields() {
  return {Field(0, "k", DataType::BigInt(false)), Field(1, "a", DataType::Int()),
          Field(2, "b", DataType::Double()), Field(3, "c", DataType::String())};
}

struct Checksum {
  int64_t rows = 0;
  int64_t sum_k = 0;
  int64_t sum_a = 0;
  int64_t sum_c = 0;
  bool operator==(const Checksum&) const = default;
  std::string ToString() const {
    return std::to_string(rows) + " rows, sum(k) " + std::to_string(sum_k) + ", sum(a) " +
           std::to_string(sum_a) + ", sum(strlen(c)) " + std::to_string(sum_c);
  }
};

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
    batch.column(0)->AppendFixed<int64_t>(k);
    batch.column(1)->AppendFixed<int64_t>(static_cast<int64_t>(r) * keys + k);
    batch.column(2)->AppendFixed<int8_t>(DeletedInRun(k, r) ? 3 : 0);
    batch.column(3)->AppendFixed<int64_t>(k);
    batch.column(4)->AppendFixed<int32_t>(ValueA(k, r));
    batch.column(5)->AppendFixed<double>(ValueB(k, r));
    ValueC(k, r, &text);
    batch.column(6)->AppendBytes(text);
    batch.set_num_rows(batch.num_rows() + 1);
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
  auto reader = OpenSplitReader(table, table.schema_ptr(), split, SplitReadOptions{});
  Check(reader.status(), "open split reader");
  ColumnBatch batch((*reader)->output_type());
  Checksum sum;
  while (true) {
    auto more = (*reader)->Next(&batch);
    Check(more.status(), "read");
    if (!*more) break;
    const int64_t n = batch.num_rows();
    const int64_t* k = batch.column(0)->data<int64_t>();
    const int32_t* a = batch.column(1)->data<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      sum.sum_k += k[i];
      sum.sum_a += a[i];
    }
    const ColumnVector& c = *batch.column(3);
    sum.sum_c += c.offset_data()[n] - c.offset_data()[0];
    sum.rows += n;
  }
  return sum;
}

// RocksDB keys: big-endian with the sign bit flipped, so that byte order is numeric order.
void EncodeKey(int64_t k, char out[8]) {
  const uint64_t u = static_cast<uint64_t>(k) ^ (uint64_t{1} << 63);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(u >> (56 - 8 * i));
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
      EncodeKey(k, key);
      rocksdb::Status rs;
      if (DeletedInRun(k, r)) {
        rs = batch.Delete(rocksdb::Slice(key, 8));
      } else {
        value.clear();
        uint8_t buf[8];
        EncodeFixed32LE(buf, static_cast<uint32_t>(ValueA(k, r)));
        value.append(reinterpret_cast<const char*>(buf), 4);
        const double b = ValueB(k, r);
        value.append(reinterpret_cast<const char*>(&b), 8);
        ValueC(k, r, &text);
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
    uint64_t u = 0;
    for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<uint8_t>(k.data()[i]);
    sum.sum_k += static_cast<int64_t>(u ^ (uint64_t{1} << 63));
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

  std::vector<DataField> fields = TableFields();
  auto schema = TableSchema::Make(3, 0, fields, static_cast<int32_t>(fields.size()) - 1, {}, {"k"},
                                  {{"bucket", "1"}}, std::nullopt, 0);
  Check(schema.status(), "schema");
  auto io = LocalFileIO();
  Check(io->MkDirs(SchemaDir(table_path)), "mkdir");
  Check(io->WriteFileAtomic(SchemaPath(table_path, 0), schema->ToJson(), false), "schema file");
  auto opened = FileStoreTable::Open(io, table_path);
  Check(opened.status(), "open table");
  std::shared_ptr<const FileStoreTable> table = std::move(opened).value();
  auto writers =
      DataFileWriterFactory::Make(io, table->schema_ptr(), table->options(), bucket_path);
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
