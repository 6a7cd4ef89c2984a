// MakeLookupLevels: the LookupLevels (lsm/lookup) of one bucket of a primary-key table, its
// lookup files built from the bucket's data files read with KeyValueFileReader under
// `read_schema` (every field of the table row; older files evolve by field id), with no
// deletion vector applied so that row positions are the files' own (Java
// KeyValueFileStoreWrite.createLookupLevels).
//
// Thread safety: the returned LookupLevels is not thread-safe (see lookup_levels.h).
#pragma once

#include <memory>
#include <string>

#include "sluice/lsm/lookup/lookup_levels.h"
#include "sluice/result.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

// Reads each data file of the bucket (`partition`: its serialized partition row, `bucket_path`:
// its directory) for its lookup file: every record, the record layout of every read_schema
// field. Also what a compaction reads its input files' keys with.
Result<LookupFileReaderFactory> MakeLookupFileReaderFactory(
    std::shared_ptr<const FileStoreTable> table, std::shared_ptr<const TableSchema> read_schema,
    std::string partition, std::string bucket_path);

// `partition`: the serialized partition row of the bucket; `bucket_path`: its directory.
// The lookup files go to `cache` (LookupFileCache::Make over LookupOptions::Make(table options)).
Result<std::unique_ptr<LookupLevels>> MakeLookupLevels(
    std::shared_ptr<const FileStoreTable> table, std::shared_ptr<const TableSchema> read_schema,
    std::string partition, std::string bucket_path, std::shared_ptr<LookupFileCache> cache,
    LookupLevels::Options options = {});

}  // namespace sluice
