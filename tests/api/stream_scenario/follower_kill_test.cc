// `sluice read --follow --consumer-id` killed with SIGKILL at random points while a writer
// commits, and restarted with the same consumer id: no row is lost, and a restart repeats rows
// of at most one snapshot (the one being handed on when the follower died). The last follower
// stops cleanly on SIGTERM and records the table's next snapshot. The test waits on the
// follower's output, never on time.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "sluice/meta/consumer_manager.h"
#include "sluice/meta/snapshot_manager.h"
#include "stream_test_util.h"

extern char** environ;

namespace sluice {
namespace {

using test::Change;
using test::StreamTable;

constexpr int kCommits = 24;
constexpr int kRowsPerCommit = 40;
// Longest wait for one line of output before the test gives up (a hung follower).
constexpr int kLineTimeoutMs = 60000;

// A `sluice read --follow` child with its stdout on a pipe.
class FollowerProcess {
 public:
  FollowerProcess(const std::string& table, const std::string& consumer) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    const std::string binary = test::BinaryDir() + "/sluice";
    std::vector<std::string> args = {binary,          "read",
                                     table,           "--follow",
                                     "--consumer-id", consumer,
                                     "--format",      "jsonl",
                                     "--option",      "scan.mode=from-snapshot",
                                     "--option",      "scan.snapshot-id=1"};
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    EXPECT_EQ(posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    fd_ = fds[0];
  }
  ~FollowerProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      Wait();
    }
    if (fd_ >= 0) ::close(fd_);
  }

  // The next complete line; nullopt at end of output or after kLineTimeoutMs.
  std::optional<std::string> ReadLine() {
    while (true) {
      if (size_t nl = buffer_.find('\n'); nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      pollfd pfd{fd_, POLLIN, 0};
      if (::poll(&pfd, 1, kLineTimeoutMs) <= 0) return std::nullopt;
      char chunk[4096];
      const ssize_t n = ::read(fd_, chunk, sizeof(chunk));
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<size_t>(n));
    }
  }

  void Signal(int signal) { ::kill(pid_, signal); }

  // Waits for the exit; the exit code, or -signal.
  int Wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  std::string buffer_;
};

// {"_ROW_KIND":"+I","id":123,"v":"c7-3"} -> ("c7-3"): the value names the commit and the row.
std::string ValueOf(const std::string& line) {
  const size_t at = line.find("\"v\":\"");
  if (at == std::string::npos) return line;
  const size_t begin = at + 5;
  return line.substr(begin, line.find('"', begin) - begin);
}

std::string CommitOf(const std::string& value) { return value.substr(0, value.find('-')); }

TEST(FollowerKillTest, RestartsRepeatAtMostTheSnapshotBeingHandedOn) {
  test::TempDir dir;
  auto created = StreamTable::Create(
      dir.path(), "queue", false, {{"bucket", "2"}, {"bucket-key", "id"}, {"write-only", "true"}});
  ASSERT_OK(created);
  StreamTable table = std::move(*created);
  const std::string path = table.table().path();

  std::atomic<bool> writer_failed{false};
  std::thread writer([&] {
    for (int c = 0; c < kCommits; ++c) {
      std::vector<Change> rows;
      for (int i = 0; i < kRowsPerCommit; ++i) {
        rows.push_back({c * kRowsPerCommit + i, "c" + std::to_string(c) + "-" + std::to_string(i)});
      }
      if (!table.Commit(rows).ok()) writer_failed = true;
    }
  });

  std::mt19937 rng(20261202);
  std::set<std::string> seen;
  const size_t total = static_cast<size_t>(kCommits) * kRowsPerCommit;
  int kills = 0;
  int exit_code = 0;
  while (true) {
    FollowerProcess follower(path, "k");
    std::vector<std::string> lines;
    // Die after a random number of lines (at least 200 new rows are still to come), unless
    // this run is to see the end.
    const bool last = seen.size() + 200 >= total || kills >= 8;
    const size_t kill_after = last ? SIZE_MAX : 1 + rng() % 150;
    std::set<std::string> all = seen;
    while (lines.size() < kill_after && all.size() < total) {
      std::optional<std::string> line = follower.ReadLine();
      ASSERT_TRUE(line.has_value())
          << "the follower stopped printing after " << lines.size() << " lines";
      lines.push_back(ValueOf(*line));
      all.insert(lines.back());
    }
    if (last) {
      follower.Signal(SIGTERM);
    } else {
      follower.Signal(SIGKILL);
    }
    // What it printed before dying was handed on too.
    while (std::optional<std::string> line = follower.ReadLine()) lines.push_back(ValueOf(*line));
    exit_code = follower.Wait();
    std::set<std::string> repeated_commits;
    for (const std::string& value : lines) {
      if (seen.count(value) != 0) repeated_commits.insert(CommitOf(value));
    }
    EXPECT_LE(repeated_commits.size(), 1u) << "restart " << kills << " repeated rows of commits "
                                           << ::testing::PrintToString(repeated_commits);
    seen.insert(lines.begin(), lines.end());
    if (last) break;
    ++kills;
  }
  writer.join();
  ASSERT_FALSE(writer_failed);
  EXPECT_EQ(exit_code, 0) << "SIGTERM is a clean stop";
  EXPECT_EQ(seen.size(), total) << "rows lost";
  // The clean stop recorded the snapshot after the last one read.
  ConsumerManager consumers(LocalFileIO(), path);
  ASSERT_OK_AND_ASSIGN(auto consumer, consumers.LoadConsumer("k"));
  ASSERT_TRUE(consumer.has_value());
  SnapshotManager snapshots(LocalFileIO(), path);
  ASSERT_OK_AND_ASSIGN(auto latest, snapshots.LatestSnapshotId());
  EXPECT_EQ(consumer->next_snapshot, *latest + 1);
  EXPECT_GE(kills, 1);
}

}  // namespace
}  // namespace sluice
