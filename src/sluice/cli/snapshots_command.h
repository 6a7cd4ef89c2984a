// `sluice snapshots`: lists a table's snapshots, one line each (id, commit kind, schema id,
// commit time in UTC, total and delta record counts, commit user), oldest first.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct SnapshotsFlags;

std::shared_ptr<SnapshotsFlags> AddSnapshotsCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `snapshots`: 0 on success, 1 after printing the error to stderr.
int RunSnapshots(const SnapshotsFlags& flags);

}  // namespace sluice::cli
