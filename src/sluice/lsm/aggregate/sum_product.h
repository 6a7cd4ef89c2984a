// The arithmetic aggregate functions `sum` and `product` (Java FieldSumAgg, FieldProductAgg),
// with Java's overflow rules: Math.*Exact for integers (an OutOfRange error), IEEE for floats,
// Decimal.fromBigDecimal for decimals (null when the result needs more digits than the type).
// Nulls are skipped; retraction subtracts / divides.
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldSumAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override;
  // acc - in; a null accumulator retracts to -in.
  Result<Value> Retract(const Value& acc, const Value& in) override;
};

class FieldProductAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override;
  // acc / in, exact (a non-terminating decimal quotient is an error, as BigDecimal.divide).
  Result<Value> Retract(const Value& acc, const Value& in) override;
};

}  // namespace sluice
