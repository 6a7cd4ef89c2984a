#include "sluice/cdc/cdc_record_converter.h"

#include <algorithm>
#include <utility>

#include "sluice/cdc/cdc_value_cast.h"

namespace sluice {

CdcRecordConverter::CdcRecordConverter(DataTypePtr row_type, const TimeZone* local_zone)
    : row_type_(std::move(row_type)), local_zone_(local_zone) {
  const std::vector<DataField>& fields = row_type_->fields();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i].type->nullable()) not_null_columns_.push_back(static_cast<int>(i));
    const DataType& type = *fields[i].type;
    // CastFromCdcValueString keeps such text as it is.
    text_columns_.push_back(type.root() == TypeRoot::kVarChar &&
                            type.length() == DataType::kMaxLength);
    if (!text_columns_.back()) value_columns_.push_back(static_cast<int>(i));
  }
  row_.resize(fields.size());
  texts_.resize(fields.size());
}

const CdcRecordConverter::FieldLayout& CdcRecordConverter::LayoutOf(const CdcRecord& record) {
  const size_t n = record.fields.size();
  for (const FieldLayout& layout : layouts_) {
    if (layout.names.size() != n) continue;
    size_t i = 0;
    while (i < n && layout.names[i] == record.fields[i].first) ++i;
    if (i == n) return layout;
  }
  if (layouts_.size() == kMaxLayouts) layouts_.erase(layouts_.begin());
  FieldLayout& layout = layouts_.emplace_back();
  layout.names.reserve(n);
  layout.columns.reserve(n);
  for (const auto& [name, value] : record.fields) {
    layout.names.push_back(name);
    layout.columns.push_back(row_type_->FieldIndex(name));
  }
  return layout;
}

Status CdcRecordConverter::Append(const CdcRecord& record, ColumnBatch* batch,
                                  std::vector<RowKind>* kinds) {
  const FieldLayout& layout = LayoutOf(record);
  for (int column : value_columns_) row_[column] = Value();
  std::fill(texts_.begin(), texts_.end(), nullptr);
  for (size_t i = 0; i < record.fields.size(); ++i) {
    const int column = layout.columns[i];
    if (column < 0) {
      return Status::NotFound("field '" + record.fields[i].first +
                              "' is not a column of the table (waiting for a schema update)");
    }
    const std::optional<std::string>& text = record.fields[i].second;
    if (!text.has_value()) continue;
    if (text_columns_[column]) {
      texts_[column] = &*text;
      continue;
    }
    const DataField& field = row_type_->fields()[column];
    Result<Value> value = CastFromCdcValueString(*text, *field.type, local_zone_);
    if (!value.ok()) return value.status().WithContext("column '" + field.name + "'");
    row_[column] = std::move(value).value();
  }
  for (int column : not_null_columns_) {
    if (row_[column].is_null() && texts_[column] == nullptr) {
      return Status::InvalidArgument("Cannot write null to non-null column(" +
                                     row_type_->fields()[column].name + ")");
    }
  }
  for (size_t column = 0; column < row_.size(); ++column) {
    if (texts_[column] != nullptr) {
      batch->column(static_cast<int>(column))->AppendBytes(*texts_[column]);
      continue;
    }
    const Status st = batch->column(static_cast<int>(column))->AppendValue(row_[column]);
    if (!st.ok()) return st.WithContext("column '" + row_type_->fields()[column].name + "'");
  }
  batch->set_num_rows(batch->num_rows() + 1);
  kinds->push_back(record.kind);
  return Status::OK();
}

Result<CdcRecordConverter::Rows> CdcRecordConverter::Convert(
    const std::vector<CdcRecord>& records) {
  Rows rows{ColumnBatch(row_type_), {}};
  rows.kinds.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    SLUICE_RETURN_NOT_OK_CTX(Append(records[i], &rows.batch, &rows.kinds),
                             "record " + std::to_string(i));
  }
  return rows;
}

}  // namespace sluice
