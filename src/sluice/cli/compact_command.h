// `sluice compact`: compacts a table's buckets (those of `--partition`, or all) through the
// public write API and commits the result as one COMPACT snapshot: what universal compaction
// picks, or with `--full` every bucket into one sorted run at the highest level.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct CompactFlags;

std::shared_ptr<CompactFlags> AddCompactCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `compact`: 0 on success, 1 after printing the error to stderr.
int RunCompact(const CompactFlags& flags);

}  // namespace sluice::cli
