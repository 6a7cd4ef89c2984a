// The merge order of the records of a primary-key table (Java SortMergeReader and
// UserDefinedSeqComparator): by key, then by the `sequence.field` value(s) when the table has
// them, then by sequence number; all ascending, so the record that merges last ("wins") sorts
// last.
//
// UserSequenceComparator compares value rows on some of their fields, in order. A null orders
// before every non-null value; `sequence.field.sort-order = descending` reverses the order of
// non-null values only (Java's generated comparator keeps nulls first in both orders).
//
// Thread safety: immutable; safe to share across threads.
#pragma once

#include <optional>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/io/key_value.h"
#include "sluice/meta/core_options.h"
#include "sluice/meta/table_schema.h"
#include "sluice/result.h"

namespace sluice {

class UserSequenceComparator {
 public:
  // `fields`: indexes into the value row, whose types are `field_types` (same length).
  UserSequenceComparator(std::vector<int> fields, std::vector<DataTypePtr> field_types,
                         bool ascending)
      : fields_(std::move(fields)), types_(std::move(field_types)), ascending_(ascending) {}

  // The comparator of `options.sequence_field()` over the schema's row, or nullopt when the
  // option is unset. InvalidArgument when a named field is not in the schema.
  static Result<std::optional<UserSequenceComparator>> Make(const TableSchema& schema,
                                                            const CoreOptions& options);

  // <0, 0, >0 as value row `a` orders before, equal to, or after `b`.
  int Compare(const ValueList& a, const ValueList& b) const;

  const std::vector<int>& fields() const { return fields_; }
  bool ascending() const { return ascending_; }

 private:
  std::vector<int> fields_;
  std::vector<DataTypePtr> types_;
  bool ascending_;
};

// The full merge order of KeyValues.
class KeyValueMergeOrder {
 public:
  KeyValueMergeOrder(std::vector<DataTypePtr> key_types,
                     std::optional<UserSequenceComparator> user_sequence)
      : key_types_(std::move(key_types)), user_sequence_(std::move(user_sequence)) {}

  // Key types are those of the trimmed primary key (the `_KEY_*` columns).
  static Result<KeyValueMergeOrder> Make(const TableSchema& schema, const CoreOptions& options);

  int CompareKeys(const ValueList& a, const ValueList& b) const;
  // Key, then user sequence, then sequence number.
  int Compare(const KeyValue& a, const KeyValue& b) const;
  bool operator()(const KeyValue& a, const KeyValue& b) const { return Compare(a, b) < 0; }

 private:
  std::vector<DataTypePtr> key_types_;
  std::optional<UserSequenceComparator> user_sequence_;
};

}  // namespace sluice
