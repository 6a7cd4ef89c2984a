// The one place that maps the `fields.<f>.aggregate-function` names to the aggregate functions
// of this folder (Java mergetree.compact.aggregate.factory: FieldAggregatorFactory and one
// factory per function), checking the field type each function takes:
//
//   sum, product                          numeric          sum_product.h
//   max, min                              comparable       min_max.h
//   last_value, last_non_null_value,      any              value_pickers.h
//   first_value, first_non_null_value
//   (also first_not_null_value), primary-key
//   bool_and, bool_or                     BOOLEAN          bool_and_or.h
//   listagg                               STRING           listagg.h
//   collect                               ARRAY            collect.h
//   merge_map, merge_map_with_keytime     MAP              merge_map.h
//   nested_update, nested_partial_update  ARRAY<ROW>       nested_update.h
//   rbm32                                 VARBINARY        roaring_bitmap.h
//
// rbm64, hll_sketch and theta_sketch are NotSupported (their serialized forms are Java library
// formats Sluice does not reproduce).
//
// Thread safety: pure functions.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "sluice/data_type.h"
#include "sluice/lsm/aggregate/field_aggregator.h"
#include "sluice/meta/core_options.h"
#include "sluice/result.h"

namespace sluice {

// The aggregator `function` for `field` of type `type`, configured by `options`, wrapped to
// ignore retractions when `fields.<field>.ignore-retract` is set (FieldIgnoreRetractAgg).
// InvalidArgument for an unknown function or a type the function does not take (messages as
// Java's), or for `aggregation.remove-record-on-delete` together with `ignore-retract`;
// NotSupported for rbm64, hll_sketch and theta_sketch.
Result<std::unique_ptr<FieldAggregator>> CreateFieldAggregator(const DataTypePtr& type,
                                                               std::string_view field,
                                                               std::string_view function,
                                                               const CoreOptions& options);

// Whether `function` is the identifier of one of Java's aggregate function factories (Java
// FactoryUtil.discoverFactory finds it), whatever the type it is used on.
bool IsAggregateFunctionName(std::string_view function);

// Every identifier IsAggregateFunctionName accepts, joined by ", ".
std::string AggregateFunctionNames();

}  // namespace sluice
