// StreamShard: which share of a table's streaming read one reader takes (Java withShard,
// Flink's parallel source): reader `index` of `count`.
#pragma once

#include <cstdint>

namespace sluice {

struct StreamShard {
  int32_t index = 0;
  int32_t count = 1;
};

}  // namespace sluice
