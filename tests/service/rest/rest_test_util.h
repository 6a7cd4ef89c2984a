// A REST catalog server over a scratch filesystem warehouse, in process, and the clients of the
// tests: Sluice's public Catalog opened with `metastore = rest`, and raw HTTP calls for what a
// client library would never send.
//
// Tokens: kAdminToken sees every database, kSalesToken only `sales`.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "sluice/catalog.h"
#include "sluice/catalog/catalog_factory.h"
#include "sluice/catalog/rest/rest_catalog_server.h"
#include "sluice/catalog/rest/rest_http_client.h"
#include "test_util.h"

namespace sluice::test {

inline constexpr char kAdminToken[] = "admin-0123456789abcdef";
inline constexpr char kSalesToken[] = "sales-0123456789abcdef";
inline constexpr char kPrefix[] = "paimon";

class RestServerTest : public ::testing::Test {
 protected:
  void SetUp() override { StartServer({}); }

  // (Re)starts the server with `limits` (and `data_token`).
  void StartServer(rest::RestLimits limits, std::map<std::string, std::string> data_token = {}) {
    server_.reset();
    std::string tokens =
        std::string(kAdminToken) + "\n# the sales team\n" + kSalesToken + " databases=sales\n";
    auto parsed = rest::RestTokens::Parse(tokens, "tokens");
    ASSERT_OK(parsed);
    auto backing = CreateCatalog({{"warehouse", warehouse()}});
    ASSERT_OK(backing);
    rest::RestCatalogServerOptions options;
    options.port = 0;
    options.prefix = kPrefix;
    options.limits = limits;
    options.threads = 4;
    options.idle_connection_seconds = 1;
    options.data_token = std::move(data_token);
    auto server = rest::RestCatalogServer::Start(*backing, std::move(*parsed), options);
    ASSERT_OK(server);
    server_ = std::move(*server);
  }

  std::string warehouse() const { return dir_.path() + "/wh"; }

  std::map<std::string, std::string> ClientOptions(const std::string& token) const {
    return {{"metastore", "rest"},
            {"uri", server_->uri()},
            {"token.provider", "bear"},
            {"token", token},
            {"warehouse", "wh"}};
  }

  Catalog Client(const std::string& token = kAdminToken) const {
    auto catalog = Catalog::Open(ClientOptions(token));
    EXPECT_OK(catalog);
    return catalog.ok() ? *catalog : Catalog::Filesystem("/nonexistent");
  }

  // A raw call; `token` empty sends no Authorization header.
  rest::RestHttpResponse Raw(const std::string& method, const std::string& path,
                             const std::string& body = "",
                             const std::string& token = kAdminToken) const {
    std::vector<std::string> headers;
    if (!token.empty()) headers.push_back("Authorization: Bearer " + token);
    rest::RestHttpClient http(server_->uri(), headers);
    auto response = http.Send(method, path, body);
    EXPECT_OK(response);
    return response.ok() ? *response : rest::RestHttpResponse{};
  }

  static std::string Api(const std::string& rest) { return std::string("/v1/") + kPrefix + rest; }

  TempDir dir_;
  std::unique_ptr<rest::RestCatalogServer> server_;
};

}  // namespace sluice::test
