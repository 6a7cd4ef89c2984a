// HttpEndpoint: the embedded HTTP server of `sluice serve` and `sluice action --metrics-port`,
// on cpp-httplib (Debian's libcpp-httplib-dev).
//
//   GET /metrics   200, the owner's text as Prometheus text exposition format 0.0.4
//   GET /healthz   200 while the process runs (a liveness probe)
//   GET /readyz    200 once the owner called SetReady(true), 503 before that and after
//                  SetReady(false) (while draining at shutdown)
//   anything else  404
//
// Connections are not kept alive past one request, so Stop never waits on an idle client.
//
// Thread safety: SetReady and Stop may be called from any thread. The metrics callback runs
// on the server's threads, possibly two at once, for as long as the endpoint runs: it must be
// thread-safe and must outlive the endpoint (or its Stop).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "sluice/result.h"

namespace sluice::service {

struct HttpEndpointOptions {
  // Loopback unless the owner exposes the endpoint on purpose.
  std::string host = "127.0.0.1";
  // 0 picks a free port; HttpEndpoint::port() tells which.
  int port = 0;
};

class HttpEndpoint {
 public:
  // The body of GET /metrics, rendered at each request. A thrown exception is a 500.
  using MetricsText = std::function<std::string()>;

  // Listens on options.host:options.port and serves on threads of its own until Stop (or
  // destruction). IOError naming host:port when the port is in use (another process listens
  // there) or the address cannot be bound; InvalidArgument for a port outside 0..65535.
  static Result<std::unique_ptr<HttpEndpoint>> Start(const HttpEndpointOptions& options,
                                                     MetricsText metrics);

  // Stops.
  ~HttpEndpoint();
  HttpEndpoint(const HttpEndpoint&) = delete;
  HttpEndpoint& operator=(const HttpEndpoint&) = delete;

  const std::string& host() const { return host_; }
  // The port listened on (the one picked when options.port was 0).
  int port() const { return port_; }
  // "host:port", as a Prometheus scrape target names it.
  std::string address() const;

  void SetReady(bool ready);

  // Stops accepting, finishes the requests in flight and joins every thread of the server.
  // Idempotent.
  void Stop();

 private:
  struct Server;
  // Start's work, which may throw.
  static Result<std::unique_ptr<HttpEndpoint>> StartServer(const HttpEndpointOptions& options,
                                                           MetricsText metrics,
                                                           const std::string& where);
  HttpEndpoint(std::string host, int port, std::unique_ptr<Server> server);

  std::string host_;
  int port_;
  std::unique_ptr<Server> server_;
};

}  // namespace sluice::service
