#include "sluice/fs/file_io_factory.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.h"

namespace sluice {
namespace {

TEST(FileIOFactoryTest, TheSchemeChoosesTheFileSystem) {
  EXPECT_EQ(PathScheme("/a/b"), "");
  EXPECT_EQ(PathScheme("file:/a"), "");
  EXPECT_EQ(PathScheme("file:///a"), "");
  EXPECT_EQ(PathScheme("S3A://bucket/w"), "s3a");
  EXPECT_EQ(PathScheme("relative/dir"), "");

  Result<std::shared_ptr<FileIO>> local = FileIOForPath("/tmp/w", {});
  ASSERT_OK(local);
  EXPECT_EQ(local->get(), LocalFileIO().get());
  ASSERT_OK(FileIOForPath("file:///tmp/w", {}));

  // Making an S3 FileIO needs no server: its options and credentials are all it reads.
  const std::map<std::string, std::string> s3 = {{"s3.endpoint", "http://127.0.0.1:1"},
                                                 {"s3.access-key", "k"},
                                                 {"s3.secret-key", "TOPSECRET"},
                                                 {"s3.path.style.access", "true"}};
  for (const char* path : {"s3://b/w", "s3a://b/w", "s3n://b/w"}) {
    Result<std::shared_ptr<FileIO>> io = FileIOForPath(path, s3);
    ASSERT_OK(io);
    EXPECT_NE(io->get(), LocalFileIO().get()) << path;
  }
  EXPECT_TRUE(test::HasError(FileIOForPath("gs://b/w", {}).status(), StatusCode::kNotSupported,
                             {"scheme 'gs'", "gs://b/w"}));
  Status bad = FileIOForPath("s3://b/w", {{"s3.endpoint", "http://h:1"},
                                          {"s3.access-key", "k"},
                                          {"s3.secret-key", "TOPSECRET"},
                                          {"s3.multipart.size", "lots"}})
                   .status();
  EXPECT_TRUE(test::HasError(bad, StatusCode::kInvalidArgument, {"s3://b/w", "s3.multipart.size"}));
  EXPECT_EQ(bad.ToString().find("TOPSECRET"), std::string::npos) << bad.ToString();

  // cache.dir wraps the store's FileIO in a local cache of its immutable files.
  test::TempDir dir;
  std::map<std::string, std::string> cached = s3;
  cached["cache.dir"] = dir.path() + "/cache";
  ASSERT_OK(FileIOForPath("s3://b/w", cached));
  EXPECT_TRUE(std::filesystem::is_directory(dir.path() + "/cache"));
  cached["cache.max-size"] = "lots";
  EXPECT_TRUE(test::HasError(FileIOForPath("s3://b/w", cached).status(),
                             StatusCode::kInvalidArgument, {"s3://b/w", "cache.max-size", "lots"}));
}

TEST(FileIOFactoryTest, AFailingFileIOReportsItsErrorOnEveryCall) {
  std::shared_ptr<FileIO> io = FailingFileIO(Status::InvalidArgument("no S3 credentials"));
  EXPECT_TRUE(test::HasError(io->ReadFile("s3://b/k").status(), StatusCode::kInvalidArgument,
                             {"no S3 credentials"}));
  EXPECT_TRUE(test::HasError(io->WriteFileAtomic("s3://b/k", "x", false),
                             StatusCode::kInvalidArgument, {"no S3 credentials"}));
  EXPECT_TRUE(test::HasError(io->ListDir("s3://b").status(), StatusCode::kInvalidArgument,
                             {"no S3 credentials"}));
}

}  // namespace
}  // namespace sluice
