// The postpone compaction of `bucket = -2` primary-key tables (Java's postpone compaction job:
// PostponeBucketCompactSplitSource, RemovePostponeBucketFilesOperator,
// PostponeBucketCommittableRewriter): the postpone bucket's files of a partition are replayed
// one by one in creation order, every record with its row kind, into the partition's real
// buckets (as many as its live files have, else `postpone.default-bucket-num`), through fixed
// bucket writers that number, merge and compact them as any write does. The result is one
// commit message per bucket as compaction increments: the postpone files compacted away, the
// real buckets' new files compacted in, so the commit is a COMPACT snapshot and the rows
// become visible to batch reads (which skip the postpone bucket) all at once.
//
// Thread safety: runs on the caller's thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/io/commit_message_impl.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// `partition`: serialized BinaryRow. Nothing when the partition's postpone bucket is empty.
Result<std::vector<CommitMessageImpl>> CompactPostponeBucket(
    const std::shared_ptr<const FileStoreTable>& table, const std::string& partition);

}  // namespace sluice
