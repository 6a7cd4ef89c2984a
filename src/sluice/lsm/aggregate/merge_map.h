// The MAP aggregate functions (Java FieldMergeMapAgg, FieldMergeMapWithKeyTimeAgg):
//   merge_map               the union of the maps, a later value winning per key; retraction
//                           removes the retracted keys.
//   merge_map_with_keytime  values are ROWs with a STRING timestamp field: per key the row with
//                           the greatest timestamp wins, a null row deletes the key, a row with
//                           a null timestamp is ignored. No retraction.
// Entries keep first-seen key order (Java keeps a hash map).
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include <string>
#include <utility>

#include "sluice/lsm/aggregate/field_aggregator.h"

namespace sluice {

class FieldMergeMapAgg final : public FieldAggregator {
 public:
  using FieldAggregator::FieldAggregator;
  Result<Value> Agg(const Value& acc, const Value& in) override;
  Result<Value> Retract(const Value& acc, const Value& in) override;
};

class FieldMergeMapWithKeyTimeAgg final : public FieldAggregator {
 public:
  // `ts_field`: the index of the timestamp field in the value ROW.
  FieldMergeMapWithKeyTimeAgg(std::string name, DataTypePtr type, int ts_field)
      : FieldAggregator(std::move(name), std::move(type)), ts_field_(ts_field) {}
  Result<Value> Agg(const Value& acc, const Value& in) override;

 private:
  int ts_field_;
};

}  // namespace sluice
