// FieldIgnoreRetractAgg (Java's name): another aggregate function with retractions ignored, the
// accumulator kept as it is (`fields.<f>.ignore-retract`).
//
// Thread safety: as the wrapped function.
#pragma once

#include <memory>
#include <utility>

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldIgnoreRetractAgg final : public FieldAggregator {
 public:
  explicit FieldIgnoreRetractAgg(std::unique_ptr<FieldAggregator> inner)
      : FieldAggregator(inner->name(), inner->type()), inner_(std::move(inner)) {}
  Result<Value> Agg(const Value& acc, const Value& in) override { return inner_->Agg(acc, in); }
  Result<Value> Retract(const Value& acc, const Value&) override { return acc; }
  void Reset() override { inner_->Reset(); }

 private:
  std::unique_ptr<FieldAggregator> inner_;
};

}  // namespace sluice
