// RestRequest: one request of Paimon's REST catalog API (Java RESTApi / ResourcePaths, 1.4.2),
// read from the method, the request target and the body, and checked before anything runs:
//
//   GET    /v1/config?warehouse=W                         kGetConfig
//   GET    /v1/{prefix}/databases?maxResults&pageToken     kListDatabases
//   POST   /v1/{prefix}/databases                          kCreateDatabase  {name, options}
//   GET    /v1/{prefix}/databases/{db}                     kGetDatabase
//   POST   /v1/{prefix}/databases/{db}                     kAlterDatabase   {removals, updates}
//   DELETE /v1/{prefix}/databases/{db}                     kDropDatabase
//   GET    /v1/{prefix}/databases/{db}/tables?..           kListTables
//   POST   /v1/{prefix}/databases/{db}/tables              kCreateTable     {identifier, schema}
//   GET    /v1/{prefix}/databases/{db}/tables/{t}          kGetTable
//   POST   /v1/{prefix}/databases/{db}/tables/{t}          kAlterTable      {changes}
//   DELETE /v1/{prefix}/databases/{db}/tables/{t}          kDropTable
//   POST   /v1/{prefix}/tables/rename                      kRenameTable     {source, destination}
//   POST   /v1/{prefix}/databases/{db}/tables/{t}/commit   kCommitTable     {tableId, snapshot, ..}
//   GET    /v1/{prefix}/databases/{db}/tables/{t}/snapshot kLoadSnapshot
//   GET    /v1/{prefix}/databases/{db}/tables/{t}/token    kLoadTableToken
//   GET    /v1/{prefix}/databases/{db}/views|functions     kListViews / kListFunctions
//
// Other paths of Java's API (branches, tags, partitions, views, functions, rollback, table
// details) are kNotImplemented (501, which Java's client treats as "not a
// metastore feature" where it can); paths outside the API are 404.
//
// Names (databases, tables, branches), once URL-decoded, must be usable as one folder name
// inside the warehouse: not empty, at most `max_name_bytes`, no '/', '\', NUL or other control
// characters, no "..", not starting with '.'; a table name holds no '$' except Java's branch
// suffix `$branch_<name>` where a branch may be named. A refused name is a 400 naming the field
// ("database", "identifier.object", ...), so nothing outside the warehouse is ever touched.
// Bodies are at most `max_body_bytes` (413 beyond) and `max_json_depth` levels deep, and every
// field is checked (400 naming its path, e.g. "schema.fields[1].type"); the manifest lists,
// index manifest and statistics a committed snapshot names are file names by the same rules.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "sluice/meta/snapshot.h"
#include "sluice/schema_change.h"

namespace sluice::rest {

enum class RestOperation : unsigned char {
  kGetConfig,
  kListDatabases,
  kCreateDatabase,
  kGetDatabase,
  kAlterDatabase,
  kDropDatabase,
  kListTables,
  kCreateTable,
  kGetTable,
  kAlterTable,
  kDropTable,
  kRenameTable,
  kCommitTable,
  kLoadSnapshot,
  kLoadTableToken,
  kListViews,
  kListFunctions,
  kNotImplemented,
};

struct RestLimits {
  size_t max_body_bytes = size_t{1} << 20;
  // A folder name's limit on common file systems.
  size_t max_name_bytes = 255;
  int max_json_depth = 32;
  int32_t max_page_size = 1000;
};

// An error answer: Java's ErrorResponse (resourceType and resourceName may be empty = null).
struct RestError {
  int code = 400;
  std::string resource_type;
  std::string resource_name;
  std::string message;
};

struct RestRequest {
  RestOperation operation = RestOperation::kNotImplemented;
  std::string database;
  std::string table;
  std::string branch = "main";
  // kGetConfig: the `warehouse` query parameter.
  std::optional<std::string> warehouse;
  // Lists: the page size (the server's limit when not asked for or asked for more).
  std::optional<int32_t> max_results;
  std::optional<std::string> page_token;
  // kCreateDatabase.
  std::vector<std::pair<std::string, std::string>> database_options;
  // kAlterDatabase.
  std::vector<std::string> removals;
  std::vector<std::pair<std::string, std::string>> updates;
  // kCreateTable.
  NewTableSpec table_spec;
  // kRenameTable: from database.table to to_database.to_table.
  std::string to_database;
  std::string to_table;
  // kAlterTable.
  std::vector<SchemaChange> changes;
  // kCommitTable.
  std::optional<std::string> table_id;
  Snapshot snapshot;
  // kNotImplemented: what was asked for.
  std::string what;
};

// Reads a request. `target` is the request target as sent (path and query, still encoded);
// `prefix` the catalog's prefix (the config's `prefix` default, decoded).
std::variant<RestRequest, RestError> ParseRestRequest(std::string_view method,
                                                      std::string_view target,
                                                      std::string_view body,
                                                      std::string_view prefix,
                                                      const RestLimits& limits);

// OK when `name` may name a database, table or branch folder (see above); InvalidArgument
// naming `field` otherwise.
Status CheckRestName(std::string_view name, std::string_view field, size_t max_name_bytes);

}  // namespace sluice::rest
