// The aggregate functions that keep one of the values rather than combine them (Java
// FieldLastValueAgg, FieldLastNonNullValueAgg, FieldFirstValueAgg, FieldFirstNonNullValueAgg,
// FieldPrimaryKeyAgg): `last_value`, `last_non_null_value`, `first_value`,
// `first_non_null_value` and `primary-key` (the function of the key fields).
//
// Thread safety: not thread-safe; the first-value functions remember, until Reset(), whether
// they have picked their value.
#pragma once

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldLastValueAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value&, const Value& in) override { return in; }
  Result<Value> Retract(const Value&, const Value&) override { return Value::Null(); }
};

class FieldLastNonNullValueAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override { return in.is_null() ? acc : in; }
  Result<Value> Retract(const Value& acc, const Value& in) override {
    return in.is_null() ? acc : Value::Null();
  }
};

// The first input of the key, null or not.
class FieldFirstValueAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (initialized_) return acc;
    initialized_ = true;
    return in;
  }
  void Reset() override { initialized_ = false; }

 private:
  bool initialized_ = false;
};

// The first non-null input of the key.
class FieldFirstNonNullValueAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override {
    if (initialized_ || in.is_null()) return acc;
    initialized_ = true;
    return in;
  }
  void Reset() override { initialized_ = false; }

 private:
  bool initialized_ = false;
};

class FieldPrimaryKeyAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value&, const Value& in) override { return in; }
  Result<Value> Retract(const Value&, const Value& in) override { return in; }
};

}  // namespace sluice
