// The catalog verbs of `sluice`: create-database, drop-database, create-table, alter-table,
// rename-table, drop-table, list, and check (structural check, check_command.h).
//
//   sluice create-table DB.TABLE --warehouse DIR --column 'id BIGINT NOT NULL' ...
//          [--primary-key a,b] [--partition p] [--option k=v]... [--comment TEXT]
//   sluice alter-table DB.TABLE --warehouse DIR  (changes apply in the order given)
//          --add-column 'name TYPE' [--first | --after COL]   --rename-column OLD=NEW
//          --drop-column COL   --alter-column 'COL TYPE'   --move-column COL (--first|--after C)
//          --set-option K=V   --reset-option K   --comment TEXT
//   sluice list [--warehouse DIR] [DB]
//
// --warehouse defaults to $SLUICE_WAREHOUSE.
//
// Thread safety: run from main only.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>

namespace sluice::cli {

struct TableCommands;

// Registers the verbs on `app`.
std::shared_ptr<TableCommands> AddTableCommands(CLI::App* app);

// Runs the verb that parsed, if it is one of these: its exit status (0, or 1 after printing
// the error to stderr); nullopt when another verb parsed.
std::optional<int> RunTableCommands(const TableCommands& commands);

}  // namespace sluice::cli
