// SimpleStats: Paimon's per-file statistics record (stats/SimpleStats.java): the minimums and
// maximums of the stats columns as serialized BinaryRows, and a null count per column.
//
// The rows are kept serialized (4-byte big-endian arity + BinaryRow bytes, as in manifests) so
// that entries round-trip byte for byte; decode them with the stats column types when needed.
//
// Thread safety: a value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

struct SimpleStats {
  std::string min_values;
  std::string max_values;
  // One entry per stats column (null = unknown); absent when the file recorded none.
  std::optional<std::vector<std::optional<int64_t>>> null_counts;

  bool operator==(const SimpleStats&) const = default;
};

// The serialized empty row (arity 0): what non-partitioned tables and append-table keys hold.
const std::string& EmptySerializedRow();

}  // namespace sluice
