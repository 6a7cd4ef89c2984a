#include "sluice/service/http_endpoint.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>

#include "test_util.h"

namespace sluice::service {
namespace {

using std::chrono::steady_clock;

// A GET through a real client socket to the endpoint.
httplib::Result Get(const HttpEndpoint& endpoint, const std::string& path) {
  httplib::Client client(endpoint.host(), endpoint.port());
  client.set_connection_timeout(5);
  client.set_read_timeout(5);
  return client.Get(path);
}

HttpEndpoint::MetricsText FixedText(std::string text) {
  return [text] { return text; };
}

TEST(HttpEndpointTest, PortZeroPicksAFreeLoopbackPort) {
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, FixedText("")));
  EXPECT_EQ(endpoint->host(), "127.0.0.1");
  EXPECT_GT(endpoint->port(), 0);
  EXPECT_EQ(endpoint->address(), "127.0.0.1:" + std::to_string(endpoint->port()));
}

TEST(HttpEndpointTest, MetricsServeTheOwnersTextAtEachRequest) {
  std::atomic<int> renders{0};
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, [&renders] {
                         int n = ++renders;
                         return "# TYPE x counter\nx " + std::to_string(n) + "\n";
                       }));
  for (int n = 1; n <= 2; ++n) {
    auto res = Get(*endpoint, "/metrics");
    ASSERT_TRUE(res) << httplib::to_string(res.error());
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_EQ(res->body, "# TYPE x counter\nx " + std::to_string(n) + "\n");
  }
  EXPECT_EQ(renders.load(), 2);
}

TEST(HttpEndpointTest, AFailingRenderIsAServerError) {
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, []() -> std::string {
                         throw std::runtime_error("registry gone");
                       }));
  auto res = Get(*endpoint, "/metrics");
  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 500);
  EXPECT_NE(res->body.find("registry gone"), std::string::npos) << res->body;
}

TEST(HttpEndpointTest, HealthAlwaysReadinessOnlyWhenTheOwnerSaysSo) {
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, FixedText("")));
  auto status_of = [&](const std::string& path) {
    auto res = Get(*endpoint, path);
    return res ? res->status : -1;
  };
  EXPECT_EQ(status_of("/healthz"), 200);
  EXPECT_EQ(status_of("/readyz"), 503);
  endpoint->SetReady(true);
  EXPECT_EQ(status_of("/readyz"), 200);
  EXPECT_EQ(status_of("/healthz"), 200);
  // Draining.
  endpoint->SetReady(false);
  EXPECT_EQ(status_of("/readyz"), 503);
  EXPECT_EQ(status_of("/healthz"), 200);
}

TEST(HttpEndpointTest, OtherPathsAreNotFound) {
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, FixedText("x 1\n")));
  for (const char* path : {"/", "/metric", "/metrics/x", "/api/v1/query"}) {
    auto res = Get(*endpoint, path);
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 404) << path;
  }
  httplib::Client client(endpoint->host(), endpoint->port());
  auto post = client.Post("/metrics", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 404);
}

TEST(HttpEndpointTest, APortInUseFailsNamingIt) {
  ASSERT_OK_AND_ASSIGN(auto first, HttpEndpoint::Start({}, FixedText("")));
  HttpEndpointOptions options;
  options.port = first->port();
  auto second = HttpEndpoint::Start(options, FixedText(""));
  EXPECT_TRUE(test::HasError(second, StatusCode::kIOError, {first->address(), "in use"}));
  // The first still serves.
  auto res = Get(*first, "/healthz");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
}

TEST(HttpEndpointTest, BadPortOrHostFailsNamingIt) {
  HttpEndpointOptions options;
  options.port = 70000;
  EXPECT_TRUE(test::HasError(HttpEndpoint::Start(options, FixedText("")),
                             StatusCode::kInvalidArgument, {"127.0.0.1:70000", "0..65535"}));
  options.port = 0;
  options.host = "no-such-host.invalid";
  EXPECT_TRUE(test::HasError(HttpEndpoint::Start(options, FixedText("")), StatusCode::kIOError,
                             {"no-such-host.invalid:0", "cannot listen"}));
}

// A client that connected and never sent a request does not hold Stop; the port is free after.
TEST(HttpEndpointTest, StopIsPromptAndFreesThePort) {
  ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, FixedText("")));
  int port = endpoint->port();
  int idle = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(idle, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  ASSERT_EQ(connect(idle, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  auto started = steady_clock::now();
  endpoint->Stop();
  auto took = steady_clock::now() - started;
  close(idle);
  EXPECT_LT(took, std::chrono::seconds(3));
  endpoint->Stop();  // idempotent

  HttpEndpointOptions options;
  options.port = port;
  ASSERT_OK_AND_ASSIGN(auto again, HttpEndpoint::Start(options, FixedText("y 2\n")));
  auto res = Get(*again, "/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->body, "y 2\n");
}

// Stop right after Start, before the server thread has run, still returns.
TEST(HttpEndpointTest, StopRightAfterStart) {
  for (int i = 0; i < 20; ++i) {
    ASSERT_OK_AND_ASSIGN(auto endpoint, HttpEndpoint::Start({}, FixedText("")));
    endpoint->Stop();
    EXPECT_FALSE(Get(*endpoint, "/healthz")) << "still serving after Stop";
  }
}

}  // namespace
}  // namespace sluice::service
