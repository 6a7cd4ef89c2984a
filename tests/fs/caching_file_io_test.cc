// CachingFileIO: which files it keeps, that a second read comes from the local copy, the LRU
// bound in bytes, and copies shared by several FileIOs (processes) on one directory.

#include "sluice/fs/caching_file_io.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>
#include <vector>

#include "sluice/fs/memory_file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

// MemoryFileIO counting the reads that reach it.
class CountingFileIO final : public FileIO {
 public:
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    ++opens;
    return base.OpenForRead(path);
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path,
                                                     bool overwrite) override {
    return base.OpenForWrite(path, overwrite);
  }
  Result<std::string> ReadFile(const std::string& path) override {
    ++reads;
    return base.ReadFile(path);
  }
  Result<bool> Exists(const std::string& path) override { return base.Exists(path); }
  Result<FileStatus> GetStatus(const std::string& path) override { return base.GetStatus(path); }
  Result<std::vector<FileStatus>> ListDir(const std::string& dir) override {
    return base.ListDir(dir);
  }
  Status MkDirs(const std::string& dir) override { return base.MkDirs(dir); }
  Status Delete(const std::string& path, bool recursive) override {
    return base.Delete(path, recursive);
  }
  Status RenameNoReplace(const std::string& from, const std::string& to) override {
    return base.RenameNoReplace(from, to);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    return base.Rename(from, to);
  }
  Status SyncDir(const std::string& dir) override { return base.SyncDir(dir); }

  MemoryFileIO base;
  std::atomic<int> opens{0};
  std::atomic<int> reads{0};
};

std::string ReadAll(FileIO& io, const std::string& path) {
  auto file = io.OpenForRead(path);
  EXPECT_OK(file);
  if (!file.ok()) return "";
  std::string out(static_cast<size_t>((*file)->size()), '\0');
  Status st = (*file)->ReadAt(0, (*file)->size(), reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_OK(st);
  return out;
}

int CopiesIn(const std::string& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file();
  return n;
}

TEST(CachingFileIOTest, OnlyImmutableTableFilesAreCached) {
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/bucket-0/data-1b2c-0.parquet"));
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/p=1/bucket-0/changelog-1b2c-0.orc"));
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/manifest/manifest-1b2c-0"));
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/manifest/manifest-list-1b2c-0"));
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/manifest/index-manifest-1b2c-0"));
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/index/index-1b2c-0"));
  EXPECT_TRUE(IsImmutableTableFile("s3://b/t/statistics/stat-1b2c-0"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/snapshot/snapshot-3"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/snapshot/LATEST"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/snapshot/EARLIEST"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/schema/schema-0"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/tag/tag-v1"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/consumer/consumer-c"));
  EXPECT_FALSE(IsImmutableTableFile("s3://b/t/data"));
}

TEST(CachingFileIOTest, OptionsNameTheDirectoryAndTheBound) {
  ASSERT_OK_AND_ASSIGN(auto none, FileCacheOptions::FromOptions({{"s3.endpoint", "x"}}));
  EXPECT_FALSE(none.has_value());
  ASSERT_OK_AND_ASSIGN(
      auto some, FileCacheOptions::FromOptions({{"cache.dir", "/c"}, {"cache.max-size", "2 gb"}}));
  ASSERT_TRUE(some.has_value());
  EXPECT_EQ(some->dir, "/c");
  EXPECT_EQ(some->max_bytes, int64_t{2} << 30);
  ASSERT_OK_AND_ASSIGN(auto fallback, FileCacheOptions::FromOptions({{"cache.dir", "/c"}}));
  EXPECT_EQ(fallback->max_bytes, int64_t{1} << 30);
  EXPECT_TRUE(test::HasError(
      FileCacheOptions::FromOptions({{"cache.dir", "/c"}, {"cache.max-size", "lots"}}),
      StatusCode::kInvalidArgument, {"cache.max-size", "lots"}));
}

TEST(CachingFileIOTest, ASecondReadComesFromTheLocalCopy) {
  test::TempDir dir;
  auto store = std::make_shared<CountingFileIO>();
  ASSERT_OK(store->base.WriteFileAtomic("/t/manifest/manifest-a", "manifest bytes", false));
  ASSERT_OK(store->base.WriteFileAtomic("/t/snapshot/LATEST", "1", false));
  ASSERT_OK_AND_ASSIGN(auto io, MakeCachingFileIO(store, FileCacheOptions{dir.path(), 1 << 20}));

  EXPECT_EQ(ReadAll(*io, "/t/manifest/manifest-a"), "manifest bytes");
  EXPECT_EQ(store->reads, 1);
  EXPECT_EQ(ReadAll(*io, "/t/manifest/manifest-a"), "manifest bytes");
  ASSERT_OK_AND_ASSIGN(std::string whole, io->ReadFile("/t/manifest/manifest-a"));
  EXPECT_EQ(whole, "manifest bytes");
  ASSERT_OK_AND_ASSIGN(auto sized, io->OpenForReadWithSize("/t/manifest/manifest-a", 14));
  EXPECT_EQ(sized->path(), "/t/manifest/manifest-a");
  EXPECT_EQ(store->reads + store->opens, 1) << "served from the copy";
  EXPECT_EQ(CopiesIn(dir.path()), 1);

  // A mutable hint is read from the store every time, and never copied.
  ASSERT_OK(store->base.WriteFileAtomic("/t/snapshot/LATEST", "2", true));
  EXPECT_EQ(ReadAll(*io, "/t/snapshot/LATEST"), "2");
  ASSERT_OK_AND_ASSIGN(std::string latest, io->ReadFile("/t/snapshot/LATEST"));
  EXPECT_EQ(latest, "2");
  EXPECT_EQ(store->opens, 1);
  EXPECT_EQ(CopiesIn(dir.path()), 1);

  // A missing file is the store's error.
  EXPECT_TRUE(test::HasError(io->OpenForRead("/t/manifest/manifest-x"), StatusCode::kNotFound, {}));
}

TEST(CachingFileIOTest, EvictsTheLeastRecentlyUsedCopiesBeyondTheBound) {
  test::TempDir dir;
  auto store = std::make_shared<CountingFileIO>();
  const std::string kb(1000, 'x');
  for (int i = 0; i < 10; ++i) {
    ASSERT_OK(store->base.WriteFileAtomic("/t/bucket-0/data-" + std::to_string(i), kb, false));
  }
  // Room for 4 copies of 1000 bytes (a file may take an eighth of the bound, so 8000).
  ASSERT_OK_AND_ASSIGN(auto io, MakeCachingFileIO(store, FileCacheOptions{dir.path(), 4500}));
  ASSERT_OK_AND_ASSIGN(auto big_io, MakeCachingFileIO(store, FileCacheOptions{dir.path(), 8000}));
  // File times are as coarse as the kernel's clock tick: each use a few ticks apart.
  auto tick = [] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); };
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(ReadAll(*big_io, "/t/bucket-0/data-" + std::to_string(i)), kb);
    tick();
  }
  EXPECT_EQ(CopiesIn(dir.path()), 4);
  // data-0 used last, then a fifth copy through the 4500-byte cache: data-1 goes first.
  EXPECT_EQ(ReadAll(*big_io, "/t/bucket-0/data-0"), kb);
  tick();
  const int before = store->reads;
  // A 1000-byte file is more than 4500 / 8: not copied by the small cache, read from the store.
  EXPECT_EQ(ReadAll(*io, "/t/bucket-0/data-5"), kb);
  EXPECT_EQ(store->reads + store->opens, before + 1);
  EXPECT_EQ(CopiesIn(dir.path()), 4);
  // Through the 8000-byte cache the directory grows to 5 copies; the 4500 one evicts down.
  EXPECT_EQ(ReadAll(*big_io, "/t/bucket-0/data-5"), kb);
  EXPECT_EQ(CopiesIn(dir.path()), 5);
  tick();
  ASSERT_OK_AND_ASSIGN(auto mid_io, MakeCachingFileIO(store, FileCacheOptions{dir.path(), 3500}));
  ASSERT_OK(store->base.WriteFileAtomic("/t/bucket-0/data-9", "tiny", true));
  EXPECT_EQ(ReadAll(*mid_io, "/t/bucket-0/data-9"), "tiny");
  // 5000 + 4 bytes over 3500: the two least recently used copies (data-1, data-2) go.
  EXPECT_EQ(CopiesIn(dir.path()), 4);
  const int reads = store->reads;
  EXPECT_EQ(ReadAll(*big_io, "/t/bucket-0/data-0"), kb);
  EXPECT_EQ(ReadAll(*big_io, "/t/bucket-0/data-3"), kb);
  EXPECT_EQ(store->reads, reads) << "kept";
  EXPECT_EQ(ReadAll(*big_io, "/t/bucket-0/data-1"), kb);
  EXPECT_EQ(store->reads, reads + 1) << "evicted";
}

TEST(CachingFileIOTest, SeveralCachesShareADirectory) {
  test::TempDir dir;
  auto store = std::make_shared<CountingFileIO>();
  std::string content(100000, '\0');
  for (size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>(i * 7);
  ASSERT_OK(store->base.WriteFileAtomic("/t/bucket-0/data-0.parquet", content, false));
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      auto io = MakeCachingFileIO(store, FileCacheOptions{dir.path(), 1 << 20});
      if (!io.ok()) {
        ++wrong;
        return;
      }
      for (int i = 0; i < 20; ++i) wrong += ReadAll(**io, "/t/bucket-0/data-0.parquet") != content;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(CopiesIn(dir.path()), 1) << "no temporary file left behind";
}

}  // namespace
}  // namespace sluice
