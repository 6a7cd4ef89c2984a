// DELTA_BYTE_ARRAY (Encodings.md, incremental encoding): DELTA_BINARY_PACKED prefix lengths,
// then the suffixes as DELTA_LENGTH_BYTE_ARRAY; value i = value i-1's prefix + suffix i. Also
// used for FIXED_LEN_BYTE_ARRAY, whose values must then have the fixed width.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include "sluice/format/parquet/decoder/column_values.h"
#include "sluice/result.h"

namespace sluice::parquet {

Status DecodeDeltaByteArray(const uint8_t* data, size_t size, int64_t count, ColumnValues* out);

}  // namespace sluice::parquet
