// Helpers of the service's unit tests.
//
// Thread safety: functions.
#pragma once

#include <chrono>
#include <thread>

namespace sluice::service {

// Polls `done` until it holds (true) or 20 s pass (false): the jobs run on threads of their own.
template <typename F>
bool Eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace sluice::service
