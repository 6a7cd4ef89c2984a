// Row gathering for column vectors: the one primitive the read path uses to copy, compact
// (after a filter) and broadcast (partition constants) columns without per-value dispatch.
//
// Thread safety: free functions; `out` must not be shared while they write it.
#pragma once

#include <cstdint>

#include "sluice/column_vector.h"

namespace sluice {

// Appends in[rows[0]], ..., in[rows[n - 1]] to `out`, children included.
// REQUIRES: in and out have the same physical layout (same type up to nullability and names);
// every rows[i] < in.size().
void TakeRows(const ColumnVector& in, const int64_t* rows, int64_t n, ColumnVector* out);

// Appends in[0, in.size()) to `out`. Same requirements as TakeRows.
void AppendAll(const ColumnVector& in, ColumnVector* out);

// Appends n null rows to `out` (and null / empty children).
void AppendNulls(int64_t n, ColumnVector* out);

}  // namespace sluice
