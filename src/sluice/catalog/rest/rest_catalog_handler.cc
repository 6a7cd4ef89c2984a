#include "sluice/catalog/rest/rest_catalog_handler.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "sluice/base/json_reader.h"
#include "sluice/catalog/identifier.h"
#include "sluice/catalog/rest/rest_schema_json.h"

namespace sluice::rest {
namespace {

constexpr char kDatabase[] = "DATABASE";
constexpr char kTable[] = "TABLE";
constexpr char kColumn[] = "COLUMN";
constexpr char kSnapshot[] = "SNAPSHOT";
// The audit fields of Java's responses (AuditRESTResponse): who made and changed an object.
constexpr char kOwner[] = "sluice";

// How long a data token is said to last.
constexpr int64_t kDataTokenLifetimeMillis = 24 * 3600 * 1000;

// Options that would put a table's files outside the warehouse.
constexpr std::string_view kOutsideOptions[] = {"path", "data-file.external-paths"};

int CodeOf(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotFound:
      return 404;
    case StatusCode::kAlreadyExists:
    case StatusCode::kConflict:
      return 409;
    case StatusCode::kInvalidArgument:
      return 400;
    case StatusCode::kNotSupported:
      return 501;
    default:
      return 500;
  }
}

RestResponse FromStatus(const Status& status, std::string type, std::string name) {
  const int code = CodeOf(status);
  if (code == 400 || code == 500 || code == 501) {
    type.clear();
    name.clear();
  }
  return RestCatalogHandler::Error(
      RestError{code, std::move(type), std::move(name), status.message()});
}

RestResponse Ok(const Json& json) {
  return RestResponse{200, json.dump(-1, ' ', false, Json::error_handler_t::replace)};
}
RestResponse NoContent() { return RestResponse{200, ""}; }

Json Audit(Json json, int64_t created_at, int64_t updated_at) {
  json["owner"] = kOwner;
  json["createdAt"] = created_at;
  json["createdBy"] = kOwner;
  json["updatedAt"] = updated_at;
  json["updatedBy"] = kOwner;
  return json;
}

// One page of sorted `names`: those after `page_token`, at most `max_results` (all when unset),
// and the token of the next page when more remain (the last name given: Java's server does the
// same).
Json Page(const std::vector<std::string>& names, const RestRequest& request, const char* field) {
  auto begin = names.begin();
  if (request.page_token) begin = std::upper_bound(names.begin(), names.end(), *request.page_token);
  auto end = names.end();
  if (request.max_results && end - begin > *request.max_results) {
    end = begin + *request.max_results;
  }
  Json json = Json::object();
  json[field] = Json(std::vector<std::string>(begin, end));
  json["nextPageToken"] = end != names.end() ? Json(*(end - 1)) : Json(nullptr);
  return json;
}

Status CheckInside(const std::vector<std::pair<std::string, std::string>>& options,
                   std::string_view field) {
  for (const auto& [key, value] : options) {
    for (std::string_view outside : kOutsideOptions) {
      if (key == outside) {
        return Status::InvalidArgument("field '" + std::string(field) + "." + key +
                                       "': tables of this catalog live in its warehouse; '" + key +
                                       "' is not accepted");
      }
    }
  }
  return Status::OK();
}

std::string FullName(const RestRequest& request) { return request.database + "." + request.table; }

// The object name Java addresses a branch by.
std::string ObjectName(const RestRequest& request) {
  return request.branch == kMainBranch ? request.table
                                       : request.table + "$branch_" + request.branch;
}

// When the table was created: schema 0's time (the latest schema's when 0 is gone).
int64_t CreatedAt(const FileStoreTable& table) {
  Result<std::shared_ptr<const TableSchema>> first = table.SchemaById(0);
  return first.ok() ? (*first)->time_millis() : table.schema().time_millis();
}

// Java's FileStoreTable uuid: the name and when the table was created. A branch has its table's
// (Java's branch tables share the catalog environment's uuid).
std::string TableId(const RestRequest& request, const FileStoreTable& table) {
  return FullName(request) + "." + std::to_string(CreatedAt(table));
}

Result<std::string> IdOf(const CatalogBackend& catalog, const RestRequest& request,
                         const FileStoreTable& loaded) {
  if (request.branch == kMainBranch) return TableId(request, loaded);
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> main,
                          catalog.LoadTable(request.database, request.table, kMainBranch, {}));
  return TableId(request, *main);
}

}  // namespace

RestCatalogHandler::RestCatalogHandler(std::shared_ptr<const CatalogBackend> catalog,
                                       std::string prefix,
                                       std::map<std::string, std::string> data_token)
    : catalog_(std::move(catalog)),
      prefix_(std::move(prefix)),
      data_token_(std::move(data_token)) {}

RestResponse RestCatalogHandler::Error(const RestError& error) {
  Json json = Json::object();
  json["message"] = error.message;
  json["resourceType"] = error.resource_type.empty() ? Json(nullptr) : Json(error.resource_type);
  json["resourceName"] = error.resource_name.empty() ? Json(nullptr) : Json(error.resource_name);
  json["code"] = error.code;
  // Messages may quote what a client sent: replace what is not UTF-8 rather than fail.
  return RestResponse{error.code, json.dump(-1, ' ', false, Json::error_handler_t::replace)};
}

RestResponse RestCatalogHandler::Handle(const RestRequest& request,
                                        const RestAccess& access) const {
  using Op = RestOperation;
  // Any request naming a database, the ones not served included, needs the token's access.
  if ((!request.database.empty() && !access.Allows(request.database)) ||
      (!request.to_database.empty() && !access.Allows(request.to_database))) {
    const std::string denied =
        access.Allows(request.database) ? request.to_database : request.database;
    return Error(
        RestError{403, kDatabase, denied, "this token may not use database '" + denied + "'"});
  }
  switch (request.operation) {
    case Op::kGetConfig:
      return Config();
    case Op::kListDatabases:
      return ListDatabases(request, access);
    case Op::kCreateDatabase:
      return CreateDatabase(request);
    case Op::kGetDatabase:
      return GetDatabase(request);
    case Op::kAlterDatabase: {
      RestResponse exists = GetDatabase(request);
      if (exists.status != 200) return exists;
      return Error(RestError{501, "", "",
                             "database '" + request.database +
                                 "': the filesystem catalog stores no database properties "
                                 "(Java FileSystemCatalog: alter database is not supported)"});
    }
    case Op::kDropDatabase: {
      // Java's client checks that the database is empty unless it cascades.
      Status dropped = catalog_->DropDatabase(request.database, false, /*cascade=*/true);
      if (!dropped.ok()) return FromStatus(dropped, kDatabase, request.database);
      return NoContent();
    }
    case Op::kListTables:
      return ListTables(request);
    case Op::kCreateTable:
      return CreateTable(request);
    case Op::kGetTable:
      return GetTable(request);
    case Op::kAlterTable:
      return AlterTable(request);
    case Op::kDropTable: {
      Status dropped = catalog_->DropTable(FullName(request), false);
      if (!dropped.ok()) return FromStatus(dropped, kTable, request.table);
      return NoContent();
    }
    case Op::kRenameTable:
      return RenameTable(request);
    case Op::kCommitTable:
      return CommitTable(request);
    case Op::kLoadSnapshot:
      return LoadSnapshot(request);
    case Op::kLoadTableToken:
      return LoadTableToken(request);
    case Op::kListViews:
      return EmptyList(request, "views");
    case Op::kListFunctions:
      return EmptyList(request, "functions");
    case Op::kNotImplemented:
      break;
  }
  return Error(RestError{501, "", "", "'" + request.what + "' is not served by this catalog"});
}

RestResponse RestCatalogHandler::Config() const {
  Json defaults = Json::object();
  defaults["prefix"] = prefix_;
  if (!data_token_.empty()) defaults["data-token.enabled"] = "true";
  Json json = Json::object();
  json["defaults"] = defaults;
  json["overrides"] = Json::object();
  return Ok(json);
}

RestResponse RestCatalogHandler::ListDatabases(const RestRequest& request,
                                               const RestAccess& access) const {
  Result<std::vector<std::string>> names = catalog_->ListDatabases();
  std::vector<std::string> visible;
  if (names.ok()) {
    for (std::string& name : *names) {
      if (access.Allows(name)) visible.push_back(std::move(name));
    }
  } else if (!names.status().IsNotFound()) {  // no warehouse yet: no databases
    return FromStatus(names.status(), "", "");
  }
  return Ok(Page(visible, request, "databases"));
}

RestResponse RestCatalogHandler::CreateDatabase(const RestRequest& request) const {
  for (const auto& [key, value] : request.database_options) {
    if (key == "location") {
      return Error(RestError{400, "", "",
                             "field 'options.location': a database of this catalog lives in its "
                             "warehouse; 'location' is not accepted"});
    }
  }
  Status checked = CheckNewDatabaseName(request.database);
  if (!checked.ok()) return FromStatus(checked, kDatabase, request.database);
  Status created = catalog_->CreateDatabase(request.database, false);
  if (!created.ok()) return FromStatus(created, kDatabase, request.database);
  return NoContent();
}

RestResponse RestCatalogHandler::GetDatabase(const RestRequest& request) const {
  Result<std::vector<std::string>> tables = catalog_->ListTables(request.database);
  if (!tables.ok()) return FromStatus(tables.status(), kDatabase, request.database);
  Json json = Json::object();
  json["id"] = request.database;
  json["name"] = request.database;
  json["location"] = catalog_->DatabasePath(request.database);
  json["options"] = Json::object();
  return Ok(Audit(std::move(json), 0, 0));
}

RestResponse RestCatalogHandler::ListTables(const RestRequest& request) const {
  Result<std::vector<std::string>> names = catalog_->ListTables(request.database);
  if (!names.ok()) return FromStatus(names.status(), kDatabase, request.database);
  return Ok(Page(*names, request, "tables"));
}

RestResponse RestCatalogHandler::EmptyList(const RestRequest& request, const char* field) const {
  Result<std::vector<std::string>> tables = catalog_->ListTables(request.database);
  if (!tables.ok()) return FromStatus(tables.status(), kDatabase, request.database);
  return Ok(Page({}, request, field));
}

RestResponse RestCatalogHandler::CreateTable(const RestRequest& request) const {
  Status inside = CheckInside(request.table_spec.options, "schema.options");
  if (!inside.ok()) return FromStatus(inside, "", "");
  Status created = catalog_->CreateTable(FullName(request), request.table_spec, false);
  if (created.IsNotFound()) return FromStatus(created, kDatabase, request.database);
  if (!created.ok()) return FromStatus(created, kTable, request.table);
  return NoContent();
}

RestResponse RestCatalogHandler::GetTable(const RestRequest& request) const {
  Result<std::shared_ptr<FileStoreTable>> table =
      catalog_->LoadTable(request.database, request.table, request.branch, {});
  if (!table.ok()) return FromStatus(table.status(), kTable, request.table);
  const TableSchema& schema = (*table)->schema();
  Json json = Json::object();
  Result<std::string> id = IdOf(*catalog_, request, **table);
  if (!id.ok()) return FromStatus(id.status(), kTable, request.table);
  json["id"] = *id;
  json["database"] = request.database;
  json["name"] = ObjectName(request);
  json["path"] = (*table)->path();
  json["isExternal"] = false;
  json["schemaId"] = schema.id();
  json["schema"] = TableSchemaToRestJson(schema);
  return Ok(Audit(std::move(json), CreatedAt(**table), schema.time_millis()));
}

RestResponse RestCatalogHandler::AlterTable(const RestRequest& request) const {
  for (const SchemaChange& change : request.changes) {
    if (change.kind == SchemaChange::Kind::kSetOption) {
      Status inside = CheckInside({{change.key, change.value}}, "changes.setOption");
      if (!inside.ok()) return FromStatus(inside, "", "");
    }
  }
  Result<TableSchema> altered = catalog_->AlterTable(FullName(request), request.changes);
  if (altered.ok()) return NoContent();
  const Status& status = altered.status();
  if (status.IsNotFound() || status.IsAlreadyExists()) {
    // Java tells a missing table from a missing (or duplicate) column by the resource type.
    Result<std::shared_ptr<FileStoreTable>> table =
        catalog_->LoadTable(request.database, request.table, kMainBranch, {});
    if (!table.ok()) return FromStatus(status, kTable, request.table);
    std::string column;
    for (const SchemaChange& change : request.changes) {
      if (!change.field_names.empty()) {
        column = change.field_names.back();
        break;
      }
    }
    return FromStatus(status, kColumn, column);
  }
  return FromStatus(status, kTable, request.table);
}

RestResponse RestCatalogHandler::RenameTable(const RestRequest& request) const {
  Status renamed =
      catalog_->RenameTable(FullName(request), request.to_database + "." + request.to_table, false);
  if (renamed.IsAlreadyExists()) return FromStatus(renamed, kTable, request.to_table);
  if (!renamed.ok()) return FromStatus(renamed, kTable, request.table);
  return NoContent();
}

RestResponse RestCatalogHandler::CommitTable(const RestRequest& request) const {
  Result<std::shared_ptr<FileStoreTable>> table =
      catalog_->LoadTable(request.database, request.table, request.branch, {});
  if (!table.ok()) return FromStatus(table.status(), kTable, request.table);
  Result<std::string> id = IdOf(*catalog_, request, **table);
  if (!id.ok()) return FromStatus(id.status(), kTable, request.table);
  if (request.table_id && *request.table_id != *id) {
    return Error(RestError{404, kTable, request.table,
                           "table " + FullName(request) + " is not the table of id '" +
                               *request.table_id + "' (dropped and created again?)"});
  }
  const SnapshotManager& snapshots = (*table)->snapshot_manager();
  const int64_t snapshot_id = request.snapshot.id;
  Status written = (*table)->io()->WriteFileAtomic(snapshots.snapshot_path(snapshot_id),
                                                   request.snapshot.ToJson(), /*overwrite=*/false);
  Json json = Json::object();
  if (written.IsAlreadyExists()) {
    json["success"] = false;
    return Ok(json);
  }
  if (!written.ok()) return FromStatus(written, kTable, request.table);
  // Hints only speed up finding snapshots; readers verify them.
  snapshots.CommitLatestHint(snapshot_id).IgnoreError();
  if (snapshot_id == Snapshot::kFirstSnapshotId) {
    snapshots.CommitEarliestHint(snapshot_id).IgnoreError();
  }
  json["success"] = true;
  return Ok(json);
}

RestResponse RestCatalogHandler::LoadSnapshot(const RestRequest& request) const {
  Result<std::shared_ptr<FileStoreTable>> table =
      catalog_->LoadTable(request.database, request.table, request.branch, {});
  if (!table.ok()) return FromStatus(table.status(), kTable, request.table);
  Result<std::optional<Snapshot>> latest = (*table)->snapshot_manager().LatestSnapshot();
  if (!latest.ok()) return FromStatus(latest.status(), kTable, request.table);
  if (!latest->has_value()) {
    return Error(RestError{404, kSnapshot, request.table,
                           "table " + FullName(request) + " has no snapshot"});
  }
  const Snapshot& snapshot = **latest;
  Result<Json> snapshot_json = ParseJson(snapshot.ToJson());
  if (!snapshot_json.ok()) return FromStatus(snapshot_json.status(), "", "");
  Json table_snapshot = Json::object();
  table_snapshot["snapshot"] = std::move(*snapshot_json);
  table_snapshot["recordCount"] = snapshot.total_record_count.value_or(0);
  table_snapshot["fileSizeInBytes"] = 0;
  table_snapshot["fileCount"] = 0;
  table_snapshot["lastFileCreationTime"] = 0;
  Json json = Json::object();
  json["snapshot"] = std::move(table_snapshot);
  return Ok(json);
}

RestResponse RestCatalogHandler::LoadTableToken(const RestRequest& request) const {
  if (data_token_.empty()) {
    return Error(
        RestError{501, "", "", "this server hands out no data token (data-token.enabled is off)"});
  }
  Result<std::shared_ptr<FileStoreTable>> table =
      catalog_->LoadTable(request.database, request.table, request.branch, {});
  if (!table.ok()) return FromStatus(table.status(), kTable, request.table);
  Json token = Json::object();
  for (const auto& [key, value] : data_token_) token[key] = value;
  Json json = Json::object();
  json["token"] = std::move(token);
  // The options do not expire; clients refresh a token within an hour of its expiry (Java
  // RESTApi.TOKEN_EXPIRATION_SAFE_TIME_MILLIS), so it is given a day.
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  json["expiresAtMillis"] = now + kDataTokenLifetimeMillis;
  return Ok(json);
}

}  // namespace sluice::rest
