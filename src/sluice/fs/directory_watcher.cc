#include "sluice/fs/directory_watcher.h"

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "sluice/fs/file_io.h"

namespace sluice {

namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr milliseconds kMinBackoff{1};
constexpr milliseconds kMaxBackoff{100};

// Doubling sleeps between kMinBackoff and kMaxBackoff, reset when something changed.
class Backoff {
 public:
  milliseconds Next() {
    const milliseconds current = current_;
    current_ = std::min(current_ * 2, kMaxBackoff);
    return current;
  }
  void Reset() { current_ = kMinBackoff; }

 private:
  milliseconds current_ = kMinBackoff;
};

class PollingDirectoryWatcher final : public DirectoryWatcher {
 public:
  PollingDirectoryWatcher(FileIO* io, std::string dir) : io_(io), dir_(std::move(dir)) {
    // A failed first listing reads as empty: the next successful one reports a change.
    Result<std::vector<std::string>> names = List();
    if (names.ok()) last_ = std::move(*names);
  }

  Result<bool> Wait(milliseconds timeout) override {
    const Clock::time_point deadline = Clock::now() + timeout;
    while (true) {
      SLUICE_ASSIGN_OR_RETURN(std::vector<std::string> names, List());
      if (names != last_) {
        last_ = std::move(names);
        backoff_.Reset();
        return true;
      }
      const Clock::time_point now = Clock::now();
      if (now >= deadline) return false;
      std::this_thread::sleep_for(std::min<Clock::duration>(backoff_.Next(), deadline - now));
    }
  }

 private:
  Result<std::vector<std::string>> List() const {
    Result<std::vector<FileStatus>> entries = io_->ListDir(dir_);
    if (!entries.ok()) {
      if (entries.status().IsNotFound()) return std::vector<std::string>{};
      return entries.status();
    }
    std::vector<std::string> names;
    names.reserve(entries->size());
    for (FileStatus& entry : *entries) names.push_back(std::move(entry.path));
    return names;
  }

  FileIO* io_;
  std::string dir_;
  std::vector<std::string> last_;
  Backoff backoff_;
};

class InotifyDirectoryWatcher final : public DirectoryWatcher {
 public:
  InotifyDirectoryWatcher(int fd, std::string dir) : fd_(fd), dir_(std::move(dir)) {
    // A missing directory (or a failure, reported by Wait) is watched once it exists.
    TryAddWatch().status().IgnoreError();
  }
  ~InotifyDirectoryWatcher() override { ::close(fd_); }

  Result<bool> Wait(milliseconds timeout) override {
    const Clock::time_point deadline = Clock::now() + timeout;
    while (wd_ < 0) {
      SLUICE_ASSIGN_OR_RETURN(bool added, TryAddWatch());
      // The directory appeared: its first files may already be there.
      if (added) return true;
      const Clock::time_point now = Clock::now();
      if (now >= deadline) return false;
      std::this_thread::sleep_for(std::min<Clock::duration>(backoff_.Next(), deadline - now));
    }
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(std::max<int64_t>(0, left.count())));
    if (ready < 0) {
      if (errno == EINTR) return true;  // a signal: let the caller look (and stop if asked)
      return Status::IOError(dir_ + ": poll on inotify: " + std::strerror(errno));
    }
    if (ready == 0) return false;
    Drain();
    return true;
  }

 private:
  // true when the watch was added now.
  Result<bool> TryAddWatch() {
    constexpr uint32_t kMask = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |
                               IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF;
    const int wd = ::inotify_add_watch(fd_, dir_.c_str(), kMask);
    if (wd < 0) {
      if (errno == ENOENT || errno == ENOTDIR) return false;
      return Status::IOError(dir_ + ": inotify_add_watch: " + std::strerror(errno));
    }
    wd_ = wd;
    backoff_.Reset();
    return true;
  }

  // Reads every queued event; a directory that went away is watched again once it is back.
  void Drain() {
    alignas(inotify_event) char buffer[4096];
    while (true) {
      const ssize_t n = ::read(fd_, buffer, sizeof(buffer));
      if (n <= 0) return;
      for (ssize_t offset = 0; offset < n;) {
        const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
        if ((event->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) != 0) wd_ = -1;
        offset += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      }
    }
  }

  int fd_;
  int wd_ = -1;
  std::string dir_;
  Backoff backoff_;
};

}  // namespace

std::unique_ptr<DirectoryWatcher> NewPollingDirectoryWatcher(FileIO* io, std::string dir) {
  return std::make_unique<PollingDirectoryWatcher>(io, std::move(dir));
}

Result<std::unique_ptr<DirectoryWatcher>> NewInotifyDirectoryWatcher(std::string dir) {
  const int fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return Status::IOError(dir + ": inotify_init1: " + std::strerror(errno));
  return std::unique_ptr<DirectoryWatcher>(
      std::make_unique<InotifyDirectoryWatcher>(fd, StripFileScheme(dir)));
}

}  // namespace sluice
