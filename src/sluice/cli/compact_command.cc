#include "sluice/cli/compact_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "sluice/cli/command_error.h"
#include "sluice/cli/progress.h"
#include "sluice/cli/table_argument.h"
#include "sluice/write_builder.h"

namespace sluice::cli {

struct CompactFlags {
  std::string table;
  std::string warehouse;
  bool full = false;
  std::vector<std::string> partition;
};

namespace {

Status Run(const CompactFlags& flags) {
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTableArgument(flags.table, flags.warehouse));
  SLUICE_ASSIGN_OR_RETURN(auto spec, ParseAssignments(flags.partition, "--partition"));
  WriteBuilder builder = table.NewWriteBuilder();
  Progress progress("compacting " + table.name());
  progress.Start();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> writer, builder.NewWrite());
  Status status = writer->Compact(spec, flags.full);
  Result<std::vector<CommitMessage>> messages =
      status.ok() ? writer->PrepareCommit() : Result<std::vector<CommitMessage>>(status);
  if (!messages.ok()) {
    writer->Close().IgnoreError();  // the first error is the one to report
    return messages.status();
  }
  int64_t before = 0, after = 0;
  for (const CommitMessage& m : *messages) {
    before += m.compact_before_count();
    after += m.compact_after_count();
  }
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
  Result<CommitResult> result = commit->Commit(std::move(*messages));
  SLUICE_RETURN_NOT_OK(writer->Close());
  SLUICE_RETURN_NOT_OK(result.status());
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f s", progress.elapsed_seconds());
  progress.Finish("compacted " + std::to_string(before) + " files of " + table.name() + " into " +
                  std::to_string(after) + " (" +
                  (result->snapshot_ids.empty()
                       ? std::string("nothing to commit")
                       : "snapshot " + std::to_string(result->snapshot_ids.back())) +
                  ") in " + elapsed);
  return Status::OK();
}

}  // namespace

std::shared_ptr<CompactFlags> AddCompactCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<CompactFlags>();
  CLI::App* compact = app->add_subcommand("compact", "Compact a table's files");
  compact->add_option("TABLE", flags->table, "Table folder, or DB.TABLE with --warehouse")
      ->required();
  compact->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  compact->add_flag("--full", flags->full,
                    "Full compaction: every bucket into one sorted run at the highest level "
                    "(bucket-unaware append tables: every small file of a partition)");
  compact->add_option("--partition", flags->partition, "Only this partition: k=v[,k=v]")
      ->delimiter(',');
  *command = compact;
  return flags;
}

int RunCompact(const CompactFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("compact", status);
  return 0;
}

}  // namespace sluice::cli
