#include "fault_proxy.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <thread>

namespace sluice::test {

namespace {

bool SendAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// One whole request: the head up to the blank line, then Content-Length bytes of body.
bool ReadRequest(int fd, std::string* request) {
  char buf[65536];
  size_t head_end = std::string::npos;
  size_t total = 0;
  while (true) {
    if (head_end == std::string::npos) {
      head_end = request->find("\r\n\r\n");
      if (head_end != std::string::npos) {
        head_end += 4;
        total = head_end;
        std::string lower = request->substr(0, head_end);
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        const size_t at = lower.find("\r\ncontent-length:");
        if (at != std::string::npos) total += std::strtoull(lower.c_str() + at + 17, nullptr, 10);
      }
    }
    if (head_end != std::string::npos && request->size() >= total) return true;
    ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) return false;
    request->append(buf, static_cast<size_t>(n));
  }
}

}  // namespace

FaultProxy::FaultProxy(int upstream_port) : upstream_port_(upstream_port) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::listen(listener_, 16) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return;
  }
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { Serve(); });
}

FaultProxy::~FaultProxy() {
  stop_ = true;
  Release();
  if (thread_.joinable()) thread_.join();
  if (listener_ >= 0) ::close(listener_);
}

std::string FaultProxy::endpoint() const {
  return port_ == 0 ? std::string() : "http://127.0.0.1:" + std::to_string(port_);
}

void FaultProxy::OnlyFor(std::string text) {
  std::lock_guard<std::mutex> lock(mu_);
  only_for_ = std::move(text);
}

void FaultProxy::HoldNext() {
  std::lock_guard<std::mutex> lock(mu_);
  hold_next_ = true;
}

bool FaultProxy::WaitUntilHeld(int timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [this] { return holding_; });
}

void FaultProxy::Release() {
  std::lock_guard<std::mutex> lock(mu_);
  hold_next_ = false;
  holding_ = false;
  cv_.notify_all();
}

bool FaultProxy::Matches(const std::string& request) {
  std::lock_guard<std::mutex> lock(mu_);
  return request.substr(0, request.find("\r\n")).find(only_for_) != std::string::npos;
}

// Blocks the proxy's thread (and so every later connection) until Release().
void FaultProxy::Hold() {
  std::unique_lock<std::mutex> lock(mu_);
  if (!hold_next_) return;
  ++faulted_;
  holding_ = true;
  cv_.notify_all();
  cv_.wait(lock, [this] { return !holding_ || stop_; });
}

void FaultProxy::Serve() {
  while (!stop_) {
    pollfd p{listener_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    Handle(client);
    ::close(client);
  }
}

void FaultProxy::Handle(int client) {
  std::string request;
  if (!ReadRequest(client, &request)) return;
  ++requests_;
  if (!Matches(request)) {
    Forward(client, std::move(request), /*drop_answer=*/false);
    return;
  }
  Hold();
  if (fail_next_ > 0) {
    --fail_next_;
    ++faulted_;
    const std::string body =
        "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>";
    SendAll(client, "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: " +
                        std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    return;
  }
  if (stall_next_ > 0) {
    --stall_next_;
    ++faulted_;
    std::this_thread::sleep_for(std::chrono::milliseconds(stall_ms_));
    return;
  }
  bool drop = false;
  if (drop_next_ > 0) {
    --drop_next_;
    ++faulted_;
    drop = true;
  }
  Forward(client, std::move(request), drop);
}

void FaultProxy::Forward(int client, std::string request, bool drop_answer) {
  // One request per connection: the server closes after its answer, which ends the relay.
  const size_t line_end = request.find("\r\n");
  request.insert(line_end + 2, "Connection: close\r\n");
  int upstream = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(upstream_port_));
  if (upstream < 0 || ::connect(upstream, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      !SendAll(upstream, request)) {
    if (upstream >= 0) ::close(upstream);
    return;
  }
  std::string answer;
  char buf[65536];
  ssize_t n;
  while ((n = ::recv(upstream, buf, sizeof(buf), 0)) > 0)
    answer.append(buf, static_cast<size_t>(n));
  ::close(upstream);
  // A dropped answer: the server did the request; the client never hears of it.
  if (!drop_answer) SendAll(client, answer);
}

}  // namespace sluice::test
