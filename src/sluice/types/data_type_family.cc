#include "sluice/types/data_type_family.h"

#include <cstdint>

namespace sluice {

namespace {

constexpr uint16_t Bit(TypeFamily f) { return static_cast<uint16_t>(1u << static_cast<int>(f)); }

// Java DataTypeRoot's family lists.
constexpr uint16_t FamiliesOf(TypeRoot root) {
  using F = TypeFamily;
  switch (root) {
    case TypeRoot::kChar:
    case TypeRoot::kVarChar:
      return Bit(F::kPredefined) | Bit(F::kCharacterString);
    case TypeRoot::kBoolean:
    case TypeRoot::kVariant:
    case TypeRoot::kBlob:
      return Bit(F::kPredefined);
    case TypeRoot::kBinary:
    case TypeRoot::kVarBinary:
      return Bit(F::kPredefined) | Bit(F::kBinaryString);
    case TypeRoot::kDecimal:
      return Bit(F::kPredefined) | Bit(F::kNumeric) | Bit(F::kExactNumeric);
    case TypeRoot::kTinyInt:
    case TypeRoot::kSmallInt:
    case TypeRoot::kInt:
    case TypeRoot::kBigInt:
      return Bit(F::kPredefined) | Bit(F::kNumeric) | Bit(F::kIntegerNumeric) |
             Bit(F::kExactNumeric);
    case TypeRoot::kFloat:
    case TypeRoot::kDouble:
      return Bit(F::kPredefined) | Bit(F::kNumeric) | Bit(F::kApproximateNumeric);
    case TypeRoot::kDate:
      return Bit(F::kPredefined) | Bit(F::kDatetime);
    case TypeRoot::kTime:
      return Bit(F::kPredefined) | Bit(F::kDatetime) | Bit(F::kTime);
    case TypeRoot::kTimestamp:
      return Bit(F::kPredefined) | Bit(F::kDatetime) | Bit(F::kTimestamp);
    case TypeRoot::kTimestampLtz:
      return Bit(F::kPredefined) | Bit(F::kDatetime) | Bit(F::kTimestamp) | Bit(F::kExtension);
    case TypeRoot::kArray:
    case TypeRoot::kVector:
    case TypeRoot::kMultiset:
      return Bit(F::kConstructed) | Bit(F::kCollection);
    case TypeRoot::kMap:
      return Bit(F::kConstructed) | Bit(F::kExtension);
    case TypeRoot::kRow:
      return Bit(F::kConstructed);
  }
  return 0;
}

}  // namespace

bool HasFamily(TypeRoot root, TypeFamily family) { return (FamiliesOf(root) & Bit(family)) != 0; }

}  // namespace sluice
