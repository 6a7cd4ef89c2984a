// The aggregate functions `bool_and` and `bool_or` (Java FieldBoolAndAgg, FieldBoolOrAgg) over
// BOOLEAN fields; nulls are skipped. No retraction.
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldBoolAndAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return Value::Boolean(acc.boolean() && in.boolean());
  }
};

class FieldBoolOrAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (acc.is_null() || in.is_null()) return acc.is_null() ? in : acc;
    return Value::Boolean(acc.boolean() || in.boolean());
  }
};

}  // namespace sluice
