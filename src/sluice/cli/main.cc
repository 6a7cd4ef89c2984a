// The `sluice` command. Each verb is a thin layer over the library: it parses flags, calls one
// library entry point and prints the result; errors go to stderr with exit status 1.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sluice/cli/action_command.h"
#include "sluice/cli/call_command.h"
#include "sluice/cli/command_error.h"
#include "sluice/cli/diff_command.h"
#include "sluice/cli/get_command.h"
#include "sluice/cli/read_command.h"
#include "sluice/cli/serve_command.h"
#include "sluice/cli/sql_command.h"
#include "sluice/cli/table_argument.h"
#include "sluice/cli/table_commands.h"
#include "sluice/cli/write_commands.h"
#include "sluice/secret_mask.h"
#include "sluice/table.h"

namespace {

int Fail(const sluice::Status& st) { return sluice::cli::PrintCommandError("", st); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Sluice: a native Apache Paimon table store"};
  app.require_subcommand(1);
  // Java's --catalog_conf (or --catalog-option), before or after the verb (the verbs fall
  // through to it): the catalog options of every warehouse and table the command opens (the
  // metastore and its uri, the file system's s3.endpoint, ...).
  std::vector<std::string> catalog_conf;
  app.add_option("--catalog_conf,--catalog-option", catalog_conf,
                 "KEY=VALUE catalog option, e.g. metastore=jdbc or "
                 "s3.endpoint=http://127.0.0.1:9000 (repeatable)")
      ->allow_extra_args(false);
  app.fallthrough();

  std::string meta_table;
  std::optional<int64_t> meta_snapshot;
  std::string meta_branch = "main";
  CLI::App* meta = app.add_subcommand(
      "meta",
      "Print a table's schema, snapshot, manifest lists, manifests and index manifest "
      "as one JSON document");
  meta->add_option("TABLE_DIR", meta_table, "Table folder")->required();
  meta->add_option("--snapshot", meta_snapshot, "Snapshot id (default: the latest)");
  meta->add_option("--branch", meta_branch, "Branch (default: main)");

  CLI::App* read = nullptr;
  auto read_flags = sluice::cli::AddReadCommand(&app, &read);
  CLI::App* get = nullptr;
  auto get_flags = sluice::cli::AddGetCommand(&app, &get);

  CLI::App* action = nullptr;
  auto action_flags = sluice::cli::AddActionCommand(&app, &action);
  // An action reads its own arguments, --catalog_conf among them, as Java's actions do.
  action->fallthrough(false);
  CLI::App* call = nullptr;
  auto call_flags = sluice::cli::AddCallCommand(&app, &call);
  CLI::App* diff = nullptr;
  auto diff_flags = sluice::cli::AddDiffCommand(&app, &diff);
  CLI::App* sql = nullptr;
  auto sql_flags = sluice::cli::AddSqlCommand(&app, &sql);
  CLI::App* serve = nullptr;
  auto serve_flags = sluice::cli::AddServeCommand(&app, &serve);

  auto table_commands = sluice::cli::AddTableCommands(&app);
  auto write_commands = sluice::cli::AddWriteCommands(&app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 quotes the arguments it rejects, which may be `s3.secret-key=...`: its message goes
    // out masked.
    std::ostringstream out;
    std::ostringstream err;
    const int code = app.exit(e, out, err);
    std::cout << out.str();
    std::cerr << sluice::MaskSecrets(err.str());
    return code;
  }

  std::map<std::string, std::string> catalog_options;
  for (const std::string& item : catalog_conf) {
    auto assignment = sluice::cli::SplitAssignment(item, "--catalog_conf");
    if (!assignment.ok()) return Fail(assignment.status());
    catalog_options[assignment->first] = assignment->second;
  }
  sluice::cli::SetCatalogOptions(std::move(catalog_options));

  if (auto code = sluice::cli::RunTableCommands(*table_commands)) return *code;
  if (auto code = sluice::cli::RunWriteCommands(*write_commands)) return *code;

  if (read->parsed()) return sluice::cli::RunRead(*read_flags);
  if (get->parsed()) return sluice::cli::RunGet(*get_flags);
  if (action->parsed()) return sluice::cli::RunActionCommand(*action_flags);
  if (call->parsed()) return sluice::cli::RunCall(*call_flags);
  if (diff->parsed()) return sluice::cli::RunDiff(*diff_flags);
  if (sql->parsed()) return sluice::cli::RunSql(*sql_flags);
  if (serve->parsed()) return sluice::cli::RunServe(*serve_flags);

  if (meta->parsed()) {
    auto table = sluice::cli::OpenTableFolder(meta_table);
    if (!table.ok()) return Fail(table.status());
    auto on_branch = table->OnBranch(meta_branch);
    if (!on_branch.ok()) return Fail(on_branch.status());
    auto json = on_branch->MetadataJson(meta_snapshot);
    if (!json.ok()) return Fail(json.status());
    std::cout << sluice::MaskSecrets(*json) << "\n";
    return 0;
  }
  return 0;
}
