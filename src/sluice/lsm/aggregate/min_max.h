// The aggregate functions `max` and `min` (Java FieldMaxAgg, FieldMinAgg): the greatest /
// least non-null value by the field type's order. No retraction.
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include "sluice/lsm/aggregate/field_aggregator.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

class FieldMaxAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return CompareValues(acc, in, *type()) < 0 ? in : acc;
  }
};

class FieldMinAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return CompareValues(acc, in, *type()) > 0 ? in : acc;
  }
};

}  // namespace sluice
