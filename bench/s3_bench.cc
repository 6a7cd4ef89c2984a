// s3_bench: a table on the S3-compatible server of scripts/s3.sh (S3Proxy on loopback, its
// filesystem backend), written and scanned by Sluice and by Java Paimon (issue 36).
//
//   s3_bench [--rows N] [--dir DIR]
//
// bench/run.sh s3 starts a server of its own (scripts/s3.sh start --port 19410) and hands it
// over in the environment: SLUICE_S3_ENDPOINT (http://127.0.0.1:19410), SLUICE_BENCH_S3_LOG
// (its server.log, one line per request) and SLUICE_BENCH_S3_DATA (its backend's directory,
// where the objects of bucket `sluice` are plain files under sluice/).
//
// Table: an append table (bucket -1, parquet, zstd) of N rows (default 10,000,000): k BIGINT,
// v INT, d DOUBLE, s1 STRING (16 hex characters), s2 STRING ("name-<k mod 9973>"), s3 STRING
// (16 hex characters), the values a function of k that bench/java S3Bench computes the same way.
//
//   write   Sluice writes it to s3://sluice/bench/sluice.db/t and Java Paimon (paimon-s3, its
//           shaded Hadoop S3A) to s3://sluice/bench/java.db/t, one commit each; wall time.
//   scan    Sluice's table, read in full (6 columns) and as k, d (2 of 6): by Sluice from S3
//           (best of 3), by Sluice from the same files on the local disk (the server's backend
//           directory: the same bytes without HTTP; best of 3), and by Java Paimon from S3.
//           Sums of every read must agree.
//   requests  the server.log lines a read added: every request of the scan (snapshot, manifests,
//           data files), for Sluice's and for Java's reads.
//   cached  Sluice's 2-column scan with cache.dir (fs/caching_file_io.h; best of 3, the requests
//           of the last: the first fills the cache).
//
// The last line is "RESULT scan_vs_local=R requests_per_scan=N java_requests=N
// write_vs_java=R": the S3 full scan's speed over the local one's (wall time), the requests of
// Sluice's projected scan and of Java's, and Java's write wall time over Sluice's.

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "peers_rows.h"
#include "sluice/fs/file_io.h"
#include "sluice/fs/file_io_factory.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/table_schema.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"

namespace sluice {
namespace {

using bench::Check;
using bench::Clock;
using bench::Die;
using bench::KeepBest;
using bench::kNoRunYet;
using bench::Now;
using bench::Since;

constexpr int kRuns = 3;
constexpr int kWidth = 29;
constexpr const char* kSluiceTable = "s3://sluice/bench/sluice.db/t";
constexpr const char* kJavaTable = "s3://sluice/bench/java.db/t";

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') Die(std::string("set ") + name + " (bench/run.sh s3)");
  return value;
}

std::map<std::string, std::string> S3CatalogOptions() {
  return {{"s3.endpoint", Env("SLUICE_S3_ENDPOINT")},
          {"s3.access-key", "sluice-test"},
          {"s3.secret-key", "sluice-test-secret"},
          {"s3.path.style.access", "true"}};
}

// SplitMix64: the row's pseudo-random bits, as S3Bench.java computes them.
uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::vector<DataField> Fields() {
  return {bench::Field(0, "k", DataType::BigInt(false)), bench::Field(1, "v", DataType::Int()),
          bench::Field(2, "d", DataType::Double()),      bench::Field(3, "s1", DataType::String()),
          bench::Field(4, "s2", DataType::String()),     bench::Field(5, "s3", DataType::String())};
}

void Rows(int64_t first, int64_t n, ColumnBatch* batch) {
  batch->Clear();
  char text[24];
  for (int64_t k = first; k < first + n; ++k) {
    const uint64_t a = Mix(static_cast<uint64_t>(k));
    const uint64_t b = Mix(a);
    batch->column(0)->AppendFixed<int64_t>(k);
    batch->column(1)->AppendFixed<int32_t>(static_cast<int32_t>(a % 1000000));
    batch->column(2)->AppendFixed<double>(static_cast<double>(b % 100000000) / 100.0);
    std::snprintf(text, sizeof(text), "%016" PRIx64, a);
    batch->column(3)->AppendBytes(text);
    std::snprintf(text, sizeof(text), "name-%" PRId64, k % 9973);
    batch->column(4)->AppendBytes(text);
    std::snprintf(text, sizeof(text), "%016" PRIx64, b);
    batch->column(5)->AppendBytes(text);
  }
  batch->set_num_rows(n);
}

Clock WriteTable(const std::shared_ptr<FileIO>& io, const std::string& path, int64_t rows) {
  const Clock start = Now();
  auto schema = TableSchema::Make(3, 0, Fields(), 5, {}, {},
                                  {{"bucket", "-1"}, {"file.format", "parquet"}}, std::nullopt, 0);
  Check(schema.status(), "schema");
  Check(io->MkDirs(SchemaDir(path)), "mkdir");
  Check(io->WriteFileAtomic(SchemaPath(path, 0), schema->ToJson(), false), "schema file");
  auto table = FileStoreTable::Open(io, path);
  Check(table.status(), "open table");
  auto write = FileStoreWrite::Open(*table, FileStoreWriteOptions{});
  Check(write.status(), "open write");
  auto commit = FileStoreCommit::Make(*table, "s3-bench");
  Check(commit.status(), "commit");
  ColumnBatch batch(DataType::Row(Fields()));
  for (int64_t done = 0; done < rows; done += bench::kBatchRows) {
    Rows(done, std::min(bench::kBatchRows, rows - done), &batch);
    Check((*write)->Write(batch), "write");
  }
  auto messages = (*write)->PrepareCommit(1);
  Check(messages.status(), "prepare commit");
  ManifestCommittable committable;
  committable.identifier = 1;
  committable.messages = std::move(messages).value();
  Check((*commit)->Commit(committable).status(), "commit");
  Check((*write)->Close(), "close");
  return Since(start);
}

// What a read folds its rows into: count, sum(k), sum(d) as integer cents, string bytes.
struct Sum {
  int64_t rows = 0;
  int64_t sum_k = 0;
  int64_t bytes = 0;
  bool operator==(const Sum&) const = default;
};

Sum Scan(const FileStoreTable& table, const std::vector<std::string>& projection) {
  auto plan = PlanScan(table, ScanOptions{});
  Check(plan.status(), "plan");
  SplitReadOptions options;
  options.projection = projection;
  Sum sum;
  for (const DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(table, table.schema_ptr(), split, options);
    Check(reader.status(), "open split");
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      Check(more.status(), "read");
      if (!*more) break;
      const int64_t n = batch.num_rows();
      sum.rows += n;
      const int64_t* k = batch.column(0)->data<int64_t>();
      for (int64_t i = 0; i < n; ++i) sum.sum_k += k[i];
      for (int c = 1; c < batch.num_columns(); ++c) {
        if (batch.column(c)->type()->root() != TypeRoot::kVarChar) continue;
        const int32_t* offsets = batch.column(c)->offset_data();
        sum.bytes += offsets[n] - offsets[0];
      }
    }
  }
  return sum;
}

// Lines in the server's log: one per request.
int64_t LogLines(const std::string& log) {
  std::ifstream in(log);
  int64_t lines = 0;
  std::string line;
  while (std::getline(in, line)) lines += line.find(" request: ") != std::string::npos;
  return lines;
}

struct Read {
  Clock best = kNoRunYet;
  Sum sum;
  int64_t requests = 0;
};

void TimedScans(const FileStoreTable& table, const std::vector<std::string>& projection,
                const std::string& log, Read* read) {
  for (int run = 0; run < kRuns; ++run) {
    const int64_t before = log.empty() ? 0 : LogLines(log);
    const Clock start = Now();
    Sum sum = Scan(table, projection);
    KeepBest(&read->best, Since(start));
    if (!log.empty()) read->requests = LogLines(log) - before;
    if (run > 0 && !(sum == read->sum)) Die("two scans read different rows");
    read->sum = sum;
  }
}

int Main(int argc, char** argv) {
  const bench::Args args = bench::ParseArgs(argc, argv, "s3_bench", 10000000);
  const std::string log = Env("SLUICE_BENCH_S3_LOG");
  const std::string data = Env("SLUICE_BENCH_S3_DATA");
  std::printf(
      "table: %lld rows: k BIGINT, v INT, d DOUBLE, s1 s2 s3 STRING; append (bucket -1),\n"
      "       parquet zstd, on S3Proxy at %s (loopback, filesystem backend); scans in full and\n"
      "       as k, d; sluice best of %d; requests counted in the server's log\n",
      static_cast<long long>(args.rows), Env("SLUICE_S3_ENDPOINT").c_str(), kRuns);
  std::fflush(stdout);
  auto io = FileIOForPath(kSluiceTable, S3CatalogOptions());
  Check(io.status(), "S3 FileIO");
  Check((*io)->Delete("s3://sluice/bench", true), "clear s3://sluice/bench");

  const Clock write = WriteTable(*io, kSluiceTable, args.rows);
  bench::PrintTiming(kWidth, "sluice write to s3", write, static_cast<double>(args.rows));
  std::fflush(stdout);

  auto table = FileStoreTable::Open(*io, kSluiceTable);
  Check(table.status(), "open table");
  const std::vector<std::string> projection = {"k", "d"};
  Read s3_full, s3_projected, local_full, local_projected;
  TimedScans(**table, {}, log, &s3_full);
  TimedScans(**table, projection, log, &s3_projected);
  auto local = FileStoreTable::Open(LocalFileIO(), data + "/sluice/bench/sluice.db/t");
  Check(local.status(), "open the table's files on the local disk");
  TimedScans(**local, {}, "", &local_full);
  TimedScans(**local, projection, "", &local_projected);
  if (!(local_full.sum == s3_full.sum) || !(local_projected.sum == s3_projected.sum)) {
    Die("the local and the S3 scans read different rows");
  }
  if (s3_full.sum.rows != args.rows) Die("the scan read another row count");

  // With a local read cache (fs/caching_file_io.h): the first scan fills it, the later ones
  // read the manifests and data files from it and ask the store only for the snapshot.
  std::map<std::string, std::string> cache_options = S3CatalogOptions();
  std::filesystem::remove_all(args.dir + "/cache");
  cache_options["cache.dir"] = args.dir + "/cache";
  cache_options["cache.max-size"] = "4 gb";
  auto cached_io = FileIOForPath(kSluiceTable, cache_options);
  Check(cached_io.status(), "S3 FileIO with a cache");
  auto cached = FileStoreTable::Open(*cached_io, kSluiceTable);
  Check(cached.status(), "open table");
  Read cached_projected;
  TimedScans(**cached, projection, log, &cached_projected);
  if (!(cached_projected.sum == s3_projected.sum)) Die("the cached scan read different rows");

  // Java: writes its own table, then scans Sluice's, printing
  //   java_write rows=N wall=S
  //   java_scan columns=C rows=N sum_k=S bytes=B requests=R wall=S
  std::string java_args = "'";
  for (const std::string& arg :
       {Env("SLUICE_S3_ENDPOINT"), std::string(kJavaTable), std::string(kSluiceTable), log}) {
    java_args += arg;
    java_args += "' '";
  }
  java_args.resize(java_args.size() - 1);
  java_args += std::to_string(args.rows);
  const std::string command = bench::PeersJavaCommand("S3Bench", java_args, args.dir + "/java.log");
  std::filesystem::create_directories(args.dir);
  FILE* out = popen(command.c_str(), "r");
  if (out == nullptr) Die("cannot start: " + command);
  double java_write = 0;
  Read java_full, java_projected;
  char line[512];
  while (std::fgets(line, sizeof(line), out) != nullptr) {
    long long rows = 0, sum_k = 0, bytes = 0, requests = 0;
    int columns = 0;
    double wall = 0;
    if (std::sscanf(line, "java_write rows=%lld wall=%lf", &rows, &wall) == 2) {
      java_write = wall;
    } else if (std::sscanf(
                   line,
                   "java_scan columns=%d rows=%lld sum_k=%lld bytes=%lld requests=%lld wall=%lf",
                   &columns, &rows, &sum_k, &bytes, &requests, &wall) == 6) {
      Read& read = columns == 2 ? java_projected : java_full;
      read.sum = Sum{rows, sum_k, bytes};
      read.requests = requests;
      read.best = Clock{wall, 0};
    }
  }
  if (pclose(out) != 0 || java_write <= 0) Die("java failed (" + args.dir + "/java.log)");
  if (!(java_full.sum == s3_full.sum) || !(java_projected.sum == s3_projected.sum)) {
    Die("java read other rows than sluice");
  }

  const auto rows = static_cast<double>(args.rows);
  bench::PrintTiming(kWidth, "java write to s3", Clock{java_write, 0}, rows, "(wall)");
  auto print = [&](const char* what, const Read& read) {
    bench::PrintTiming(kWidth, what, read.best, rows,
                       read.requests > 0 ? std::to_string(read.requests) + " requests" : "");
  };
  print("sluice s3 scan 6 columns", s3_full);
  print("sluice local scan 6 columns", local_full);
  print("java s3 scan 6 columns", java_full);
  print("sluice s3 scan 2 columns", s3_projected);
  print("sluice local scan 2 columns", local_projected);
  print("java s3 scan 2 columns", java_projected);
  print("sluice cached scan 2 columns", cached_projected);
  std::printf(
      "RESULT scan_vs_local=%.2f requests_per_scan=%lld java_requests=%lld "
      "write_vs_java=%.2f\n",
      local_full.best.wall / s3_full.best.wall, static_cast<long long>(s3_projected.requests),
      static_cast<long long>(java_projected.requests), java_write / write.wall);
  return 0;
}

}  // namespace
}  // namespace sluice

int main(int argc, char** argv) { return sluice::Main(argc, argv); }
