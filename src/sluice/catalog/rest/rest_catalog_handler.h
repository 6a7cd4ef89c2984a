// RestCatalogHandler: what a REST catalog server does for one checked request (rest_request.h):
// runs it on the catalog behind the server and answers as Java's RESTCatalog client expects
// (Paimon 1.4.2's response classes; errors as Java's ErrorResponse, with the status codes its
// DefaultErrorHandler maps to Catalog exceptions: 400, 403, 404 with the resource type, 409,
// 501).
//
//   - Tables are the backing catalog's; a table's `path` in GetTableResponse is where its files
//     are, which the client reads and writes itself, with its own file system options, or with
//     the server's data token: when the server is given one (`data_token`, e.g. the s3.*
//     options of an object-store warehouse), /v1/config advertises `data-token.enabled` and
//     .../token hands it out (to tokens that may use the table's database), which Java's,
//     pypaimon's and Sluice's clients then open the table's files with. Without one the token
//     endpoint is 501 and clients do not ask.
//   - Commits (Java's RESTCatalog supportsVersionManagement) claim `snapshot-<id>` of the table
//     exclusively, as Java's RenamingSnapshotCommit does, so commits through the server and
//     straight to the files (Sluice's client, Java's filesystem catalog) decide on one name:
//     `success: false` when the id is taken. The latest snapshot is read from the table's files.
//   - A table's `id` is `db.table.<creation millis of schema 0>` (Java's FileStoreTable uuid), so
//     a commit for a table dropped and created again is refused (404 TABLE).
//   - A token limited to databases gets 403 (DATABASE) for the others and lists only its own.
//   - Tables are kept in the warehouse: the options `path` and `data-file.external-paths` (files
//     elsewhere, which a drop would delete) are refused at create and alter.
//   - Database properties: the filesystem catalog keeps none (Java FileSystemCatalog: given ones
//     are discarded, `location` refused, alter is 501).
//
// Thread safety: thread-safe (the catalog is).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "sluice/catalog/catalog_backend.h"
#include "sluice/catalog/rest/rest_request.h"
#include "sluice/catalog/rest/rest_tokens.h"

namespace sluice::rest {

// An answer: an HTTP status and a JSON body (empty for none).
struct RestResponse {
  int status = 200;
  std::string body;
};

class RestCatalogHandler {
 public:
  // `prefix`: the path prefix the config endpoint hands out (ResourcePaths' prefix).
  // `data_token`: the file system options handed out as the data token of every table (none:
  // no data token).
  RestCatalogHandler(std::shared_ptr<const CatalogBackend> catalog, std::string prefix,
                     std::map<std::string, std::string> data_token = {});

  const std::string& prefix() const { return prefix_; }

  RestResponse Handle(const RestRequest& request, const RestAccess& access) const;

  // Java's ErrorResponse JSON for `error`.
  static RestResponse Error(const RestError& error);

 private:
  RestResponse Config() const;
  RestResponse ListDatabases(const RestRequest& request, const RestAccess& access) const;
  RestResponse CreateDatabase(const RestRequest& request) const;
  RestResponse GetDatabase(const RestRequest& request) const;
  RestResponse ListTables(const RestRequest& request) const;
  RestResponse CreateTable(const RestRequest& request) const;
  RestResponse GetTable(const RestRequest& request) const;
  RestResponse AlterTable(const RestRequest& request) const;
  RestResponse RenameTable(const RestRequest& request) const;
  RestResponse CommitTable(const RestRequest& request) const;
  RestResponse LoadSnapshot(const RestRequest& request) const;
  RestResponse LoadTableToken(const RestRequest& request) const;
  RestResponse EmptyList(const RestRequest& request, const char* field) const;

  std::shared_ptr<const CatalogBackend> catalog_;
  std::string prefix_;
  std::map<std::string, std::string> data_token_;
};

}  // namespace sluice::rest
