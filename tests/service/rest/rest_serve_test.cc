// `sluice serve`'s `rest_catalog` section: read and checked with the rest of the service config
// (errors naming the key and its line), started by the service before its jobs (a port in use
// or an unreadable tokens file fails the start), and served until the service stops: Sluice's
// REST client creates, writes and reads through it.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "rest_test_util.h"
#include "sluice/service/service.h"
#include "sluice/service/service_config.h"

namespace sluice::service {
namespace {

class RestServeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream tokens(tokens_file());
    tokens << test::kAdminToken << "\n";
  }
  std::string tokens_file() const { return dir_.path() + "/tokens"; }
  std::string Yaml(const std::string& port = "0") const {
    return "metrics: {enabled: false}\n"
           "rest_catalog:\n"
           "  port: " +
           port +
           "\n"
           "  tokens_file: " +
           tokens_file() +
           "\n"
           "  catalog: {metastore: filesystem, warehouse: " +
           dir_.path() +
           "/wh}\n"
           "  prefix: lake\n"
           "  data_token: {s3.path.style.access: 'true'}\n";
  }
  Service::Options Options() const {
    Service::Options options;
    options.log_out = std::fopen("/dev/null", "w");
    return options;
  }

  test::TempDir dir_;
};

TEST_F(RestServeTest, TheServiceServesItsRestCatalog) {
  auto config = ParseServiceConfig(Yaml(), "sluice.yaml");
  ASSERT_OK(config);
  ASSERT_TRUE(config->rest_catalog.has_value());
  EXPECT_EQ(config->rest_catalog->prefix, "lake");
  EXPECT_EQ(config->rest_catalog->catalog.at("metastore"), "filesystem");
  EXPECT_EQ(config->rest_catalog->data_token.at("s3.path.style.access"), "true");
  EXPECT_TRUE(config->jobs.empty());
  auto service = Service::Start(*config, Options());
  ASSERT_OK(service);
  const int port = (*service)->rest_catalog_port();
  ASSERT_GT(port, 0);
  auto client = Catalog::Open({{"metastore", "rest"},
                               {"uri", "127.0.0.1:" + std::to_string(port)},
                               {"token.provider", "bear"},
                               {"token", test::kAdminToken}});
  ASSERT_OK(client);
  ASSERT_OK(client->CreateDatabase("sales"));
  EXPECT_EQ(*client->ListDatabases(), std::vector<std::string>{"sales"});
  // A second service on the same port fails its start, naming the section.
  EXPECT_TRUE(test::HasError(
      Service::Start(*ParseServiceConfig(Yaml(std::to_string(port)), "b"), Options()).status(),
      StatusCode::kIOError, {"rest_catalog", "in use"}));
  EXPECT_TRUE((*service)->Stop());
  // The server is gone with the service: the client's call fails naming where it went.
  EXPECT_TRUE(test::HasError(client->ListDatabases().status(), StatusCode::kIOError,
                             {"127.0.0.1:" + std::to_string(port)}));
}

TEST_F(RestServeTest, TheSectionIsChecked) {
  const std::string base = "rest_catalog:\n  tokens_file: " + tokens_file() + "\n";
  for (const auto& [yaml, words] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {base + "  catalog: {warehouse: /w}\n  porta: 1\n",
            {"rest_catalog", "'porta'", "unknown"}},
           {base, {"rest_catalog", "'catalog'", "missing"}},
           {base + "  catalog: {metastore: filesystem}\n", {"'catalog'", "warehouse"}},
           {base + "  catalog: {warehouse: /w}\n  port: 70000\n", {"'port'", "0..65535"}},
           {base + "  catalog: {warehouse: /w}\n  prefix: a/b\n", {"'prefix'"}},
           {base + "  catalog: {warehouse: /w}\n  threads: 0\n", {"'threads'"}},
           {base + "  catalog: {warehouse: /w}\n  data_token: [a]\n", {"'data_token'"}},
           {"rest_catalog:\n  catalog: {warehouse: /w}\n", {"'tokens_file'", "missing"}},
       }) {
    SCOPED_TRACE(yaml);
    Status status = ParseServiceConfig(yaml, "s.yaml").status();
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << status.ToString();
    for (const std::string& word : words) {
      EXPECT_NE(status.message().find(word), std::string::npos) << status.message();
    }
  }
  // Without the section, jobs stay required.
  EXPECT_TRUE(test::HasError(ParseServiceConfig("metrics: {port: 0}\n", "s.yaml").status(),
                             StatusCode::kInvalidArgument, {"jobs"}));
  // A tokens file that cannot be read fails the start.
  auto config = ParseServiceConfig(
      base + "  catalog: {warehouse: " + dir_.path() + "/wh}\n  port: 0\n", "s.yaml");
  ASSERT_OK(config);
  config->metrics.enabled = false;
  config->rest_catalog->tokens_file = dir_.path() + "/missing";
  EXPECT_TRUE(test::HasError(Service::Start(*config, Options()).status(), StatusCode::kIOError,
                             {"rest_catalog", "tokens file", "missing"}));
}

}  // namespace
}  // namespace sluice::service
