#include "sluice/lsm/aggregate_merge_function.h"

#include <algorithm>

#include "sluice/lsm/aggregate/field_aggregator_factory.h"

namespace sluice {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

Result<std::unique_ptr<AggregateMergeFunction>> AggregateMergeFunction::Make(
    const TableSchema& schema, const CoreOptions& options) {
  std::vector<std::unique_ptr<FieldAggregator>> aggregators;
  for (const DataField& field : schema.fields()) {
    std::string function;
    if (Contains(options.sequence_field(), field.name)) {
      function = "last_value";
    } else if (Contains(schema.primary_keys(), field.name)) {
      function = "primary-key";
    } else if (std::optional<std::string> f = options.FieldAggregateFunction(field.name)) {
      function = *f;
    } else if (options.fields_default_aggregate_function()) {
      function = *options.fields_default_aggregate_function();
    } else {
      function = "last_non_null_value";
    }
    SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<FieldAggregator> agg,
                            CreateFieldAggregator(field.type, field.name, function, options));
    aggregators.push_back(std::move(agg));
  }
  return std::unique_ptr<AggregateMergeFunction>(new AggregateMergeFunction(
      schema.fields(), std::move(aggregators), options.aggregation_remove_record_on_delete()));
}

AggregateMergeFunction::AggregateMergeFunction(
    std::vector<DataField> fields, std::vector<std::unique_ptr<FieldAggregator>> aggregators,
    bool remove_record_on_delete)
    : fields_(std::move(fields)),
      aggregators_(std::move(aggregators)),
      remove_record_on_delete_(remove_record_on_delete) {
  Reset();
}

void AggregateMergeFunction::Reset() {
  latest_.reset();
  row_.assign(fields_.size(), Value::Null());
  for (auto& agg : aggregators_) agg->Reset();
  current_delete_row_ = false;
}

Status AggregateMergeFunction::InitRow(const ValueList& value) {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (value[i].is_null() && !fields_[i].type->nullable()) {
      return Status::InvalidArgument("Field " + fields_[i].name + " can not be null");
    }
    row_[i] = value[i];
  }
  return Status::OK();
}

Status AggregateMergeFunction::Add(const KeyValue& kv) {
  if (kv.value.size() != fields_.size()) {
    return Status::InvalidArgument("aggregation: a value row has " +
                                   std::to_string(kv.value.size()) + " fields, the table " +
                                   std::to_string(fields_.size()));
  }
  if (!latest_) latest_.emplace();
  latest_->key = kv.key;
  latest_->sequence_number = kv.sequence_number;
  current_delete_row_ = remove_record_on_delete_ && kv.kind == RowKind::kDelete;
  if (current_delete_row_) return InitRow(kv.value);
  const bool retract = IsRetract(kv.kind);
  for (size_t i = 0; i < fields_.size(); ++i) {
    FieldAggregator& agg = *aggregators_[i];
    SLUICE_RETURN_NOT_OK_CTX(agg.CheckInput(kv.value[i]),
                             "aggregation of field '" + fields_[i].name + "'");
    Result<Value> merged =
        retract ? agg.Retract(row_[i], kv.value[i]) : agg.Agg(row_[i], kv.value[i]);
    SLUICE_RETURN_NOT_OK_CTX(merged.status(), "aggregation of field '" + fields_[i].name + "'");
    row_[i] = std::move(merged).value();
  }
  return Status::OK();
}

std::optional<KeyValue> AggregateMergeFunction::GetResultKeepingDeletes() {
  if (!latest_) return std::nullopt;
  KeyValue result;
  result.key = latest_->key;
  result.sequence_number = latest_->sequence_number;
  result.kind = current_delete_row_ ? RowKind::kDelete : RowKind::kInsert;
  result.value = row_;
  return result;
}

}  // namespace sluice
