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

TEST_F(FaultInjectionFileIOTest, DirectoryRenamesAndDeletesNeedTheirParentSynced) {
  ASSERT_OK(io_.MkDirs("/d/t/schema"));
  ASSERT_OK(io_.WriteFileAtomic("/d/t/schema/schema-0", "S", /*overwrite=*/false));
  ASSERT_OK(io_.MkDirs("/w"));

  // A directory renamed, its old parent never synced: the rename is undone, content and all.
  ASSERT_OK(io_.RenameNoReplace("/d/t", "/d/.t.dropped"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/t/schema/schema-0"), "S");
  EXPECT_FALSE(ExistsInBase("/d/.t.dropped"));

  // Synced: the directory moves with what is durable in it, and a file created in it later
  // stays unsynced until the moved directory itself is synced.
  ASSERT_OK(io_.RenameNoReplace("/d/t", "/d/u"));
  ASSERT_OK(io_.SyncDir("/d"));
  Create("/d/u/schema/schema-1", "S1");
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(ExistsInBase("/d/t"));
  EXPECT_EQ(*base_->ReadFile("/d/u/schema/schema-0"), "S");
  EXPECT_FALSE(ExistsInBase("/d/u/schema/schema-1")) << "schema/ was never synced after it";

  // A directory deleted comes back whole unless its parent is synced.
  ASSERT_OK(io_.Delete("/d/u", /*recursive=*/true));
  EXPECT_FALSE(ExistsInBase("/d/u"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/d/u/schema/schema-0"), "S");
  ASSERT_OK(io_.Delete("/d/u", /*recursive=*/true));
  ASSERT_OK(io_.SyncDir("/d"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(ExistsInBase("/d/u"));

  // Between two directories, each end is durable where its directory was synced: the new
  // name alone synced leaves both (the model is stricter than a journalling file system).
  ASSERT_OK(io_.MkDirs("/d/v"));
  Create("/d/v/f", "F");
  ASSERT_OK(io_.SyncDir("/d/v"));
  ASSERT_OK(io_.RenameNoReplace("/d/v", "/w/v"));
  ASSERT_OK(io_.SyncDir("/w"));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_EQ(*base_->ReadFile("/w/v/f"), "F");
  EXPECT_EQ(*base_->ReadFile("/d/v/f"), "F");
}

TEST_F(FaultInjectionFileIOTest, MkDirsIsDurableAtOnce) {
  ASSERT_OK(io_.MkDirs("/a/b/c"));
  Create("/x/y/f", "F");  // OpenForWrite creates /x/y as MkDirs does
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_TRUE(base_->GetStatus("/a/b/c")->is_dir);
  EXPECT_TRUE(base_->GetStatus("/x/y")->is_dir);
  EXPECT_FALSE(ExistsInBase("/x/y/f")) << "the file's own directory was never synced";
}

TEST_F(FaultInjectionFileIOTest, ADirectoryThatExistedBeforeMovesWithItsContent) {
  ASSERT_OK(base_->WriteFileAtomic("/d/old/a", "A", false));
  ASSERT_OK(io_.RenameNoReplace("/d/old", "/d/new"));
  ASSERT_OK(io_.SyncDir("/d"));
  ASSERT_OK(io_.WriteFileAtomic("/d/new/b", "B", false));
  ASSERT_OK(io_.Delete("/d/new/a", false));
  ASSERT_OK(io_.DropUnsynced());
  EXPECT_FALSE(ExistsInBase("/d/old"));
  EXPECT_EQ(*base_->ReadFile("/d/new/a"), "A") << "its delete was never synced";
  EXPECT_EQ(*base_->ReadFile("/d/new/b"), "B");
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
