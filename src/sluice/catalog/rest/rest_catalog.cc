#include "sluice/catalog/rest/rest_catalog.h"

#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/catalog/identifier.h"
#include "sluice/catalog/rest/rest_commit_file_io.h"
#include "sluice/catalog/rest/rest_schema_json.h"
#include "sluice/catalog/rest/rest_url.h"
#include "sluice/fs/file_io_factory.h"

namespace sluice::rest {
namespace {

constexpr std::string_view kHeaderPrefix = "header.";

std::string Dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Json IdentifierJson(std::string_view database, std::string_view table) {
  Json json = Json::object();
  json["database"] = std::string(database);
  json["object"] = std::string(table);
  return json;
}

const std::string* Find(const std::map<std::string, std::string>& options, const char* key) {
  auto it = options.find(key);
  return it == options.end() || it->second.empty() ? nullptr : &it->second;
}

// The status an error answer maps to, with the server's message.
Status ErrorStatus(const RestHttpResponse& response, std::string_view what) {
  std::string message = response.body;
  if (Result<Json> json = ParseJson(response.body); json.ok() && json->is_object()) {
    if (const Json* text = FindMember(*json, "message"); text != nullptr && text->is_string()) {
      message = text->get<std::string>();
    }
  }
  message = std::string(what) + ": " + message;
  switch (response.status) {
    case 400:
      return Status::InvalidArgument(message);
    case 404:
      return Status::NotFound(message);
    case 409:
      return Status::AlreadyExists(message);
    case 501:
      return Status::NotSupported(message);
    case 401:
    case 403:
      return Status::IOError("permission denied (" + std::to_string(response.status) +
                             "): " + message);
    default:
      return Status::IOError("HTTP " + std::to_string(response.status) + ": " + message);
  }
}

// One call on `http`: the parsed JSON answer (null for an empty body) or the error its status
// maps to.
Result<Json> CallWith(const RestHttpClient& http, std::string_view method, const std::string& path,
                      const std::string& body) {
  SLUICE_ASSIGN_OR_RETURN(RestHttpResponse response, http.Send(method, path, body));
  const std::string what = "REST catalog " + http.uri() + ": " + std::string(method) + " " + path;
  if (response.status < 200 || response.status >= 300) return ErrorStatus(response, what);
  if (response.body.empty()) return Json();
  Result<Json> json = ParseJson(response.body);
  if (!json.ok()) return json.status().WithContext(what);
  return json;
}

// Commits a snapshot of `table` (a branch of it) through the server's commit endpoint, with the
// table's id for the main branch (the server refuses a commit for another incarnation of it).
RestCommitFileIO::Commit CommitThrough(RestHttpClient http, std::string table_path,
                                       std::string table, std::optional<std::string> table_id) {
  return [http = std::move(http), table_path = std::move(table_path), table = std::move(table),
          table_id = std::move(table_id)](const std::string& branch,
                                          std::string_view snapshot) -> Result<bool> {
    SLUICE_ASSIGN_OR_RETURN(Json snapshot_json, ParseJson(snapshot));
    const bool main = branch == kMainBranch;
    Json body = Json::object();
    body["tableId"] = main && table_id ? Json(*table_id) : Json(nullptr);
    body["snapshot"] = std::move(snapshot_json);
    body["statistics"] = Json::array();
    const std::string object = main ? table : table + "$branch_" + branch;
    SLUICE_ASSIGN_OR_RETURN(
        Json answer,
        CallWith(http, "POST", table_path + EncodeUrlComponent(object) + "/commit", Dump(body)));
    const Json* success = answer.is_object() ? FindMember(answer, "success") : nullptr;
    if (success == nullptr || !success->is_boolean()) {
      return Status::IOError("REST catalog " + http.uri() + ": the commit of " + object +
                             " answered no 'success'");
    }
    return success->get<bool>();
  };
}

}  // namespace

RestCatalog::RestCatalog(RestHttpClient http, std::string warehouse,
                         std::map<std::string, std::string> options, std::string prefix)
    : http_(std::move(http)),
      warehouse_(std::move(warehouse)),
      options_(std::move(options)),
      prefix_(std::move(prefix)) {}

Result<std::shared_ptr<const RestCatalog>> RestCatalog::Open(
    const std::map<std::string, std::string>& options) {
  const std::string* uri = Find(options, "uri");
  if (uri == nullptr) return Status::InvalidArgument("catalog option 'uri' is required");
  const std::string* provider = Find(options, "token.provider");
  if (provider == nullptr || *provider != "bear") {
    return Status::InvalidArgument(
        "catalog option 'token.provider': Sluice's REST catalog speaks 'bear' (bearer tokens), "
        "got '" +
        (provider == nullptr ? std::string() : *provider) + "'");
  }
  const std::string* token = Find(options, "token");
  if (token == nullptr) return Status::InvalidArgument("catalog option 'token' is required");
  std::vector<std::string> headers = {"Authorization: Bearer " + *token};
  for (const auto& [key, value] : options) {
    if (key.starts_with(kHeaderPrefix)) {
      headers.push_back(key.substr(kHeaderPrefix.size()) + ": " + value);
    }
  }
  const std::string* warehouse = Find(options, "warehouse");
  std::string config_path = "/v1/config";
  // Java encodes the name, and its URI builder encodes the result once more.
  if (warehouse != nullptr) {
    config_path += "?warehouse=" + EncodeUrlComponent(EncodeUrlComponent(*warehouse));
  }
  RestHttpClient http(*uri, headers);
  auto bootstrap = std::make_shared<RestCatalog>(http, warehouse ? *warehouse : "", options, "");
  SLUICE_ASSIGN_OR_RETURN(Json config, bootstrap->Call("GET", config_path, ""));
  std::map<std::string, std::string> merged;
  auto merge = [&](const char* key, bool overwrite) -> Status {
    if (!config.is_object()) return Status::OK();
    const Json* values = FindMember(config, key);
    if (values == nullptr || values->is_null()) return Status::OK();
    if (!values->is_object()) {
      return Status::InvalidArgument("REST catalog " + http.uri() + ": config '" + key +
                                     "' is not an object");
    }
    for (const auto& [name, value] : values->items()) {
      if (!value.is_string()) continue;
      if (overwrite) {
        merged[name] = value.get<std::string>();
      } else {
        merged.emplace(name, value.get<std::string>());
      }
    }
    return Status::OK();
  };
  for (const auto& [key, value] : options) merged[key] = value;
  SLUICE_RETURN_NOT_OK(merge("defaults", /*overwrite=*/false));
  SLUICE_RETURN_NOT_OK(merge("overrides", /*overwrite=*/true));
  const std::string* prefix = Find(merged, "prefix");
  if (prefix == nullptr) {
    return Status::InvalidArgument("REST catalog " + http.uri() +
                                   ": the config endpoint names no 'prefix'");
  }
  for (const auto& [key, value] : merged) {
    if (key.starts_with(kHeaderPrefix) && options.count(key) == 0) {
      headers.push_back(key.substr(kHeaderPrefix.size()) + ": " + value);
    }
  }
  std::string prefix_text = *prefix;
  return std::make_shared<const RestCatalog>(RestHttpClient(*uri, std::move(headers)),
                                             warehouse ? *warehouse : "", std::move(merged),
                                             std::move(prefix_text));
}

Result<Json> RestCatalog::Call(std::string_view method, const std::string& path,
                               const std::string& body) const {
  return CallWith(http_, method, path, body);
}

std::string RestCatalog::DatabasesPath() const {
  return "/v1/" + EncodeUrlComponent(prefix_) + "/databases";
}

std::string RestCatalog::DatabasePathOf(std::string_view database) const {
  return DatabasesPath() + "/" + EncodeUrlComponent(database);
}

std::string RestCatalog::TablePath(std::string_view database, std::string_view object) const {
  return DatabasePathOf(database) + "/tables/" + EncodeUrlComponent(object);
}

Result<std::vector<std::string>> RestCatalog::ListAll(const std::string& path,
                                                      const char* field) const {
  std::vector<std::string> names;
  std::optional<std::string> page_token;
  while (true) {
    std::string url = path;
    if (page_token) url += "?pageToken=" + EncodeUrlComponent(*page_token);
    SLUICE_ASSIGN_OR_RETURN(Json page, Call("GET", url, ""));
    const Json* items = page.is_object() ? FindMember(page, field) : nullptr;
    size_t added = 0;
    if (items != nullptr && items->is_array()) {
      for (const Json& item : *items) {
        SLUICE_ASSIGN_OR_RETURN(std::string name, JsonToString(item, field));
        names.push_back(std::move(name));
        ++added;
      }
    }
    const Json* next = page.is_object() ? FindMember(page, "nextPageToken") : nullptr;
    // Java stops at a page without items or without a next token.
    if (added == 0 || next == nullptr || !next->is_string() || next->get<std::string>().empty()) {
      break;
    }
    page_token = next->get<std::string>();
  }
  return names;
}

Result<std::vector<std::string>> RestCatalog::ListDatabases() const {
  return ListAll(DatabasesPath(), "databases");
}

Result<std::vector<std::string>> RestCatalog::ListTables(std::string_view database) const {
  return ListAll(DatabasePathOf(database) + "/tables", "tables");
}

std::string RestCatalog::DatabasePath(std::string_view database) const {
  Result<Json> json = Call("GET", DatabasePathOf(database), "");
  if (!json.ok() || !json->is_object()) return "";
  const Json* location = FindMember(*json, "location");
  return location != nullptr && location->is_string() ? location->get<std::string>() : "";
}

Status RestCatalog::CreateDatabase(std::string_view database, bool ignore_if_exists) const {
  SLUICE_RETURN_NOT_OK(CheckNewDatabaseName(database));
  Json body = Json::object();
  body["name"] = std::string(database);
  body["options"] = Json::object();
  Result<Json> created = Call("POST", DatabasesPath(), Dump(body));
  if (created.status().IsAlreadyExists() && ignore_if_exists) return Status::OK();
  return created.status();
}

Status RestCatalog::DropDatabase(std::string_view database, bool ignore_if_not_exists,
                                 bool cascade) const {
  if (!cascade) {
    Result<std::vector<std::string>> tables = ListTables(database);
    if (tables.status().IsNotFound() && ignore_if_not_exists) return Status::OK();
    SLUICE_RETURN_NOT_OK(tables.status());
    if (!tables->empty()) {
      std::string names;
      for (const std::string& table : *tables) names += (names.empty() ? "" : ", ") + table;
      return Status::InvalidArgument("database " + std::string(database) +
                                     " is not empty: " + names);
    }
  }
  Result<Json> dropped = Call("DELETE", DatabasePathOf(database), "");
  if (dropped.status().IsNotFound() && ignore_if_not_exists) return Status::OK();
  return dropped.status();
}

Status RestCatalog::CreateTable(std::string_view identifier, const NewTableSpec& spec,
                                bool ignore_if_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "createTable"));
  // Java's client numbers the fields (Schema.Builder) and checks the schema before sending.
  SLUICE_ASSIGN_OR_RETURN(TableSchema schema, MakeInitialSchema(spec, 0));
  Json body = Json::object();
  body["identifier"] = IdentifierJson(name.database, name.table);
  body["schema"] = NewTableToRestJson(schema.fields(), spec);
  Result<Json> created = Call("POST", DatabasePathOf(name.database) + "/tables", Dump(body));
  if (created.status().IsAlreadyExists() && ignore_if_exists) return Status::OK();
  return created.status();
}

Status RestCatalog::DropTable(std::string_view identifier, bool ignore_if_not_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "dropTable"));
  Result<Json> dropped = Call("DELETE", TablePath(name.database, name.table), "");
  if (dropped.status().IsNotFound() && ignore_if_not_exists) return Status::OK();
  return dropped.status();
}

Result<TableSchema> RestCatalog::AlterTable(std::string_view identifier,
                                            const std::vector<SchemaChange>& changes) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier name, Identifier::ParseDataTable(identifier, "alterTable"));
  Json list = Json::array();
  for (const SchemaChange& change : changes) list.push_back(SchemaChangeToRestJson(change));
  Json body = Json::object();
  body["changes"] = std::move(list);
  SLUICE_RETURN_NOT_OK(Call("POST", TablePath(name.database, name.table), Dump(body)).status());
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                          LoadTable(name.database, name.table, kMainBranch, {}));
  return table->schema();
}

Status RestCatalog::RenameTable(std::string_view from, std::string_view to,
                                bool ignore_if_not_exists) const {
  SLUICE_ASSIGN_OR_RETURN(Identifier source, Identifier::ParseDataTable(from, "renameTable"));
  SLUICE_ASSIGN_OR_RETURN(Identifier target, Identifier::ParseDataTable(to, "renameTable"));
  Json body = Json::object();
  body["source"] = IdentifierJson(source.database, source.table);
  body["destination"] = IdentifierJson(target.database, target.table);
  Result<Json> renamed =
      Call("POST", "/v1/" + EncodeUrlComponent(prefix_) + "/tables/rename", Dump(body));
  if (renamed.status().IsNotFound() && ignore_if_not_exists) return Status::OK();
  return renamed.status();
}

Result<std::shared_ptr<FileStoreTable>> RestCatalog::LoadTable(
    std::string_view database, std::string_view table, std::string_view branch,
    DynamicOptions dynamic_options) const {
  std::string object(table);
  if (branch != kMainBranch) object += "$branch_" + std::string(branch);
  SLUICE_ASSIGN_OR_RETURN(Json response, Call("GET", TablePath(database, object), ""));
  const std::string what =
      "REST catalog " + http_.uri() + ": table " + std::string(database) + "." + object;
  if (!response.is_object()) return Status::Corruption(what + ": the answer is not an object");
  SLUICE_ASSIGN_OR_RETURN(const Json* path_json, GetMember(response, "path", "path"));
  SLUICE_ASSIGN_OR_RETURN(std::string path, JsonToString(*path_json, "path"));
  path = NormalizePath(path);
  std::optional<std::string> table_id;
  if (const Json* id = FindMember(response, "id"); id != nullptr && id->is_string()) {
    table_id = id->get<std::string>();
  }
  // With the server's data token, the table's files open with it over the catalog's options
  // (Java RESTTokenFileIO).
  std::map<std::string, std::string> file_options = options_;
  if (const std::string* enabled = Find(options_, "data-token.enabled");
      enabled != nullptr && *enabled == "true") {
    SLUICE_ASSIGN_OR_RETURN(Json token, Call("GET", TablePath(database, object) + "/token", ""));
    const Json* values = token.is_object() ? FindMember(token, "token") : nullptr;
    if (values != nullptr && values->is_object()) {
      for (const auto& [key, value] : values->items()) {
        if (value.is_string()) file_options[key] = value.get<std::string>();
      }
    }
  }
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileIO> files, FileIOForPath(path, file_options));
  auto io =
      std::make_shared<RestCommitFileIO>(std::move(files), path,
                                         CommitThrough(http_, DatabasePathOf(database) + "/tables/",
                                                       std::string(table), std::move(table_id)));
  return FileStoreTable::Open(std::move(io), std::move(path), branch, std::move(dynamic_options));
}

Result<std::vector<std::string>> RestCatalog::PurgeDropped(bool) const {
  return std::vector<std::string>();
}

}  // namespace sluice::rest
