#include "sluice/table/source/read_columns.h"

#include <vector>

#include "sluice/batch/column_take.h"
#include "sluice/row_kind.h"
#include "sluice/table/source/split_read_util.h"

namespace sluice {

Result<ReadColumns> ReadColumns::Make(const TableSchema& read_schema,
                                      const SplitReadOptions& options, bool all_fields,
                                      const std::vector<std::string>& extra_fields) {
  const DataTypePtr row_type = read_schema.LogicalRowType();
  const int num_fields = row_type->num_fields();
  std::vector<int> projected;
  if (options.projection.empty()) {
    for (int i = 0; i < num_fields; ++i) projected.push_back(i);
  } else {
    for (const std::string& name : options.projection) {
      const int index = row_type->FieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument("projected column '" + name + "' is not in schema " +
                                       std::to_string(read_schema.id()));
      }
      projected.push_back(index);
    }
  }
  std::vector<bool> needed(static_cast<size_t>(num_fields), all_fields);
  for (int index : projected) needed[static_cast<size_t>(index)] = true;
  SLUICE_RETURN_NOT_OK(MarkFilterFields(options.filter, &needed));
  for (const std::string& name : extra_fields) {
    const int index = row_type->FieldIndex(name);
    if (index < 0) {
      return Status::InvalidArgument("column '" + name + "' is not in schema " +
                                     std::to_string(read_schema.id()));
    }
    needed[static_cast<size_t>(index)] = true;
  }
  std::vector<int> key_fields;
  for (const std::string& name : read_schema.trimmed_primary_keys()) {
    const int index = row_type->FieldIndex(name);
    if (index < 0) {
      return Status::InvalidArgument("primary key '" + name + "' is not in schema " +
                                     std::to_string(read_schema.id()));
    }
    needed[static_cast<size_t>(index)] = true;
    key_fields.push_back(index);
  }

  ReadColumns columns;
  columns.with_row_kind = options.with_row_kind;
  columns.schema_to_value.assign(static_cast<size_t>(num_fields), -1);
  std::vector<DataField> value_fields;
  for (int i = 0; i < num_fields; ++i) {
    if (!needed[static_cast<size_t>(i)]) continue;
    columns.schema_to_value[static_cast<size_t>(i)] = static_cast<int>(value_fields.size());
    value_fields.push_back(row_type->fields()[static_cast<size_t>(i)]);
  }
  columns.value_type = DataType::Row(std::move(value_fields));
  std::vector<DataField> output_fields;
  if (options.with_row_kind) {
    output_fields.push_back(DataField{kRowKindFieldId, kRowKindFieldName, DataType::String(false),
                                      std::nullopt, std::nullopt});
  }
  for (int index : projected) {
    output_fields.push_back(row_type->fields()[static_cast<size_t>(index)]);
    columns.projection.push_back(columns.schema_to_value[static_cast<size_t>(index)]);
  }
  columns.output_type = DataType::Row(std::move(output_fields));
  for (int index : key_fields) {
    columns.key_columns.push_back(columns.schema_to_value[static_cast<size_t>(index)]);
  }
  if (options.filter != nullptr) {
    columns.filter = options.filter->Remap(columns.schema_to_value);
    std::vector<int> keys_only(static_cast<size_t>(columns.value_type->num_fields()), -1);
    for (int column : columns.key_columns) keys_only[static_cast<size_t>(column)] = column;
    if (columns.filter != nullptr) columns.key_filter = columns.filter->RemapForPruning(keys_only);
  }
  return columns;
}

void ReadColumns::AppendOutput(const ColumnBatch& source, const int64_t* rows, int64_t n,
                               const int8_t* kinds, ColumnBatch* out) const {
  if (n == 0) return;
  int column = 0;
  if (with_row_kind) {
    ColumnVector* kind_column = out->column(column++);
    for (int64_t i = 0; i < n; ++i) {
      kind_column->AppendBytes(RowKindShortString(static_cast<RowKind>(kinds[rows[i]])));
    }
  }
  for (int index : projection) {
    TakeRows(*source.column(index), rows, n, out->column(column++));
  }
  out->set_num_rows(out->num_rows() + n);
}

void ReadColumns::AppendOutputFrom(const ColumnBatch* const* sources, size_t num_sources,
                                   const uint32_t* indexes, const int64_t* rows, int64_t n,
                                   int kind_column, ColumnBatch* out) const {
  if (n == 0) return;
  int column = 0;
  if (with_row_kind) {
    ColumnVector* kind_out = out->column(column++);
    for (int64_t i = 0; i < n; ++i) {
      const int8_t kind = sources[indexes[i]]->column(kind_column)->data<int8_t>()[rows[i]];
      kind_out->AppendBytes(RowKindShortString(static_cast<RowKind>(kind)));
    }
  }
  std::vector<const ColumnVector*> ins(num_sources);
  for (int index : projection) {
    for (size_t s = 0; s < num_sources; ++s) {
      ins[s] = sources[s] != nullptr ? sources[s]->column(index) : nullptr;
    }
    TakeRowsFrom(ins.data(), indexes, rows, n, out->column(column++));
  }
  out->set_num_rows(out->num_rows() + n);
}

}  // namespace sluice
