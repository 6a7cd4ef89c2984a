// BuildDeletionVectorIndexFile: the content of one deletion-vector index file and the ranges its
// index manifest entry lists (Java DeletionVectorsIndexFile / DeletionFileWriter): the version
// byte, then each data file's entry in the given order.
//
// Thread safety: reentrant; the vectors are run-length encoded in place (see Serialize).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sluice/index/deletion_vector.h"
#include "sluice/meta/index_manifest_entry.h"
#include "sluice/result.h"

namespace sluice {

struct DeletionVectorIndexFile {
  std::string content;
  // (data file name, offset, manifest length, cardinality) per vector, in file order.
  std::vector<DeletionVectorMeta> ranges;
};

// `vectors`: (data file name, its deletion vector). InvalidArgument when the file would reach
// 2 GiB (manifest offsets and lengths are int32).
Result<DeletionVectorIndexFile> BuildDeletionVectorIndexFile(
    const std::vector<std::pair<std::string, DeletionVector*>>& vectors);

}  // namespace sluice
