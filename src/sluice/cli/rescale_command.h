// `sluice rescale`: changes the bucket count of a fixed-bucket table, or of the partitions of
// `--partition`, by rewriting them through the public API (Table::Rescale, Java's `rescale`
// procedure) as one OVERWRITE snapshot.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct RescaleFlags;

std::shared_ptr<RescaleFlags> AddRescaleCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `rescale`: 0 on success, 1 after printing the error to stderr.
int RunRescale(const RescaleFlags& flags);

}  // namespace sluice::cli
