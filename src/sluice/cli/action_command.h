// `sluice action NAME ARGS...`: one of Java Paimon's actions with Java's arguments (action.h),
// in the foreground: log lines (a table created, a schema change) on stderr, and on a terminal
// a progress line (records/s, tables, schema changes, lag per partition). SIGTERM / SIGINT
// commit what was consumed and exit 0.
//
// Thread safety: run from main only (installs signal handlers).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct ActionFlags;

std::shared_ptr<ActionFlags> AddActionCommand(CLI::App* app, CLI::App** command);
int RunActionCommand(const ActionFlags& flags);

}  // namespace sluice::cli
