// The text rules Java's schema code applies to option values and writes into its messages,
// shared by schema_generation.cc (applying changes) and schema_validation.cc (checking the result).
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// Java String.split(String.valueOf(sep)): the parts between separators, trailing empty parts
// dropped.
std::vector<std::string> JavaSplit(std::string_view s, char sep = ',');

// `s` without leading and trailing spaces and tabs.
std::string TrimSpacesAndTabs(std::string_view s);

// Java String.join(sep, parts).
std::string JavaJoin(const std::vector<std::string>& parts, std::string_view sep = ",");

// Java List.toString: "[a, b]".
std::string JavaListString(const std::vector<std::string>& list);

// A key list option ("a, b" -> [a, b]): split on ',', trimmed, blanks dropped (Java
// Schema.normalizePrimaryKeys / normalizePartitionKeys).
std::vector<std::string> KeyListOption(std::string_view value);

// Whether a boolean option is "true" (any case); `fallback` when unset (`value` null).
bool BooleanOptionOr(const std::string* value, bool fallback);

}  // namespace sluice
