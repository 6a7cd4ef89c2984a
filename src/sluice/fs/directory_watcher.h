// DirectoryWatcher: waits, without spinning, until the entries of one directory may have
// changed (a file created, renamed in or out, or deleted), e.g. a streaming reader waiting for
// the next snapshot file. Two implementations:
//
//   inotify   Linux, local directories: the thread sleeps in poll(2) until the kernel reports
//             an event, so a change is seen within a millisecond and an idle wait costs nothing.
//             Events that happen after the watcher is made and before Wait() are queued, so a
//             caller that checks the directory and then waits misses nothing. While the
//             directory does not exist yet, it polls for it (with backoff) and then watches.
//   polling   any FileIO: lists the directory with backoff (from 1 ms, doubling to 100 ms)
//             and reports a change when the listing differs from the previous one.
//
// Wait() may report a change that the caller does not care about (another file of the
// directory, or an interrupted wait): callers re-check what they wait for.
//
// Thread safety: a watcher is used by one thread at a time.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "sluice/result.h"

namespace sluice {

class FileIO;

class DirectoryWatcher {
 public:
  virtual ~DirectoryWatcher() = default;
  // Blocks until the directory may have changed since the watcher was made or the last Wait
  // returned (true), or `timeout` has passed with no change (false).
  virtual Result<bool> Wait(std::chrono::milliseconds timeout) = 0;
};

// A watcher listing `dir` through `io`, which must outlive it.
std::unique_ptr<DirectoryWatcher> NewPollingDirectoryWatcher(FileIO* io, std::string dir);

// An inotify watcher of the local directory `dir`; IOError when inotify is unavailable.
Result<std::unique_ptr<DirectoryWatcher>> NewInotifyDirectoryWatcher(std::string dir);

}  // namespace sluice
