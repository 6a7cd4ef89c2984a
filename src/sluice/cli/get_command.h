// `sluice get`: point lookups by primary key through the public API (table_lookup.h): the latest
// merged row of each key, printed as `sluice read` prints rows (row_printer.h); a key that is
// absent prints nothing.
//
//   sluice get TABLE --key k=v[,k2=v2] [--key ...] | --keys FILE [--format table|jsonl|csv]
//
// A key names every primary key field once, `field=value`, values as `sluice read` prints them
// (value_parser.h ParseValueText); a value cannot hold a comma. --keys reads one such key per line
// (blank lines skipped).
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct GetFlags;

// Registers the `get` subcommand on `app`; the returned flags are filled when it parses.
std::shared_ptr<GetFlags> AddGetCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `get`: 0 on success, 1 after printing the error to stderr.
int RunGet(const GetFlags& flags);

}  // namespace sluice::cli
