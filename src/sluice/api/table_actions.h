// The table actions of `sluice action` (action.h): Java Paimon 1.4.2's actions by their names
// and arguments (the *ActionFactory classes of paimon-flink-common), each run by the Sluice
// operation of the same name: the maintenance actions by CallProcedure (table_actions.cc maps
// Java's action arguments onto the procedure's), compact / compact_database by the dedicated
// compactor (compact_actions.cc, maintenance/dedicated_compactor.h).
//
// Thread safety: stateless functions.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/action.h"
#include "sluice/cdc/action_arguments.h"
#include "sluice/maintenance/dedicated_compactor.h"

namespace sluice {

// The table actions' names, sorted.
std::vector<std::string> TableActionNames();

// What table action `name` (underscores) is; nullptr when it is none.
const ActionInfo* FindTableAction(std::string_view name);

// Runs table action `name` with `args` (validated against its keys). `streaming`: the mode
// resolved from ActionHooks::mode, already checked against the action's ActionInfo.
Status RunTableAction(std::string_view name, const ActionArguments& args, bool streaming,
                      const std::atomic<bool>& stop, const ActionHooks& hooks);

// Reads and checks `args` as RunTableAction does, and runs nothing.
Status CheckTableActionArguments(std::string_view name, const ActionArguments& args,
                                 bool streaming);

// compact and compact_database (compact_actions.cc).
ActionInfo CompactActionInfo();
ActionInfo CompactDatabaseActionInfo();
// The compactor's options from `args` (checked, as DedicatedCompactor::Run would check them).
Result<DedicatedCompactorOptions> CompactActionOptions(std::string_view name,
                                                       const ActionArguments& args, bool streaming);
Status RunCompactAction(std::string_view name, const ActionArguments& args, bool streaming,
                        const std::atomic<bool>& stop, const ActionHooks& hooks);

}  // namespace sluice
