// PLAIN decoding (Encodings.md "Plain") of every physical type, appended to ColumnValues.
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>

#include "sluice/format/parquet/decoder/column_values.h"
#include "sluice/result.h"

namespace sluice::parquet {

// Decodes `count` values from [data, data + size) into `out` (whose type says how); sets
// *consumed to the bytes used.
Status DecodePlain(const uint8_t* data, size_t size, int64_t count, ColumnValues* out,
                   size_t* consumed);

}  // namespace sluice::parquet
