// The TABLE argument shared by the writing verbs (`write`, `compact`, `snapshots`): a table
// folder, or DB.TABLE with --warehouse (default: $SLUICE_WAREHOUSE when TABLE is no folder);
// the catalog options of the command line (`--catalog_conf KEY=VALUE`, Java's flag, before or
// after the verb: the options of an object store's file system, s3.endpoint, ...), which every
// warehouse and table folder a command opens is opened with; and the `key=value` flags of
// every verb.
//
// Thread safety: SetCatalogOptions is called once, by main, before any command runs; the other
// functions are then safe to call from any thread.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/result.h"
#include "sluice/table.h"

namespace sluice::cli {

// Keeps `options` as the catalog options of every later open.
void SetCatalogOptions(std::map<std::string, std::string> options);
const std::map<std::string, std::string>& CatalogOptions();

// The catalog of `warehouse` with the catalog options (Catalog::Open).
Result<Catalog> OpenWarehouse(const std::string& warehouse);
// The table of a folder (local or an object store's URI) with the catalog options.
Result<Table> OpenTableFolder(const std::string& folder);

Result<Table> OpenTableArgument(const std::string& table, const std::string& warehouse);

// "key=value" -> (key, value), split at the first '='; InvalidArgument naming `flag` when there
// is no '=' or no key.
Result<std::pair<std::string, std::string>> SplitAssignment(const std::string& text,
                                                            std::string_view flag);

// The items of a repeated or comma-split `flag` (`--partition`, `--option`), each "key=value".
Result<std::vector<std::pair<std::string, std::string>>> ParseAssignments(
    const std::vector<std::string>& items, std::string_view flag);

}  // namespace sluice::cli
