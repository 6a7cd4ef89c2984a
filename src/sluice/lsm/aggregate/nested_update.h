// The nested-table aggregate functions over ARRAY<ROW> fields (Java FieldNestedUpdateAgg,
// FieldNestedPartialUpdateAgg):
//   nested_update          without `fields.<f>.nested-key` the rows are appended; with it a
//                          later row replaces the row of its key (with `nested-sequence-field`,
//                          the row of the greater sequence wins). An input adds rows only up to
//                          `fields.<f>.count-limit`. Retraction removes the retracted rows /
//                          keys.
//   nested_partial_update  the rows of one key merged field by field, a later non-null field
//                          winning. No retraction.
// Rows whose nested key holds a null follow `fields.<f>.nested-key-null-strategy`.
//
// Thread safety: not thread-safe (see field_aggregator.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sluice/lsm/aggregate/field_aggregator.h"
#include "sluice/meta/core_options.h"
#include "sluice/types/value_comparator.h"

namespace sluice {

// Orders nested keys (projected field values) by the key fields' types.
class NestedKeyLess {
 public:
  explicit NestedKeyLess(const std::vector<DataTypePtr>* types) : types_(types) {}
  bool operator()(const ValueList& a, const ValueList& b) const {
    for (size_t i = 0; i < types_->size(); ++i) {
      int c = CompareValues(a[i], b[i], *(*types_)[i]);
      if (c != 0) return c < 0;
    }
    return false;
  }

 private:
  const std::vector<DataTypePtr>* types_;
};

// Shared by nested_update and nested_partial_update: the nested key of a row and the
// nested-key-null-strategy.
class NestedKeys {
 public:
  // Position of the nested-key fields in the row, their types, and the null strategy.
  NestedKeys(std::vector<int> key_fields, std::vector<DataTypePtr> key_types,
             NestedKeyNullStrategy strategy)
      : key_fields_(std::move(key_fields)), key_types_(std::move(key_types)), strategy_(strategy) {}

  ValueList KeyOf(const Value& row) const;
  // Whether a row with this key takes part in the merge; InvalidArgument for a key with a
  // null under the `error` strategy.
  Result<bool> Accept(const ValueList& key) const;
  // An empty key -> row position index ordered by the key types; valid while this lives.
  std::map<ValueList, size_t, NestedKeyLess> NewIndex() const {
    return std::map<ValueList, size_t, NestedKeyLess>(NestedKeyLess(&key_types_));
  }
  bool empty() const { return key_fields_.empty(); }

 private:
  std::vector<int> key_fields_;
  std::vector<DataTypePtr> key_types_;
  NestedKeyNullStrategy strategy_;
};

class FieldNestedUpdateAgg final : public FieldAggregator {
 public:
  // `sequence_fields`: row positions of `nested-sequence-field`; `count_limit`: the most rows
  // a keyless merge keeps.
  FieldNestedUpdateAgg(std::string name, DataTypePtr type, NestedKeys keys,
                       std::vector<int> sequence_fields, int32_t count_limit)
      : FieldAggregator(std::move(name), std::move(type)),
        keys_(std::move(keys)),
        sequence_fields_(std::move(sequence_fields)),
        count_limit_(count_limit) {}

  Result<Value> Agg(const Value& acc, const Value& in) override;
  Result<Value> Retract(const Value& acc, const Value& in) override;

 private:
  static void AppendNonNull(const ValueList& src, ValueList* rows, size_t limit);
  // Java compareSequence: the sequence fields, nulls first.
  int CompareSequence(const Value& a, const Value& b) const;
  Status Upsert(const ValueList& src, bool limit_new_keys, ValueList* rows,
                std::map<ValueList, size_t, NestedKeyLess>* index) const;

  NestedKeys keys_;
  std::vector<int> sequence_fields_;
  int32_t count_limit_;
};

class FieldNestedPartialUpdateAgg final : public FieldAggregator {
 public:
  FieldNestedPartialUpdateAgg(std::string name, DataTypePtr type, NestedKeys keys)
      : FieldAggregator(std::move(name), std::move(type)), keys_(std::move(keys)) {}

  Result<Value> Agg(const Value& acc, const Value& in) override;

 private:
  NestedKeys keys_;
};

}  // namespace sluice
