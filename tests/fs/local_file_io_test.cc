#include <gtest/gtest.h>

#include "sluice/fs/file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

TEST(LocalFileIOTest, WriteReadListDelete) {
  test::TempDir tmp;
  FileIO& io = *LocalFileIO();
  std::string path = tmp.path() + "/a/b/file";
  auto out = io.OpenForWrite(path, /*overwrite=*/false);
  ASSERT_OK(out);
  ASSERT_OK((*out)->Append("hello "));
  ASSERT_OK((*out)->Append("world"));
  EXPECT_EQ((*out)->bytes_written(), 11);
  ASSERT_OK((*out)->Close());
  EXPECT_EQ(*io.ReadFile(path), "hello world");
  EXPECT_EQ(*io.ReadFile("file:" + path), "hello world");
  EXPECT_TRUE(*io.Exists(path));
  EXPECT_EQ(io.GetStatus(path)->size, 11);
  auto listed = io.ListDir(tmp.path() + "/a/b");
  ASSERT_OK(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].path, path);
  ASSERT_OK(io.Delete(tmp.path() + "/a", /*recursive=*/true));
  EXPECT_FALSE(*io.Exists(path));
}

TEST(LocalFileIOTest, ExclusiveCreateAndAtomicClaim) {
  test::TempDir tmp;
  FileIO& io = *LocalFileIO();
  std::string path = tmp.path() + "/snapshot-1";
  ASSERT_OK(io.WriteFileAtomic(path, "first", /*overwrite=*/false));
  // A second claim of the same name loses, and the first content survives.
  Status lost = io.WriteFileAtomic(path, "second", /*overwrite=*/false);
  EXPECT_TRUE(test::HasError(lost, StatusCode::kAlreadyExists, {path, "File exists"}));
  EXPECT_EQ(*io.ReadFile(path), "first");
  EXPECT_TRUE(test::HasError(io.OpenForWrite(path, /*overwrite=*/false), StatusCode::kAlreadyExists,
                             {path + ": create: File exists"}));
  ASSERT_OK(io.WriteFileAtomic(path, "third", /*overwrite=*/true));
  EXPECT_EQ(*io.ReadFile(path), "third");
  // No temporary files are left behind.
  EXPECT_EQ(io.ListDir(tmp.path())->size(), 1u);
  ASSERT_OK(io.WriteFileAtomic(tmp.path() + "/other", "x", false));
  EXPECT_TRUE(test::HasError(io.RenameNoReplace(tmp.path() + "/other", path),
                             StatusCode::kAlreadyExists,
                             {path + ": rename from " + tmp.path() + "/other: File exists"}));
}

TEST(LocalFileIOTest, ErrorsNameThePath) {
  test::TempDir tmp;
  FileIO& io = *LocalFileIO();
  EXPECT_TRUE(test::HasError(io.ReadFile(tmp.path() + "/nope"), StatusCode::kNotFound,
                             {tmp.path() + "/nope: open: No such file or directory"}));
  EXPECT_TRUE(test::HasError(io.ListDir(tmp.path() + "/nodir"), StatusCode::kNotFound,
                             {tmp.path() + "/nodir: list"}));

  std::string path = tmp.path() + "/short";
  ASSERT_OK(io.WriteFileAtomic(path, "abc", false));
  auto file = io.OpenForRead(path);
  ASSERT_OK(file);
  uint8_t buf[8];
  EXPECT_TRUE(test::HasError((*file)->ReadAt(2, 4, buf), StatusCode::kCorruption,
                             {path, "read of 4 bytes at offset 2", "(size 3)"}));
  EXPECT_OK((*file)->ReadAt(0, 3, buf));
  EXPECT_TRUE(
      test::HasError((*file)->ReadAt(-1, 1, buf), StatusCode::kCorruption, {path, "at offset -1"}));
}

TEST(FilePathTest, SchemeAndJoin) {
  EXPECT_EQ(StripFileScheme("file:/tmp/x"), "/tmp/x");
  EXPECT_EQ(StripFileScheme("file:///tmp/x"), "/tmp/x");
  EXPECT_EQ(StripFileScheme("FILE:/tmp/x"), "/tmp/x");
  EXPECT_EQ(StripFileScheme("/tmp/x"), "/tmp/x");
  EXPECT_EQ(JoinPath("/a/", "/b"), "/a/b");
  EXPECT_EQ(JoinPath("/a", "b"), "/a/b");
  EXPECT_EQ(JoinPath("", "b"), "b");
  EXPECT_EQ(ParentDir("/a/b/c"), "/a/b");
  EXPECT_EQ(ParentDir("/a/b/"), "/a");
  EXPECT_EQ(ParentDir("/a"), "/");
  EXPECT_EQ(ParentDir("c"), "");
  EXPECT_EQ(ParentDir("file:/t/x"), "file:/t");
  EXPECT_EQ(NormalizePath("file:///a//b/"), "/a/b");
  EXPECT_EQ(NormalizePath("/"), "/");
}

TEST(FilePathTest, UrisKeepTheirSchemeAndAuthority) {
  EXPECT_EQ(UriRootLength("s3://bucket/a"), 11u);
  EXPECT_EQ(UriRootLength("s3a://bucket"), 12u);
  EXPECT_EQ(UriRootLength("/a/b"), 0u);
  EXPECT_EQ(UriRootLength("file:/a"), 0u);
  EXPECT_EQ(UriRootLength("a:b://c"), 0u);
  EXPECT_EQ(NormalizePath("s3://bucket//w/db.db/"), "s3://bucket/w/db.db");
  EXPECT_EQ(NormalizePath("s3://bucket/"), "s3://bucket");
  EXPECT_EQ(NormalizePath("s3://bucket"), "s3://bucket");
  EXPECT_EQ(JoinPath("s3://bucket", "w"), "s3://bucket/w");
  EXPECT_EQ(ParentDir("s3://bucket/w/t"), "s3://bucket/w");
  EXPECT_EQ(ParentDir("s3://bucket/w/"), "s3://bucket");
  EXPECT_EQ(ParentDir("s3://bucket/"), "");
  EXPECT_EQ(ParentDir("s3://bucket"), "");
}

}  // namespace
}  // namespace sluice
