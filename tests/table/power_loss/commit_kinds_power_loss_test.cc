// Power-loss tests (labelled scenario, issue #38) of every kind of table commit, through the
// harness of table/power_loss_util.h: the power fails after each mutating FileIO call of the
// write and commit (append table, INSERT OVERWRITE, drop_partition, dynamic bucket with its hash
// index, deletion vectors, each changelog producer) and of a streaming reader's consumer
// progress; every acknowledged commit survives, no half snapshot is ever visible, and the table
// checks clean. The primary-key write and commit of one bucket: power_loss_test.cc.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "sluice/meta/consumer_manager.h"
#include "sluice/meta/manifest_file.h"
#include "sluice/table/sink/file_store_commit.h"
#include "sluice/table/sink/file_store_write.h"
#include "sluice/table/source/data_table_stream_scan.h"
#include "table/compaction_test_util.h"
#include "table/power_loss_util.h"

namespace sluice {
namespace {

using test::PowerLossAtEveryCall;
using test::PowerLossCase;

constexpr char kTable[] = "/warehouse/db.db/t";

// p INT NOT NULL, k BIGINT NOT NULL, v STRING; partitioned by p.
std::vector<DataField> Fields() {
  return {DataField{0, "p", DataType::Int(false), std::nullopt, std::nullopt},
          DataField{1, "k", DataType::BigInt(false), std::nullopt, std::nullopt},
          DataField{2, "v", DataType::String(), std::nullopt, std::nullopt}};
}

// Rows (p, k, "<tag>k") for k in [first, first + count).
std::vector<ValueList> Rows(int32_t p, int64_t first, int64_t count, const std::string& tag) {
  std::vector<ValueList> rows;
  for (int64_t k = first; k < first + count; ++k) {
    rows.push_back({Value::Int32(p), Value::Int64(k), Value::String(tag + std::to_string(k))});
  }
  return rows;
}

// A primary-key table (p, k) or an append table, with `options`.
Status Create(const std::shared_ptr<FileIO>& io, bool primary_key, TableOptions options) {
  test::CreateTestTable(
      kTable, Fields(), {"p"},
      primary_key ? std::vector<std::string>{"p", "k"} : std::vector<std::string>{},
      std::move(options), io);
  return Status::OK();
}

// Writes `rows` through a fresh writer (compacting as the table's options say) and commits them
// as `identifier`; with `overwrite`, as an INSERT OVERWRITE of that partition spec.
Status WriteAndCommit(const std::shared_ptr<FileIO>& io, const std::vector<ValueList>& rows,
                      int64_t identifier,
                      const std::optional<PartitionSpec>& overwrite = std::nullopt) {
  SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table, FileStoreTable::Open(io, kTable));
  FileStoreWriteOptions options;
  options.overwrite = overwrite.has_value();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreWrite> write,
                          FileStoreWrite::Open(table, options));
  Result<CommitResult> result = [&]() -> Result<CommitResult> {
    SLUICE_RETURN_NOT_OK(test::WriteRows(write.get(), table->schema().LogicalRowType(), rows, {}));
    SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessageImpl> messages,
                            write->PrepareCommit(identifier, /*wait_compaction=*/true));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                            FileStoreCommit::Make(table, "writer"));
    ManifestCommittable committable;
    committable.identifier = identifier;
    committable.messages = std::move(messages);
    return overwrite ? commit->Overwrite(committable, *overwrite) : commit->Commit(committable);
  }();
  write->Close().IgnoreError();  // after a power loss Close fails too; the commit's outcome counts
  return result.status();
}

// The build of most cases: the table, then two commits into partitions 1 and 2.
std::function<Status(const std::shared_ptr<FileIO>&)> TwoCommits(bool primary_key,
                                                                 TableOptions options) {
  return [=](const std::shared_ptr<FileIO>& io) -> Status {
    SLUICE_RETURN_NOT_OK(Create(io, primary_key, options));
    SLUICE_RETURN_NOT_OK(WriteAndCommit(io, Rows(1, 0, 4, "a"), 1));
    return WriteAndCommit(io, Rows(2, 0, 4, "b"), 2);
  };
}

// The case run once on a plain MemoryFileIO: what its reference run leaves.
std::shared_ptr<FileIO> RunOnce(const PowerLossCase& c) {
  auto io = std::make_shared<MemoryFileIO>();
  EXPECT_OK(c.build(io));
  EXPECT_OK(c.op(io));
  return io;
}

std::shared_ptr<FileStoreTable> OpenTable(const std::shared_ptr<FileIO>& io) {
  auto table = FileStoreTable::Open(io, kTable);
  EXPECT_OK(table);
  return std::move(table).ValueOr(nullptr);
}

// The index types (HASH, DELETION_VECTORS) of the latest snapshot's index manifest.
std::set<std::string> IndexTypes(const std::shared_ptr<FileIO>& io) {
  std::set<std::string> out;
  auto snapshot = OpenTable(io)->SelectSnapshot(TableVersion::Latest());
  EXPECT_OK(snapshot);
  if (!snapshot.ok() || !*snapshot || !(*snapshot)->index_manifest) return out;
  auto entries = ReadIndexManifest(*io, ManifestFilePath(kTable, *(*snapshot)->index_manifest));
  EXPECT_OK(entries);
  for (const IndexManifestEntry& e : std::move(entries).ValueOr({})) out.insert(e.index_type);
  return out;
}

// Whether any snapshot carries changelog files.
bool HasChangelog(const std::shared_ptr<FileIO>& io) {
  auto snapshots = OpenTable(io)->snapshot_manager().ListSnapshots();
  EXPECT_OK(snapshots);
  for (const Snapshot& s : std::move(snapshots).ValueOr({})) {
    if (s.changelog_manifest_list.has_value()) return true;
  }
  return false;
}

TEST(CommitKindsPowerLossTest, AppendTableCommit) {
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/false, {});
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return WriteAndCommit(io, Rows(1, 10, 3, "c"), 3);
  };
  c.tables = {kTable};
  c.min_cuts = 8;
  PowerLossAtEveryCall(c);
}

TEST(CommitKindsPowerLossTest, FixedBucketAppendTableCommitThatCompacts) {
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/false,
                       {{"bucket", "1"}, {"bucket-key", "k"}, {"compaction.min.file-num", "2"}});
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return WriteAndCommit(io, Rows(1, 10, 3, "c"), 3);
  };
  c.tables = {kTable};
  c.min_cuts = 8;
  PowerLossAtEveryCall(c);
}

TEST(CommitKindsPowerLossTest, InsertOverwriteOfAPartition) {
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/false, {});
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return WriteAndCommit(io, Rows(1, 20, 2, "o"), 3, PartitionSpec{{"p", "1"}});
  };
  c.tables = {kTable};
  c.min_cuts = 8;
  PowerLossAtEveryCall(c);
}

TEST(CommitKindsPowerLossTest, DropPartition) {
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/true, {{"bucket", "2"}});
  c.op = [](const std::shared_ptr<FileIO>& io) -> Status {
    SLUICE_ASSIGN_OR_RETURN(std::shared_ptr<FileStoreTable> table,
                            FileStoreTable::Open(io, kTable));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FileStoreCommit> commit,
                            FileStoreCommit::Make(table, "dropper"));
    return commit->DropPartitions({PartitionSpec{{"p", "1"}}}).status();
  };
  c.tables = {kTable};
  c.min_cuts = 4;
  PowerLossAtEveryCall(c);
}

TEST(CommitKindsPowerLossTest, DynamicBucketCommitWithHashIndex) {
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/true, {{"bucket", "-1"}});
  c.op = [](const std::shared_ptr<FileIO>& io) {
    std::vector<ValueList> rows = Rows(1, 2, 4, "c");  // two updates, two new keys
    return WriteAndCommit(io, rows, 3);
  };
  c.tables = {kTable};
  c.min_cuts = 8;
  EXPECT_EQ(IndexTypes(RunOnce(c)), std::set<std::string>{"HASH"});
  PowerLossAtEveryCall(c);
}

TEST(CommitKindsPowerLossTest, DeletionVectorCommit) {
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/true, {{"bucket", "1"},
                                              {"deletion-vectors.enabled", "true"},
                                              {"num-sorted-run.compaction-trigger", "2"}});
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return WriteAndCommit(io, Rows(1, 1, 2, "c"), 3);  // updates: rows of older files deleted
  };
  c.tables = {kTable};
  c.min_cuts = 8;
  EXPECT_EQ(IndexTypes(RunOnce(c)), std::set<std::string>{"DELETION_VECTORS"});
  PowerLossAtEveryCall(c);
}

class ChangelogProducerPowerLossTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ChangelogProducerPowerLossTest, CommitWithChangelog) {
  TableOptions options = {{"bucket", "1"}, {"changelog-producer", GetParam()}};
  if (std::string(GetParam()) == "full-compaction") {
    options.emplace_back("full-compaction.delta-commits", "1");
  }
  PowerLossCase c;
  c.build = TwoCommits(/*primary_key=*/true, options);
  c.op = [](const std::shared_ptr<FileIO>& io) {
    return WriteAndCommit(io, Rows(1, 2, 4, "c"), 3);
  };
  c.tables = {kTable};
  c.min_cuts = 8;
  EXPECT_TRUE(HasChangelog(RunOnce(c)));
  PowerLossAtEveryCall(c);
}

INSTANTIATE_TEST_SUITE_P(Producers, ChangelogProducerPowerLossTest,
                         ::testing::Values("input", "lookup", "full-compaction"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A restarted streaming reader with a consumer-id resumes at its consumer's position, reads the
// next snapshot and records the one after it.
TEST(CommitKindsPowerLossTest, ConsumerProgressOfAStreamingRead) {
  auto read_next = [](const std::shared_ptr<FileIO>& io) -> Status {
    SLUICE_ASSIGN_OR_RETURN(
        std::shared_ptr<FileStoreTable> table,
        FileStoreTable::Open(io, kTable, kMainBranch, {{"consumer-id", "reader"}}));
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<DataTableStreamScan> scan,
                            DataTableStreamScan::Create(table, ScanOptions{}));
    // A resumed reader's first plan only positions it at its consumer's snapshot.
    SLUICE_ASSIGN_OR_RETURN(StreamPlan plan, scan->Plan());
    if (!plan.snapshot_id) {
      SLUICE_ASSIGN_OR_RETURN(plan, scan->Plan());
    }
    if (!plan.snapshot_id) return Status::Internal("no snapshot to read");
    return scan->NotifyCheckpointComplete(scan->Checkpoint());
  };
  PowerLossCase c;
  c.build = [&](const std::shared_ptr<FileIO>& io) -> Status {
    SLUICE_RETURN_NOT_OK(TwoCommits(/*primary_key=*/true, {{"bucket", "1"}})(io));
    SLUICE_RETURN_NOT_OK(read_next(io));  // the first plan: snapshot 2 whole; next is 3
    return WriteAndCommit(io, Rows(3, 0, 2, "c"), 3);
  };
  c.op = read_next;
  c.tables = {kTable};
  c.observe = [](const std::shared_ptr<FileIO>& io) {
    auto consumer = ConsumerManager(io, kTable).LoadConsumer("reader");
    EXPECT_OK(consumer);
    return consumer.ok() && consumer->has_value()
               ? "next snapshot " + std::to_string((*consumer)->next_snapshot)
               : std::string("no consumer");
  };
  c.min_cuts = 1;
  PowerLossAtEveryCall(c);
}

}  // namespace
}  // namespace sluice
