// `sluice diff TABLE --from X --to Y`: the data files and rows added, removed and changed
// between two versions (snapshot ids, tags or branches) of a table (table_diff.h).
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct DiffFlags;

std::shared_ptr<DiffFlags> AddDiffCommand(CLI::App* app, CLI::App** command);
int RunDiff(const DiffFlags& flags);

}  // namespace sluice::cli
