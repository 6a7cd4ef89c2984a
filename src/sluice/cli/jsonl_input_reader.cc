// JSON lines input of `sluice write` (see input_reader.h).
#include <fstream>
#include <iostream>

#include "sluice/cli/input_reader.h"
#include "sluice/cli/json_input.h"
#include "sluice/cli/value_parser.h"

namespace sluice::cli {

namespace {

class JsonlInputReader : public InputReader {
 public:
  JsonlInputReader(std::string path, std::unique_ptr<std::ifstream> file, DataTypePtr row_type,
                   int64_t batch_rows)
      : path_(std::move(path)),
        file_(std::move(file)),
        in_(file_ ? *file_ : std::cin),
        row_type_(std::move(row_type)),
        batch_rows_(batch_rows),
        row_(static_cast<size_t>(row_type_->num_fields())),
        seen_(row_.size()) {}

  Result<bool> Next(ColumnBatch* batch, std::vector<RowKind>* kinds) override {
    batch->Clear();
    kinds->clear();
    bool any_kind = false;
    int64_t rows = 0;
    while (rows < batch_rows_ && std::getline(in_, line_)) {
      ++line_number_;
      bytes_read_ += static_cast<int64_t>(line_.size()) + 1;
      if (line_.find_first_not_of(" \t\r") == std::string::npos) continue;
      RowKind kind = RowKind::kInsert;
      bool has_kind = false;
      Status st = ParseLine(&kind, &has_kind);
      if (!st.ok()) return st.WithContext(path_ + " line " + std::to_string(line_number_));
      for (size_t i = 0; i < row_.size(); ++i) {
        SLUICE_RETURN_NOT_OK(batch->column(static_cast<int>(i))->AppendValue(row_[i]));
      }
      kinds->push_back(kind);
      any_kind = any_kind || has_kind;
      ++rows;
    }
    if (in_.bad()) return Status::IOError("reading " + path_ + " failed");
    batch->set_num_rows(rows);
    if (!any_kind) kinds->clear();
    return rows > 0;
  }

  int64_t bytes_read() const override { return bytes_read_; }

 private:
  // Parses line_ into row_ and the row kind.
  Status ParseLine(RowKind* kind, bool* has_kind) {
    auto json = ParseJson(line_);
    if (!json.ok()) return Status::InvalidArgument("not JSON: " + json.status().message());
    if (!json->is_object()) {
      return Status::InvalidArgument("expected a JSON object, got " +
                                     std::string(JsonTypeName(*json)));
    }
    std::fill(seen_.begin(), seen_.end(), false);
    for (const auto& [name, member] : json->items()) {
      if (name == kRowKindColumn) {
        if (!member.is_string()) {
          return Status::InvalidArgument("column '" + name + "': expected a string, got " +
                                         std::string(JsonTypeName(member)));
        }
        auto parsed = ParseRowKind(member.get<std::string>());
        if (!parsed.ok()) return parsed.status().WithContext("column '" + name + "'");
        *kind = *parsed;
        *has_kind = true;
        continue;
      }
      const int index = row_type_->FieldIndex(name);
      if (index < 0) {
        return Status::InvalidArgument("unknown column '" + name + "' (the table has " +
                                       ColumnNames(*row_type_) + ")");
      }
      const DataField& field = row_type_->fields()[static_cast<size_t>(index)];
      auto value = ParseJsonValue(member, *field.type);
      if (!value.ok()) return value.status().WithContext("column '" + name + "'");
      if (value->is_null() && !field.type->nullable()) {
        return Status::InvalidArgument("column '" + name + "' is NOT NULL, got null");
      }
      row_[static_cast<size_t>(index)] = std::move(*value);
      seen_[static_cast<size_t>(index)] = true;
    }
    for (size_t i = 0; i < row_.size(); ++i) {
      if (seen_[i]) continue;
      const DataField& field = row_type_->fields()[i];
      if (!field.type->nullable()) {
        return Status::InvalidArgument("column '" + field.name + "' is NOT NULL but missing");
      }
      row_[i] = Value::Null();
    }
    return Status::OK();
  }

  std::string path_;
  std::unique_ptr<std::ifstream> file_;
  std::istream& in_;
  DataTypePtr row_type_;
  int64_t batch_rows_;
  ValueList row_;
  std::vector<bool> seen_;
  std::string line_;
  int64_t line_number_ = 0;
  int64_t bytes_read_ = 0;
};

}  // namespace

Result<std::unique_ptr<InputReader>> OpenJsonlInput(std::string path, DataTypePtr row_type,
                                                    int64_t batch_rows) {
  std::unique_ptr<std::ifstream> file;
  if (path != "-") {
    file = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*file) return Status::IOError("cannot open input file " + path);
  }
  return std::unique_ptr<InputReader>(
      new JsonlInputReader(std::move(path), std::move(file), std::move(row_type), batch_rows));
}

}  // namespace sluice::cli
