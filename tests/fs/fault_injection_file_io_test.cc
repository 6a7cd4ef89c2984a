#include "sluice/fs/fault_injection_file_io.h"

#include <gtest/gtest.h>

#include <memory>

#include "sluice/fs/memory_file_io.h"
#include "test_util.h"

namespace sluice {
namespace {

using Op = FaultInjectionFileIO::Op;

class FaultInjectionFileIOTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(base_->MkDirs("/d")); }

  // Creates `path` with `content`, closed (so synced) unless `close` is false.
  void Create(const std::string& path, std::string_view content, bool close = true) {
    auto file = io_.OpenForWrite(path, /*overwrite=*/false);
    ASSERT_OK(file);
    ASSERT_OK((*file)->Append(content));
    if (close) {
      ASSERT_OK((*file)->Close());
    }
  }

  bool ExistsInBase(const std::string& path) { return base_->Exists(path).ValueOr(false); }

  std::shared_ptr<MemoryFileIO> base_ = std::make_shared<MemoryFileIO>();
  FaultInjectionFileIO io_{base_};
};

TEST_F(FaultInjectionFileIOTest, AFileWhoseDirectoryWasNotSyncedIsLost) {
  Create("/d/f", "data");
  EXPECT_EQ(*io_.ReadFile("/d/f"), "data");
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(ExistsInBase("/d/f")) << "created, closed, but its directory never synced";

  Create("/d/f", "data");
  ASSERT_OK(io_.SyncDir("/d"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/f"), "data");
}

TEST_F(FaultInjectionFileIOTest, ContentNotClosedIsLost) {
  Create("/d/open", "never closed", /*close=*/false);
  ASSERT_OK(io_.SyncDir("/d"));
  ASSERT_OK(io_.DropUnsynced());
  // The name survived (its directory was synced), the content did not (never synced).
  EXPECT_EQ(*base_->ReadFile("/d/open"), "");

  // Overwriting a durable file: until Close, a power loss brings back the old content.
  ASSERT_OK(io_.WriteFileAtomic("/d/hint", "1", /*overwrite=*/true));
  auto file = io_.OpenForWrite("/d/hint", /*overwrite=*/true);
  ASSERT_OK(file);
  ASSERT_OK((*file)->Append("2"));
  EXPECT_EQ(*io_.ReadFile("/d/hint"), "2");
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/hint"), "1");
  // A file opened before the power loss is dead.
  EXPECT_TRUE(test::HasError((*file)->Append("3"), StatusCode::kIOError,
                             {"/d/hint", "opened before a power loss"}));
  EXPECT_TRUE(test::HasError((*file)->Close(), StatusCode::kIOError,
                             {"/d/hint", "opened before a power loss"}));
  EXPECT_EQ(*base_->ReadFile("/d/hint"), "1");
}

TEST_F(FaultInjectionFileIOTest, RenamesAndDeletesNeedTheirDirectorySynced) {
  ASSERT_OK(io_.WriteFileAtomic("/d/a", "A", /*overwrite=*/false));
  // WriteFileAtomic is durable at once: the rename's directory is synced.
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/a"), "A");
  EXPECT_EQ(base_->ListDir("/d")->size(), 1u) << "no temporary file survives";

  ASSERT_OK(io_.RenameNoReplace("/d/a", "/d/b"));
  ASSERT_OK(io_.Delete("/d/b", false));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/a"), "A") << "rename and delete were never synced";
  EXPECT_FALSE(ExistsInBase("/d/b"));

  ASSERT_OK(io_.MkDirs("/e"));
  ASSERT_OK(io_.RenameNoReplace("/d/a", "/e/a"));
  ASSERT_OK(io_.SyncDir("/e"));
  ASSERT_OK(io_.DropUnsynced());
  // The new name is durable; the old one was removed in a directory never synced.
  EXPECT_EQ(*base_->ReadFile("/e/a"), "A");
  EXPECT_EQ(*base_->ReadFile("/d/a"), "A");

  ASSERT_OK(io_.Delete("/d/a", false));
  ASSERT_OK(io_.SyncDir("/d"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(ExistsInBase("/d/a"));

  // A replacing rename, synced, keeps the new content.
  Create("/e/tmp", "B");
  ASSERT_OK(io_.Rename("/e/tmp", "/e/a"));
  ASSERT_OK(io_.SyncDir("/e"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/e/a"), "B");
  EXPECT_FALSE(ExistsInBase("/e/tmp"));
}

TEST_F(FaultInjectionFileIOTest, FilesThatExistedBeforeAreDurable) {
  ASSERT_OK(base_->WriteFileAtomic("/d/old", "old", false));
  ASSERT_OK(base_->WriteFileAtomic("/d/sub/deep", "deep", false));
  ASSERT_OK(io_.Delete("/d", /*recursive=*/true));
  EXPECT_FALSE(ExistsInBase("/d/old"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/old"), "old");
  EXPECT_EQ(*base_->ReadFile("/d/sub/deep"), "deep");
}

TEST_F(FaultInjectionFileIOTest, FailNthCallOfAKind) {
  io_.FailNth(Op::kRename, 2);
  ASSERT_OK(io_.WriteFileAtomic("/d/1", "1", false));
  EXPECT_TRUE(test::HasError(io_.WriteFileAtomic("/d/2", "2", false), StatusCode::kIOError,
                             {"/d/2: injected failure of rename"}));
  EXPECT_FALSE(ExistsInBase("/d/2"));
  EXPECT_EQ(base_->ListDir("/d")->size(), 1u) << "the temporary file was removed";
  EXPECT_OK(io_.WriteFileAtomic("/d/3", "3", false)) << "only the 2nd rename fails";

  io_.FailNth(Op::kWrite, 1);
  EXPECT_TRUE(test::HasError(io_.WriteFileAtomic("/d/4", "4", false), StatusCode::kIOError,
                             {"/d/.4.", "injected failure of write"}));
  io_.FailNth(Op::kCreate, 1);
  EXPECT_TRUE(test::HasError(io_.OpenForWrite("/d/5", false), StatusCode::kIOError,
                             {"/d/5: injected failure of create"}));
  EXPECT_FALSE(ExistsInBase("/d/5"));
  io_.FailNth(Op::kSync, 1);
  EXPECT_TRUE(test::HasError(io_.WriteFileAtomic("/d/6", "6", false), StatusCode::kIOError,
                             {"/d/.6.", "injected failure of sync"}))
      << "the file's sync fails";
  io_.FailNth(Op::kSync, 2);
  EXPECT_TRUE(test::HasError(io_.WriteFileAtomic("/d/7", "7", false), StatusCode::kIOError,
                             {"/d: injected failure of sync"}))
      << "the directory's sync fails";
  // The rename happened: visible now, lost in a power loss.
  EXPECT_EQ(*io_.ReadFile("/d/7"), "7");
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(ExistsInBase("/d/7"));
  EXPECT_TRUE(ExistsInBase("/d/3"));
}

TEST_F(FaultInjectionFileIOTest, CrashStopsEveryCallUntilPowerLoss) {
  io_.CrashAfter(3);  // create, write, close of the temporary file; the rename fails
  EXPECT_TRUE(test::HasError(io_.WriteFileAtomic("/d/x", "x", false), StatusCode::kIOError,
                             {"/d/x: injected crash"}));
  EXPECT_TRUE(io_.crashed());
  EXPECT_TRUE(test::HasError(io_.ReadFile("/d/x"), StatusCode::kIOError,
                             {"/d/x: injected crash: the process is down"}))
      << "reads fail too";
  EXPECT_TRUE(test::HasError(io_.ListDir("/d"), StatusCode::kIOError, {"/d: injected crash"}));
  EXPECT_EQ(io_.mutations(), 5) << "create, write, close, rename, and the cleanup delete";
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(io_.crashed());
  EXPECT_EQ(io_.mutations(), 0);
  EXPECT_TRUE(base_->ListDir("/d")->empty()) << "the temporary file was never made durable";
  EXPECT_OK(io_.WriteFileAtomic("/d/x", "x", false));

  io_.CrashAfter(0);
  EXPECT_TRUE(test::HasError(io_.Exists("/d/x"), StatusCode::kIOError, {"/d/x: injected crash"}));
}

}  // namespace
}  // namespace sluice
