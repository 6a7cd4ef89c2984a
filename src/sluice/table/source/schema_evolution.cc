#include "sluice/table/source/schema_evolution.h"

#include <algorithm>

#include "sluice/batch/column_take.h"
#include "sluice/table/source/column_cast.h"

namespace sluice {

Result<FileEvolution> FileEvolution::Make(const TableSchema& file_schema,
                                          const DataTypePtr& read_type,
                                          const std::vector<std::string>& partition_keys,
                                          const ValueList& partition_values,
                                          std::shared_ptr<const TimeZone> session_zone) {
  FileEvolution evolution;
  evolution.read_type_ = read_type;
  evolution.session_zone_ = std::move(session_zone);
  std::vector<DataField> file_fields;
  for (const DataField& field : read_type->fields()) {
    Source source;
    auto key = std::find(partition_keys.begin(), partition_keys.end(), field.name);
    const DataField* file_field = file_schema.FieldById(field.id);
    if (key != partition_keys.end() &&
        static_cast<size_t>(key - partition_keys.begin()) < partition_values.size()) {
      // Java takes partition columns from the manifest entry's partition, never the file.
      const Value& value = partition_values[static_cast<size_t>(key - partition_keys.begin())];
      source.kind = SourceKind::kConstant;
      source.constant = std::make_shared<ColumnVector>(field.type);
      if (value.is_null()) {
        source.constant->AppendNull();
      } else {
        SLUICE_RETURN_NOT_OK_CTX(source.constant->AppendValue(value),
                                 "partition column '" + field.name + "'");
      }
    } else if (file_field != nullptr) {
      SLUICE_RETURN_NOT_OK(CheckCastSupported(*file_field->type, *field.type, field.name));
      source.kind = SourceKind::kFile;
      source.file_index = static_cast<int>(file_fields.size());
      source.needs_cast = !file_field->type->EqualsIgnoreNullable(*field.type);
      file_fields.push_back(*file_field);
    }
    evolution.sources_.push_back(std::move(source));
  }
  evolution.file_read_type_ = DataType::Row(std::move(file_fields));
  return evolution;
}

Status FileEvolution::Apply(const ColumnBatch& file_batch, ColumnBatch* out) const {
  return Fill(file_batch, nullptr, out);
}

Status FileEvolution::Move(ColumnBatch* file_batch, ColumnBatch* out) const {
  return Fill(*file_batch, out->num_rows() == 0 ? file_batch : nullptr, out);
}

Status FileEvolution::Fill(const ColumnBatch& file_batch, ColumnBatch* movable,
                           ColumnBatch* out) const {
  const int64_t n = file_batch.num_rows();
  std::vector<int64_t> zeros;
  for (size_t i = 0; i < sources_.size(); ++i) {
    const Source& source = sources_[i];
    ColumnVector* column = out->column(static_cast<int>(i));
    switch (source.kind) {
      case SourceKind::kFile: {
        const ColumnVector& in = *file_batch.column(source.file_index);
        if (source.needs_cast) {
          SLUICE_RETURN_NOT_OK(
              CastColumn(in, read_type_->fields()[i].name, column, session_zone_.get()));
        } else if (movable != nullptr) {
          movable->column(source.file_index)->SwapRows(column);
        } else {
          AppendAll(in, column);
        }
        break;
      }
      case SourceKind::kConstant:
        zeros.assign(static_cast<size_t>(n), 0);
        TakeRows(*source.constant, zeros.data(), n, column);
        break;
      case SourceKind::kNull:
        AppendNulls(n, column);
        break;
    }
  }
  out->set_num_rows(out->num_rows() + n);
  return Status::OK();
}

}  // namespace sluice
