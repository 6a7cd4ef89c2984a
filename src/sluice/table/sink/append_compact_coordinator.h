// AppendCompactCoordinator: plans the small-file compaction of a bucket-unaware append table
// (`bucket = -1`), whose writers never compact (Java AppendCompactCoordinator in batch mode,
// with AppendCompactTask): the live files of the latest snapshot, per partition, that are
// smaller than the compaction file size (`target-file-size` * `compaction.small-file-ratio`)
// are sorted by size and packed into tasks; a bin becomes a task once it holds more than one
// file and its size (each file counted with `source.split.open-file-cost`) reaches twice
// `target-file-size`; what is left becomes a task when it holds at least
// `compaction.min.file-num` files (more than one on full compaction). RunAppendCompactTask
// rewrites a task's files into `target-file-size` files and returns the COMPACT commit
// message (bucket 0, as Java records bucket-unaware files).
//
// Thread safety: stateless functions; tasks are independent values and may run on any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sluice/io/commit_message_impl.h"
#include "sluice/meta/data_file_meta.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct AppendCompactTask {
  std::string partition;  // serialized BinaryRow
  // `_TOTAL_BUCKETS` as the table's manifest entries of this partition record it.
  int32_t total_buckets = -1;
  // The files to rewrite, in sequence-number order.
  std::vector<DataFileMeta> files;
};

// `partition`: only this serialized partition row, or every partition when unset.
// InvalidArgument for tables that are not bucket-unaware append tables; NotSupported for
// deletion-vector tables (their rewrite would have to carry the deletion vectors over).
Result<std::vector<AppendCompactTask>> PlanAppendCompaction(
    const FileStoreTable& table, const std::optional<std::string>& partition, bool full_compaction);

// Rewrites the task's files; the message removes them and adds the new files.
Result<CommitMessageImpl> RunAppendCompactTask(const FileStoreTable& table,
                                               const AppendCompactTask& task);

}  // namespace sluice
