// ColumnRowComparator: orders rows held in column batches of one layout on some of their
// columns, in the order CompareValues defines (value_comparator.h), without building Values:
// the merge of sorted runs compares keys and sequence fields straight from decoded batches.
//
// Nulls order first. A descending column reverses the order of non-null values only (Java's
// user-defined sequence comparator keeps nulls first in both orders).
//
// Thread safety: immutable; safe to share.
#pragma once

#include <cstdint>
#include <vector>

#include "sluice/column_batch.h"

namespace sluice {

// <0, 0, >0 as a[i] orders before, equal to, or after b[j]; a and b have the same type.
int CompareColumnRows(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j);

class ColumnRowComparator {
 public:
  ColumnRowComparator() = default;
  // `columns`: batch column indexes compared in order; `ascending` applies to all of them.
  explicit ColumnRowComparator(std::vector<int> columns, bool ascending = true)
      : columns_(std::move(columns)), ascending_(ascending) {}

  bool empty() const { return columns_.empty(); }
  const std::vector<int>& columns() const { return columns_; }

  int Compare(const ColumnBatch& a, int64_t i, const ColumnBatch& b, int64_t j) const {
    for (int column : columns_) {
      const ColumnVector& x = *a.column(column);
      const ColumnVector& y = *b.column(column);
      const bool x_null = x.IsNull(i);
      const bool y_null = y.IsNull(j);
      if (x_null || y_null) {
        if (x_null && y_null) continue;
        return x_null ? -1 : 1;
      }
      const int c = CompareColumnRows(x, i, y, j);
      if (c != 0) return ascending_ ? c : -c;
    }
    return 0;
  }

 private:
  std::vector<int> columns_;
  bool ascending_ = true;
};

}  // namespace sluice
