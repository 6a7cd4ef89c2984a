// AggregateMergeFunction: `merge-engine = aggregation` (Java AggregateMergeFunction). Every
// field has a FieldAggregator: `primary-key` for primary keys, `last_value` for `sequence.field`
// fields, else `fields.<f>.aggregate-function`, `fields.default-aggregate-function` or
// `last_non_null_value`. +I/+U records are aggregated, -U/-D retracted (an error for functions
// without retraction unless `fields.<f>.ignore-retract`). With
// `aggregation.remove-record-on-delete`, a -D resets the row to the delete's values and the
// result is a DELETE (until a later record of the key).
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>
#include <vector>

#include "sluice/lsm/aggregate/field_aggregator.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

class AggregateMergeFunction final : public MergeFunction {
 public:
  static Result<std::unique_ptr<AggregateMergeFunction>> Make(const TableSchema& schema,
                                                              const CoreOptions& options);

  using MergeFunction::Add;
  void Reset() override;
  Status Add(const KeyValue& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override;

 private:
  AggregateMergeFunction(std::vector<DataField> fields,
                         std::vector<std::unique_ptr<FieldAggregator>> aggregators,
                         bool remove_record_on_delete);
  Status InitRow(const ValueList& value);

  std::vector<DataField> fields_;
  std::vector<std::unique_ptr<FieldAggregator>> aggregators_;
  bool remove_record_on_delete_;

  std::optional<KeyValue> latest_;  // key and sequence number of the result; value unused
  ValueList row_;
  bool current_delete_row_ = false;
};

}  // namespace sluice
