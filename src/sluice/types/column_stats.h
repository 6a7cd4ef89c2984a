// ColumnStats: what a file (or row group, stripe, manifest entry) records about one column.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>

#include "sluice/value.h"

namespace sluice {

// min / max are in the column's internal representation (value.h); absent when unknown (all
// values null, a type without an order, truncated, or a format that does not keep them).
struct ColumnStats {
  std::optional<Value> min;
  std::optional<Value> max;
  std::optional<int64_t> null_count;
};

}  // namespace sluice
