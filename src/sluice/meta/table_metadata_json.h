// TableMetadataJson: one JSON document describing a table at a snapshot, for people and tools
// (`sluice meta`): the schema and snapshot files as stored, every manifest list record, every
// manifest entry with its BinaryRows decoded (partition values, min/max keys, key and value
// stats under the schema the file was written with), and the index manifest entries.
//
// Thread safety: stateless; FileIO must be thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

// `snapshot_id` absent = the latest snapshot of `branch` ("main" is the table itself; other
// branches keep their snapshots and schemas under branch/branch-<name>/ and share the table's
// manifests). A table without snapshots yields the latest schema and `"snapshot": null`.
Result<std::string> TableMetadataJson(const std::shared_ptr<FileIO>& io,
                                      const std::string& table_path,
                                      std::optional<int64_t> snapshot_id,
                                      const std::string& branch = "main");

}  // namespace sluice
