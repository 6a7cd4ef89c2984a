#include "bench_common.h"

#include "sluice/fs/file_io.h"
#include "sluice/meta/file_paths.h"
#include "sluice/meta/table_schema.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>

namespace sluice::bench {

namespace {

const char* program_name = "bench";

}  // namespace

void SetProgramName(const char* name) { program_name = name; }

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "%s: %s\n", program_name, what.c_str());
  std::exit(1);
}

void Check(const Status& st, const char* what) {
  if (!st.ok()) Die(std::string(what) + ": " + st.ToString());
}

Clock Now() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return {
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(),
      static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9};
}

Clock Since(const Clock& start) {
  Clock now = Now();
  return {now.wall - start.wall, now.cpu - start.cpu};
}

void KeepBest(Clock* best, const Clock& run) {
  best->wall = std::min(best->wall, run.wall);
  best->cpu = std::min(best->cpu, run.cpu);
}

void PrintTiming(int width, const char* what, const Clock& time, double rows,
                 const std::string& extra) {
  std::printf("%-*s: cpu %7.3f s  %6.2f Mrows/s   wall %7.3f s  %6.2f Mrows/s%s%s\n", width, what,
              time.cpu, rows / time.cpu / 1e6, time.wall, rows / time.wall / 1e6,
              extra.empty() ? "" : "  ", extra.c_str());
}

Args ParseArgs(int argc, char** argv, const char* program, int64_t default_rows) {
  SetProgramName(program);
  Args args{default_rows, std::filesystem::temp_directory_path().string() + "/sluice_" + program};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--rows" && i + 1 < argc) {
      args.rows = std::atoll(argv[++i]);
    } else if (arg == "--dir" && i + 1 < argc) {
      args.dir = argv[++i];
    } else {
      Die(std::string("usage: ") + program + " [--rows N] [--dir DIR]");
    }
  }
  if (args.rows <= 0) Die("--rows must be positive");
  return args;
}

DataField Field(int32_t id, std::string name, DataTypePtr type) {
  return DataField{id, std::move(name), std::move(type), std::nullopt, std::nullopt};
}

DataTypePtr BenchType() {
  return DataType::Row(
      {Field(0, "id", DataType::BigInt(false)), Field(1, "qty", DataType::Int()),
       Field(2, "price", DataType::Double()), Field(3, "amount", DataType::Decimal(18, 2)),
       Field(4, "name", DataType::String()), Field(5, "ts", DataType::Timestamp(6, false))});
}

// Fills batches directly through the vectors' buffers.
std::vector<std::unique_ptr<ColumnBatch>> MakeDataset(int64_t rows) {
  DataTypePtr type = BenchType();
  std::mt19937_64 rng(42);
  std::vector<std::unique_ptr<ColumnBatch>> batches;
  const int64_t base_micros = int64_t{1700000000} * 1000000;
  for (int64_t start = 0; start < rows; start += kBatchRows) {
    int64_t n = std::min(kBatchRows, rows - start);
    auto batch = std::make_unique<ColumnBatch>(type);
    for (int c = 0; c < batch->num_columns(); ++c) {
      if (c != 4) batch->column(c)->Resize(n);
    }
    int64_t* id = batch->column(0)->data<int64_t>();
    int32_t* qty = batch->column(1)->data<int32_t>();
    double* price = batch->column(2)->data<double>();
    int64_t* amount = batch->column(3)->data<int64_t>();
    Timestamp* ts = batch->column(5)->data<Timestamp>();
    uint8_t* qty_valid = batch->column(1)->MutableValidity();
    uint8_t* price_valid = batch->column(2)->MutableValidity();
    uint8_t* amount_valid = batch->column(3)->MutableValidity();
    ColumnVector* name = batch->column(4);
    std::string word;
    for (int64_t i = 0; i < n; ++i) {
      uint64_t r = rng();
      id[i] = start + i;
      qty[i] = static_cast<int32_t>(r % 10000);
      price[i] = static_cast<double>(rng() % 100000000) / 100.0;
      amount[i] = static_cast<int64_t>(rng() % 100000000000ULL) - 50000000000LL;
      ts[i] = Timestamp::FromEpochMicros(base_micros + (start + i) * 1000 +
                                         static_cast<int64_t>(r % 1000));
      qty_valid[i] = (r >> 20) % 20 != 0;
      price_valid[i] = (r >> 28) % 20 != 0;
      amount_valid[i] = (r >> 36) % 20 != 0;
      if ((r >> 44) % 20 == 0) {
        name->AppendNull();
      } else {
        word.resize(5 + (r >> 50) % 26);
        uint64_t bits = rng();
        for (size_t k = 0; k < word.size(); ++k) {
          if (k % 10 == 0) bits = rng();
          word[k] = static_cast<char>('a' + (bits % 26));
          bits /= 26;
        }
        name->AppendBytes(word);
      }
    }
    batch->set_num_rows(n);
    batches.push_back(std::move(batch));
  }
  return batches;
}

int64_t Write(const FileFormat& format, const std::string& path,
              const std::vector<std::unique_ptr<ColumnBatch>>& data) {
  auto file = LocalFileIO()->OpenForWrite(path, true);
  Check(file.status(), "open for write");
  WriterOptions options;  // zstd level 1: Paimon's defaults
  auto writer = format.CreateWriter(std::move(*file), BenchType(), options);
  Check(writer.status(), "create writer");
  for (const auto& batch : data) Check((*writer)->Write(*batch), "write");
  auto result = (*writer)->Finish();
  Check(result.status(), "finish");
  return result->file_size;
}

int64_t Scan(const FileFormat& format, const std::string& path, int64_t* rows_out) {
  auto file = LocalFileIO()->OpenForRead(path);
  Check(file.status(), "open for read");
  ReaderOptions options;
  options.batch_size = 4096;
  DataTypePtr type = BenchType();
  auto reader =
      format.CreateReader(std::shared_ptr<RandomAccessFile>(std::move(*file)), type, options);
  Check(reader.status(), "create reader");
  ColumnBatch batch(type);
  int64_t rows = 0;
  int64_t max_id = std::numeric_limits<int64_t>::min();
  int32_t max_qty = std::numeric_limits<int32_t>::min();
  double min_price = std::numeric_limits<double>::infinity();
  int64_t max_amount = std::numeric_limits<int64_t>::min();
  size_t name_bytes = 0;
  int64_t max_ts = std::numeric_limits<int64_t>::min();
  while (true) {
    auto more = (*reader)->Next(&batch);
    Check(more.status(), "next");
    if (!*more) break;
    int64_t n = batch.num_rows();
    const int64_t* id = batch.column(0)->data<int64_t>();
    const int32_t* qty = batch.column(1)->data<int32_t>();
    const double* price = batch.column(2)->data<double>();
    const int64_t* amount = batch.column(3)->data<int64_t>();
    const Timestamp* ts = batch.column(5)->data<Timestamp>();
    for (int64_t i = 0; i < n; ++i) {
      max_id = std::max(max_id, id[i]);
      max_qty = std::max(max_qty, qty[i]);
      min_price = std::min(min_price, price[i]);
      max_amount = std::max(max_amount, amount[i]);
      max_ts = std::max(max_ts, ts[i].millisecond);
    }
    name_bytes += batch.column(4)->values().size();
    rows += n;
  }
  *rows_out = rows;
  return max_id ^ max_qty ^ static_cast<int64_t>(min_price) ^ max_amount ^
         static_cast<int64_t>(name_bytes) ^ max_ts;
}

std::shared_ptr<const FileStoreTable> CreatePrimaryKeyTable(
    const std::string& path, std::vector<DataField> fields,
    const std::map<std::string, std::string>& options) {
  std::map<std::string, std::string> all = options;
  all.emplace("bucket", "1");
  const auto highest_id = static_cast<int32_t>(fields.size()) - 1;
  auto schema = TableSchema::Make(3, 0, std::move(fields), highest_id, {}, {"k"},
                                  {all.begin(), all.end()}, std::nullopt, 0);
  Check(schema.status(), "schema");
  auto io = LocalFileIO();
  Check(io->MkDirs(SchemaDir(path)), "mkdir");
  Check(io->WriteFileAtomic(SchemaPath(path, 0), schema->ToJson(), false), "schema file");
  auto table = FileStoreTable::Open(io, path);
  Check(table.status(), "open table");
  return std::move(table).value();
}

void WriteAndCommitOnce(const std::shared_ptr<const FileStoreTable>& table,
                        const std::vector<std::unique_ptr<ColumnBatch>>& data,
                        const std::string& commit_user, const FileStoreWriteOptions& options) {
  WriteAndCommit(table, data, commit_user, {data.size()}, options);
}

void WriteAndCommit(const std::shared_ptr<const FileStoreTable>& table,
                    const std::vector<std::unique_ptr<ColumnBatch>>& data,
                    const std::string& commit_user, const std::vector<size_t>& commit_ends,
                    const FileStoreWriteOptions& options) {
  if (commit_ends.empty() || commit_ends.back() != data.size()) {
    Die("the commits do not end with the last batch");
  }
  auto write = FileStoreWrite::Open(table, options);
  Check(write.status(), "open write");
  auto commit = FileStoreCommit::Make(table, commit_user);
  Check(commit.status(), "commit");
  size_t next = 0;
  int64_t identifier = 0;
  for (size_t end : commit_ends) {
    for (; next < end; ++next) Check((*write)->Write(*data[next]), "write");
    auto messages = (*write)->PrepareCommit(++identifier);
    Check(messages.status(), "prepare commit");
    ManifestCommittable committable;
    committable.identifier = identifier;
    committable.messages = std::move(messages).value();
    Check((*commit)->Commit(committable).status(), "commit");
  }
  Check((*write)->Close(), "close");
}

void ReadLatest(const FileStoreTable& table,
                const std::function<void(const DataSplit&, const ColumnBatch&)>& each) {
  auto plan = PlanScan(table, ScanOptions{});
  Check(plan.status(), "plan");
  for (const DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(table, table.schema_ptr(), split, SplitReadOptions{});
    Check(reader.status(), "open split");
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      Check(more.status(), "read");
      if (!*more) break;
      each(split, batch);
    }
  }
}

int64_t ReadLatestRows(const std::string& path, std::set<int32_t>* buckets) {
  auto latest = FileStoreTable::Open(LocalFileIO(), path);
  Check(latest.status(), "reopen");
  int64_t rows = 0;
  ReadLatest(**latest, [&](const DataSplit& split, const ColumnBatch& batch) {
    if (buckets != nullptr) buckets->insert(split.bucket);
    rows += batch.num_rows();
  });
  return rows;
}

namespace {

// MurmurHash3's finalizer: which runs hold a key, and its c.
uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  return x ^ (x >> 33);
}

}  // namespace

std::vector<DataField> RunFields() {
  return {Field(0, "k", DataType::BigInt(false)), Field(1, "a", DataType::Int()),
          Field(2, "b", DataType::Double()), Field(3, "c", DataType::String())};
}

bool InRun(int64_t k, int r) {
  return r == 0 || Mix(static_cast<uint64_t>(k)) % 10 != static_cast<uint64_t>(r);
}

bool DeletedInRun(int64_t k, int r) {
  return r == kRuns - 1 && Mix(static_cast<uint64_t>(k) + 17) % 100 == 0;
}

int32_t RunValueA(int64_t k, int r) { return static_cast<int32_t>(k % 100000) * 7 + r; }

double RunValueB(int64_t k, int r) { return static_cast<double>(k) * 0.25 + r; }

void RunValueC(int64_t k, int r, std::string* text) {
  const uint64_t h = Mix(static_cast<uint64_t>(k) * kRuns + static_cast<uint64_t>(r));
  text->assign(8 + h % 16, static_cast<char>('a' + h % 26));
  (*text)[0] = static_cast<char>('A' + r);
}

void AppendRunRecord(int64_t k, int r, int64_t keys, ColumnBatch* batch, std::string* text) {
  batch->column(0)->AppendFixed<int64_t>(k);
  batch->column(1)->AppendFixed<int64_t>(RunSequenceNumber(k, r, keys));
  batch->column(2)->AppendFixed<int8_t>(DeletedInRun(k, r) ? 3 : 0);
  batch->column(3)->AppendFixed<int64_t>(k);
  batch->column(4)->AppendFixed<int32_t>(RunValueA(k, r));
  batch->column(5)->AppendFixed<double>(RunValueB(k, r));
  RunValueC(k, r, text);
  batch->column(6)->AppendBytes(*text);
  batch->set_num_rows(batch->num_rows() + 1);
}

std::string Checksum::ToString() const {
  return std::to_string(rows) + " rows, sum(k) " + std::to_string(sum_k) + ", sum(a) " +
         std::to_string(sum_a) + ", sum(strlen(c)) " + std::to_string(sum_c);
}

Checksum ReadChecksum(const FileStoreTable& table, const DataSplit& split) {
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
    const ColumnVector& a = *batch.column(1);
    const int32_t* av = a.data<int32_t>();
    for (int64_t i = 0; i < n; ++i) {
      sum.sum_k += k[i];
      if (!a.IsNull(i)) sum.sum_a += av[i];
    }
    const ColumnVector& c = *batch.column(3);
    sum.sum_c += c.offset_data()[n] - c.offset_data()[0];
    sum.rows += n;
  }
  return sum;
}

void EncodeRocksKey(int64_t k, char out[8]) {
  const uint64_t u = static_cast<uint64_t>(k) ^ (uint64_t{1} << 63);
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(u >> (56 - 8 * i));
}

int64_t DecodeRocksKey(const char key[8]) {
  uint64_t u = 0;
  for (int i = 0; i < 8; ++i) u = (u << 8) | static_cast<uint8_t>(key[i]);
  return static_cast<int64_t>(u ^ (uint64_t{1} << 63));
}

}  // namespace sluice::bench
