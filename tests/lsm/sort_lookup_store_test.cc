// The sort lookup store: round trips through blocks, compression and the bloom filter, and a
// damaged file gives Corruption naming it.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "sluice/fs/file_io.h"
#include "sluice/lsm/lookup/cache_manager.h"
#include "sluice/lsm/lookup/sort_lookup_store_reader.h"
#include "sluice/lsm/lookup/sort_lookup_store_writer.h"
#include "test_util.h"

namespace sluice {
namespace {

// Keys that order bytewise as their numbers do.
std::string KeyOf(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%08d", i);
  return buf;
}

std::string ValueOf(int i) { return "value-" + std::to_string(i * 7) + std::string(i % 13, 'x'); }

class SortLookupStoreTest : public ::testing::Test {
 protected:
  Status Write(const std::string& path, const LookupOptions& options, int n, int step = 1) {
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<SortLookupStoreWriter> writer,
                            SortLookupStoreWriter::Create(io_.get(), path, options, n));
    for (int i = 0; i < n; i += step) SLUICE_RETURN_NOT_OK(writer->Put(KeyOf(i), ValueOf(i)));
    return writer->Close();
  }

  test::TempDir dir_;
  std::shared_ptr<FileIO> io_ = LocalFileIO();
  std::shared_ptr<CacheManager> cache_ = std::make_shared<CacheManager>(1 << 20);
};

TEST_F(SortLookupStoreTest, RoundTripEveryCodecAndBlockSize) {
  for (CompressionKind kind : {CompressionKind::kNone, CompressionKind::kZstd,
                               CompressionKind::kLz4Raw, CompressionKind::kSnappy}) {
    for (int32_t block_size : {64, 4096, 1 << 20}) {
      LookupOptions options;
      options.compression = kind;
      options.block_size = block_size;
      const std::string path = dir_.path() + "/store-" + std::to_string(static_cast<int>(kind)) +
                               "-" + std::to_string(block_size);
      // Even keys only: odd ones are absent, before, between and after the blocks.
      ASSERT_OK(Write(path, options, 2000, 2));
      ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortLookupStoreReader> reader,
                           SortLookupStoreReader::Open(io_.get(), path, cache_));
      EXPECT_EQ(reader->entry_count(), 1000);
      for (int i = -1; i <= 2001; ++i) {
        std::string_view value;
        ASSERT_OK_AND_ASSIGN(bool found, reader->Lookup(KeyOf(i), &value));
        const bool present = i >= 0 && i < 2000 && i % 2 == 0;
        ASSERT_EQ(found, present) << path << " key " << i;
        if (present) EXPECT_EQ(value, ValueOf(i));
      }
      std::string_view value;
      ASSERT_OK_AND_ASSIGN(bool found, reader->Lookup("", &value));
      EXPECT_FALSE(found);
    }
  }
}

// Block choice compares 8 bytes after the prefix all last keys share: keys of every length,
// shorter than, equal to and longer than that prefix, with zero bytes where a short key pads.
TEST_F(SortLookupStoreTest, KeysOfEveryLengthAroundTheSharedPrefix) {
  std::vector<std::string> keys;
  const std::string prefix = "shared-prefix:";
  for (int i = 0; i < 300; ++i) {
    std::string key = prefix + std::string(static_cast<size_t>(i % 11), static_cast<char>(i / 11));
    if (i % 3 == 0) key.push_back('\0');
    keys.push_back(key);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  LookupOptions options;
  options.block_size = 48;
  options.bloom_filter_enabled = false;  // every absent key reaches the block search
  const std::string path = dir_.path() + "/lengths";
  {
    ASSERT_OK_AND_ASSIGN(
        std::unique_ptr<SortLookupStoreWriter> writer,
        SortLookupStoreWriter::Create(io_.get(), path, options, static_cast<int64_t>(keys.size())));
    for (const std::string& key : keys) ASSERT_OK(writer->Put(key, "v" + key));
    ASSERT_OK(writer->Close());
  }
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortLookupStoreReader> reader,
                       SortLookupStoreReader::Open(io_.get(), path, cache_));
  std::vector<std::string> probes = {
      "", "s", "shared-prefix", "shared-prefiy", "shared-prefix;", "t", std::string(1, '\0')};
  for (const std::string& key : keys) {
    probes.push_back(key);
    probes.push_back(key + '\0');
    probes.push_back(key + "\xff");
    probes.push_back(key.substr(0, key.size() - 1));
  }
  for (const std::string& probe : probes) {
    std::string_view value;
    ASSERT_OK_AND_ASSIGN(bool found, reader->Lookup(probe, &value));
    const bool present = std::binary_search(keys.begin(), keys.end(), probe);
    ASSERT_EQ(found, present) << "key of " << probe.size() << " bytes";
    if (present) EXPECT_EQ(value, "v" + probe);
  }
}

TEST_F(SortLookupStoreTest, EmptyStoreAndNoBloomFilter) {
  LookupOptions options;
  options.bloom_filter_enabled = false;
  const std::string empty = dir_.path() + "/empty";
  ASSERT_OK(Write(empty, options, 0));
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortLookupStoreReader> reader,
                       SortLookupStoreReader::Open(io_.get(), empty, cache_));
  std::string_view value;
  ASSERT_OK_AND_ASSIGN(bool found, reader->Lookup(KeyOf(1), &value));
  EXPECT_FALSE(found);

  const std::string plain = dir_.path() + "/plain";
  ASSERT_OK(Write(plain, options, 100));
  ASSERT_OK_AND_ASSIGN(reader, SortLookupStoreReader::Open(io_.get(), plain, cache_));
  ASSERT_OK_AND_ASSIGN(found, reader->Lookup(KeyOf(42), &value));
  ASSERT_TRUE(found);
  EXPECT_EQ(value, ValueOf(42));
}

TEST_F(SortLookupStoreTest, KeysOutOfOrderAreRefused) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortLookupStoreWriter> writer,
                       SortLookupStoreWriter::Create(io_.get(), dir_.path() + "/w", {}, 2));
  ASSERT_OK(writer->Put("b", "1"));
  EXPECT_TRUE(test::HasError(writer->Put("a", "2"), StatusCode::kInvalidArgument,
                             {dir_.path() + "/w", "ascending"}));
  EXPECT_TRUE(test::HasError(writer->Put("b", "2"), StatusCode::kInvalidArgument, {"ascending"}));
}

TEST_F(SortLookupStoreTest, BlocksAreCachedWithinTheMemoryBound) {
  LookupOptions options;
  options.block_size = 1024;
  const std::string path = dir_.path() + "/cached";
  ASSERT_OK(Write(path, options, 5000));
  auto small = std::make_shared<CacheManager>(8 << 10);
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<SortLookupStoreReader> reader,
                       SortLookupStoreReader::Open(io_.get(), path, small));
  for (int i = 0; i < 5000; i += 7) {
    std::string_view value;
    ASSERT_OK_AND_ASSIGN(bool found, reader->Lookup(KeyOf(i), &value));
    ASSERT_TRUE(found);
    ASSERT_EQ(value, ValueOf(i));
    ASSERT_LE(small->memory_size(), 8 << 10);
  }
  EXPECT_GT(small->memory_size(), 0);
  reader.reset();
  EXPECT_EQ(small->memory_size(), 0);
}

// Every single-byte change of a stored file is caught by a checksum or a bound, and named.
TEST_F(SortLookupStoreTest, CorruptFileGivesCorruptionNamingIt) {
  LookupOptions options;
  options.block_size = 256;
  const std::string good = dir_.path() + "/good";
  ASSERT_OK(Write(good, options, 200));
  ASSERT_OK_AND_ASSIGN(std::string bytes, io_->ReadFile(good));
  for (size_t at = 0; at < bytes.size(); at += 11) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x5A);
    const std::string path = dir_.path() + "/bad-" + std::to_string(at);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << damaged;
    Result<std::unique_ptr<SortLookupStoreReader>> reader =
        SortLookupStoreReader::Open(io_.get(), path, cache_);
    if (!reader.ok()) {
      EXPECT_TRUE(test::HasError(reader, StatusCode::kCorruption, {path})) << at;
      continue;
    }
    // The damage is in a data block: the lookups that read it fail.
    bool failed = false;
    for (int i = 0; i < 200 && !failed; ++i) {
      std::string_view value;
      Result<bool> found = (*reader)->Lookup(KeyOf(i), &value);
      if (!found.ok()) {
        EXPECT_TRUE(test::HasError(found, StatusCode::kCorruption, {path, "block"})) << at;
        failed = true;
      } else if (*found) {
        ASSERT_EQ(value, ValueOf(i)) << "damage at " << at << " went unnoticed";
      }
    }
    // Index, bloom filter and footer are checked on open, so the damage is in a data block,
    // which some present key reads.
    EXPECT_TRUE(failed) << "damage at " << at << " went unnoticed";
  }
  const std::string truncated = dir_.path() + "/truncated";
  ASSERT_OK(io_->WriteFileAtomic(truncated, bytes.substr(0, 20), true));
  EXPECT_TRUE(test::HasError(SortLookupStoreReader::Open(io_.get(), truncated, cache_),
                             StatusCode::kCorruption, {truncated, "footer"}));
}

}  // namespace
}  // namespace sluice
