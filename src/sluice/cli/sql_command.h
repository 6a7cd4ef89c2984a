// `sluice sql`: SQL over a warehouse's tables on embedded DuckDB (sql/sql_session.h). The query
// comes as an argument or on standard input, statements separated by semicolons; each result
// prints as `sluice read` prints rows (--format table|csv|jsonl). --verbose prints what each
// scan planned (filter pushed, files planned and pruned) to stderr.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>

namespace sluice::cli {

struct SqlFlags;

// Registers the `sql` subcommand on `app`; the returned flags are filled when it parses.
std::shared_ptr<SqlFlags> AddSqlCommand(CLI::App* app, CLI::App** command);

// Runs a parsed `sql`: 0 on success, 1 after printing the error to stderr.
int RunSql(const SqlFlags& flags);

}  // namespace sluice::cli
