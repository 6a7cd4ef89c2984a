#include "sluice/rest_catalog_service.h"

#include <utility>

#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/rest/rest_catalog_server.h"

namespace sluice {
namespace {

class Service : public RestCatalogService {
 public:
  explicit Service(std::unique_ptr<rest::RestCatalogServer> server) : server_(std::move(server)) {}
  int port() const override { return server_->port(); }
  std::string uri() const override { return server_->uri(); }
  void Stop() override { server_->Stop(); }

 private:
  std::unique_ptr<rest::RestCatalogServer> server_;
};

}  // namespace

Result<std::unique_ptr<RestCatalogService>> RestCatalogService::Start(
    const RestCatalogServiceOptions& options) {
  if (options.tokens_file.empty()) {
    return Status::InvalidArgument("REST catalog: 'tokens_file' is required");
  }
  if (options.max_body_bytes <= 0 || options.threads <= 0) {
    return Status::InvalidArgument("REST catalog: max_body_bytes and threads must be positive");
  }
  SLUICE_ASSIGN_OR_RETURN(rest::RestTokens tokens, rest::RestTokens::Load(options.tokens_file));
  std::shared_ptr<const CatalogBackend> catalog;
  {
    Result<std::shared_ptr<const CatalogBackend>> opened = CreateCatalog(options.catalog);
    if (!opened.ok()) return opened.status().WithContext("REST catalog: the catalog served");
    catalog = std::move(*opened);
  }
  rest::RestCatalogServerOptions server;
  server.host = options.host;
  server.port = options.port;
  server.prefix = options.prefix;
  server.limits.max_body_bytes = static_cast<size_t>(options.max_body_bytes);
  server.threads = static_cast<size_t>(options.threads);
  server.data_token = options.data_token;
  SLUICE_ASSIGN_OR_RETURN(
      std::unique_ptr<rest::RestCatalogServer> started,
      rest::RestCatalogServer::Start(std::move(catalog), std::move(tokens), server));
  return std::unique_ptr<RestCatalogService>(new Service(std::move(started)));
}

}  // namespace sluice
