#include "sluice/cdc/table_name_converter.h"

#include "sluice/base/string_util.h"

namespace sluice {

namespace {

Result<std::optional<std::regex>> CompilePattern(const std::optional<std::string>& pattern,
                                                 std::string_view argument) {
  if (!pattern) return std::optional<std::regex>();
  // std::regex reports a bad pattern by throwing; no exception leaves this module.
  try {
    return std::optional<std::regex>(std::regex(*pattern, std::regex::ECMAScript));
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument("--" + std::string(argument) + " '" + *pattern +
                                   "' is not a valid pattern: " + e.what());
  }
}

// Java lower-cases the keys of the name maps once and looks names up lower-cased.
std::map<std::string, std::string> LowerKeys(const std::map<std::string, std::string>& map) {
  std::map<std::string, std::string> lower;
  for (const auto& [key, value] : map) lower[AsciiToLower(key)] = value;
  return lower;
}

// Whether `name` passes an including / excluding pair; an unnamed source passes.
bool Selected(const std::string& name, const std::optional<std::regex>& including,
              const std::optional<std::regex>& excluding) {
  if (name.empty()) return true;
  return std::regex_match(name, *including) && !(excluding && std::regex_match(name, *excluding));
}

const std::string* Find(const std::map<std::string, std::string>& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : &it->second;
}

}  // namespace

TableNameConverter TableNameConverter::ForTable(std::string table) {
  TableNameConverter converter;
  converter.fixed_table_ = std::move(table);
  return converter;
}

Result<TableNameConverter> TableNameConverter::ForDatabase(const TableNameRules& rules) {
  TableNameConverter converter;
  converter.rules_ = rules;
  converter.rules_.database_prefixes = LowerKeys(rules.database_prefixes);
  converter.rules_.database_suffixes = LowerKeys(rules.database_suffixes);
  converter.rules_.table_mapping = LowerKeys(rules.table_mapping);
  SLUICE_ASSIGN_OR_RETURN(converter.including_tables_,
                          CompilePattern(rules.including_tables, "including_tables"));
  SLUICE_ASSIGN_OR_RETURN(converter.excluding_tables_,
                          CompilePattern(rules.excluding_tables, "excluding_tables"));
  SLUICE_ASSIGN_OR_RETURN(converter.including_dbs_,
                          CompilePattern(rules.including_dbs, "including_dbs"));
  SLUICE_ASSIGN_OR_RETURN(converter.excluding_dbs_,
                          CompilePattern(rules.excluding_dbs, "excluding_dbs"));
  return converter;
}

std::optional<std::string> TableNameConverter::Convert(const std::string& database,
                                                       const std::string& table) const {
  if (fixed_table_) return fixed_table_;
  if (!Selected(database, including_dbs_, excluding_dbs_) ||
      !Selected(table, including_tables_, excluding_tables_)) {
    return std::nullopt;
  }
  if (table.empty()) return std::string();
  const std::string lower_table = AsciiToLower(table);
  if (const std::string* mapped = Find(rules_.table_mapping, lower_table)) return *mapped;
  const std::string lower_database = AsciiToLower(database);
  const std::string* prefix = Find(rules_.database_prefixes, lower_database);
  const std::string* suffix = Find(rules_.database_suffixes, lower_database);
  return (prefix ? *prefix : rules_.table_prefix) + table +
         (suffix ? *suffix : rules_.table_suffix);
}

}  // namespace sluice
