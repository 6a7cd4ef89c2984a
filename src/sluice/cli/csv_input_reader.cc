// CSV input of `sluice write` (see input_reader.h).
#include <fstream>
#include <iostream>

#include "sluice/cli/input_reader.h"
#include "sluice/value_parser.h"

namespace sluice::cli {

namespace {

struct CsvField {
  std::string text;
  bool quoted = false;
};

// Splits an RFC 4180 stream into records, counting lines (a quoted field may span several).
class CsvRecordReader {
 public:
  explicit CsvRecordReader(std::istream& in) : in_(*in.rdbuf()) {}

  // The next record into `fields`; false at the end of the input. `*first_line` is the line the
  // record starts on (1-based).
  Result<bool> Next(std::vector<CsvField>* fields, int64_t* first_line) {
    size_t count = 0;
    auto field = [&]() -> CsvField& {
      if (count == fields->size()) fields->emplace_back();
      CsvField& f = (*fields)[count];
      return f;
    };
    int c = in_.sbumpc();
    if (c == EOF) return false;
    ++line_;
    *first_line = line_;
    field().text.clear();
    field().quoted = false;
    while (true) {
      ++bytes_;
      if (c == '"' && field().text.empty() && !field().quoted) {
        field().quoted = true;
        while (true) {
          c = in_.sbumpc();
          if (c == EOF) {
            return Status::InvalidArgument("line " + std::to_string(*first_line) +
                                           ": quoted field is not closed");
          }
          ++bytes_;
          if (c == '"') {
            if (in_.sgetc() != '"') break;
            in_.sbumpc();
            ++bytes_;
          } else if (c == '\n') {
            ++line_;
          }
          field().text.push_back(static_cast<char>(c));
        }
        c = in_.sbumpc();
        if (c != ',' && c != '\n' && c != '\r' && c != EOF) {
          return Status::InvalidArgument("line " + std::to_string(line_) +
                                         ": unexpected character after a closing quote");
        }
        continue;
      }
      if (c == ',') {
        ++count;
        field().text.clear();
        field().quoted = false;
      } else if (c == '\r' && in_.sgetc() == '\n') {
        // CRLF: the '\n' ends the record.
      } else if (c == '\n' || c == EOF) {
        break;
      } else {
        field().text.push_back(static_cast<char>(c));
      }
      c = in_.sbumpc();
    }
    fields->resize(count + 1);
    return true;
  }

  int64_t bytes() const { return bytes_; }

 private:
  std::streambuf& in_;
  int64_t line_ = 0;
  int64_t bytes_ = 0;
};

class CsvInputReader : public InputReader {
 public:
  CsvInputReader(std::string path, std::unique_ptr<std::ifstream> file, DataTypePtr row_type,
                 int64_t batch_rows)
      : path_(std::move(path)),
        file_(std::move(file)),
        records_(file_ ? *file_ : std::cin),
        row_type_(std::move(row_type)),
        batch_rows_(batch_rows) {}

  // Reads the header and maps its columns.
  Status Init() {
    int64_t line = 0;
    auto more = records_.Next(&fields_, &line);
    if (!more.ok()) return more.status().WithContext(path_);
    if (!*more) return Status::InvalidArgument(path_ + ": empty input, expected a header line");
    std::vector<bool> seen(static_cast<size_t>(row_type_->num_fields()));
    for (size_t i = 0; i < fields_.size(); ++i) {
      const std::string& name = fields_[i].text;
      if (name == kRowKindColumn) {
        column_of_field_.push_back(-1);
        continue;
      }
      const int index = row_type_->FieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument(path_ + " line 1: unknown column '" + name +
                                       "' (the table has " + ColumnNames(*row_type_) + ")");
      }
      if (seen[static_cast<size_t>(index)]) {
        return Status::InvalidArgument(path_ + " line 1: column '" + name + "' appears twice");
      }
      seen[static_cast<size_t>(index)] = true;
      column_of_field_.push_back(index);
    }
    for (size_t i = 0; i < seen.size(); ++i) {
      const DataField& field = row_type_->fields()[i];
      if (!seen[i] && !field.type->nullable()) {
        return Status::InvalidArgument(path_ + " line 1: column '" + field.name +
                                       "' is NOT NULL but the header lacks it");
      }
    }
    return Status::OK();
  }

  Result<bool> Next(ColumnBatch* batch, std::vector<RowKind>* kinds) override {
    batch->Clear();
    kinds->clear();
    const int num_columns = row_type_->num_fields();
    row_.assign(static_cast<size_t>(num_columns), Value::Null());
    int64_t rows = 0;
    while (rows < batch_rows_) {
      int64_t line = 0;
      auto more = records_.Next(&fields_, &line);
      if (!more.ok()) return more.status().WithContext(path_);
      if (!*more) break;
      if (fields_.size() == 1 && fields_[0].text.empty() && !fields_[0].quoted) continue;
      if (fields_.size() != column_of_field_.size()) {
        return Status::InvalidArgument(path_ + " line " + std::to_string(line) + ": " +
                                       std::to_string(fields_.size()) + " fields, the header has " +
                                       std::to_string(column_of_field_.size()));
      }
      Status st = ParseRecord(kinds);
      if (!st.ok()) return st.WithContext(path_ + " line " + std::to_string(line));
      for (int i = 0; i < num_columns; ++i) {
        SLUICE_RETURN_NOT_OK(batch->column(i)->AppendValue(row_[static_cast<size_t>(i)]));
      }
      ++rows;
    }
    if (file_ && file_->bad()) return Status::IOError("reading " + path_ + " failed");
    batch->set_num_rows(rows);
    return rows > 0;
  }

  int64_t bytes_read() const override { return records_.bytes(); }

 private:
  Status ParseRecord(std::vector<RowKind>* kinds) {
    for (size_t i = 0; i < fields_.size(); ++i) {
      const CsvField& f = fields_[i];
      const int index = column_of_field_[i];
      if (index < 0) {
        auto kind = ParseRowKind(f.text);
        if (!kind.ok()) return kind.status().WithContext("column '_ROW_KIND'");
        kinds->push_back(*kind);
        continue;
      }
      const DataField& field = row_type_->fields()[static_cast<size_t>(index)];
      Value& slot = row_[static_cast<size_t>(index)];
      if (f.text.empty() && (!f.quoted || !field.type->IsString())) {
        if (!field.type->nullable()) {
          return Status::InvalidArgument("column '" + field.name + "' is NOT NULL, got null");
        }
        slot = Value::Null();
        continue;
      }
      auto value = ParseValueText(f.text, *field.type);
      if (!value.ok()) return value.status().WithContext("column '" + field.name + "'");
      slot = std::move(*value);
    }
    return Status::OK();
  }

  std::string path_;
  std::unique_ptr<std::ifstream> file_;
  CsvRecordReader records_;
  DataTypePtr row_type_;
  int64_t batch_rows_;
  // Per input field: the table column, or -1 for `_ROW_KIND`.
  std::vector<int> column_of_field_;
  std::vector<CsvField> fields_;
  ValueList row_;
};

}  // namespace

Result<std::unique_ptr<InputReader>> OpenCsvInput(std::string path, DataTypePtr row_type,
                                                  int64_t batch_rows) {
  std::unique_ptr<std::ifstream> file;
  if (path != "-") {
    file = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*file) return Status::IOError("cannot open input file " + path);
  }
  auto reader = std::make_unique<CsvInputReader>(std::move(path), std::move(file),
                                                 std::move(row_type), batch_rows);
  SLUICE_RETURN_NOT_OK(reader->Init());
  return std::unique_ptr<InputReader>(std::move(reader));
}

}  // namespace sluice::cli
