// RestCatalogServer: Paimon's REST catalog API (1.4.2, as Java's RESTCatalog client speaks it)
// over HTTP, serving a catalog of another kind (a filesystem catalog, a JDBC one), on
// cpp-httplib. What `sluice serve` runs for its `rest_catalog` section.
//
// Every request is checked in this order, before anything is read from the catalog:
//   1. `Authorization: Bearer <token>` names a token of the tokens file, else 401;
//   2. the body is at most `limits.max_body_bytes`, else 413 (unread beyond the limit), and
//      comes with a Content-Length (a chunked body is 411: httplib would read it unbounded);
//   3. the request parses and its names and fields pass (rest_request.h), else 4xx naming the
//      field;
//   4. the token may use the database it names, else 403 (rest_catalog_handler.h).
// Errors are Java's ErrorResponse JSON. A handler never lets an exception out: one becomes a 500.
//
// Thread safety: Stop may be called from any thread; requests run on the server's threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "sluice/catalog/catalog_backend.h"
#include "sluice/catalog/rest/rest_request.h"
#include "sluice/catalog/rest/rest_tokens.h"
#include "sluice/result.h"

namespace sluice::rest {

struct RestCatalogServerOptions {
  // Loopback unless the owner exposes the server on purpose.
  std::string host = "127.0.0.1";
  // 0 picks a free port; RestCatalogServer::port() tells which.
  int port = 8181;
  // The path prefix handed out by /v1/config (Java's ResourcePaths prefix).
  std::string prefix = "catalog";
  RestLimits limits;
  // Requests served at once; more wait on the listen backlog.
  size_t threads = 8;
  // How long a kept-alive connection may stay idle between requests; also how long Stop may
  // wait for a client that keeps one open (Java's and pypaimon's clients pool theirs).
  int idle_connection_seconds = 5;
  // The data token handed out for every table's files (file system options such as s3.*); none
  // by default (rest_catalog_handler.h).
  std::map<std::string, std::string> data_token;
};

class RestCatalogServer {
 public:
  // Listens and serves `catalog` until Stop. IOError naming host:port when it cannot listen;
  // InvalidArgument for a port outside 0..65535, an empty prefix or no tokens.
  static Result<std::unique_ptr<RestCatalogServer>> Start(
      std::shared_ptr<const CatalogBackend> catalog, RestTokens tokens,
      RestCatalogServerOptions options);

  // Stops.
  ~RestCatalogServer();
  RestCatalogServer(const RestCatalogServer&) = delete;
  RestCatalogServer& operator=(const RestCatalogServer&) = delete;

  int port() const { return port_; }
  // "http://host:port", the `uri` a client opens.
  std::string uri() const;

  // Stops accepting, finishes the requests in flight and joins the server's threads. Idempotent.
  void Stop();

  // Requests of `operation` that passed the checks and ran, since the start (what a test or a
  // dashboard asks: did the clients commit through the server?).
  int64_t RequestCount(RestOperation operation) const;

 private:
  struct Server;
  static Result<std::unique_ptr<RestCatalogServer>> StartServer(
      std::shared_ptr<const CatalogBackend> catalog, RestTokens tokens,
      const RestCatalogServerOptions& options);
  RestCatalogServer(std::string host, int port, std::unique_ptr<Server> server);

  std::string host_;
  int port_;
  std::unique_ptr<Server> server_;
};

}  // namespace sluice::rest
