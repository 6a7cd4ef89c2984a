// PartialUpdateMergeFunction: `merge-engine = partial-update` (Java PartialUpdateMergeFunction).
//
// Without sequence groups, each +I/+U record's non-null fields overwrite the row (a null for a
// NOT NULL field is an error). With sequence groups (`fields.<g..>.sequence-group = <f..>`), a
// record updates a group's fields only when its group sequence value is >= the row's (nulls
// order first); a record whose group values are all null leaves the group alone; fields with
// an aggregate function aggregate instead (older records through AggReversed).
//
// Retractions (-U/-D): skipped with `ignore-delete`; with sequence groups they null (or
// retract) the protected fields of groups they are not older than, and a -D of a group named by
// `partial-update.remove-record-on-sequence-group` deletes the row; with
// `partial-update.remove-record-on-delete` a -D deletes the row; otherwise an error. The result
// is a DELETE when the last record deleted the row or no +I/+U was seen, else an INSERT.
//
// Thread safety: not thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sluice/lsm/aggregate/field_aggregator.h"
#include "sluice/lsm/merge_function.h"
#include "sluice/lsm/sequence_comparator.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

class PartialUpdateMergeFunction final : public MergeFunction {
 public:
  // Validates the options as Java's factory does (groups name existing non-key fields, no field
  // in two groups, aggregate functions other than last_non_null_value only on protected
  // fields, no conflicting delete options). InvalidArgument otherwise.
  // Then creates each field's aggregator (an error for a function the field's type does not
  // take).
  static Result<std::unique_ptr<PartialUpdateMergeFunction>> Make(const TableSchema& schema,
                                                                  const CoreOptions& options);
  // The checks of Java's factory alone, without creating the aggregators (what Java checks at
  // CREATE / ALTER TABLE).
  static Status Validate(const TableSchema& schema, const CoreOptions& options);

  using MergeFunction::Add;
  void Reset() override;
  Status Add(const KeyValue& kv) override;
  std::optional<KeyValue> GetResultKeepingDeletes() override;

 private:
  PartialUpdateMergeFunction() = default;

  // Make without the aggregators: `functions` gets each field's aggregate function name.
  static Result<std::unique_ptr<PartialUpdateMergeFunction>> MakeWithoutAggregators(
      const TableSchema& schema, const CoreOptions& options,
      std::vector<std::optional<std::string>>* functions);

  Status InitRow(const ValueList& value);
  Status CheckAggregatorInputs(const ValueList& value) const;
  Status UpdateNonNullFields(const KeyValue& kv);
  Status UpdateWithSequenceGroup(const KeyValue& kv);
  Status RetractWithSequenceGroup(const KeyValue& kv);
  // True (and marks the group's sequence fields processed) when every sequence field of
  // `group` is null in `value`.
  bool IsEmptySequenceGroup(const ValueList& value, const UserSequenceComparator& group,
                            std::vector<bool>* processed) const;

  std::vector<DataField> fields_;
  bool ignore_delete_ = false;
  bool remove_record_on_delete_ = false;
  // Per field: the comparator of the sequence group the field belongs to (as a protected field
  // or as one of the group's sequence fields), or -1.
  std::vector<int> field_group_;
  std::vector<UserSequenceComparator> groups_;
  // Per field: its aggregate function, or null.
  std::vector<std::unique_ptr<FieldAggregator>> aggregators_;
  // Sequence fields whose group's -D removes the whole row.
  std::set<int> remove_on_sequence_group_;

  bool has_input_ = false;
  ValueList key_;
  int64_t latest_sequence_number_ = 0;
  ValueList row_;
  bool current_delete_row_ = false;
  bool not_null_column_filled_ = false;
  bool meet_insert_ = false;
};

}  // namespace sluice
