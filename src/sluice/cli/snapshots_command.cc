#include "sluice/cli/snapshots_command.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sluice/cli/command_error.h"
#include "sluice/cli/table_argument.h"
#include "sluice/value.h"

namespace sluice::cli {

struct SnapshotsFlags {
  std::string table;
  std::string warehouse;
};

namespace {

std::string Count(const std::optional<int64_t>& n) { return n ? std::to_string(*n) : "-"; }

Status Run(const SnapshotsFlags& flags) {
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTableArgument(flags.table, flags.warehouse));
  SLUICE_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> snapshots, table.Snapshots());
  std::vector<std::vector<std::string>> rows = {
      {"id", "kind", "schema", "committed (UTC)", "records", "delta", "commit user"}};
  for (const SnapshotInfo& s : snapshots) {
    rows.push_back({std::to_string(s.id), s.commit_kind, std::to_string(s.schema_id),
                    Timestamp{s.time_millis, 0}.ToString(3), Count(s.total_record_count),
                    Count(s.delta_record_count), s.commit_user});
  }
  std::vector<size_t> widths(rows[0].size());
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
  return Status::OK();
}

}  // namespace

std::shared_ptr<SnapshotsFlags> AddSnapshotsCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<SnapshotsFlags>();
  CLI::App* snapshots = app->add_subcommand("snapshots", "List a table's snapshots");
  snapshots->add_option("TABLE", flags->table, "Table folder, or DB.TABLE with --warehouse")
      ->required();
  snapshots->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  *command = snapshots;
  return flags;
}

int RunSnapshots(const SnapshotsFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("snapshots", status);
  return 0;
}

}  // namespace sluice::cli
