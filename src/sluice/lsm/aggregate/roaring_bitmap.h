// The aggregate function `rbm32` (Java FieldRoaringBitmap32Agg): the union of VARBINARY values
// holding 32-bit roaring bitmaps in the portable serialization (Java RoaringBitmap's), run-
// optimized before serializing as Java does. No retraction. rbm64 is not supported (see
// field_aggregator_factory.h).
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldRoaringBitmap32Agg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  // InvalidArgument when a value is not a serialized bitmap.
  Result<Value> Agg(const Value& acc, const Value& in) override;
};

}  // namespace sluice
