// The behaviour every FileIO shares, run on LocalFileIO and on MemoryFileIO, so that tests on
// the in-memory one (and the fault-injecting wrapper around it) see what the local one does.

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "sluice/fs/file_io.h"
#include "sluice/fs/memory_file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

struct Backend {
  std::string name;
  std::function<std::shared_ptr<FileIO>()> make;
};

class FileIOContractTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    io_ = GetParam().make();
    root_ = GetParam().name == "local" ? tmp_.path() : "/mem/root";
    ASSERT_OK(io_->MkDirs(root_));
  }

  Status Write(const std::string& path, std::string_view content) {
    SLUICE_ASSIGN_OR_RETURN(auto file, io_->OpenForWrite(path, /*overwrite=*/false));
    SLUICE_RETURN_NOT_OK(file->Append(content));
    return file->Close();
  }

  std::vector<std::string> Names(const std::string& dir) {
    std::vector<std::string> names;
    auto listed = io_->ListDir(dir);
    EXPECT_OK(listed);
    if (!listed.ok()) return names;
    for (const auto& f : *listed) names.push_back(f.path.substr(dir.size() + 1));
    return names;
  }

  ::sluice::test::TempDir tmp_;
  std::shared_ptr<FileIO> io_;
  std::string root_;
};

TEST_P(FileIOContractTest, WriteReadListDelete) {
  const std::string path = root_ + "/a/b/file";
  auto out = io_->OpenForWrite(path, /*overwrite=*/false);
  ASSERT_OK(out);
  ASSERT_OK((*out)->Append("hello "));
  ASSERT_OK((*out)->Append("world"));
  EXPECT_EQ((*out)->bytes_written(), 11);
  ASSERT_OK((*out)->Close());
  EXPECT_EQ(*io_->ReadFile(path), "hello world");
  EXPECT_EQ(*io_->ReadFile("file:" + path), "hello world");
  EXPECT_TRUE(*io_->Exists(path));
  EXPECT_TRUE(*io_->Exists(root_ + "/a/b"));
  EXPECT_FALSE(*io_->Exists(root_ + "/a/c"));
  EXPECT_EQ(io_->GetStatus(path)->size, 11);
  EXPECT_FALSE(io_->GetStatus(path)->is_dir);
  EXPECT_TRUE(io_->GetStatus(root_ + "/a")->is_dir);
  EXPECT_TRUE(test::HasError(io_->GetStatus(root_ + "/nope"), StatusCode::kNotFound,
                             {root_ + "/nope: stat"}));
  auto file = io_->OpenForRead(path);
  ASSERT_OK(file);
  uint8_t buf[5];
  ASSERT_OK((*file)->ReadAt(6, 5, buf));
  EXPECT_EQ(std::string(reinterpret_cast<char*>(buf), 5), "world");
  EXPECT_TRUE(test::HasError((*file)->ReadAt(8, 5, buf), StatusCode::kCorruption,
                             {path, "read of 5 bytes at"}));

  // Sorted by path, files and directories; "a-b" sorts between "a" and "a/..." as a path.
  ASSERT_OK(Write(root_ + "/a-b", "x"));
  ASSERT_OK(Write(root_ + "/a/z", "x"));
  EXPECT_EQ(Names(root_), (std::vector<std::string>{"a", "a-b"}));
  EXPECT_EQ(Names(root_ + "/a"), (std::vector<std::string>{"b", "z"}));
  EXPECT_TRUE(test::HasError(io_->ListDir(root_ + "/nodir"), StatusCode::kNotFound,
                             {root_ + "/nodir: list"}));

  EXPECT_TRUE(test::HasError(io_->Delete(root_ + "/a", /*recursive=*/false), StatusCode::kIOError,
                             {root_ + "/a: delete: Directory not empty"}));
  ASSERT_OK(io_->Delete(root_ + "/a", /*recursive=*/true));
  EXPECT_FALSE(*io_->Exists(path));
  EXPECT_TRUE(*io_->Exists(root_ + "/a-b"));
  EXPECT_OK(io_->Delete(root_ + "/missing", false));
  EXPECT_TRUE(test::HasError(io_->ReadFile(path), StatusCode::kNotFound, {path + ": open"}));
}

TEST_P(FileIOContractTest, ExclusiveCreateAndAtomicClaim) {
  const std::string path = root_ + "/snapshot-1";
  ASSERT_OK(io_->WriteFileAtomic(path, "first", /*overwrite=*/false));
  // A second claim of the same name loses, and the first content survives.
  Status lost = io_->WriteFileAtomic(path, "second", /*overwrite=*/false);
  EXPECT_TRUE(test::HasError(lost, StatusCode::kAlreadyExists, {path, "File exists"}));
  EXPECT_EQ(*io_->ReadFile(path), "first");
  EXPECT_TRUE(test::HasError(io_->OpenForWrite(path, /*overwrite=*/false),
                             StatusCode::kAlreadyExists, {path + ": create: File exists"}));
  ASSERT_OK(io_->WriteFileAtomic(path, "third", /*overwrite=*/true));
  EXPECT_EQ(*io_->ReadFile(path), "third");
  // No temporary files are left behind.
  EXPECT_EQ(Names(root_), (std::vector<std::string>{"snapshot-1"}));
  ASSERT_OK(io_->WriteFileAtomic(root_ + "/other", "x", false));
  EXPECT_TRUE(test::HasError(io_->RenameNoReplace(root_ + "/other", path),
                             StatusCode::kAlreadyExists, {path, "rename", "File exists"}));
  EXPECT_EQ(*io_->ReadFile(path), "third");
}

TEST_P(FileIOContractTest, RenamesAndDirectorySync) {
  ASSERT_OK(Write(root_ + "/from", "data"));
  ASSERT_OK(io_->RenameNoReplace(root_ + "/from", root_ + "/to"));
  EXPECT_FALSE(*io_->Exists(root_ + "/from"));
  EXPECT_EQ(*io_->ReadFile(root_ + "/to"), "data");
  EXPECT_TRUE(test::HasError(io_->RenameNoReplace(root_ + "/gone", root_ + "/x"),
                             StatusCode::kNotFound, {"/gone", "rename"}));

  // Rename replaces its target.
  ASSERT_OK(Write(root_ + "/new", "new"));
  ASSERT_OK(io_->Rename(root_ + "/new", root_ + "/to"));
  EXPECT_EQ(*io_->ReadFile(root_ + "/to"), "new");
  EXPECT_FALSE(*io_->Exists(root_ + "/new"));
  EXPECT_TRUE(test::HasError(io_->Rename(root_ + "/gone", root_ + "/to"), StatusCode::kNotFound,
                             {"/gone", "rename"}));

  // Directories move with their content.
  ASSERT_OK(Write(root_ + "/d1/sub/f", "f"));
  ASSERT_OK(io_->RenameNoReplace(root_ + "/d1", root_ + "/d2"));
  EXPECT_EQ(*io_->ReadFile(root_ + "/d2/sub/f"), "f");
  EXPECT_FALSE(*io_->Exists(root_ + "/d1"));

  EXPECT_OK(io_->SyncDir(root_));
  EXPECT_OK(io_->SyncDir(root_ + "/d2/sub"));
  EXPECT_TRUE(
      test::HasError(io_->SyncDir(root_ + "/nodir"), StatusCode::kNotFound, {root_ + "/nodir"}));
  ASSERT_OK(io_->MkDirs(root_ + "/m/n/o"));
  EXPECT_TRUE(io_->GetStatus(root_ + "/m/n/o")->is_dir);
  EXPECT_OK(io_->MkDirs(root_ + "/m/n/o")) << "existing directories are fine";
  EXPECT_TRUE(test::HasError(io_->MkDirs(root_ + "/to/x"), StatusCode::kAlreadyExists,
                             {root_ + "/to: mkdir: not a directory"}))
      << "a file is in the way";
}

INSTANTIATE_TEST_SUITE_P(
    Backends, FileIOContractTest,
    ::testing::Values(Backend{"local", [] { return LocalFileIO(); }},
                      Backend{"memory", [] { return std::make_shared<MemoryFileIO>(); }}),
    [](const ::testing::TestParamInfo<Backend>& info) { return info.param.name; });

}  // namespace
}  // namespace sluice
