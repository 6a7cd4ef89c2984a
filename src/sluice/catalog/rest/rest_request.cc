#include "sluice/catalog/rest/rest_request.h"

#include <charconv>
#include <map>

#include "sluice/base/json_reader.h"
#include "sluice/catalog/rest/rest_schema_json.h"
#include "sluice/catalog/rest/rest_url.h"

namespace sluice::rest {
namespace {

constexpr std::string_view kBranchSuffix = "$branch_";

RestError BadRequest(std::string message) { return RestError{400, "", "", std::move(message)}; }

RestError NotFoundPath(std::string_view method, std::string_view path) {
  return RestError{404, "", "",
                   "no such resource: " + std::string(method) + " " + std::string(path)};
}

RestError FromStatus(const Status& status) {
  return RestError{status.code() == StatusCode::kNotSupported ? 501 : 400, "", "",
                   status.message()};
}

// A name as it may appear in a message: control characters escaped, long names cut.
std::string Printable(std::string_view name) {
  constexpr size_t kShown = 64;
  std::string out;
  for (size_t i = 0; i < name.size() && i < kShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) {
      constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (name.size() > kShown) out += "...";
  return out;
}

// The deepest nesting of arrays and objects in `text` (strings skipped), or -1 once it passes
// `limit`: checked before parsing, so that no reader recurses deeper than that.
int JsonDepth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > limit) return -1;
      deepest = std::max(deepest, depth);
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

std::variant<Json, RestError> ParseBody(std::string_view body, const RestLimits& limits) {
  if (body.size() > limits.max_body_bytes) {
    return RestError{413, "", "",
                     "request body: " + std::to_string(body.size()) +
                         " bytes is over the limit of " + std::to_string(limits.max_body_bytes)};
  }
  if (JsonDepth(body, limits.max_json_depth) < 0) {
    return BadRequest("request body: nested deeper than " + std::to_string(limits.max_json_depth) +
                      " levels");
  }
  Result<Json> json = ParseJson(body);
  if (!json.ok()) return BadRequest("request body: not valid JSON: " + json.status().message());
  if (!json->is_object()) return BadRequest("request body: expected a JSON object");
  return std::move(*json);
}

const Json* OptionalMember(const Json& object, std::string_view key) {
  const Json* value = FindMember(object, key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

Status ReadStringMap(const Json& object, std::string_view key,
                     std::vector<std::pair<std::string, std::string>>* out) {
  const Json* map = OptionalMember(object, key);
  if (map == nullptr) return Status::OK();
  if (!map->is_object()) {
    return Status::InvalidArgument("field '" + std::string(key) + "': expected an object, got " +
                                   std::string(JsonTypeName(*map)));
  }
  for (const auto& [name, value] : map->items()) {
    if (!value.is_string()) {
      return Status::InvalidArgument("field '" + JsonFieldPath(key, name) +
                                     "': expected a string, got " +
                                     std::string(JsonTypeName(value)));
    }
    out->emplace_back(name, value.get<std::string>());
  }
  return Status::OK();
}

Result<std::string> ReadName(const Json& object, std::string_view key, std::string_view parent,
                             const RestLimits& limits) {
  const std::string field = JsonFieldPath(parent, key);
  const Json* value = FindMember(object, key);
  if (value == nullptr || !value->is_string()) {
    return Status::InvalidArgument("field '" + field + "': expected a string" +
                                   (value == nullptr ? ", missing" : ""));
  }
  std::string name = value->get<std::string>();
  SLUICE_RETURN_NOT_OK(CheckRestName(name, field, limits.max_name_bytes));
  return name;
}

// Java Identifier JSON {database, object} of a table that DDL names: no branch, no system
// table.
Status ReadIdentifier(const Json& body, std::string_view key, const RestLimits& limits,
                      std::string* database, std::string* table) {
  const Json* identifier = FindMember(body, key);
  if (identifier == nullptr || !identifier->is_object()) {
    return Status::InvalidArgument("field '" + std::string(key) + "': expected an identifier " +
                                   "object {database, object}");
  }
  SLUICE_ASSIGN_OR_RETURN(*database, ReadName(*identifier, "database", key, limits));
  SLUICE_ASSIGN_OR_RETURN(*table, ReadName(*identifier, "object", key, limits));
  if (table->find('$') != std::string::npos) {
    return Status::InvalidArgument("field '" + JsonFieldPath(key, "object") + "': '" +
                                   Printable(*table) +
                                   "' names a system table or branch; only data tables here");
  }
  return Status::OK();
}

// A table segment: `table` or `table$branch_<branch>`.
Status SplitObjectName(const std::string& object, const RestLimits& limits, RestRequest* request) {
  const size_t suffix = object.find(kBranchSuffix);
  request->table = object.substr(0, suffix);
  if (suffix != std::string::npos) {
    request->branch = object.substr(suffix + kBranchSuffix.size());
    SLUICE_RETURN_NOT_OK(CheckRestName(request->branch, "branch", limits.max_name_bytes));
  }
  SLUICE_RETURN_NOT_OK(CheckRestName(request->table, "table", limits.max_name_bytes));
  if (request->table.find('$') != std::string::npos ||
      request->branch.find('$') != std::string::npos) {
    return Status::InvalidArgument("field 'table': '" + Printable(object) +
                                   "' names a system table; only data tables and branches here");
  }
  return Status::OK();
}

Status ReadPaging(const std::map<std::string, std::string>& query, const RestLimits& limits,
                  RestRequest* request) {
  if (auto it = query.find("maxResults"); it != query.end()) {
    int32_t value = 0;
    const std::string& text = it->second;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0) {
      return Status::InvalidArgument("field 'maxResults': expected a count, got '" +
                                     Printable(text) + "'");
    }
    if (value > 0) request->max_results = std::min(value, limits.max_page_size);
  }
  // A page is never larger than the server's limit, asked for or not: the client follows
  // nextPageToken.
  if (!request->max_results) request->max_results = limits.max_page_size;
  if (auto it = query.find("pageToken"); it != query.end()) {
    if (it->second.size() > limits.max_name_bytes) {
      return Status::InvalidArgument("field 'pageToken': longer than " +
                                     std::to_string(limits.max_name_bytes) + " bytes");
    }
    request->page_token = it->second;
  }
  return Status::OK();
}

Status ReadCreateTable(const Json& body, const RestLimits& limits, RestRequest* request) {
  std::string database;
  SLUICE_RETURN_NOT_OK(ReadIdentifier(body, "identifier", limits, &database, &request->table));
  if (database != request->database) {
    return Status::InvalidArgument("field 'identifier.database': '" + Printable(database) +
                                   "' is not the database of the path, '" + request->database +
                                   "'");
  }
  const Json* schema = FindMember(body, "schema");
  if (schema == nullptr) return Status::InvalidArgument("field 'schema': missing");
  SLUICE_ASSIGN_OR_RETURN(request->table_spec, NewTableFromRestJson(*schema, "schema"));
  for (const DataField& column : request->table_spec.columns) {
    if (column.name.empty() || column.name.size() > limits.max_name_bytes) {
      return Status::InvalidArgument("field 'schema.fields': the column name '" +
                                     Printable(column.name) + "' is empty or too long");
    }
  }
  return Status::OK();
}

Status ReadAlterTable(const Json& body, RestRequest* request) {
  const Json* changes = FindMember(body, "changes");
  if (changes == nullptr || !changes->is_array()) {
    return Status::InvalidArgument("field 'changes': expected an array of schema changes");
  }
  for (size_t i = 0; i < changes->size(); ++i) {
    SLUICE_ASSIGN_OR_RETURN(SchemaChange change,
                            SchemaChangeFromRestJson((*changes)[i], JsonIndexPath("changes", i)));
    request->changes.push_back(std::move(change));
  }
  return Status::OK();
}

Status ReadCommit(const Json& body, const RestLimits& limits, RestRequest* request) {
  if (const Json* id = OptionalMember(body, "tableId")) {
    if (!id->is_string()) return Status::InvalidArgument("field 'tableId': expected a string");
    request->table_id = id->get<std::string>();
  }
  const Json* snapshot = FindMember(body, "snapshot");
  if (snapshot == nullptr || !snapshot->is_object()) {
    return Status::InvalidArgument("field 'snapshot': expected a snapshot object");
  }
  Result<Snapshot> parsed = Snapshot::FromJsonValue(*snapshot);
  if (!parsed.ok()) return Status::InvalidArgument("snapshot: " + parsed.status().message());
  if (parsed->id < Snapshot::kFirstSnapshotId) {
    return Status::InvalidArgument("field 'snapshot.id': " + std::to_string(parsed->id) +
                                   " is not a snapshot id");
  }
  // The files a snapshot names are file names in the table's folders: none may lead out.
  const std::pair<const char*, const std::optional<std::string>> files[] = {
      {"snapshot.baseManifestList", parsed->base_manifest_list},
      {"snapshot.deltaManifestList", parsed->delta_manifest_list},
      {"snapshot.changelogManifestList", parsed->changelog_manifest_list},
      {"snapshot.indexManifest", parsed->index_manifest},
      {"snapshot.statistics", parsed->statistics},
  };
  for (const auto& [field, name] : files) {
    if (name && !name->empty()) {
      SLUICE_RETURN_NOT_OK(CheckRestName(*name, field, limits.max_name_bytes));
    }
  }
  if (parsed->base_manifest_list.empty() || parsed->delta_manifest_list.empty()) {
    return Status::InvalidArgument(
        "field 'snapshot': a snapshot names its base and delta manifest lists");
  }
  request->snapshot = std::move(*parsed);
  if (const Json* statistics = OptionalMember(body, "statistics"); statistics != nullptr) {
    if (!statistics->is_array()) {
      return Status::InvalidArgument("field 'statistics': expected an array");
    }
  }
  return Status::OK();
}

// The body of a POST, read into `request` for its operation.
std::optional<RestError> ReadBody(std::string_view body, const RestLimits& limits,
                                  RestRequest* request) {
  std::variant<Json, RestError> parsed = ParseBody(body, limits);
  if (auto* error = std::get_if<RestError>(&parsed)) return *error;
  const Json& json = std::get<Json>(parsed);
  Status status;
  switch (request->operation) {
    case RestOperation::kCreateDatabase: {
      Result<std::string> name = ReadName(json, "name", "", limits);
      status = name.status();
      if (status.ok()) {
        request->database = std::move(*name);
        status = ReadStringMap(json, "options", &request->database_options);
      }
      break;
    }
    case RestOperation::kAlterDatabase: {
      if (const Json* removals = OptionalMember(json, "removals")) {
        if (!removals->is_array()) {
          status = Status::InvalidArgument("field 'removals': expected an array of keys");
        } else {
          for (size_t i = 0; i < removals->size() && status.ok(); ++i) {
            if (!(*removals)[i].is_string()) {
              status = Status::InvalidArgument("field '" + JsonIndexPath("removals", i) +
                                               "': expected a string");
            } else {
              request->removals.push_back((*removals)[i].get<std::string>());
            }
          }
        }
      }
      if (status.ok()) status = ReadStringMap(json, "updates", &request->updates);
      break;
    }
    case RestOperation::kCreateTable:
      status = ReadCreateTable(json, limits, request);
      break;
    case RestOperation::kAlterTable:
      status = ReadAlterTable(json, request);
      break;
    case RestOperation::kRenameTable:
      status = ReadIdentifier(json, "source", limits, &request->database, &request->table);
      if (status.ok()) {
        status =
            ReadIdentifier(json, "destination", limits, &request->to_database, &request->to_table);
      }
      break;
    case RestOperation::kCommitTable:
      status = ReadCommit(json, limits, request);
      break;
    default:
      break;
  }
  if (!status.ok()) return FromStatus(status);
  return std::nullopt;
}

// Splits "/a/b/c" into its raw segments; nullopt for an empty segment ("//", a trailing '/').
std::optional<std::vector<std::string_view>> Segments(std::string_view path) {
  std::vector<std::string_view> segments;
  if (path.empty() || path[0] != '/') return std::nullopt;
  path.remove_prefix(1);
  while (true) {
    const size_t slash = path.find('/');
    std::string_view segment = path.substr(0, slash);
    if (segment.empty()) return std::nullopt;
    segments.push_back(segment);
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return segments;
}

// Picks the operation of `method` on a resource: `ops` lists (method, operation) pairs.
std::optional<RestError> Pick(std::string_view method, std::string_view path,
                              std::initializer_list<std::pair<std::string_view, RestOperation>> ops,
                              RestRequest* request) {
  for (const auto& [allowed, operation] : ops) {
    if (allowed == method) {
      request->operation = operation;
      return std::nullopt;
    }
  }
  return RestError{405, "", "",
                   "method " + std::string(method) + " is not allowed on " + std::string(path)};
}

// Routes the decoded segments after "/v1/{prefix}/databases/{db}".
std::optional<RestError> RouteDatabase(std::string_view method, std::string_view path,
                                       const std::vector<std::string>& rest,
                                       const RestLimits& limits, RestRequest* request) {
  using Op = RestOperation;
  if (rest.empty()) {
    return Pick(
        method, path,
        {{"GET", Op::kGetDatabase}, {"POST", Op::kAlterDatabase}, {"DELETE", Op::kDropDatabase}},
        request);
  }
  const std::string& kind = rest[0];
  if (kind == "tables") {
    if (rest.size() == 1) {
      return Pick(method, path, {{"GET", Op::kListTables}, {"POST", Op::kCreateTable}}, request);
    }
    Status name = SplitObjectName(rest[1], limits, request);
    if (!name.ok()) return FromStatus(name);
    if (rest.size() == 2) {
      if (request->branch != "main" && method != "GET") {
        return BadRequest("field 'table': branches are read here, not changed");
      }
      return Pick(method, path,
                  {{"GET", Op::kGetTable}, {"POST", Op::kAlterTable}, {"DELETE", Op::kDropTable}},
                  request);
    }
    if (rest.size() == 3 && rest[2] == "commit") {
      return Pick(method, path, {{"POST", Op::kCommitTable}}, request);
    }
    if (rest.size() == 3 && rest[2] == "snapshot") {
      return Pick(method, path, {{"GET", Op::kLoadSnapshot}}, request);
    }
    if (rest.size() == 3 && rest[2] == "token") {
      return Pick(method, path, {{"GET", Op::kLoadTableToken}}, request);
    }
    request->operation = Op::kNotImplemented;
    request->what = "tables/" + rest[2];
    return std::nullopt;
  }
  if (rest.size() == 1 && kind == "views" && method == "GET") {
    request->operation = Op::kListViews;
    return std::nullopt;
  }
  if (rest.size() == 1 && kind == "functions" && method == "GET") {
    request->operation = Op::kListFunctions;
    return std::nullopt;
  }
  if (kind == "views" || kind == "functions" || kind == "table-details" || kind == "view-details" ||
      kind == "function-details" || kind == "register") {
    request->operation = Op::kNotImplemented;
    request->what = kind;
    return std::nullopt;
  }
  return NotFoundPath(method, path);
}

}  // namespace

Status CheckRestName(std::string_view name, std::string_view field, size_t max_name_bytes) {
  const std::string what = "field '" + std::string(field) + "': ";
  if (name.empty()) return Status::InvalidArgument(what + "the name is empty");
  if (name.size() > max_name_bytes) {
    return Status::InvalidArgument(what + "the name '" + Printable(name) + "' is " +
                                   std::to_string(name.size()) + " bytes, over the limit of " +
                                   std::to_string(max_name_bytes));
  }
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      return Status::InvalidArgument(what + "the name '" + Printable(name) +
                                     "' holds a NUL or control character");
    }
    if (c == '/' || c == '\\') {
      return Status::InvalidArgument(what + "the name '" + Printable(name) + "' holds '" +
                                     std::string(1, static_cast<char>(c)) + "'");
    }
  }
  if (name.find("..") != std::string_view::npos) {
    return Status::InvalidArgument(what + "the name '" + Printable(name) + "' holds '..'");
  }
  if (name[0] == '.') {
    return Status::InvalidArgument(what + "the name '" + Printable(name) +
                                   "' starts with '.' (hidden names are the catalog's own)");
  }
  return Status::OK();
}

std::variant<RestRequest, RestError> ParseRestRequest(std::string_view method,
                                                      std::string_view target,
                                                      std::string_view body,
                                                      std::string_view prefix,
                                                      const RestLimits& limits) {
  RestRequest request;
  const size_t question = target.find('?');
  const std::string_view path = target.substr(0, question);
  std::optional<std::map<std::string, std::string>> query =
      ParseQuery(question == std::string_view::npos ? "" : target.substr(question + 1));
  if (!query) return BadRequest("the query string does not decode");
  std::optional<std::vector<std::string_view>> raw = Segments(path);
  if (!raw || raw->size() < 2 || (*raw)[0] != "v1") return NotFoundPath(method, path);
  std::vector<std::string> segments;
  for (size_t i = 1; i < raw->size(); ++i) {
    std::optional<std::string> decoded = DecodeUrlComponent((*raw)[i]);
    if (!decoded)
      return BadRequest("the path segment '" + Printable((*raw)[i]) + "' does not decode");
    segments.push_back(std::move(*decoded));
  }
  using Op = RestOperation;
  std::optional<RestError> error;
  if (segments.size() == 1 && segments[0] == "config") {
    error = Pick(method, path, {{"GET", Op::kGetConfig}}, &request);
    if (auto it = query->find("warehouse"); it != query->end()) request.warehouse = it->second;
  } else if (segments[0] != prefix || segments.size() < 2) {
    return NotFoundPath(method, path);
  } else if (segments[1] == "databases") {
    if (segments.size() == 2) {
      error = Pick(method, path, {{"GET", Op::kListDatabases}, {"POST", Op::kCreateDatabase}},
                   &request);
    } else {
      request.database = segments[2];
      Status name = CheckRestName(request.database, "database", limits.max_name_bytes);
      if (!name.ok()) return FromStatus(name);
      error = RouteDatabase(method, path,
                            std::vector<std::string>(segments.begin() + 3, segments.end()), limits,
                            &request);
    }
  } else if (segments[1] == "tables" && segments.size() == 3 && segments[2] == "rename") {
    error = Pick(method, path, {{"POST", Op::kRenameTable}}, &request);
  } else if (segments[1] == "tables" || segments[1] == "views" || segments[1] == "functions") {
    request.operation = Op::kNotImplemented;
    request.what = segments[1];
  } else {
    return NotFoundPath(method, path);
  }
  if (error) return *error;
  if (request.operation == Op::kListDatabases || request.operation == Op::kListTables ||
      request.operation == Op::kListViews || request.operation == Op::kListFunctions) {
    Status paging = ReadPaging(*query, limits, &request);
    if (!paging.ok()) return FromStatus(paging);
  }
  if (method == "POST" && request.operation != Op::kNotImplemented) {
    if (std::optional<RestError> body_error = ReadBody(body, limits, &request)) {
      return *body_error;
    }
  }
  return request;
}

}  // namespace sluice::rest
