#include "sluice/fs/directory_watcher.h"

#include <gtest/gtest.h>

#include <thread>

#include "sluice/fs/file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

using std::chrono::milliseconds;

// Every watcher: quiet -> false at the timeout; a file created (before or during the wait) ->
// true; the directory created later -> watched from then on.
void ExpectWatches(FileIO* io, const std::string& dir, DirectoryWatcher* watcher) {
  ASSERT_OK_AND_ASSIGN(bool changed, watcher->Wait(milliseconds(20)));
  EXPECT_FALSE(changed);

  // Created before the wait: still reported.
  ASSERT_OK(io->WriteFileAtomic(dir + "/a", "1", /*overwrite=*/false));
  ASSERT_OK_AND_ASSIGN(changed, watcher->Wait(milliseconds(5000)));
  EXPECT_TRUE(changed);

  // Created by another thread while waiting.
  std::thread writer([&] { EXPECT_OK(io->WriteFileAtomic(dir + "/b", "2", false)); });
  bool seen = false;
  for (int i = 0; i < 10 && !seen; ++i) {
    ASSERT_OK_AND_ASSIGN(seen, watcher->Wait(milliseconds(5000)));
    ASSERT_OK_AND_ASSIGN(bool exists, io->Exists(dir + "/b"));
    seen = seen && exists;
  }
  writer.join();
  EXPECT_TRUE(seen);
}

TEST(DirectoryWatcherTest, InotifySeesNewFiles) {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/snapshot";
  std::shared_ptr<FileIO> io = LocalFileIO();
  ASSERT_OK(io->MkDirs(dir));
  ASSERT_OK_AND_ASSIGN(auto watcher, NewInotifyDirectoryWatcher(dir));
  ExpectWatches(io.get(), dir, watcher.get());
}

TEST(DirectoryWatcherTest, InotifyWaitsForTheDirectoryToExist) {
  test::TempDir tmp;
  const std::string dir = tmp.path() + "/later";
  std::shared_ptr<FileIO> io = LocalFileIO();
  ASSERT_OK_AND_ASSIGN(auto watcher, io->WatchDir(dir));
  ASSERT_OK_AND_ASSIGN(bool changed, watcher->Wait(milliseconds(10)));
  EXPECT_FALSE(changed);
  ASSERT_OK(io->MkDirs(dir));
  ASSERT_OK_AND_ASSIGN(changed, watcher->Wait(milliseconds(5000)));
  EXPECT_TRUE(changed);
  ExpectWatches(io.get(), dir, watcher.get());
}

TEST(DirectoryWatcherTest, PollingSeesNewFiles) {
  auto io = std::make_shared<MemoryFileIO>();
  const std::string dir = "/t/snapshot";
  ASSERT_OK(io->MkDirs(dir));
  ASSERT_OK_AND_ASSIGN(auto watcher, io->WatchDir(dir));
  ExpectWatches(io.get(), dir, watcher.get());
}

}  // namespace
}  // namespace sluice
