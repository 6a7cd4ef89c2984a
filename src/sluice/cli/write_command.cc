#include "sluice/cli/write_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "sluice/cli/command_error.h"
#include "sluice/cli/input_reader.h"
#include "sluice/cli/progress.h"
#include "sluice/cli/table_argument.h"
#include "sluice/write_builder.h"

namespace sluice::cli {

struct WriteFlags {
  std::string table;
  std::string warehouse;
  std::string input;
  std::string format;
  bool overwrite = false;
  std::vector<std::string> partition;
  std::vector<std::string> options;
  int64_t batch_rows = 8192;
  int32_t writer_id = 0;
  int32_t writers = 0;  // 0: the only writer
};

namespace {

// The format named by the input file's extension; jsonl when it names none.
std::string FormatOfPath(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".csv")) return "csv";
  if (ends_with(".parquet")) return "parquet";
  return "jsonl";
}

Status Run(const WriteFlags& flags) {
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTableArgument(flags.table, flags.warehouse));
  WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(auto spec, ParseAssignments(flags.partition, "--partition"));
  if (flags.overwrite) {
    if (spec.empty()) {
      builder.WithDynamicOverwrite();
    } else {
      builder.WithOverwrite(std::move(spec));
    }
  } else if (!spec.empty()) {
    return Status::InvalidArgument("--partition is only for --overwrite");
  }
  if (flags.writers != 0) builder.WithDynamicBucketWriter(flags.writer_id, flags.writers);
  SLUICE_ASSIGN_OR_RETURN(auto options, ParseAssignments(flags.options, "--option"));
  for (auto& [key, value] : options) builder.WithOption(std::move(key), std::move(value));

  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> writer, builder.NewWrite());
  const std::string format = flags.format.empty() ? FormatOfPath(flags.input) : flags.format;
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<InputReader> input,
      InputReader::Open(format, flags.input, writer->input_type(), flags.batch_rows));
  Progress progress("writing " + table.name());
  ColumnBatch batch(writer->input_type());
  std::vector<RowKind> kinds;
  Status status;
  while (status.ok()) {
    auto more = input->Next(&batch, &kinds);
    if (!more.ok()) {
      status = more.status();
      break;
    }
    if (!*more) break;
    const int64_t first_row = writer->rows_written() + 1;
    status = writer->Write(batch, kinds.empty() ? nullptr : kinds.data());
    if (!status.ok()) {
      // Rows of the batch count from 0; say which input rows the batch held.
      status = status.WithContext(flags.input + " rows " + std::to_string(first_row) + "-" +
                                  std::to_string(first_row + batch.num_rows() - 1));
    }
    progress.Update(writer->rows_written(), input->bytes_read());
  }
  Result<std::vector<CommitMessage>> messages =
      status.ok() ? writer->PrepareCommit() : Result<std::vector<CommitMessage>>(status);
  if (!messages.ok()) {
    writer->Close().IgnoreError();  // the first error is the one to report
    return messages.status();
  }
  int64_t files = 0;
  for (const CommitMessage& m : *messages) {
    files += m.new_file_count();
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
  Result<CommitResult> result = commit->Commit(std::move(*messages));
  // Files of a failed commit are no longer the writer's: Close leaves them to orphan cleanup.
  SLUICE_RETURN_NOT_OK(writer->Close());
  SLUICE_RETURN_NOT_OK(result.status());

  std::string snapshots;
  for (int64_t id : result->snapshot_ids) {
    snapshots += (snapshots.empty() ? "snapshot " : ", ") + std::to_string(id);
  }
  if (!result->compaction_dropped.ok()) {
    // The rows are committed: a compaction that lost a race is dropped, never a failed write.
    std::fprintf(stderr,
                 "sluice write: note: the rows are committed (%s), but the compaction that "
                 "followed was dropped (%lld new files deleted; a later compaction redoes it): "
                 "%s\n",
                 snapshots.c_str(), static_cast<long long>(result->compaction_files_deleted),
                 result->compaction_dropped.ToString().c_str());
  }
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f s", progress.elapsed_seconds());
  progress.Finish("wrote " + std::to_string(writer->rows_written()) + " rows into " +
                  std::to_string(files) + " files of " + table.name() + " (" +
                  (snapshots.empty() ? "nothing committed" : snapshots) + ") in " + elapsed);
  return Status::OK();
}

}  // namespace

std::shared_ptr<WriteFlags> AddWriteCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<WriteFlags>();
  CLI::App* write = app->add_subcommand("write", "Write the rows of a file into a table");
  write->add_option("TABLE", flags->table, "Table folder, or DB.TABLE with --warehouse")
      ->required();
  write->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  write->add_option("--input", flags->input, "Input file ('-' for standard input)")->required();
  write->add_option("--format", flags->format,
                    "jsonl, csv or parquet (default: by the file extension, else jsonl)");
  auto* overwrite = write->add_flag(
      "--overwrite", flags->overwrite,
      "Replace the partitions of --partition, or else the partitions the rows fall in");
  write->add_option("--partition", flags->partition, "Overwritten partition k=v[,k=v]")
      ->delimiter(',')
      ->needs(overwrite);
  write->add_option("--option", flags->options,
                    "Dynamic table option key=value for this write (repeatable)");
  write->add_option("--batch-rows", flags->batch_rows, "Rows per input batch (default 8192)");
  auto* writers = write->add_option(
      "--writers", flags->writers,
      "Dynamic-bucket tables: the number of writes running at once over the same rows; this one "
      "writes the rows whose key routes to --writer-id");
  write->add_option("--writer-id", flags->writer_id, "This write's number among --writers")
      ->needs(writers);
  *command = write;
  return flags;
}

int RunWrite(const WriteFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("write", status);
  return 0;
}

}  // namespace sluice::cli
