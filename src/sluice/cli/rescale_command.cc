#include "sluice/cli/rescale_command.h"

#include <cstdio>
#include <string>
#include <vector>

#include "sluice/cli/command_error.h"
#include "sluice/cli/progress.h"
#include "sluice/cli/table_argument.h"
#include "sluice/table.h"

namespace sluice::cli {

struct RescaleFlags {
  std::string table;
  std::string warehouse;
  int32_t bucket = 0;
  std::vector<std::string> partition;
};

namespace {

Status Run(const RescaleFlags& flags) {
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTableArgument(flags.table, flags.warehouse));
  SLUICE_ASSIGN_OR_RETURN(auto spec, ParseAssignments(flags.partition, "--partition"));
  Progress progress("rescaling " + table.name());
  progress.Start();
  SLUICE_ASSIGN_OR_RETURN(int64_t snapshot, table.Rescale(flags.bucket, spec));
  char elapsed[32];
  std::snprintf(elapsed, sizeof(elapsed), "%.1f s", progress.elapsed_seconds());
  progress.Finish("rescaled " + table.name() + " to " + std::to_string(flags.bucket) +
                  " buckets (snapshot " + std::to_string(snapshot) + ") in " + elapsed);
  return Status::OK();
}

}  // namespace

std::shared_ptr<RescaleFlags> AddRescaleCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<RescaleFlags>();
  CLI::App* rescale = app->add_subcommand(
      "rescale", "Rewrite a fixed-bucket table (or some partitions) into a new bucket count");
  rescale->add_option("TABLE", flags->table, "Table folder, or DB.TABLE with --warehouse")
      ->required();
  rescale->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  rescale->add_option("--bucket", flags->bucket, "The new bucket count")->required();
  rescale->add_option("--partition", flags->partition, "Only this partition: k=v[,k=v]")
      ->delimiter(',');
  *command = rescale;
  return flags;
}

int RunRescale(const RescaleFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("rescale", status);
  return 0;
}

}  // namespace sluice::cli
