#include "sluice/cdc/table_name_converter.h"

namespace sluice {

namespace {

Result<std::regex> CompilePattern(const std::string& pattern, std::string_view argument) {
  // std::regex reports a bad pattern by throwing; no exception leaves this module.
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return Status::InvalidArgument("--" + std::string(argument) + " '" + pattern +
                                   "' is not a valid pattern: " + e.what());
  }
}

}  // namespace

TableNameConverter TableNameConverter::ForTable(std::string table) {
  TableNameConverter converter;
  converter.fixed_table_ = std::move(table);
  return converter;
}

Result<TableNameConverter> TableNameConverter::ForDatabase(
    std::string prefix, std::string suffix, const std::string& including_tables,
    const std::optional<std::string>& excluding_tables) {
  TableNameConverter converter;
  converter.prefix_ = std::move(prefix);
  converter.suffix_ = std::move(suffix);
  SLUICE_ASSIGN_OR_RETURN(converter.including_,
                          CompilePattern(including_tables, "including_tables"));
  if (excluding_tables) {
    SLUICE_ASSIGN_OR_RETURN(converter.excluding_,
                            CompilePattern(*excluding_tables, "excluding_tables"));
  }
  return converter;
}

std::optional<std::string> TableNameConverter::Convert(const std::string& table) const {
  if (fixed_table_) return fixed_table_;
  if (std::regex_match(table, *including_) &&
      !(excluding_ && std::regex_match(table, *excluding_))) {
    return prefix_ + table + suffix_;
  }
  return std::nullopt;
}

}  // namespace sluice
