// The aggregate function `collect` (Java FieldCollectAgg): the elements of ARRAY values
// concatenated; with `fields.<f>.distinct` each element once (first-seen order, where Java
// keeps a hash set). Retraction removes one occurrence per retracted element.
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include <string>
#include <utility>

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldCollectAgg final : public FieldAggregator {
 public:
  FieldCollectAgg(std::string name, DataTypePtr type, bool distinct)
      : FieldAggregator(std::move(name), std::move(type)), distinct_(distinct) {}
  Result<Value> Agg(const Value& acc, const Value& in) override;
  // The accumulator is already distinct; keep its elements first.
  Result<Value> AggReversed(const Value& acc, const Value& in) override { return Agg(acc, in); }
  Result<Value> Retract(const Value& acc, const Value& in) override;

 private:
  // Appends the elements of `array` (null: none) to `out`, skipping those already in it when
  // distinct.
  void Collect(const Value& array, ValueList* out) const;

  bool distinct_;
};

}  // namespace sluice
