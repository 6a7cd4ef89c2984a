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

// Appends ins[sources[0]][rows[0]], ..., ins[sources[n - 1]][rows[n - 1]] to `out`: one call
// for rows that alternate between several inputs (a merge's results), where TakeRows would be
// called per input change. Same requirements as TakeRows, for every input; entries of `ins`
// that no row names may be null.
void TakeRowsFrom(const ColumnVector* const* ins, const uint32_t* sources, const int64_t* rows,
                  int64_t n, ColumnVector* out);

// Appends in[0, in.size()) to `out`. Same requirements as TakeRows.
void AppendAll(const ColumnVector& in, ColumnVector* out);

// Appends n null rows to `out` (and null / empty children).
void AppendNulls(int64_t n, ColumnVector* out);

}  // namespace sluice
