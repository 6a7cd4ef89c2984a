#include "sluice/lsm/partial_update_merge_function.h"

#include <algorithm>
#include <map>

#include "sluice/lsm/aggregate/field_aggregator_factory.h"

namespace sluice {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool Contains(const std::vector<int>& values, int v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

std::string PkInGroupError(const std::string& option, const std::string& field) {
  return "The sequence-group '" + option + "' contains primary key field '" + field +
         "', which is not allowed. Primary key columns cannot be put in sequence-group.";
}

}  // namespace

Result<std::unique_ptr<PartialUpdateMergeFunction>> PartialUpdateMergeFunction::Make(
    const TableSchema& schema, const CoreOptions& options) {
  std::vector<std::optional<std::string>> functions;
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<PartialUpdateMergeFunction> f,
                          MakeWithoutAggregators(schema, options, &functions));
  // Java creates the aggregators when the factory creates a merge function (they are
  // suppliers in the factory): a function the field's type does not take fails here, not at
  // CREATE TABLE.
  for (size_t i = 0; i < functions.size(); ++i) {
    if (!functions[i]) continue;
    const DataField& field = f->fields_[i];
    SLUICE_ASSIGN_OR_RETURN(f->aggregators_[i],
                            CreateFieldAggregator(field.type, field.name, *functions[i], options));
  }
  f->Reset();
  return f;
}

Status PartialUpdateMergeFunction::Validate(const TableSchema& schema, const CoreOptions& options) {
  std::vector<std::optional<std::string>> functions;
  return MakeWithoutAggregators(schema, options, &functions).status();
}

Result<std::unique_ptr<PartialUpdateMergeFunction>>
PartialUpdateMergeFunction::MakeWithoutAggregators(
    const TableSchema& schema, const CoreOptions& options,
    std::vector<std::optional<std::string>>* functions) {
  std::unique_ptr<PartialUpdateMergeFunction> f(new PartialUpdateMergeFunction());
  f->fields_ = schema.fields();
  f->ignore_delete_ = options.ignore_delete();
  f->remove_record_on_delete_ = options.partial_update_remove_record_on_delete();
  const size_t n = f->fields_.size();
  f->field_group_.assign(n, -1);
  const std::vector<std::string>& primary_keys = schema.primary_keys();

  auto require_field = [&schema](const std::string& name) -> Result<int> {
    int index = schema.FieldIndex(name);
    if (index < 0) {
      return Status::InvalidArgument("Field " + name + " can not be found in table schema");
    }
    return index;
  };

  std::vector<std::string> all_sequence_fields;
  std::vector<std::string> protected_fields;
  std::map<std::string, int> sequence_field_index;
  for (const SequenceGroup& group : options.sequence_groups()) {
    std::string option_key = "fields.";
    for (size_t i = 0; i < group.ordering_fields.size(); ++i) {
      option_key += (i == 0 ? "" : ",") + group.ordering_fields[i];
    }
    option_key += ".sequence-group";
    std::vector<int> ordering;
    std::vector<DataTypePtr> ordering_types;
    for (const std::string& name : group.ordering_fields) {
      SLUICE_ASSIGN_OR_RETURN(int index, require_field(name));
      ordering.push_back(index);
      ordering_types.push_back(f->fields_[index].type);
    }
    const int group_id = static_cast<int>(f->groups_.size());
    f->groups_.emplace_back(ordering, std::move(ordering_types), /*ascending=*/true);
    for (const std::string& name : group.protected_fields) {
      SLUICE_ASSIGN_OR_RETURN(int index, require_field(name));
      if (Contains(primary_keys, name)) {
        return Status::InvalidArgument(PkInGroupError(option_key, name));
      }
      if (f->field_group_[index] >= 0) {
        return Status::InvalidArgument("Field " + name +
                                       " is defined repeatedly by multiple groups: " + option_key);
      }
      f->field_group_[index] = group_id;
      protected_fields.push_back(name);
    }
    for (int index : ordering) {
      const std::string& name = f->fields_[index].name;
      if (Contains(primary_keys, name)) {
        return Status::InvalidArgument(PkInGroupError(option_key, name));
      }
      all_sequence_fields.push_back(name);
      f->field_group_[index] = group_id;
      sequence_field_index[name] = index;
    }
  }

  f->aggregators_.resize(n);
  functions->assign(n, std::nullopt);
  for (size_t i = 0; i < n; ++i) {
    const DataField& field = f->fields_[i];
    std::optional<std::string> function;
    if (Contains(all_sequence_fields, field.name)) {
      continue;  // sequence fields are not aggregated
    } else if (Contains(primary_keys, field.name)) {
      function = "primary-key";
    } else {
      function = options.FieldAggregateFunction(field.name);
      if (!function) function = options.fields_default_aggregate_function();
      if (function && *function != "last_non_null_value" &&
          !Contains(protected_fields, field.name)) {
        return Status::InvalidArgument(
            "Must use sequence group for aggregation functions but not found for field " +
            field.name + ".");
      }
    }
    (*functions)[i] = std::move(function);
  }

  auto conflict = [](const std::string& a, const std::string& b) {
    return Status::InvalidArgument(a + " and " + b +
                                   " have conflicting behavior so should not be enabled at the "
                                   "same time.");
  };
  const std::vector<std::string>& remove_on_group =
      options.partial_update_remove_record_on_sequence_group();
  if (f->remove_record_on_delete_ && f->ignore_delete_) {
    return conflict("ignore-delete", "partial-update.remove-record-on-delete");
  }
  if (!remove_on_group.empty() && f->ignore_delete_) {
    return conflict("ignore-delete", "partial-update.remove-record-on-sequence-group");
  }
  if (f->remove_record_on_delete_ && !f->groups_.empty()) {
    return conflict("sequence-group", "partial-update.remove-record-on-delete");
  }
  for (const std::string& name : remove_on_group) {
    auto it = sequence_field_index.find(name);
    if (it == sequence_field_index.end()) {
      const std::string* raw = options.Find("partial-update.remove-record-on-sequence-group");
      return Status::InvalidArgument("field '" + (raw ? *raw : name) +
                                     "' defined in "
                                     "'partial-update.remove-record-on-sequence-group' option "
                                     "must be part of sequence groups");
    }
    f->remove_on_sequence_group_.insert(it->second);
  }
  return f;
}

void PartialUpdateMergeFunction::Reset() {
  has_input_ = false;
  key_.clear();
  meet_insert_ = false;
  not_null_column_filled_ = false;
  current_delete_row_ = false;
  row_.assign(fields_.size(), Value::Null());
  latest_sequence_number_ = 0;
  for (auto& agg : aggregators_) {
    if (agg) agg->Reset();
  }
}

Status PartialUpdateMergeFunction::InitRow(const ValueList& value) {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (value[i].is_null() && !fields_[i].type->nullable()) {
      return Status::InvalidArgument("Field " + fields_[i].name + " can not be null");
    }
    row_[i] = value[i];
  }
  return Status::OK();
}

Status PartialUpdateMergeFunction::Add(const KeyValue& kv) {
  if (kv.value.size() != fields_.size()) {
    return Status::InvalidArgument("partial-update: a value row has " +
                                   std::to_string(kv.value.size()) + " fields, the table " +
                                   std::to_string(fields_.size()));
  }
  has_input_ = true;
  key_ = kv.key;
  current_delete_row_ = false;
  if (IsRetract(kv.kind)) {
    if (!not_null_column_filled_) {
      SLUICE_RETURN_NOT_OK(InitRow(kv.value));
      not_null_column_filled_ = true;
    }
    if (ignore_delete_) return Status::OK();
    latest_sequence_number_ = kv.sequence_number;
    if (!groups_.empty()) {
      SLUICE_RETURN_NOT_OK(CheckAggregatorInputs(kv.value));
      return RetractWithSequenceGroup(kv);
    }
    if (remove_record_on_delete_) {
      if (kv.kind == RowKind::kDelete) {
        current_delete_row_ = true;
        row_.assign(fields_.size(), Value::Null());
        return InitRow(kv.value);
      }
      return Status::OK();
    }
    return Status::InvalidArgument(
        "By default, Partial update can not accept delete records, you can choose one of the "
        "following solutions:\n1. Configure 'ignore-delete' to ignore delete records.\n2. "
        "Configure 'partial-update.remove-record-on-delete' to remove the whole row when "
        "receiving delete records.\n3. Configure 'sequence-group's to retract partial columns. "
        "Also configure 'partial-update.remove-record-on-sequence-group' to remove the whole "
        "row when receiving deleted records of `specified sequence group`.");
  }
  latest_sequence_number_ = kv.sequence_number;
  SLUICE_RETURN_NOT_OK(CheckAggregatorInputs(kv.value));
  if (groups_.empty()) {
    SLUICE_RETURN_NOT_OK(UpdateNonNullFields(kv));
  } else {
    SLUICE_RETURN_NOT_OK(UpdateWithSequenceGroup(kv));
  }
  meet_insert_ = true;
  not_null_column_filled_ = true;
  return Status::OK();
}

Status PartialUpdateMergeFunction::CheckAggregatorInputs(const ValueList& value) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (aggregators_[i]) {
      SLUICE_RETURN_NOT_OK_CTX(aggregators_[i]->CheckInput(value[i]),
                               "partial-update of field '" + fields_[i].name + "'");
    }
  }
  return Status::OK();
}

Status PartialUpdateMergeFunction::UpdateNonNullFields(const KeyValue& kv) {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!kv.value[i].is_null()) {
      row_[i] = kv.value[i];
    } else if (!fields_[i].type->nullable()) {
      return Status::InvalidArgument("Field " + fields_[i].name + " can not be null");
    }
  }
  return Status::OK();
}

bool PartialUpdateMergeFunction::IsEmptySequenceGroup(const ValueList& value,
                                                      const UserSequenceComparator& group,
                                                      std::vector<bool>* processed) const {
  for (int f : group.fields()) {
    if (!value[f].is_null()) return false;
  }
  for (int f : group.fields()) (*processed)[f] = true;
  return true;
}

Status PartialUpdateMergeFunction::UpdateWithSequenceGroup(const KeyValue& kv) {
  std::vector<bool> processed(fields_.size(), false);
  for (size_t i = 0; i < fields_.size(); ++i) {
    FieldAggregator* agg = aggregators_[i].get();
    const Value& input = kv.value[i];
    if (field_group_[i] < 0) {
      if (agg != nullptr) {
        Result<Value> merged = agg->Agg(row_[i], input);
        SLUICE_RETURN_NOT_OK_CTX(merged.status(),
                                 "partial-update of field '" + fields_[i].name + "'");
        row_[i] = std::move(merged).value();
      } else if (!input.is_null()) {
        row_[i] = input;
      }
      continue;
    }
    const UserSequenceComparator& group = groups_[field_group_[i]];
    if (processed[i]) continue;
    if (IsEmptySequenceGroup(kv.value, group, &processed)) continue;
    if (group.Compare(kv.value, row_) >= 0) {
      if (Contains(group.fields(), static_cast<int>(i))) {
        // The group's sequence fields move together.
        for (int f : group.fields()) {
          row_[f] = kv.value[f];
          processed[f] = true;
        }
        continue;
      }
      if (agg == nullptr) {
        row_[i] = input;
      } else {
        Result<Value> merged = agg->Agg(row_[i], input);
        SLUICE_RETURN_NOT_OK_CTX(merged.status(),
                                 "partial-update of field '" + fields_[i].name + "'");
        row_[i] = std::move(merged).value();
      }
    } else if (agg != nullptr) {
      Result<Value> merged = agg->AggReversed(row_[i], input);
      SLUICE_RETURN_NOT_OK_CTX(merged.status(),
                               "partial-update of field '" + fields_[i].name + "'");
      row_[i] = std::move(merged).value();
    }
  }
  return Status::OK();
}

Status PartialUpdateMergeFunction::RetractWithSequenceGroup(const KeyValue& kv) {
  std::vector<bool> processed(fields_.size(), false);
  std::vector<bool> updated(fields_.size(), false);
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (field_group_[i] < 0) continue;
    FieldAggregator* agg = aggregators_[i].get();
    const UserSequenceComparator& group = groups_[field_group_[i]];
    if (processed[i]) continue;
    if (IsEmptySequenceGroup(kv.value, group, &processed)) continue;
    if (group.Compare(kv.value, row_) >= 0) {
      if (Contains(group.fields(), static_cast<int>(i))) {
        for (int f : group.fields()) {
          if (!updated[f]) {
            if (kv.kind == RowKind::kDelete && remove_on_sequence_group_.count(f) > 0) {
              current_delete_row_ = true;
              row_.assign(fields_.size(), Value::Null());
              return InitRow(kv.value);
            }
            row_[f] = kv.value[f];
            updated[f] = true;
          }
          processed[f] = true;
        }
      } else if (agg == nullptr) {
        row_[i] = Value::Null();
      } else {
        Result<Value> merged = agg->Retract(row_[i], kv.value[i]);
        SLUICE_RETURN_NOT_OK_CTX(merged.status(),
                                 "partial-update of field '" + fields_[i].name + "'");
        row_[i] = std::move(merged).value();
      }
    } else if (agg != nullptr) {
      Result<Value> merged = agg->Retract(row_[i], kv.value[i]);
      SLUICE_RETURN_NOT_OK_CTX(merged.status(),
                               "partial-update of field '" + fields_[i].name + "'");
      row_[i] = std::move(merged).value();
    }
  }
  return Status::OK();
}

std::optional<KeyValue> PartialUpdateMergeFunction::GetResultKeepingDeletes() {
  if (!has_input_) return std::nullopt;
  KeyValue result;
  result.key = key_;
  result.sequence_number = latest_sequence_number_;
  result.kind = current_delete_row_ || !meet_insert_ ? RowKind::kDelete : RowKind::kInsert;
  result.value = row_;
  return result;
}

}  // namespace sluice
