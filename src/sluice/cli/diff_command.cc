#include "sluice/cli/diff_command.h"

#include <cstdio>
#include <string>

#include "sluice/cli/command_error.h"
#include "sluice/cli/table_argument.h"
#include "sluice/table_diff.h"
#include "sluice/value_json.h"

namespace sluice::cli {

struct DiffFlags {
  std::string table;
  std::string warehouse;
  std::string from;
  std::string to;
};

namespace {

std::string RowText(const Value& row, const DataType& type) { return ValueToJson(row, type); }

Status Run(const DiffFlags& flags) {
  SLUICE_ASSIGN_OR_RETURN(Table table, OpenTableArgument(flags.table, flags.warehouse));
  SLUICE_ASSIGN_OR_RETURN(TableDiff diff, DiffTable(table, flags.from, flags.to));
  const DataType& type = *table.row_type();
  std::printf("from %s to %s\n", diff.from.c_str(), diff.to.c_str());
  std::printf("files added: %zu, removed: %zu\n", diff.files_added.size(),
              diff.files_removed.size());
  for (const std::string& f : diff.files_added) std::printf("+ file %s\n", f.c_str());
  for (const std::string& f : diff.files_removed) std::printf("- file %s\n", f.c_str());
  std::printf("rows added: %zu, removed: %zu, changed: %zu\n", diff.rows_added.size(),
              diff.rows_removed.size(), diff.rows_changed.size());
  for (const Value& r : diff.rows_added) std::printf("+ %s\n", RowText(r, type).c_str());
  for (const Value& r : diff.rows_removed) std::printf("- %s\n", RowText(r, type).c_str());
  for (const auto& [before, after] : diff.rows_changed) {
    std::printf("~ %s -> %s\n", RowText(before, type).c_str(), RowText(after, type).c_str());
  }
  return Status::OK();
}

}  // namespace

std::shared_ptr<DiffFlags> AddDiffCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<DiffFlags>();
  CLI::App* diff = app->add_subcommand(
      "diff", "Files and rows added, removed and changed between two versions of a table");
  diff->add_option("TABLE", flags->table, "Table folder, or DB.TABLE with --warehouse")->required();
  diff->add_option("--warehouse", flags->warehouse, "Warehouse directory of a DB.TABLE");
  diff->add_option("--from", flags->from, "Snapshot id, tag[:NAME] or branch[:NAME]")->required();
  diff->add_option("--to", flags->to, "Snapshot id, tag[:NAME] or branch[:NAME]")->required();
  *command = diff;
  return flags;
}

int RunDiff(const DiffFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("diff", status);
  return 0;
}

}  // namespace sluice::cli
