#include "peers_rows.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/scan_planner.h"
#include "sluice/table/source/split_reader.h"

#ifndef SLUICE_BENCH_JAVA_DIR
#error "SLUICE_BENCH_JAVA_DIR (the bench/java Maven project's target directory) is not set"
#endif
#ifndef SLUICE_BENCH_PYTHON
#error "SLUICE_BENCH_PYTHON (the pypaimon-rust environment's python) is not set"
#endif
#ifndef SLUICE_BENCH_PYTHON_DIR
#error "SLUICE_BENCH_PYTHON_DIR (the bench/python scripts' directory) is not set"
#endif

namespace sluice::bench {

std::vector<DataField> PeersFields() {
  std::vector<DataField> fields = {Field(0, "k", DataType::Int(false))};
  for (int i = 1; i <= kPeersValueColumns; ++i) {
    std::string name = "f";
    name += std::to_string(i);
    fields.push_back(Field(i, std::move(name), DataType::String()));
  }
  return fields;
}

uint64_t PeersRows::Draw() {
  state_ += 0x9E3779B97F4A7C15ULL;
  uint64_t z = state_;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void PeersRows::Next(int64_t n, ColumnBatch* batch) {
  static constexpr char kHex[] = "0123456789abcdef";
  batch->Clear();
  ColumnVector* keys = batch->column(0);
  keys->Resize(n);
  int32_t* k = keys->data<int32_t>();
  char text[10];
  for (int64_t i = 0; i < n; ++i) {
    k[i] = static_cast<int32_t>(Draw() >> 33);
    for (int c = 1; c <= kPeersValueColumns; ++c) {
      const uint64_t bits = Draw();
      for (int d = 0; d < 10; ++d) text[d] = kHex[(bits >> (4 * d)) & 15];
      batch->column(c)->AppendBytes(std::string_view(text, sizeof(text)));
    }
  }
  batch->set_num_rows(n);
}

std::string PeersJavaCommand(const std::string& main_class, const std::string& args,
                             const std::string& log) {
  const std::string dir = SLUICE_BENCH_JAVA_DIR;
  std::string command = "java -cp '";
  command += dir;
  command += "/sluice-bench-peers-1.jar:";
  command += dir;
  command += "/lib/*' org.sluice.bench.";
  command += main_class;
  command += " ";
  command += args;
  command += " 2>'";
  command += log;
  command += "'";
  return command;
}

std::string PeersRustCommand(const std::string& script, const std::string& args,
                             const std::string& log) {
  std::string command = "'";
  command += SLUICE_BENCH_PYTHON;
  command += "' '";
  command += SLUICE_BENCH_PYTHON_DIR;
  command += "/";
  command += script;
  command += "' ";
  command += args;
  command += " 2>'";
  command += log;
  command += "'";
  return command;
}

Clock WritePeersTable(const std::string& path, const std::string& format, int64_t rows) {
  std::filesystem::remove_all(path);
  std::shared_ptr<const FileStoreTable> table =
      CreatePrimaryKeyTable(path, PeersFields(), {{"file.format", format}});
  const Clock start = Now();
  auto write = FileStoreWrite::Open(table, FileStoreWriteOptions{});
  Check(write.status(), "open write");
  auto commit = FileStoreCommit::Make(table, "peers-write-bench");
  Check(commit.status(), "commit");
  PeersRows generator;
  ColumnBatch batch(DataType::Row(PeersFields()));
  for (int64_t done = 0; done < rows; done += kBatchRows) {
    generator.Next(std::min(kBatchRows, rows - done), &batch);
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

void PeersScanSum::Add(const ColumnBatch& batch) {
  const int64_t n = batch.num_rows();
  rows += n;
  const int32_t* k = batch.column(0)->data<int32_t>();
  for (int64_t i = 0; i < n; ++i) sum_k += k[i];
  for (int c = 1; c < batch.num_columns(); ++c) {
    const int32_t* offsets = batch.column(c)->offset_data();
    string_bytes += offsets[n] - offsets[0];
  }
}

PeersScanSum ScanPeersTable(const FileStoreTable& table,
                            const std::vector<std::string>& projection) {
  auto plan = PlanScan(table, ScanOptions{});
  Check(plan.status(), "plan");
  SplitReadOptions options;
  options.projection = projection;
  PeersScanSum sum;
  for (const DataSplit& split : plan->splits) {
    auto reader = OpenSplitReader(table, table.schema_ptr(), split, options);
    Check(reader.status(), "open split");
    ColumnBatch batch((*reader)->output_type());
    while (true) {
      auto more = (*reader)->Next(&batch);
      Check(more.status(), "read");
      if (!*more) break;
      sum.Add(batch);
    }
  }
  return sum;
}

}  // namespace sluice::bench
