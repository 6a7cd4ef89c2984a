// `sluice read`: reads a table through the public API (read_builder.h) and prints its rows as
// an aligned table, JSON lines (the cases.jsonl value encoding, one object per row keyed by
// column name) or CSV (header row, RFC 4180 quoting).
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct ReadFlags;

// Registers the `read` subcommand on `app`; the returned flags are filled when it parses.
std::shared_ptr<ReadFlags> AddReadCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `read`: 0 on success, 1 after printing the error to stderr.
int RunRead(const ReadFlags& flags);

}  // namespace sluice::cli
