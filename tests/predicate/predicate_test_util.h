// Helpers shared by the predicate tests: schemas, batches and stats built from Values.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sluice/column_batch.h"
#include "sluice/predicate/predicate.h"
#include "sluice/types/column_stats.h"
#include "sluice/types/value_comparator.h"
#include "test_util.h"
#include "types/field_util.h"

namespace sluice::test {

// A ROW type with fields named and typed as given, ids 0..n-1.
inline DataTypePtr RowOf(std::vector<std::pair<std::string, DataTypePtr>> fields) {
  std::vector<DataField> out;
  for (size_t i = 0; i < fields.size(); ++i) {
    out.push_back(Field(static_cast<int32_t>(i), fields[i].first, fields[i].second));
  }
  return DataType::Row(std::move(out));
}

inline std::unique_ptr<ColumnBatch> MakeBatch(const DataTypePtr& row_type,
                                              const std::vector<ValueList>& rows) {
  auto batch = std::make_unique<ColumnBatch>(row_type);
  for (const ValueList& row : rows) {
    Status st = batch->AppendRow(row);
    EXPECT_OK(st);
  }
  return batch;
}

// Indexes of the rows `p` keeps.
inline std::vector<int> Kept(const Predicate& p, const ColumnBatch& batch) {
  std::vector<uint8_t> selection(static_cast<size_t>(batch.num_rows()), 1);
  p.Filter(batch, selection.data());
  std::vector<int> kept;
  for (size_t i = 0; i < selection.size(); ++i) {
    if (selection[i] != 0) kept.push_back(static_cast<int>(i));
  }
  return kept;
}

// The exact stats of every column of `batch` (min / max over non-null values in the
// CompareValues order, absent when all values are null).
inline std::vector<ColumnStats> StatsOf(const ColumnBatch& batch) {
  std::vector<ColumnStats> stats(static_cast<size_t>(batch.num_columns()));
  for (int c = 0; c < batch.num_columns(); ++c) {
    const ColumnVector& col = *batch.column(c);
    const DataType& type = *col.type();
    ColumnStats& s = stats[static_cast<size_t>(c)];
    s.null_count = 0;
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      Value v = col.GetValue(i);
      if (v.is_null()) {
        ++*s.null_count;
        continue;
      }
      if (!s.min || CompareValues(v, *s.min, type) < 0) s.min = v;
      if (!s.max || CompareValues(v, *s.max, type) > 0) s.max = v;
    }
  }
  return stats;
}

}  // namespace sluice::test
