// `sluice call NAME --warehouse DIR arg=value ...`: runs one of Java's procedures
// (procedures.h) and prints the lines that say what it did.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct CallFlags;

std::shared_ptr<CallFlags> AddCallCommand(CLI::App* app, CLI::App** command);
int RunCall(const CallFlags& flags);

}  // namespace sluice::cli
