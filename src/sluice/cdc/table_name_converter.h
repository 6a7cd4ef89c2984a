// TableNameConverter: which Paimon table a source table's records go to in a whole-database
// sync, and which source tables are synced at all (Java TableNameConverter and the table filter
// of Java's sync-database event parser): `--table_prefix` + source table + `--table_suffix`,
// for source tables whose name matches `--including_tables` (a whole-name Java regex, default
// ".*") and not `--excluding_tables`. A sync-table job sends every record to its one table.
//
// Matching runs the patterns: the sync job asks once per source table (SyncJob's routes).
//
// Thread safety: a value type; Convert is const.
#pragma once

#include <optional>
#include <regex>
#include <string>

#include "sluice/result.h"

namespace sluice {

class TableNameConverter {
 public:
  // A sync-table job's converter: every record goes to `table`.
  static TableNameConverter ForTable(std::string table);
  // A sync-database job's converter. InvalidArgument naming a pattern that does not compile.
  static Result<TableNameConverter> ForDatabase(std::string prefix, std::string suffix,
                                                const std::string& including_tables,
                                                const std::optional<std::string>& excluding_tables);

  // The table that records of source table `table` go to; nullopt when it is not synced.
  std::optional<std::string> Convert(const std::string& table) const;

 private:
  TableNameConverter() = default;

  std::optional<std::string> fixed_table_;
  std::string prefix_;
  std::string suffix_;
  std::optional<std::regex> including_;
  std::optional<std::regex> excluding_;
};

}  // namespace sluice
