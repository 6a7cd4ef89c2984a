#include "sluice/column_batch.h"

namespace sluice {

ColumnBatch::ColumnBatch(DataTypePtr row_type) : schema_(std::move(row_type)) {
  for (const DataField& f : schema_->fields()) {
    columns_.push_back(std::make_unique<ColumnVector>(f.type));
  }
}

void ColumnBatch::Clear() {
  for (auto& c : columns_) c->Clear();
  num_rows_ = 0;
}

Value ColumnBatch::GetRow(int64_t i) const {
  ValueList fields;
  fields.reserve(columns_.size());
  for (const auto& c : columns_) fields.push_back(c->GetValue(i));
  return Value::Row(std::move(fields));
}

Status ColumnBatch::AppendRow(const ValueList& fields) {
  if (fields.size() != columns_.size()) {
    return Status::InvalidArgument("row has " + std::to_string(fields.size()) +
                                   " fields, batch has " + std::to_string(columns_.size()));
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    SLUICE_RETURN_NOT_OK_CTX(columns_[i]->AppendValue(fields[i]),
                             "column " + schema_->fields()[i].name);
  }
  ++num_rows_;
  return Status::OK();
}

}  // namespace sluice
