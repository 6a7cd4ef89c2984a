// RestCatalog: a catalog whose metastore is a server speaking Paimon's REST catalog API (Java
// RESTCatalog, 1.4.2), chosen by `metastore = rest`:
//
//   uri             the server ("http://host:port"; "host:port" means http://)
//   token.provider  "bear" (bearer tokens, the one provider Sluice speaks)
//   token           the bearer token
//   warehouse       the catalog's name on the server, sent to /v1/config as Java sends it
//
// Opening asks /v1/config and merges as Java does: the server's `defaults` under the client's
// options under the server's `overrides`; the merged `prefix` places every other path. Lists
// follow `nextPageToken` until the server has no more. Tables load from the `path` the server
// returns, through the file system of that path with the merged options (an object store's
// credentials among them), and the table's data token over them when the server advertises
// `data-token.enabled` (its GET .../token, fetched at each load). A loaded table's commits go
// through the server's commit endpoint, as Java's (rest_commit_file_io.h): the table's id goes with
// them, so a table dropped (or dropped and created again) since it was loaded refuses them.
//
// Errors: 404 NotFound, 409 AlreadyExists, 400 InvalidArgument, 501 NotSupported, 401 / 403
// IOError naming the refusal; each with the server's message.
//
// Thread safety: thread-safe (immutable; each call is its own HTTP request).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/base/json_fwd.h"
#include "sluice/catalog/catalog_backend.h"
#include "sluice/catalog/rest/rest_http_client.h"

namespace sluice::rest {

class RestCatalog : public CatalogBackend {
 public:
  // InvalidArgument naming a missing or malformed option; the config call's errors.
  static Result<std::shared_ptr<const RestCatalog>> Open(
      const std::map<std::string, std::string>& options);

  // The `warehouse` option (the catalog's name on the server).
  const std::string& warehouse() const override { return warehouse_; }
  // The catalog options after the config endpoint's merge.
  const std::map<std::string, std::string>& options() const { return options_; }

  Result<std::vector<std::string>> ListDatabases() const override;
  Result<std::vector<std::string>> ListTables(std::string_view database) const override;
  // The database's `location` from the server; "" when it cannot be asked.
  std::string DatabasePath(std::string_view database) const override;
  Status CreateDatabase(std::string_view database, bool ignore_if_exists) const override;
  Status DropDatabase(std::string_view database, bool ignore_if_not_exists,
                      bool cascade) const override;
  Status CreateTable(std::string_view identifier, const NewTableSpec& spec,
                     bool ignore_if_exists) const override;
  Status DropTable(std::string_view identifier, bool ignore_if_not_exists) const override;
  Result<TableSchema> AlterTable(std::string_view identifier,
                                 const std::vector<SchemaChange>& changes) const override;
  Status RenameTable(std::string_view from, std::string_view to,
                     bool ignore_if_not_exists) const override;
  using CatalogBackend::LoadTable;
  Result<std::shared_ptr<FileStoreTable>> LoadTable(std::string_view database,
                                                    std::string_view table, std::string_view branch,
                                                    DynamicOptions dynamic_options) const override;
  // The server cleans up after its own drops: nothing here.
  Result<std::vector<std::string>> PurgeDropped(bool dry_run) const override;

  RestCatalog(RestHttpClient http, std::string warehouse,
              std::map<std::string, std::string> options, std::string prefix);

 private:
  // One call: the parsed JSON answer (null for an empty body) or the error its status maps to.
  Result<Json> Call(std::string_view method, const std::string& path,
                    const std::string& body) const;
  // Every page of a list at `path`, the names under `field`.
  Result<std::vector<std::string>> ListAll(const std::string& path, const char* field) const;
  std::string DatabasesPath() const;
  std::string DatabasePathOf(std::string_view database) const;
  std::string TablePath(std::string_view database, std::string_view object) const;

  RestHttpClient http_;
  std::string warehouse_;
  std::map<std::string, std::string> options_;
  std::string prefix_;
};

}  // namespace sluice::rest
