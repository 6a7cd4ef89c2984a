// FieldAggregator: the aggregate function of one field of an `aggregation` (or partial-update
// with aggregates) table (Java mergetree.compact.aggregate.FieldAggregator). One class per
// function, grouped by family in this folder with Java's class names:
//
//   sum_product.h     FieldSumAgg, FieldProductAgg
//   min_max.h         FieldMaxAgg, FieldMinAgg
//   value_pickers.h   FieldLastValueAgg, FieldLastNonNullValueAgg, FieldFirstValueAgg,
//                     FieldFirstNonNullValueAgg, FieldPrimaryKeyAgg
//   bool_and_or.h     FieldBoolAndAgg, FieldBoolOrAgg
//   listagg.h         FieldListaggAgg
//   collect.h         FieldCollectAgg
//   merge_map.h       FieldMergeMapAgg, FieldMergeMapWithKeyTimeAgg
//   nested_update.h   FieldNestedUpdateAgg, FieldNestedPartialUpdateAgg
//   roaring_bitmap.h  FieldRoaringBitmap32Agg
//   ignore_retract.h  FieldIgnoreRetractAgg (wraps another function)
//
// field_aggregator_factory.h maps the `fields.<f>.aggregate-function` names to them.
//
// Results whose Java counterpart is an unordered hash set/map (collect with distinct,
// merge_map, nested_update with a nested key) keep first-seen order here: the same elements,
// in a deterministic order.
//
// Thread safety: not thread-safe (first_value keeps state between Reset() calls).
#pragma once

#include <string>
#include <utility>

#include "sluice/data_type.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice {

class FieldAggregator {
 public:
  FieldAggregator(std::string name, DataTypePtr type)
      : name_(std::move(name)), type_(std::move(type)) {}
  virtual ~FieldAggregator() = default;

  // The accumulator after `input` (a +I/+U value) is folded in.
  virtual Result<Value> Agg(const Value& accumulator, const Value& input) = 0;
  // Folds in an input that is older than the accumulator (partial-update sequence groups).
  virtual Result<Value> AggReversed(const Value& accumulator, const Value& input) {
    return Agg(input, accumulator);
  }
  // The accumulator after `input` (a -U/-D value) is taken back. Default: NotSupported, with
  // Java's hint to set `fields.<f>.ignore-retract`.
  virtual Result<Value> Retract(const Value& accumulator, const Value& input);
  // Called when the merge of a new key starts.
  virtual void Reset() {}

  // InvalidArgument unless `v` holds the internal representation of type() at every nesting
  // level (rows of the declared arity). Merge functions check inputs before Agg / Retract,
  // which assume it.
  Status CheckInput(const Value& v) const;

  // The function's name (`sum`, `last_value`, ...), as the errors name it.
  const std::string& name() const { return name_; }
  const DataTypePtr& type() const { return type_; }

 private:
  std::string name_;
  DataTypePtr type_;
};

}  // namespace sluice
