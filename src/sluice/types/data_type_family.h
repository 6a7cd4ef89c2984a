// Paimon's type families (Java DataTypeFamily / DataTypeRoot.getFamilies()): the one place that
// says which roots are numeric, character strings, timestamps ... Cast rules, predicates and
// aggregators ask these instead of listing roots in their own switches.
//
// Thread safety: pure functions.
#pragma once

#include "sluice/data_type.h"

namespace sluice {

// Java DataTypeFamily, in its declaration order (the order Java looks families up in).
enum class TypeFamily : unsigned char {
  kPredefined,
  kConstructed,
  kCharacterString,
  kBinaryString,
  kNumeric,
  kIntegerNumeric,
  kExactNumeric,
  kApproximateNumeric,
  kDatetime,
  kTime,
  kTimestamp,
  kCollection,
  kExtension,
};

inline constexpr int kNumTypeFamilies = 13;

// Whether `root` belongs to `family` (Java DataTypeRoot.getFamilies().contains).
bool HasFamily(TypeRoot root, TypeFamily family);

// TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL.
inline bool IsNumeric(TypeRoot root) { return HasFamily(root, TypeFamily::kNumeric); }
// TINYINT, SMALLINT, INT, BIGINT.
inline bool IsIntegerNumeric(TypeRoot root) { return HasFamily(root, TypeFamily::kIntegerNumeric); }
// FLOAT, DOUBLE.
inline bool IsApproximateNumeric(TypeRoot root) {
  return HasFamily(root, TypeFamily::kApproximateNumeric);
}
// CHAR, VARCHAR.
inline bool IsCharacterString(TypeRoot root) {
  return HasFamily(root, TypeFamily::kCharacterString);
}
// BINARY, VARBINARY.
inline bool IsBinaryString(TypeRoot root) { return HasFamily(root, TypeFamily::kBinaryString); }
// TIMESTAMP, TIMESTAMP WITH LOCAL TIME ZONE.
inline bool IsTimestamp(TypeRoot root) { return HasFamily(root, TypeFamily::kTimestamp); }

}  // namespace sluice
