// RestCatalogService: a REST catalog server (Paimon 1.4.2's REST catalog API, as Java's
// RESTCatalog, pypaimon's REST catalog and Sluice's `metastore = rest` client speak it) in front
// of a catalog of another kind, what `sluice serve` runs for its `rest_catalog` section.
//
// Every request needs `Authorization: Bearer <token>` naming a token of the tokens file (one a
// line, optionally `TOKEN databases=db1,db2` to limit it), else 401; a limited token sees only
// its databases (403 for the others). Names that could reach outside the warehouse ("..", '/',
// NUL, hidden or over-long names) and malformed or oversized bodies are refused with a 4xx
// naming the field; errors are Java's ErrorResponse JSON.
//
// Thread safety: Stop may be called from any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "sluice/result.h"

namespace sluice {

struct RestCatalogServiceOptions {
  // Loopback unless exposed on purpose.
  std::string host = "127.0.0.1";
  // 0 picks a free port (port() tells which).
  int port = 8181;
  // The bearer tokens (required).
  std::string tokens_file;
  // The catalog served, as Catalog::Open takes it (metastore, warehouse, s3.*, ...).
  std::map<std::string, std::string> catalog;
  // The path prefix the config endpoint hands out.
  std::string prefix = "catalog";
  int64_t max_body_bytes = int64_t{1} << 20;
  int threads = 8;
  // File system options handed out as every table's data token (an object store's s3.*), so
  // that clients need no credentials of their own; none by default.
  std::map<std::string, std::string> data_token;
};

class RestCatalogService {
 public:
  // Opens the catalog, reads the tokens and listens. InvalidArgument / IOError naming the
  // option, the tokens file's line or host:port (in use) otherwise.
  static Result<std::unique_ptr<RestCatalogService>> Start(
      const RestCatalogServiceOptions& options);

  virtual ~RestCatalogService() = default;
  // The port listened on.
  virtual int port() const = 0;
  // "http://host:port", the `uri` a client opens.
  virtual std::string uri() const = 0;
  // Stops accepting, finishes the requests in flight. Idempotent.
  virtual void Stop() = 0;
};

}  // namespace sluice
