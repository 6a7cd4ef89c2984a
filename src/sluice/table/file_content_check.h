// What files hold against what the metadata records of them, for `sluice check`
// (table_checker.h): a data file re-read against its manifest entry (its row count, sequence
// numbers and delete row count, its min and max keys, and the value and key statistics as the
// writer's stats modes collect them: Java's per-level modes, the first-N column limit, thin
// mode, the formats' NaN rules), and a manifest's entries against the partition statistics its
// manifest list records.
//
// Thread safety: a function of the files it reads.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sluice/meta/manifest_entry.h"
#include "sluice/meta/table_schema.h"
#include "sluice/status.h"
#include "sluice/table/file_store_table.h"

namespace sluice {

struct DataFileContentCheck {
  // One line per problem, each naming the file.
  std::vector<std::string> problems;
  // With `collect_key_hashes` (dynamic-bucket tables): the hash of every key the file holds,
  // when the file holds the whole trimmed primary key.
  std::optional<std::set<int32_t>> key_hashes;
};

// Reads the data file at `path` (of `entry`, written with `schema`) and appends to
// `out->problems` every way it differs from what `entry` records. An error when the file cannot
// be read or its metadata names columns the schema lacks; the problems found before it stay in
// `out`.
Status CheckDataFileContent(const FileStoreTable& table, const std::string& path,
                            const ManifestEntry& entry, const TableSchema& schema,
                            bool collect_key_hashes, DataFileContentCheck* out);

// Appends to `problems` every way the partition statistics `stats` a manifest list records for
// a manifest (`who`) differ from the partitions of its `entries` (of `partition_type`).
void CheckManifestPartitionStats(const std::string& who, const SimpleStats& stats,
                                 const DataType& partition_type,
                                 const std::vector<ManifestEntry>& entries,
                                 std::vector<std::string>* problems);

}  // namespace sluice
