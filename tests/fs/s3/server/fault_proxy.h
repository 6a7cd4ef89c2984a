// A one-request-per-connection HTTP proxy on 127.0.0.1 that forwards to the S3 server of the
// tests and injects the faults S3 clients must survive: a 503 SlowDown answered in the server's
// place, or a request that reaches the server whose answer is lost (the connection closes
// before it comes back, as on a reset), or no answer at all (a server that hangs).
//
// Thread safety: the fault setters may be called from any thread; connections are served one
// at a time by the proxy's own thread.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

namespace sluice::test {

class FaultProxy {
 public:
  // Forwards to `upstream_port` on 127.0.0.1; listens on a free port.
  explicit FaultProxy(int upstream_port);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  // "http://127.0.0.1:<port>", or "" when the proxy could not listen.
  std::string endpoint() const;
  // The next `n` requests are answered 503 SlowDown without reaching the server.
  void FailNext(int n) { fail_next_ = n; }
  // The next `n` requests reach the server, but the connection closes before the answer.
  void DropAnswerOfNext(int n) { drop_next_ = n; }
  // The next `n` requests get no answer for `ms` milliseconds, then the connection closes.
  void StallNext(int n, int ms) {
    stall_ms_ = ms;
    stall_next_ = n;
  }
  // Requests seen so far.
  int requests() const { return requests_; }

 private:
  void Serve();
  void Handle(int client);

  int upstream_port_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> fail_next_{0};
  std::atomic<int> drop_next_{0};
  std::atomic<int> stall_next_{0};
  std::atomic<int> stall_ms_{0};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

}  // namespace sluice::test
