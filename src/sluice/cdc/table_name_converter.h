// TableNameConverter: which Paimon table a source table's records go to in a whole-database
// sync, and which source tables are synced at all (Java TableNameConverter and the filters of
// Java's RichCdcMultiplexRecordEventParser). A source table is synced when its database matches
// `--including_dbs` and not `--excluding_dbs`, and its name matches `--including_tables` and not
// `--excluding_tables` (whole-name Java regexes; a record that names no database or table passes
// that filter, as in Java). Its Paimon name, in Java's order of priority: `--table_mapping`
// (source table -> Paimon table), else the prefix and suffix of its database
// (`--table_prefix_db` / `--table_suffix_db`), else `--table_prefix` / `--table_suffix`, around
// the source table's name. Tables of one name in several databases go into one table (Java's
// merge-shards default). A sync-table job sends every record to its one table.
//
// Matching runs the patterns: the sync job asks once per source table (SyncJob's routes).
//
// Thread safety: a value type; Convert is const.
#pragma once

#include <map>
#include <optional>
#include <regex>
#include <string>

#include "sluice/result.h"

namespace sluice {

// The routing arguments of a whole-database sync.
struct TableNameRules {
  std::string table_prefix;
  std::string table_suffix;
  // Source database -> prefix / suffix of its tables; keys matched case-insensitively.
  std::map<std::string, std::string> database_prefixes;
  std::map<std::string, std::string> database_suffixes;
  // Source table -> Paimon table; keys matched case-insensitively.
  std::map<std::string, std::string> table_mapping;
  std::string including_tables = ".*";
  std::optional<std::string> excluding_tables;
  std::string including_dbs = ".*";
  std::optional<std::string> excluding_dbs;
};

class TableNameConverter {
 public:
  // A sync-table job's converter: every record goes to `table`.
  static TableNameConverter ForTable(std::string table);
  // A sync-database job's converter. InvalidArgument naming a pattern that does not compile.
  static Result<TableNameConverter> ForDatabase(const TableNameRules& rules);

  // The table that records of source table `database`.`table` go to; nullopt when it is not
  // synced. An empty name is a record that names no database / table.
  std::optional<std::string> Convert(const std::string& database, const std::string& table) const;

 private:
  TableNameConverter() = default;

  std::optional<std::string> fixed_table_;
  TableNameRules rules_;
  std::optional<std::regex> including_tables_;
  std::optional<std::regex> excluding_tables_;
  std::optional<std::regex> including_dbs_;
  std::optional<std::regex> excluding_dbs_;
};

}  // namespace sluice
