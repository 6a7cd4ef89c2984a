// ReadDeletionVector: loads the deletion vector a scan plan attached to a data file (Java
// DeletionVector.read) from its deletion-vector index file.
//
// Validates the index file's version byte, that the entry lies inside the file, the manifest
// length against the entry's length field (per variant, see deletion_vector.h), the entry itself
// (magic, CRC, bitmap) and, when the manifest recorded one, the cardinality. Every error names
// the index file and the entry's offset.
//
// Thread safety: reentrant.
#pragma once

#include "sluice/fs/file_io.h"
#include "sluice/index/deletion_file.h"
#include "sluice/index/deletion_vector.h"
#include "sluice/result.h"

namespace sluice {

// The first byte of every deletion-vector index file (Java DeletionVectorsIndexFile.VERSION_ID_V1).
inline constexpr uint8_t kDeletionVectorIndexVersion = 1;

Result<DeletionVector> ReadDeletionVector(FileIO& io, const DeletionFile& file);

}  // namespace sluice
