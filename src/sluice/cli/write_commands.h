// The verbs that change or list a table's data: `write`, `compact` and `snapshots`
// (write_command.h, compact_command.h, snapshots_command.h), registered and dispatched together
// so that main.cc needs a line for each step.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>

namespace sluice::cli {

struct WriteCommands;

std::shared_ptr<WriteCommands> AddWriteCommands(CLI::App* app);

// The exit status of the verb that parsed, or nullopt when none of these did.
std::optional<int> RunWriteCommands(const WriteCommands& commands);

}  // namespace sluice::cli
