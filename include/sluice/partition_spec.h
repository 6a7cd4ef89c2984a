// PartitionSpec: partition key -> value text, as Java partition specs write it ("2024-01-01",
// "10"); the table's `partition.default-name` value selects null. May name a prefix of the
// partition keys.
//
// Thread safety: a value type.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sluice {

using PartitionSpec = std::vector<std::pair<std::string, std::string>>;

}  // namespace sluice
