// The TABLE argument shared by the writing verbs (`write`, `compact`, `snapshots`): a table
// folder, or DB.TABLE with --warehouse (default: $SLUICE_WAREHOUSE when TABLE is no folder);
// and the `key=value` flags of every verb.
//
// Thread safety: stateless functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/result.h"
#include "sluice/table.h"

namespace sluice::cli {

Result<Table> OpenTableArgument(const std::string& table, const std::string& warehouse);

// "key=value" -> (key, value), split at the first '='; InvalidArgument naming `flag` when there
// is no '=' or no key.
Result<std::pair<std::string, std::string>> SplitAssignment(const std::string& text,
                                                            std::string_view flag);

// The items of a repeated or comma-split `flag` (`--partition`, `--option`), each "key=value".
Result<std::vector<std::pair<std::string, std::string>>> ParseAssignments(
    const std::vector<std::string>& items, std::string_view flag);

}  // namespace sluice::cli
