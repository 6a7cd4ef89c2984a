// mor_bench: single-threaded merge-on-read of a primary-key table (issue 5) against DuckDB
// computing the same latest-row-per-key, and against the same table after full compaction.
//
//   mor_bench [--rows N] [--dir DIR]
//
// Table: k BIGINT primary key, a INT, b DOUBLE, c STRING (8-23 characters); Parquet, zstd;
// one bucket of five overlapping level-0 sorted runs over N keys (default 4,000,000): run 0
// holds every key, runs 1-4 each update 90% of the keys (later runs win), and run 4 deletes 1%
// of the keys. The data files are written in Paimon's key-value layout (`_KEY_k`,
// `_SEQUENCE_NUMBER`, `_VALUE_KIND`, the columns) with Sluice's Parquet writer; the split is
// built from their DataFileMeta, as a scan plan would hand it over.
//
//   mor        our OpenSplitReader over the five runs (MergeSplitReader), every column decoded
//   compacted  the merged rows as one file at the top level (raw-convertible: RawSplitReader)
//   duckdb     SELECT ... FROM read_parquet([five files]) QUALIFY row_number() OVER
//              (PARTITION BY _KEY_k ORDER BY _SEQUENCE_NUMBER DESC) = 1, then deleted kinds
//              dropped, with SET threads = 1
// Each side folds every column into checksums (count, sum(k), sum(a), sum(strlen(c))) that must
// agree; best of 3 runs. The last line is "RESULT mor_vs_duckdb=R compacted_vs_mor=R": rows/s
// ratios by process CPU time (ours over DuckDB; compacted over merge-on-read).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "duckdb_session.h"
#include "sluice/format/file_format_registry.h"
#include "sluice/fs/file_io.h"
#include "sluice/row/binary_row.h"
#include "sluice/table/source/key_value_file_reader.h"

namespace sluice {
namespace {

using bench::AppendRunRecord;
using bench::Check;
using bench::Checksum;
using bench::Clock;
using bench::DeletedInRun;
using bench::Die;
using bench::DuckDbSession;
using bench::Field;
using bench::InRun;
using bench::kBatchRows;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::kRuns;
using bench::Now;
using bench::PrintTiming;
using bench::ReadChecksum;
using bench::RunSequenceNumber;
using bench::Since;

constexpr int32_t kTopLevel = 4;  // num-levels defaults to 5

DataTypePtr KeyValueType() {
  std::vector<DataField> fields = {
      Field(1073741823, "_KEY_k", DataType::BigInt(false)),
      Field(kSequenceNumberFieldId, kSequenceNumberFieldName, DataType::BigInt(false)),
      Field(kValueKindFieldId, kValueKindFieldName, DataType::TinyInt(false))};
  for (DataField& f : bench::RunFields()) fields.push_back(std::move(f));
  return DataType::Row(std::move(fields));
}

std::string SerializedKey(int64_t k) {
  const DataTypePtr key_type = DataType::Row({Field(0, "k", DataType::BigInt(false))});
  Result<std::string> row = EncodeBinaryRow({Value::Int64(k)}, *key_type);
  Check(row.status(), "encode key");
  return SerializeBinaryRow(*row, 1);
}

// Writes the records of keys [0, keys) that `version(k)` selects: it returns the run whose
// version the file holds, or -1 to leave the key out. Returns the file's DataFileMeta.
template <typename Version>
DataFileMeta WriteFile(const std::string& dir, const std::string& name, int32_t level, int64_t keys,
                       Version version) {
  auto format = FileFormatByName("parquet");
  Check(format.status(), "parquet format");
  auto file = LocalFileIO()->OpenForWrite(dir + "/" + name, true);
  Check(file.status(), "open for write");
  WriterOptions options;
  options.compression = "zstd";
  auto writer = (*format)->CreateWriter(std::move(*file), KeyValueType(), options);
  Check(writer.status(), "create writer");
  DataFileMeta meta;
  meta.file_name = name;
  meta.level = level;
  meta.min_sequence_number = INT64_MAX;
  meta.max_sequence_number = INT64_MIN;
  meta.delete_row_count = 0;
  int64_t first = -1, last = -1;
  ColumnBatch batch(KeyValueType());
  std::string text;
  auto flush = [&] {
    if (batch.num_rows() == 0) return;
    Check((*writer)->Write(batch), "write");
    batch.Clear();
  };
  for (int64_t k = 0; k < keys; ++k) {
    const int r = version(k);
    if (r < 0) continue;
    if (first < 0) first = k;
    last = k;
    AppendRunRecord(k, r, keys, &batch, &text);
    const int64_t seq = RunSequenceNumber(k, r, keys);
    meta.min_sequence_number = std::min(meta.min_sequence_number, seq);
    meta.max_sequence_number = std::max(meta.max_sequence_number, seq);
    if (DeletedInRun(k, r)) ++*meta.delete_row_count;
    ++meta.row_count;
    if (batch.num_rows() == kBatchRows) flush();
  }
  flush();
  auto result = (*writer)->Finish();
  Check(result.status(), "finish");
  meta.file_size = result->file_size;
  meta.min_key = SerializedKey(first);
  meta.max_key = SerializedKey(last);
  return meta;
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "mor_bench", 4000000);
  const int64_t keys = args.rows;
  const std::string& dir = args.dir;
  std::filesystem::remove_all(dir);
  const std::string bucket = dir + "/bucket-0";
  std::filesystem::create_directories(bucket);
  std::shared_ptr<const FileStoreTable> table = bench::CreatePrimaryKeyTable(
      dir, bench::RunFields(), {{"file.format", "parquet"}, {"file.compression", "zstd"}});

  std::printf(
      "table: %lld keys: k BIGINT (primary key), a INT, b DOUBLE, c STRING(8-23); parquet zstd;\n"
      "       %d level-0 runs (run 0 all keys, runs 1-%d 90%% of keys each, run %d deletes 1%%)\n",
      static_cast<long long>(keys), kRuns, kRuns - 1, kRuns - 1);
  Clock t0 = Now();
  DataSplit runs;
  runs.bucket_path = bucket;
  runs.total_buckets = 1;
  int64_t records = 0;
  for (int r = 0; r < kRuns; ++r) {
    const std::string name = "data-run-" + std::to_string(r) + ".parquet";
    runs.data_files.push_back(
        WriteFile(bucket, name, 0, keys, [r](int64_t k) { return InRun(k, r) ? r : -1; }));
    runs.data_file_paths.push_back(bucket + "/" + name);
    records += runs.data_files.back().row_count;
  }
  DataSplit compacted;
  compacted.bucket_path = bucket;
  compacted.total_buckets = 1;
  compacted.raw_convertible = true;
  compacted.data_files.push_back(
      WriteFile(bucket, "data-compacted.parquet", kTopLevel, keys, [](int64_t k) {
        int newest = 0;
        for (int r = kRuns - 1; r > 0; --r) {
          if (InRun(k, r)) {
            newest = r;
            break;
          }
        }
        return DeletedInRun(k, newest) ? -1 : newest;
      }));
  compacted.data_file_paths.push_back(bucket + "/data-compacted.parquet");
  std::printf("written: %lld records in %d runs, %lld compacted rows (%.1f s)\n",
              static_cast<long long>(records), kRuns,
              static_cast<long long>(compacted.data_files[0].row_count), Since(t0).wall);

  std::string files;
  for (const std::string& path : runs.data_file_paths) {
    files += (files.empty() ? "'" : ", '") + path + "'";
  }
  const std::string query =
      "SELECT count(*), sum(k), sum(a), sum(strlen(c)), sum(b) FROM (SELECT * FROM read_parquet([" +
      files +
      "]) QUALIFY row_number() OVER (PARTITION BY _KEY_k ORDER BY _SEQUENCE_NUMBER DESC) = 1) "
      "WHERE _VALUE_KIND IN (0, 2)";

  constexpr int kRepeats = 3;
  Clock mor = kNoRunYet, raw = kNoRunYet, duck = kNoRunYet;
  Checksum ours, ours_compacted;
  std::vector<std::string> theirs;
  DuckDbSession duckdb;
  for (int repeat = 0; repeat < kRepeats; ++repeat) {
    t0 = Now();
    ours = ReadChecksum(*table, runs);
    KeepBest(&mor, Since(t0));
    t0 = Now();
    ours_compacted = ReadChecksum(*table, compacted);
    KeepBest(&raw, Since(t0));
    t0 = Now();
    theirs = duckdb.Run(query);
    KeepBest(&duck, Since(t0));
  }
  if (theirs.size() < 4) Die("DuckDB returned no row");
  const Checksum duck_sum{std::stoll(theirs[0]), std::stoll(theirs[1]), std::stoll(theirs[2]),
                          std::stoll(theirs[3])};
  if (!(ours == duck_sum)) {
    Die("merge-on-read read " + ours.ToString() + " but DuckDB " + duck_sum.ToString());
  }
  if (!(ours_compacted == ours)) {
    Die("compacted read " + ours_compacted.ToString() + " but merge-on-read " + ours.ToString());
  }
  const double rows = static_cast<double>(ours.rows);
  auto line = [&](const char* what, const Clock& c) { PrintTiming(10, what, c, rows); };
  std::printf("result: %s (same from DuckDB and the compacted table)\n", ours.ToString().c_str());
  line("mor", mor);
  line("compacted", raw);
  line("duckdb", duck);
  std::printf("RESULT mor_vs_duckdb=%.2f compacted_vs_mor=%.2f\n", duck.cpu / mor.cpu,
              mor.cpu / raw.cpu);
  std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
