// A one-request-per-connection HTTP proxy on 127.0.0.1 that forwards to the S3 server of the
// tests and injects the faults S3 clients must survive: a 503 SlowDown answered in the server's
// place, or a request that reaches the server whose answer is lost (the connection closes
// before it comes back, as on a reset), or no answer at all (a server that hangs). A request can
// also be held before it is forwarded, until the test releases it (to kill the server while a
// command waits on that request). OnlyFor narrows every fault to the requests whose request
// line ("PUT /bucket/key?query HTTP/1.1") contains a text.
//
// Thread safety: the fault setters may be called from any thread; connections are served one
// at a time by the proxy's own thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
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
  // The faults apply only to requests whose request line contains `text` ("": every request).
  void OnlyFor(std::string text);
  // The next request (of OnlyFor's) waits before it is forwarded until Release().
  void HoldNext();
  // Waits until a request is held; false after `timeout_ms`.
  bool WaitUntilHeld(int timeout_ms);
  // Forwards the held request (to whatever listens upstream by then).
  void Release();
  // Requests seen so far, and those a fault applied to.
  int requests() const { return requests_; }
  int faulted() const { return faulted_; }

 private:
  void Serve();
  void Handle(int client);
  bool Matches(const std::string& request);
  void Hold();
  // Relays `request` to the server and its answer back (unless `drop_answer`); a server that
  // does not accept the connection closes the client's without an answer.
  void Forward(int client, std::string request, bool drop_answer);

  int upstream_port_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> fail_next_{0};
  std::atomic<int> drop_next_{0};
  std::atomic<int> stall_next_{0};
  std::atomic<int> stall_ms_{0};
  std::atomic<int> requests_{0};
  std::atomic<int> faulted_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  std::string only_for_;    // guarded by mu_
  bool hold_next_ = false;  // guarded by mu_
  bool holding_ = false;    // guarded by mu_
  std::thread thread_;
};

}  // namespace sluice::test
