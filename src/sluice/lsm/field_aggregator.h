// FieldAggregator: the aggregate function of one field of an `aggregation` (or partial-update
// with aggregates) table (Java mergetree.compact.aggregate.FieldAggregator and its factories).
//
// Functions, by their option name (`fields.<f>.aggregate-function`):
//   sum, product, max, min, last_value, last_non_null_value, first_value, first_non_null_value
//   (also first_not_null_value), listagg, bool_and, bool_or, collect, merge_map,
//   merge_map_with_keytime, nested_update, nested_partial_update, rbm32, primary-key.
// rbm64, hll_sketch and theta_sketch are NotSupported (their serialized forms are Java library
// formats we do not reproduce).
//
// Results whose Java counterpart is an unordered hash set/map (collect with distinct,
// merge_map, nested_update with a nested key) keep first-seen order here: the same elements,
// in a deterministic order.
//
// Thread safety: not thread-safe (first_value keeps state between Reset() calls).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "sluice/base/result.h"
#include "sluice/meta/core_options.h"
#include "sluice/types/data_type.h"
#include "sluice/types/value.h"

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

  const std::string& name() const { return name_; }
  const DataTypePtr& type() const { return type_; }

 private:
  std::string name_;
  DataTypePtr type_;
};

// The aggregator `function` for `field` of type `type`, configured by `options`, wrapped to
// ignore retractions when `fields.<field>.ignore-retract` is set. InvalidArgument for an
// unknown function or a type the function does not take (messages as Java's), or for
// `aggregation.remove-record-on-delete` together with `ignore-retract`; NotSupported for rbm64,
// hll_sketch and theta_sketch.
Result<std::unique_ptr<FieldAggregator>> CreateFieldAggregator(const DataTypePtr& type,
                                                               std::string_view field,
                                                               std::string_view function,
                                                               const CoreOptions& options);

}  // namespace sluice
