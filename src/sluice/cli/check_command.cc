#include "sluice/cli/check_command.h"

#include <cstdio>
#include <cstdlib>

#include "sluice/cli/command_error.h"
#include "sluice/cli/table_argument.h"

namespace sluice::cli {

int RunCheck(const CheckFlags& flags) {
  auto fail = [](const Status& st) { return PrintCommandError("check", st); };
  // A path is a table folder even with --warehouse.
  Result<Table> opened = flags.table.find('/') != std::string::npos
                             ? OpenTableFolder(flags.table)
                             : OpenTableArgument(flags.table, flags.warehouse);
  if (!opened.ok()) return fail(opened.status());
  Result<Table> table = opened->OnBranch(flags.branch);
  if (!table.ok()) return fail(table.status());
  TableCheckOptions options;
  options.all_snapshots = !flags.latest_only;
  options.read_data_files = !flags.no_read;
  for (const std::string& item : flags.path_remap) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return fail(Status::InvalidArgument("--path-remap expects PREFIX=DIR, got '" + item + "'"));
    }
    options.path_remap.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  Result<TableCheckReport> report = table->Check(options);
  if (!report.ok()) return fail(report.status());
  std::printf(
      "%s: %lld snapshots, %lld manifest files, %lld data files (%lld re-read, %lld in "
      "formats not re-read), %lld index files\n",
      table->path().c_str(), static_cast<long long>(report->snapshots),
      static_cast<long long>(report->manifests), static_cast<long long>(report->data_files),
      static_cast<long long>(report->files_read), static_cast<long long>(report->files_not_read),
      static_cast<long long>(report->index_files));
  if (report->ok()) {
    std::printf("OK\n");
    return 0;
  }
  for (const std::string& problem : report->problems) std::printf("PROBLEM %s\n", problem.c_str());
  std::printf("%zu problems\n", report->problems.size());
  return 1;
}

}  // namespace sluice::cli
