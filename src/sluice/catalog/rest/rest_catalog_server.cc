#include "sluice/catalog/rest/rest_catalog_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>

#include "sluice/catalog/rest/rest_catalog_handler.h"

namespace sluice::rest {
namespace {

constexpr char kJson[] = "application/json";
// How often Stop repeats its request until the listening thread has seen it (httplib ignores a
// stop before the listener runs).
constexpr std::chrono::milliseconds kStopRetry{10};
// Seconds a client may stay silent in a request before the server drops it.
constexpr time_t kReadTimeoutSeconds = 30;

void Answer(const RestResponse& response, httplib::Response* res) {
  res->status = response.status;
  if (!response.body.empty()) res->set_content(response.body, kJson);
}

}  // namespace

struct RestCatalogServer::Server {
  Server(std::shared_ptr<const CatalogBackend> catalog, RestTokens tokens, std::string prefix,
         RestLimits limits, std::map<std::string, std::string> data_token)
      : handler(std::move(catalog), std::move(prefix), std::move(data_token)),
        tokens(std::move(tokens)),
        limits(limits) {}

  // Runs one authorized request.
  void Serve(const httplib::Request& req, httplib::Response* res) const {
    try {
      std::optional<RestAccess> access = tokens.Find(req.get_header_value("Authorization"));
      if (!access) {
        Answer(RestCatalogHandler::Error(
                   RestError{401, "", "", "a valid `Authorization: Bearer <token>` is required"}),
               res);
        return;
      }
      std::variant<RestRequest, RestError> parsed =
          ParseRestRequest(req.method, req.target, req.body, handler.prefix(), limits);
      if (auto* error = std::get_if<RestError>(&parsed)) {
        Answer(RestCatalogHandler::Error(*error), res);
        return;
      }
      const RestRequest& request = std::get<RestRequest>(parsed);
      counts[static_cast<size_t>(request.operation)].fetch_add(1, std::memory_order_relaxed);
      Answer(handler.Handle(request, *access), res);
    } catch (const std::exception& e) {
      Answer(RestCatalogHandler::Error(
                 RestError{500, "", "", std::string("the server failed: ") + e.what()}),
             res);
    }
  }

  RestCatalogHandler handler;
  RestTokens tokens;
  RestLimits limits;
  mutable std::array<std::atomic<int64_t>, static_cast<size_t>(RestOperation::kNotImplemented) + 1>
      counts{};
  httplib::Server http;
  std::thread listener;
  std::mutex mu;
  std::condition_variable listener_done_cv;
  bool listener_done = false;  // guarded by mu
};

RestCatalogServer::RestCatalogServer(std::string host, int port, std::unique_ptr<Server> server)
    : host_(std::move(host)), port_(port), server_(std::move(server)) {}

RestCatalogServer::~RestCatalogServer() { Stop(); }

std::string RestCatalogServer::uri() const {
  return "http://" + host_ + ":" + std::to_string(port_);
}

Result<std::unique_ptr<RestCatalogServer>> RestCatalogServer::Start(
    std::shared_ptr<const CatalogBackend> catalog, RestTokens tokens,
    RestCatalogServerOptions options) {
  const std::string where = options.host + ":" + std::to_string(options.port);
  if (options.port < 0 || options.port > 65535) {
    return Status::InvalidArgument("REST catalog server " + where + ": the port " +
                                   std::to_string(options.port) + " is not in 0..65535");
  }
  if (options.prefix.empty()) {
    return Status::InvalidArgument("REST catalog server: the prefix is empty");
  }
  if (tokens.size() == 0) {
    return Status::InvalidArgument("REST catalog server: the tokens file lists no token");
  }
  // httplib and the standard library report failures (a thread that cannot start) by throwing.
  try {
    return StartServer(std::move(catalog), std::move(tokens), options);
  } catch (const std::exception& e) {
    return Status::IOError("REST catalog server on " + where + ": cannot start: " + e.what());
  }
}

Result<std::unique_ptr<RestCatalogServer>> RestCatalogServer::StartServer(
    std::shared_ptr<const CatalogBackend> catalog, RestTokens tokens,
    const RestCatalogServerOptions& options) {
  const std::string where = options.host + ":" + std::to_string(options.port);
  auto server = std::make_unique<Server>(std::move(catalog), std::move(tokens), options.prefix,
                                         options.limits, options.data_token);
  Server* state = server.get();
  httplib::Server& http = server->http;
  // No SO_REUSEPORT (httplib's default): a port in use must fail, not be shared.
  http.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  const size_t threads = options.threads == 0 ? 1 : options.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_read_timeout(kReadTimeoutSeconds, 0);
  http.set_keep_alive_timeout(std::max(options.idle_connection_seconds, 1));
  // Clients keep their connections (Java's RESTCatalog pools them): answered without Nagle's
  // delay, which with the client's delayed ACK held a kept-alive get to ~40 ms (bench/run.sh
  // catalog), and not closed after httplib's default of 5 requests.
  http.set_tcp_nodelay(true);
  http.set_keep_alive_max_count(100);
  http.set_payload_max_length(options.limits.max_body_bytes);
  // Before the body is read: a request without a valid token is refused unread.
  http.set_pre_routing_handler([state](const httplib::Request& req, httplib::Response& res) {
    if (!state->tokens.Find(req.get_header_value("Authorization"))) {
      Answer(RestCatalogHandler::Error(
                 RestError{401, "", "", "a valid `Authorization: Bearer <token>` is required"}),
             &res);
      return httplib::Server::HandlerResponse::Handled;
    }
    // httplib bounds a body by its Content-Length only: a chunked body would be read whole,
    // however long. Java's and pypaimon's clients send the length.
    if (req.has_header("Transfer-Encoding")) {
      Answer(RestCatalogHandler::Error(
                 RestError{411, "", "",
                           "request body: send it with a Content-Length (Transfer-Encoding is "
                           "not accepted)"}),
             &res);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  auto serve = [state](const httplib::Request& req, httplib::Response& res) {
    state->Serve(req, &res);
  };
  http.Get(".*", serve);
  http.Post(".*", serve);
  http.Delete(".*", serve);
  // httplib's own refusals (an oversized body, a malformed request) in Java's error shape.
  http.set_error_handler(httplib::Server::HandlerWithResponse(
      [limit = options.limits.max_body_bytes](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        std::string message = "the request was refused";
        if (res.status == 413) {
          message = "request body: over the limit of " + std::to_string(limit) + " bytes";
        } else if (res.status == 404) {
          message = "no such resource";
        }
        Answer(RestCatalogHandler::Error(RestError{res.status, "", "", message}), &res);
        return httplib::Server::HandlerResponse::Handled;
      }));

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
    const int error = errno;
    if (error == EADDRINUSE) {
      return Status::IOError("REST catalog server: cannot listen on " + where +
                             ": it is in use (another process listens there)");
    }
    return Status::IOError("REST catalog server: cannot listen on " + where + ": " +
                           (error != 0 ? std::strerror(error) : "the host does not resolve"));
  }
  server->listener = std::thread([state] {
    state->http.listen_after_bind();
    std::lock_guard lock(state->mu);
    state->listener_done = true;
    state->listener_done_cv.notify_all();
  });
  return std::unique_ptr<RestCatalogServer>(
      new RestCatalogServer(options.host, port, std::move(server)));
}

int64_t RestCatalogServer::RequestCount(RestOperation operation) const {
  return server_->counts[static_cast<size_t>(operation)].load(std::memory_order_relaxed);
}

void RestCatalogServer::Stop() {
  if (!server_->listener.joinable()) return;
  {
    std::unique_lock lock(server_->mu);
    while (!server_->listener_done) {
      server_->http.stop();
      server_->listener_done_cv.wait_for(lock, kStopRetry);
    }
  }
  server_->listener.join();
}

}  // namespace sluice::rest
