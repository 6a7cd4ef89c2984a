// Parquet input of `sluice write` (see input_reader.h): the file's columns, matched to the
// table's by name, are read with our Parquet reader and cast to the table's types.
#include "sluice/cast.h"
#include "sluice/cli/input_reader.h"
#include "sluice/parquet_file.h"
#include "sluice/value_parser.h"

namespace sluice::cli {

namespace {

class ParquetInputReader : public InputReader {
 public:
  ParquetInputReader(std::string path, std::unique_ptr<ParquetFileReader> reader,
                     DataTypePtr file_type, DataTypePtr row_type, std::vector<int> file_column_of,
                     int kind_column)
      : path_(std::move(path)),
        reader_(std::move(reader)),
        file_batch_(std::move(file_type)),
        row_type_(std::move(row_type)),
        file_column_of_(std::move(file_column_of)),
        kind_column_(kind_column),
        file_size_(reader_->file_size()) {}

  Result<bool> Next(ColumnBatch* batch, std::vector<RowKind>* kinds) override {
    batch->Clear();
    kinds->clear();
    SLUICE_ASSIGN_OR_RETURN(bool more, reader_->Next(&file_batch_));
    if (!more) {
      done_ = true;
      return false;
    }
    const int64_t n = file_batch_.num_rows();
    for (size_t i = 0; i < file_column_of_.size(); ++i) {
      const DataField& field = row_type_->fields()[i];
      ColumnVector* out = batch->column(static_cast<int>(i));
      const int source = file_column_of_[i];
      if (source < 0) {
        for (int64_t row = 0; row < n; ++row) out->AppendNull();
        continue;
      }
      const ColumnVector& in = *file_batch_.column(source);
      if (in.type()->IsNested()) {
        // Nested columns of the same shape: copied value by value.
        for (int64_t row = 0; row < n; ++row)
          SLUICE_RETURN_NOT_OK(out->AppendValue(in.GetValue(row)));
      } else {
        Status st = CastColumnValues(in, field.name, out);
        if (!st.ok()) return st.WithContext(path_);
      }
      if (const int64_t bad = FindInvalidUtf8Row(*out); bad >= 0) {
        return Status::InvalidArgument(path_ + " row " + std::to_string(rows_ + bad) +
                                       ": column '" + field.name + "': not valid UTF-8");
      }
      if (!field.type->nullable() && out->has_nulls()) {
        for (int64_t row = 0; row < n; ++row) {
          if (out->IsNull(row)) {
            return Status::InvalidArgument(path_ + " row " + std::to_string(rows_ + row) +
                                           ": column '" + field.name + "' is NOT NULL, got null");
          }
        }
      }
    }
    if (kind_column_ >= 0) {
      const ColumnVector& column = *file_batch_.column(kind_column_);
      for (int64_t row = 0; row < n; ++row) {
        auto kind = column.IsNull(row) ? ParseRowKind("null") : ParseRowKind(column.GetBytes(row));
        if (!kind.ok()) {
          return kind.status().WithContext(path_ + " row " + std::to_string(rows_ + row) +
                                           ", column '_ROW_KIND'");
        }
        kinds->push_back(*kind);
      }
    }
    batch->set_num_rows(n);
    rows_ += n;
    return true;
  }

  int64_t bytes_read() const override {
    if (done_) return file_size_;
    const int64_t total = reader_->num_rows();
    return total > 0 ? file_size_ * rows_ / total : 0;
  }

 private:
  std::string path_;
  std::unique_ptr<ParquetFileReader> reader_;
  ColumnBatch file_batch_;
  DataTypePtr row_type_;
  // Per table column: its column in file_batch_, or -1 when the file lacks it.
  std::vector<int> file_column_of_;
  int kind_column_;
  int64_t file_size_;
  int64_t rows_ = 0;
  bool done_ = false;
};

// Nested columns are copied value by value: they convert when their shapes agree (roots,
// precisions, field names), whatever the nullability and the field ids (a file written outside
// Paimon numbers nested fields its own way, or not at all).
bool SameNestedShape(const DataType& a, const DataType& b) {
  if (a.root() != b.root() || a.precision() != b.precision() || a.scale() != b.scale()) {
    return false;
  }
  switch (a.root()) {
    case TypeRoot::kArray:
    case TypeRoot::kMultiset:
    case TypeRoot::kVector:
      return SameNestedShape(*a.element(), *b.element());
    case TypeRoot::kMap:
      return SameNestedShape(*a.key(), *b.key()) && SameNestedShape(*a.value(), *b.value());
    case TypeRoot::kRow:
      if (a.num_fields() != b.num_fields()) return false;
      for (int i = 0; i < a.num_fields(); ++i) {
        if (a.fields()[i].name != b.fields()[i].name ||
            !SameNestedShape(*a.fields()[i].type, *b.fields()[i].type)) {
          return false;
        }
      }
      return true;
    default:
      return true;
  }
}

}  // namespace

Result<std::unique_ptr<InputReader>> OpenParquetInput(std::string path, DataTypePtr row_type,
                                                      int64_t batch_rows) {
  if (path == "-") return Status::InvalidArgument("parquet input must be a file, not stdin");
  SLUICE_ASSIGN_OR_RETURN(DataTypePtr file_type, ParquetFileReader::ReadType(path));

  std::vector<DataField> read_fields;
  std::vector<int> file_column_of(static_cast<size_t>(row_type->num_fields()), -1);
  int kind_column = -1;
  for (const DataField& field : file_type->fields()) {
    if (field.name == kRowKindColumn) {
      if (!field.type->IsString()) {
        return Status::InvalidArgument(path + ": column '_ROW_KIND' is " + field.type->ToString() +
                                       ", expected a string");
      }
      kind_column = static_cast<int>(read_fields.size());
      read_fields.push_back(field);
      continue;
    }
    const int index = row_type->FieldIndex(field.name);
    if (index < 0) {
      return Status::InvalidArgument(path + ": unknown column '" + field.name +
                                     "' (the table has " + ColumnNames(*row_type) + ")");
    }
    const DataField& target = row_type->fields()[static_cast<size_t>(index)];
    if (field.type->IsNested() ? !SameNestedShape(*field.type, *target.type)
                               : !CheckColumnCast(*field.type, *target.type, field.name).ok()) {
      return Status::InvalidArgument(path + ": column '" + field.name + "' is " +
                                     field.type->ToString() + ", which does not convert to " +
                                     target.type->ToString());
    }
    file_column_of[static_cast<size_t>(index)] = static_cast<int>(read_fields.size());
    read_fields.push_back(field);
  }
  for (size_t i = 0; i < file_column_of.size(); ++i) {
    const DataField& field = row_type->fields()[i];
    if (file_column_of[i] < 0 && !field.type->nullable()) {
      return Status::InvalidArgument(path + ": column '" + field.name +
                                     "' is NOT NULL but the file lacks it");
    }
  }
  DataTypePtr read_type = DataType::Row(std::move(read_fields));
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<ParquetFileReader> reader,
                          ParquetFileReader::Open(path, read_type, batch_rows));
  return std::unique_ptr<InputReader>(
      new ParquetInputReader(std::move(path), std::move(reader), std::move(read_type),
                             std::move(row_type), std::move(file_column_of), kind_column));
}

}  // namespace sluice::cli
