// Append-table compaction: files of one bucket read in sequence order and written again into
// files rolled at `target-file-size` (Java BaseAppendFileStoreWrite.compactRewrite): rows keep
// their order and get consecutive sequence numbers from the first file's minimum; the new
// files are marked FileSource COMPACT.
//
// MakeBucketedAppendCompactManager builds the compaction manager of one fixed bucket of an
// append table over this rewrite (null for `write-only` tables, as Java's NoopCompactManager).
//
// Thread safety: stateless functions; the rewrite may run on a compaction thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/io/rolling_data_file_writer.h"
#include "sluice/lsm/compact_manager.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// `partition`: the serialized partition row of the bucket; `writers`: the bucket's factory.
Result<std::vector<DataFileMeta>> RewriteAppendFiles(
    const FileStoreTable& table, const std::string& partition, int32_t bucket,
    const std::shared_ptr<DataFileWriterFactory>& writers, const std::vector<DataFileMeta>& files);

Result<std::unique_ptr<CompactManager>> MakeBucketedAppendCompactManager(
    std::shared_ptr<const FileStoreTable> table, const std::string& partition, int32_t bucket,
    const std::vector<DataFileMeta>& restored_files, std::shared_ptr<DataFileWriterFactory> writers,
    bool background = false);

}  // namespace sluice
