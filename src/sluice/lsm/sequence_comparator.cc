#include "sluice/lsm/sequence_comparator.h"

#include "sluice/types/value_comparator.h"

namespace sluice {

Result<std::optional<UserSequenceComparator>> UserSequenceComparator::Make(
    const TableSchema& schema, const CoreOptions& options) {
  if (options.sequence_field().empty()) return std::optional<UserSequenceComparator>();
  std::vector<int> fields;
  std::vector<DataTypePtr> types;
  for (const std::string& name : options.sequence_field()) {
    int index = schema.FieldIndex(name);
    if (index < 0) {
      return Status::InvalidArgument("option 'sequence.field': field '" + name +
                                     "' can not be found in table schema");
    }
    fields.push_back(index);
    types.push_back(schema.fields()[index].type);
  }
  return std::optional<UserSequenceComparator>(
      UserSequenceComparator(std::move(fields), std::move(types),
                             options.sequence_field_sort_order() == SequenceSortOrder::kAscending));
}

int UserSequenceComparator::Compare(const ValueList& a, const ValueList& b) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Value& x = a[fields_[i]];
    const Value& y = b[fields_[i]];
    if (x.is_null() || y.is_null()) {
      if (x.is_null() && y.is_null()) continue;
      return x.is_null() ? -1 : 1;
    }
    int c = CompareValues(x, y, *types_[i]);
    if (c != 0) return ascending_ ? c : -c;
  }
  return 0;
}

Result<KeyValueMergeOrder> KeyValueMergeOrder::Make(const TableSchema& schema,
                                                    const CoreOptions& options) {
  std::vector<DataTypePtr> key_types;
  for (const std::string& name : schema.trimmed_primary_keys()) {
    const DataField* field = schema.FieldByName(name);
    if (field == nullptr) {
      return Status::InvalidArgument("primary key '" + name + "' is not a field of the schema");
    }
    key_types.push_back(field->type);
  }
  SLUICE_ASSIGN_OR_RETURN(std::optional<UserSequenceComparator> user,
                          UserSequenceComparator::Make(schema, options));
  return KeyValueMergeOrder(std::move(key_types), std::move(user));
}

int KeyValueMergeOrder::CompareKeys(const ValueList& a, const ValueList& b) const {
  for (size_t i = 0; i < key_types_.size(); ++i) {
    int c = CompareValues(a[i], b[i], *key_types_[i]);
    if (c != 0) return c;
  }
  return 0;
}

int KeyValueMergeOrder::Compare(const KeyValue& a, const KeyValue& b) const {
  int c = CompareKeys(a.key, b.key);
  if (c != 0) return c;
  if (user_sequence_) {
    c = user_sequence_->Compare(a.value, b.value);
    if (c != 0) return c;
  }
  if (a.sequence_number != b.sequence_number) {
    return a.sequence_number < b.sequence_number ? -1 : 1;
  }
  return 0;
}

}  // namespace sluice
