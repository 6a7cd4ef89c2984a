// WriteBuilder: what one write of a table asks for (Java BatchWriteBuilder / StreamWriteBuilder).
// It makes the two halves of a write, which may live in different processes:
//
//   TableWrite    takes ColumnBatches and turns them into data files; PrepareCommit hands the
//                 files over as CommitMessages (one per partition and bucket; they serialise);
//   TableCommit   commits the messages of any number of writers as one snapshot.
//
//   SLUICE_ASSIGN_OR_RETURN(Table table, Table::Open("/warehouse/db.db/orders"));
//   WriteBuilder builder = table.NewWriteBuilder();
//   SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableWrite> write, builder.NewWrite());
//   SLUICE_RETURN_NOT_OK(write->Write(batch));            // the table's columns, in order
//   SLUICE_ASSIGN_OR_RETURN(std::vector<CommitMessage> messages, write->PrepareCommit());
//   SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<TableCommit> commit, builder.NewCommit());
//   SLUICE_ASSIGN_OR_RETURN(CommitResult result, commit->Commit(std::move(messages)));
//   SLUICE_RETURN_NOT_OK(write->Close());
//
//   commit user  WithCommitUser: who commits; a user's commit identifiers must increase (a
//                replayed identifier is skipped). Default: a fresh UUID, as Java's batch
//                writes use, so each builder commits once per identifier.
//   overwrite    WithOverwrite(spec): INSERT OVERWRITE of the partitions matching `spec` (the
//                whole table for an empty spec); WithDynamicOverwrite(): only the partitions
//                the new rows fall in are replaced.
//   options      WithOption: dynamic table options for this write (`write-buffer-size`,
//                `target-file-size`, `write-only`, ...), Java table.copy(options).
//   compaction   WithBackgroundCompaction: primary-key compactions run on a thread of their
//                own per bucket (default: inline, between flushes).
//   writers      WithDynamicBucketWriter(id, writers): a dynamic-bucket table (`bucket` = -1)
//                written by `writers` writes at once, this one number `id` (Java's bucket
//                assigner parallelism and subtask): it writes only the rows whose key routes
//                to it (Java computeAssigner) and skips the others, into buckets no other of
//                the writers opens, so `writers` writes given the same rows write each row
//                once and their commits never touch one bucket twice. InvalidArgument at
//                NewWrite for an id outside [0, writers) or a table of another bucket mode.
//   metrics      WithMetricRegistry: the write reports Paimon's writerBuffer and compaction
//                metrics, the commit its commit metrics and snapshot expiry, into `registry`
//                (metrics.h; Java withMetricRegistry), which must outlive them.
//
// The write and commit load the table's latest schema when they are made.
//
// Thread safety: a value type; not for concurrent mutation.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "sluice/metrics.h"
#include "sluice/partition_spec.h"
#include "sluice/result.h"
#include "sluice/table.h"
#include "sluice/table_commit.h"
#include "sluice/table_write.h"

namespace sluice {

class WriteBuilder {
 public:
  explicit WriteBuilder(Table table);

  WriteBuilder& WithCommitUser(std::string commit_user);
  WriteBuilder& WithOverwrite(PartitionSpec static_partition = {});
  WriteBuilder& WithDynamicOverwrite();
  WriteBuilder& WithOption(std::string key, std::string value);
  WriteBuilder& WithBackgroundCompaction(bool background);
  WriteBuilder& WithDynamicBucketWriter(int32_t id, int32_t writers);
  WriteBuilder& WithMetricRegistry(MetricRegistry* registry);

  const std::string& commit_user() const { return commit_user_; }

  // InvalidArgument naming a bad option value, or an overwrite spec naming a column that is
  // not a partition key.
  Result<std::unique_ptr<TableWrite>> NewWrite() const;
  Result<std::unique_ptr<TableCommit>> NewCommit() const;

 private:
  Result<std::shared_ptr<FileStoreTable>> LoadTable() const;
  Status CheckOverwriteSpec(const FileStoreTable& table) const;

  Table table_;
  std::string commit_user_;
  // Set for an overwrite: the static partition spec, or nullopt for a dynamic overwrite.
  std::optional<std::optional<PartitionSpec>> overwrite_;
  std::map<std::string, std::string> options_;
  bool background_compaction_ = false;
  // WithDynamicBucketWriter: this writer's id and the number of writers.
  std::optional<std::pair<int32_t, int32_t>> dynamic_bucket_writer_;
  MetricRegistry* metrics_ = nullptr;
};

}  // namespace sluice
