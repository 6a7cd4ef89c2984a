#include "sluice/meta/simple_stats.h"

namespace sluice {

const std::string& EmptySerializedRow() {
  // 4-byte big-endian arity 0, then the 8-byte header-and-null-bits word of an empty BinaryRow.
  static const std::string kEmpty(12, '\0');
  return kEmpty;
}

}  // namespace sluice
