#include "sluice/cli/call_command.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/cli/command_error.h"
#include "sluice/cli/table_argument.h"
#include "sluice/procedures.h"

namespace sluice::cli {

struct CallFlags {
  std::string procedure;
  std::string warehouse;
  std::vector<std::string> args;
};

namespace {

Status Run(const CallFlags& flags) {
  std::string warehouse = flags.warehouse;
  if (warehouse.empty()) {
    const char* env = std::getenv("SLUICE_WAREHOUSE");
    if (env != nullptr) warehouse = env;
  }
  if (warehouse.empty()) {
    return Status::InvalidArgument("sluice call needs --warehouse DIR (or $SLUICE_WAREHOUSE)");
  }
  SLUICE_ASSIGN_OR_RETURN(auto args, ParseAssignments(flags.args, "argument"));
  SLUICE_ASSIGN_OR_RETURN(Catalog catalog, OpenWarehouse(warehouse));
  SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> lines,
                          CallProcedure(catalog, flags.procedure, args));
  for (const std::string& line : lines) std::printf("%s\n", line.c_str());
  return Status::OK();
}

}  // namespace

std::shared_ptr<CallFlags> AddCallCommand(CLI::App* app, CLI::App** command) {
  auto flags = std::make_shared<CallFlags>();
  std::string names;
  for (const std::string& n : ProcedureNames()) names += (names.empty() ? "" : ", ") + n;
  CLI::App* call =
      app->add_subcommand("call", "Run a procedure, as Java's CALL sys.NAME(...): " + names);
  call->add_option("NAME", flags->procedure, "Procedure name")->required();
  call->add_option("ARGS", flags->args, "Arguments as name=value, e.g. table=db.t tag=t1");
  call->add_option("--warehouse", flags->warehouse, "Warehouse directory");
  *command = call;
  return flags;
}

int RunCall(const CallFlags& flags) {
  Status status = Run(flags);
  if (!status.ok()) return PrintCommandError("call", status);
  return 0;
}

}  // namespace sluice::cli
