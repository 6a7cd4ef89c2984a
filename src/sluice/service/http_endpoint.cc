#include "sluice/service/http_endpoint.h"

#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

namespace sluice::service {

namespace {

// The content type of Prometheus's text exposition format 0.0.4.
constexpr char kMetricsContentType[] = "text/plain; version=0.0.4; charset=utf-8";
// Two requests at once (a scrape and a probe); more queue on the listen backlog.
constexpr size_t kServerThreads = 2;
// How long a connection may stay silent before its first request: bounds how long Stop waits
// for a client that connected and sent nothing.
constexpr time_t kIdleConnectionSeconds = 1;
// How often Stop repeats its request until the listening thread has seen it (see Stop).
constexpr std::chrono::milliseconds kStopRetry{10};

}  // namespace

struct HttpEndpoint::Server {
  httplib::Server http;
  MetricsText metrics;
  std::atomic<bool> ready{false};
  std::thread listener;
  std::mutex mu;
  std::condition_variable listener_done_cv;
  bool listener_done = false;  // guarded by mu
};

HttpEndpoint::HttpEndpoint(std::string host, int port, std::unique_ptr<Server> server)
    : host_(std::move(host)), port_(port), server_(std::move(server)) {}

HttpEndpoint::~HttpEndpoint() { Stop(); }

Result<std::unique_ptr<HttpEndpoint>> HttpEndpoint::Start(const HttpEndpointOptions& options,
                                                          MetricsText metrics) {
  const std::string where = options.host + ":" + std::to_string(options.port);
  if (options.port < 0 || options.port > 65535) {
    return Status::InvalidArgument("metrics endpoint " + where + ": the port " +
                                   std::to_string(options.port) + " is not in 0..65535");
  }
  // httplib and the standard library report failures (a thread that cannot start, memory) by
  // throwing: they stop here.
  try {
    return StartServer(options, std::move(metrics), where);
  } catch (const std::exception& e) {
    return Status::IOError("metrics endpoint on " + where + ": cannot start: " + e.what());
  }
}

Result<std::unique_ptr<HttpEndpoint>> HttpEndpoint::StartServer(const HttpEndpointOptions& options,
                                                                MetricsText metrics,
                                                                const std::string& where) {
  auto server = std::make_unique<Server>();
  server->metrics = std::move(metrics);
  httplib::Server& http = server->http;
  // httplib's default adds SO_REUSEPORT, which lets a second process bind the same port and
  // share its connections: a port in use must fail instead. SO_REUSEADDR alone still lets a
  // restarted service rebind over its old connections in TIME_WAIT.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  http.new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
  http.set_keep_alive_max_count(1);
  http.set_keep_alive_timeout(kIdleConnectionSeconds);
  Server* state = server.get();
  http.Get("/metrics", [state](const httplib::Request&, httplib::Response& res) {
    try {
      res.set_content(state->metrics(), kMetricsContentType);
    } catch (const std::exception& e) {
      res.status = 500;
      res.set_content(std::string("rendering the metrics failed: ") + e.what() + "\n",
                      "text/plain");
    }
  });
  http.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("ok\n", "text/plain");
  });
  http.Get("/readyz", [state](const httplib::Request&, httplib::Response& res) {
    if (state->ready.load()) {
      res.set_content("ready\n", "text/plain");
    } else {
      res.status = 503;
      res.set_content("not ready\n", "text/plain");
    }
  });

  errno = 0;
  int port = options.port;
  bool bound;
  if (port == 0) {
    port = http.bind_to_any_port(options.host);
    bound = port > 0;
  } else {
    bound = http.bind_to_port(options.host, port);
  }
  if (!bound) {
    int error = errno;
    if (error == EADDRINUSE) {
      return Status::IOError("metrics endpoint: cannot listen on " + where +
                             ": it is in use (another process listens there)");
    }
    return Status::IOError("metrics endpoint: cannot listen on " + where + ": " +
                           (error != 0 ? std::strerror(error) : "the host does not resolve"));
  }
  server->listener = std::thread([state] {
    state->http.listen_after_bind();
    std::lock_guard lock(state->mu);
    state->listener_done = true;
    state->listener_done_cv.notify_all();
  });
  return std::unique_ptr<HttpEndpoint>(new HttpEndpoint(options.host, port, std::move(server)));
}

std::string HttpEndpoint::address() const { return host_ + ":" + std::to_string(port_); }

void HttpEndpoint::SetReady(bool ready) { server_->ready.store(ready); }

void HttpEndpoint::Stop() {
  if (!server_->listener.joinable()) return;
  {
    // httplib's stop() does nothing until the listening thread has marked the server running,
    // which it does only once it runs: so ask again until that thread has returned.
    std::unique_lock lock(server_->mu);
    while (!server_->listener_done) {
      server_->http.stop();
      server_->listener_done_cv.wait_for(lock, kStopRetry);
    }
  }
  // The listener returns after httplib's thread pool has joined its threads.
  server_->listener.join();
}

}  // namespace sluice::service
