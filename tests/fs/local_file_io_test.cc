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
  EXPECT_TRUE(lost.IsAlreadyExists()) << lost.ToString();
  EXPECT_EQ(*io.ReadFile(path), "first");
  auto create = io.OpenForWrite(path, /*overwrite=*/false);
  EXPECT_TRUE(create.status().IsAlreadyExists());
  ASSERT_OK(io.WriteFileAtomic(path, "third", /*overwrite=*/true));
  EXPECT_EQ(*io.ReadFile(path), "third");
  // No temporary files are left behind.
  EXPECT_EQ(io.ListDir(tmp.path())->size(), 1u);
  ASSERT_OK(io.WriteFileAtomic(tmp.path() + "/other", "x", false));
  EXPECT_TRUE(io.RenameNoReplace(tmp.path() + "/other", path).IsAlreadyExists());
}

TEST(LocalFileIOTest, ErrorsNameThePath) {
  test::TempDir tmp;
  FileIO& io = *LocalFileIO();
  auto missing = io.ReadFile(tmp.path() + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.status().IsNotFound());
  EXPECT_NE(missing.status().message().find(tmp.path() + "/nope"), std::string::npos);
  EXPECT_TRUE(io.ListDir(tmp.path() + "/nodir").status().IsNotFound());

  std::string path = tmp.path() + "/short";
  ASSERT_OK(io.WriteFileAtomic(path, "abc", false));
  auto file = io.OpenForRead(path);
  ASSERT_OK(file);
  uint8_t buf[8];
  Status past = (*file)->ReadAt(2, 4, buf);
  EXPECT_TRUE(past.IsCorruption());
  EXPECT_NE(past.message().find(path), std::string::npos) << past.ToString();
  EXPECT_OK((*file)->ReadAt(0, 3, buf));
  EXPECT_FALSE((*file)->ReadAt(-1, 1, buf).ok());
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

}  // namespace
}  // namespace sluice
