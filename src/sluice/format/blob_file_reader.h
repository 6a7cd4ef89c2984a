// ReadBlobFile: the values of a Paimon `.blob` file (the side files holding a BLOB column of a
// data-evolution table, one value per row of the file's row range).
//
//   record*  index  index_length:int32 LE  version:uint8 (1)
//   record   magic:uint32 LE 0x584E11CF  bytes  record_length:int64 LE  crc32:uint32 LE
//   index    the record lengths, delta-encoded: zigzag varints of the difference to the
//            previous length (the first to 0)
//
// record_length counts the whole record (16 + the value's size); the CRC-32 covers the record
// up to and including record_length. Layout learned from the corpus' blob files.
//
// Thread safety: a stateless function.
#pragma once

#include "sluice/column_vector.h"
#include "sluice/fs/file_io.h"
#include "sluice/result.h"

namespace sluice {

// Appends every value of the file, in order, to `out` (a BLOB / binary column). Corruption
// naming the file and the record for bad magic, lengths, CRC or index.
Status ReadBlobFile(const RandomAccessFile& file, ColumnVector* out);

}  // namespace sluice
