// DELTA_LENGTH_BYTE_ARRAY (Encodings.md): DELTA_BINARY_PACKED lengths, then the concatenated
// bytes.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include "sluice/format/parquet/decoder/column_values.h"
#include "sluice/result.h"

namespace sluice::parquet {

// Decodes `count` values into `out` (a BYTE_ARRAY ColumnValues).
Status DecodeDeltaLengthByteArray(const uint8_t* data, size_t size, int64_t count,
                                  ColumnValues* out);

}  // namespace sluice::parquet
