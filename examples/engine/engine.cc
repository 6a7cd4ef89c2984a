// A small engine on Sluice's public API, spread over processes as a distributed engine spreads
// over machines:
//
//   engine run WAREHOUSE EXCHANGE_DIR
//       creates `demo.events` (a primary-key table, 4 buckets), starts kWriters writer
//       processes, commits the commit messages they hand back in ONE commit, plans a scan,
//       hands each split to a reader process, and checks the rows the readers counted.
//   engine write WAREHOUSE WRITER_ID OUT_FILE     (a writer process)
//   engine read WAREHOUSE SPLIT_FILE OUT_FILE     (a reader process)
//
// Processes exchange serialized CommitMessages and Splits as files of length-prefixed records.
// Prints "OK rows=<n> id_sum=<s>" and exits 0 when every row arrived exactly once.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/read_builder.h"
#include "sluice/version.h"
#include "sluice/write_builder.h"

namespace {

using namespace sluice;

constexpr int kWriters = 3;
constexpr int64_t kRowsPerWriter = 500;
const char kTable[] = "demo.events";

Status WriteRecords(const std::string& path, const std::vector<std::string>& records) {
  std::ofstream out(path, std::ios::binary);
  for (const std::string& record : records) {
    const uint64_t size = record.size();
    out.write(reinterpret_cast<const char*>(&size), sizeof(size));
    out.write(record.data(), static_cast<std::streamsize>(record.size()));
  }
  out.close();
  if (!out) return Status::IOError("cannot write " + path);
  return Status::OK();
}

Result<std::vector<std::string>> ReadRecords(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError("cannot read " + path);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> records;
  size_t pos = 0;
  while (pos < bytes.size()) {
    uint64_t size = 0;
    if (bytes.size() - pos < sizeof(size)) return Status::Corruption(path + ": truncated");
    std::copy_n(bytes.data() + pos, sizeof(size), reinterpret_cast<char*>(&size));
    pos += sizeof(size);
    if (bytes.size() - pos < size) return Status::Corruption(path + ": truncated record");
    records.push_back(bytes.substr(pos, size));
    pos += size;
  }
  return records;
}

// Runs this program again with `args`; returns its exit status.
Result<int> RunChild(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid < 0) return Status::IOError("fork failed");
  if (pid == 0) {
    std::vector<char*> argv;
    std::string self = "engine";
    argv.push_back(self.data());
    std::vector<std::string> copy = args;
    for (std::string& arg : copy) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return Status::IOError("waitpid failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

Status Write(const std::string& warehouse, int writer, const std::string& out_file) {
  SLUICE_ASSIGN_OR_RETURN(Table table, Catalog::Filesystem(warehouse).GetTable(kTable));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, table.NewWriteBuilder().NewWrite());
  ColumnBatch batch(write->input_type());
  for (int64_t i = 0; i < kRowsPerWriter; ++i) {
    const int64_t id = writer * kRowsPerWriter + i;
    SLUICE_RETURN_NOT_OK(
        batch.AppendRow({Value::Int64(id), Value::String("writer-" + std::to_string(writer))}));
  }
  SLUICE_RETURN_NOT_OK(write->Write(batch));
  SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages, write->PrepareCommit());
  std::vector<std::string> records;
  for (const CommitMessage& message : messages) {
    SLUICE_ASSIGN_OR_RETURN(std::string bytes, message.Serialize());
    records.push_back(std::move(bytes));
  }
  SLUICE_RETURN_NOT_OK(WriteRecords(out_file, records));
  // The files now belong to the committer: Close must not delete what was handed over.
  return write->Close();
}

Status Read(const std::string& warehouse, const std::string& split_file,
            const std::string& out_file) {
  SLUICE_ASSIGN_OR_RETURN(Table table, Catalog::Filesystem(warehouse).GetTable(kTable));
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> records, ReadRecords(split_file));
  SLUICE_ASSIGN_OR_RETURN(TableRead read, table.NewReadBuilder().WithProjection({"id"}).NewRead());
  int64_t rows = 0;
  int64_t id_sum = 0;
  for (const std::string& record : records) {
    SLUICE_ASSIGN_OR_RETURN(Split split, Split::Deserialize(record));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<BatchReader> reader, read.CreateReader(split));
    ColumnBatch batch(reader->output_type());
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(bool more, reader->Next(&batch));
      if (!more) break;
      const int64_t* ids = batch.column(0)->data<int64_t>();
      for (int64_t r = 0; r < batch.num_rows(); ++r) id_sum += ids[r];
      rows += batch.num_rows();
    }
  }
  return WriteRecords(out_file, {std::to_string(rows) + " " + std::to_string(id_sum)});
}

Status Run(const std::string& warehouse, const std::string& exchange) {
  Catalog catalog = Catalog::Filesystem(warehouse);
  SLUICE_RETURN_NOT_OK(catalog.CreateDatabase("demo", /*ignore_if_exists=*/true));
  NewTableSpec spec;
  spec.columns = {DataField{0, "id", DataType::BigInt(false), std::nullopt, std::nullopt},
                  DataField{1, "source", DataType::String(), std::nullopt, std::nullopt}};
  spec.primary_keys = {"id"};
  spec.options = {{"bucket", "4"}};
  SLUICE_RETURN_NOT_OK(catalog.CreateTable(kTable, spec));

  // Writers in their own processes; one commit of everything they prepared.
  std::vector<CommitMessage> messages;
  for (int writer = 0; writer < kWriters; ++writer) {
    const std::string out = exchange + "/messages-" + std::to_string(writer);
    SLUICE_ASSIGN_OR_RETURN(int code, RunChild({"write", warehouse, std::to_string(writer), out}));
    if (code != 0) return Status::Internal("writer " + std::to_string(writer) + " failed");
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> records, ReadRecords(out));
    for (const std::string& record : records) {
      SLUICE_ASSIGN_OR_RETURN(CommitMessage message, CommitMessage::Deserialize(record));
      messages.push_back(std::move(message));
    }
  }
  SLUICE_ASSIGN_OR_RETURN(Table table, catalog.GetTable(kTable));
  WriteBuilder write = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, write.NewCommit());
  SLUICE_ASSIGN_OR_RETURN(CommitResult committed, commit->Commit(std::move(messages)));
  if (committed.snapshot_ids.size() != 1) return Status::Internal("expected one snapshot");

  // Plan here; every split is read in a process of its own.
  SLUICE_ASSIGN_OR_RETURN(TableScan scan, table.NewReadBuilder().NewScan());
  SLUICE_ASSIGN_OR_RETURN(TableScanPlan plan, scan.Plan());
  int64_t rows = 0;
  int64_t id_sum = 0;
  for (size_t i = 0; i < plan.splits.size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(std::string bytes, plan.splits[i].Serialize());
    const std::string split_file = exchange + "/split-" + std::to_string(i);
    const std::string out = exchange + "/rows-" + std::to_string(i);
    SLUICE_RETURN_NOT_OK(WriteRecords(split_file, {bytes}));
    SLUICE_ASSIGN_OR_RETURN(int code, RunChild({"read", warehouse, split_file, out}));
    if (code != 0) return Status::Internal("reader of split " + std::to_string(i) + " failed");
    SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> result, ReadRecords(out));
    std::istringstream text(result.at(0));
    int64_t split_rows = 0;
    int64_t split_sum = 0;
    text >> split_rows >> split_sum;
    rows += split_rows;
    id_sum += split_sum;
  }
  const int64_t n = kWriters * kRowsPerWriter;
  std::printf("sluice %s: %d writers, %zu splits read by %zu readers\n", Version(), kWriters,
              plan.splits.size(), plan.splits.size());
  if (rows != n || id_sum != n * (n - 1) / 2) {
    return Status::Internal("read " + std::to_string(rows) + " rows, id sum " +
                            std::to_string(id_sum));
  }
  std::printf("OK rows=%lld id_sum=%lld\n", static_cast<long long>(rows),
              static_cast<long long>(id_sum));
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  Status status = Status::InvalidArgument(
      "usage: engine run WAREHOUSE EXCHANGE_DIR | write WAREHOUSE ID OUT | read WAREHOUSE SPLIT "
      "OUT");
  if (args.size() == 3 && args[0] == "run") status = Run(args[1], args[2]);
  if (args.size() == 4 && args[0] == "write") status = Write(args[1], std::stoi(args[2]), args[3]);
  if (args.size() == 4 && args[0] == "read") status = Read(args[1], args[2], args[3]);
  if (!status.ok()) {
    std::fprintf(stderr, "engine: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
