// BYTE_STREAM_SPLIT (Encodings.md): byte k of value i is at k * count + i. Defined for FLOAT,
// DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY.
//
// Thread safety: pure function.
#pragma once

#include <cstdint>

#include "sluice/format/parquet/decoder/column_values.h"
#include "sluice/result.h"

namespace sluice::parquet {

Status DecodeByteStreamSplit(const uint8_t* data, size_t size, int64_t count, ColumnValues* out);

}  // namespace sluice::parquet
