// `sluice action` with Java's table actions and `--runtime-mode` (Flink's execution.runtime-mode):
// a batch compact_database compacts and exits, a streaming one runs until SIGTERM and then exits
// 0, `NAME --help` prints the action's syntax, and a mode the action cannot run in is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "cli/cli_test_util.h"
#include "sluice/catalog.h"
#include "sluice/table.h"
#include "sluice/table_commit.h"
#include "sluice/table_write.h"
#include "sluice/write_builder.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice {
namespace {

using test::Field;

class SluiceActionCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Catalog catalog = Catalog::Filesystem(dir_.path());
    ASSERT_OK(catalog.CreateDatabase("db"));
    NewTableSpec spec;
    spec.columns = {Field(0, "id", DataType::BigInt(false)), Field(1, "v", DataType::String())};
    spec.primary_keys = {"id"};
    spec.options = {{"bucket", "1"}, {"write-only", "true"}};
    ASSERT_OK(catalog.CreateTable("db.t", spec));
    auto table = catalog.GetTable("db.t");
    ASSERT_OK(table);
    for (int64_t i = 0; i < 4; ++i) {
      WriteBuilder builder = table->NewWriteBuilder();
      auto write = builder.NewWrite();
      ASSERT_OK(write);
      ColumnBatch batch((*write)->input_type());
      ASSERT_OK(batch.AppendRow({Value::Int64(i), Value::String("v")}));
      ASSERT_OK((*write)->Write(batch));
      auto messages = (*write)->PrepareCommit();
      ASSERT_OK(messages);
      auto commit = builder.NewCommit();
      ASSERT_OK(commit);
      ASSERT_OK((*commit)->Commit(std::move(*messages)));
      ASSERT_OK((*write)->Close());
    }
  }

  std::string LastCommitKind() {
    auto table = Catalog::Filesystem(dir_.path()).GetTable("db.t");
    EXPECT_OK(table);
    auto snapshots = table->Snapshots();
    EXPECT_OK(snapshots);
    return snapshots->empty() ? "" : snapshots->back().commit_kind;
  }

  test::TempDir dir_;
};

TEST_F(SluiceActionCliTest, BatchCompactDatabaseCompactsAndExits) {
  test::CommandResult result =
      test::RunSluice("action --runtime-mode BATCH compact_database --warehouse " + dir_.path() +
                      " --including_databases db");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("compacted 4 files of db.t into 1"), std::string::npos) << result.err;
  EXPECT_EQ(LastCommitKind(), "COMPACT");
}

TEST_F(SluiceActionCliTest, StreamingCompactRunsUntilSigterm) {
  // Streaming is compact's default; SIGTERM after 5 s ends it with exit code 0.
  const auto start = std::chrono::steady_clock::now();
  test::CommandResult result = test::RunShellCommand(
      "timeout --preserve-status -s TERM 5 " + test::BinaryDir() +
      "/sluice action compact --warehouse " + dir_.path() +
      " --database db --table t --table_conf continuous.discovery-interval=100ms --table_conf "
      "num-sorted-run.compaction-trigger=2 2>&1");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(result.exit_code, 0) << result.out;
  EXPECT_LT(seconds, 10.0);
  // The snapshots since the last compaction were read and their bucket compacted by the
  // picker (trigger 2 here).
  EXPECT_NE(result.out.find("compacted 4 files of db.t into 1"), std::string::npos) << result.out;
  EXPECT_EQ(LastCommitKind(), "COMPACT");
}

TEST_F(SluiceActionCliTest, HelpAndRefusedModes) {
  test::CommandResult help = test::RunSluice("action create_tag --help");
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("--tag_name <tag_name>"), std::string::npos) << help.out;
  test::CommandResult compact_help = test::RunSluice("action compact_database --help");
  EXPECT_NE(compact_help.out.find("--compaction_threads"), std::string::npos) << compact_help.out;

  test::CommandResult streaming_tag =
      test::RunSluice("action --runtime-mode streaming create_tag --warehouse " + dir_.path() +
                      " --database db --table t --tag_name x");
  EXPECT_EQ(streaming_tag.exit_code, 1);
  EXPECT_NE(streaming_tag.err.find("create_tag runs once"), std::string::npos) << streaming_tag.err;
  test::CommandResult batch_sync =
      test::RunSluice("action --runtime-mode batch kafka_sync_table --warehouse " + dir_.path());
  EXPECT_EQ(batch_sync.exit_code, 1);
  EXPECT_NE(batch_sync.err.find("batch mode"), std::string::npos) << batch_sync.err;
  test::CommandResult bad_mode = test::RunSluice("action --runtime-mode sometimes compact");
  EXPECT_NE(bad_mode.exit_code, 0);

  test::CommandResult tag = test::RunSluice("action create_tag --warehouse " + dir_.path() +
                                            " --database db --table t --tag_name t1 --snapshot 2");
  ASSERT_EQ(tag.exit_code, 0) << tag.err;
  EXPECT_NE(tag.err.find("Created tag 't1' of snapshot 2"), std::string::npos) << tag.err;
  test::CommandResult missing =
      test::RunSluice("action create_tag --warehouse " + dir_.path() + " --database db --table t");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("create_tag: argument --tag_name is required"), std::string::npos)
      << missing.err;
}

}  // namespace
}  // namespace sluice
