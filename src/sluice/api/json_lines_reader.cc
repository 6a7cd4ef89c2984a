#include "sluice/json_lines_reader.h"

#include <algorithm>
#include <fstream>
#include <optional>

#include "sluice/api/json_value_parser.h"
#include "sluice/base/json_reader.h"
#include "sluice/base/utf8.h"

namespace sluice {

namespace {

// Follows which top-level member a SAX parse is in, so that a line nlohmann-json refuses for
// ill-formed UTF-8 (it says only "ill-formed UTF-8 byte") can be blamed on its column.
class MemberTracker : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return EndValue(); }
  bool boolean(bool) override { return EndValue(); }
  bool number_integer(number_integer_t) override { return EndValue(); }
  bool number_unsigned(number_unsigned_t) override { return EndValue(); }
  bool number_float(number_float_t, const string_t&) override { return EndValue(); }
  bool string(string_t&) override { return EndValue(); }
  bool binary(binary_t&) override { return EndValue(); }
  bool start_object(std::size_t) override { return Begin(); }
  bool end_object() override { return End(); }
  bool start_array(std::size_t) override { return Begin(); }
  bool end_array() override { return End(); }
  bool key(string_t& name) override {
    if (depth_ == 1) member_ = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

  // The top-level member whose value the parse was in when it stopped, if any.
  const std::optional<std::string>& member() const { return member_; }

 private:
  bool Begin() {
    ++depth_;
    return true;
  }
  bool End() {
    --depth_;
    return EndValue();
  }
  bool EndValue() {
    if (depth_ == 1) member_.reset();
    return true;
  }

  int depth_ = 0;
  std::optional<std::string> member_;
};

class JsonLinesReaderImpl : public JsonLinesReader {
 public:
  JsonLinesReaderImpl(std::string name, std::unique_ptr<std::ifstream> file, std::istream* in,
                      DataTypePtr row_type, int64_t batch_rows)
      : name_(std::move(name)),
        file_(std::move(file)),
        in_(file_ ? *file_ : *in),
        row_type_(std::move(row_type)),
        batch_rows_(batch_rows),
        row_(static_cast<size_t>(row_type_->num_fields())),
        seen_(row_.size()) {}

  const DataTypePtr& output_type() const override { return row_type_; }

  Result<bool> Next(ColumnBatch* batch) override {
    if (failed_) return false;
    Result<bool> more = ReadBatch(batch);
    if (!more.ok()) failed_ = true;
    return more;
  }

  const std::vector<RowKind>& row_kinds() const override { return kinds_; }
  int64_t bytes_read() const override { return bytes_read_; }

 private:
  Result<bool> ReadBatch(ColumnBatch* batch) {
    batch->Clear();
    kinds_.clear();
    bool any_kind = false;
    int64_t rows = 0;
    while (rows < batch_rows_ && std::getline(in_, line_)) {
      ++line_number_;
      bytes_read_ += static_cast<int64_t>(line_.size()) + 1;
      if (line_.find_first_not_of(" \t\r") == std::string::npos) continue;
      RowKind kind = RowKind::kInsert;
      bool has_kind = false;
      Status st = ParseLine(&kind, &has_kind);
      if (!st.ok()) return st.WithContext(name_ + " line " + std::to_string(line_number_));
      for (size_t i = 0; i < row_.size(); ++i) {
        SLUICE_RETURN_NOT_OK(batch->column(static_cast<int>(i))->AppendValue(row_[i]));
      }
      kinds_.push_back(kind);
      any_kind = any_kind || has_kind;
      ++rows;
    }
    if (in_.bad()) return Status::IOError("reading " + name_ + " failed");
    batch->set_num_rows(rows);
    if (!any_kind) kinds_.clear();
    return rows > 0;
  }

  // Parses line_ into row_ and the row kind.
  Status ParseLine(RowKind* kind, bool* has_kind) {
    auto json = ParseJson(line_);
    if (!json.ok()) {
      if (!IsValidUtf8(line_)) return NotUtf8();
      return Status::InvalidArgument("not JSON: " + json.status().message());
    }
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
      if (index < 0) return UnknownColumn(name);
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

  // Paimon strings are UTF-8, and so is JSON text; the error names the column when the
  // ill-formed bytes are in a member's value.
  Status NotUtf8() const {
    MemberTracker tracker;
    static_cast<void>(Json::sax_parse(line_.begin(), line_.end(), &tracker));
    const std::string what =
        "not valid UTF-8 (byte " + std::to_string(FindInvalidUtf8(line_) + 1) + " of the line)";
    if (!tracker.member()) return Status::InvalidArgument(what);
    return Status::InvalidArgument("column '" + *tracker.member() + "': " + what);
  }

  Status UnknownColumn(const std::string& name) const {
    std::string known;
    for (const DataField& field : row_type_->fields()) {
      known += (known.empty() ? "'" : ", '") + field.name + "'";
    }
    return Status::InvalidArgument("unknown column '" + name + "' (the table has " + known + ")");
  }

  std::string name_;
  std::unique_ptr<std::ifstream> file_;
  std::istream& in_;
  DataTypePtr row_type_;
  int64_t batch_rows_;
  ValueList row_;
  std::vector<bool> seen_;
  std::vector<RowKind> kinds_;
  std::string line_;
  int64_t line_number_ = 0;
  int64_t bytes_read_ = 0;
  bool failed_ = false;
};

Status CheckArguments(const DataTypePtr& row_type, int64_t batch_rows) {
  if (row_type == nullptr || row_type->root() != TypeRoot::kRow) {
    return Status::InvalidArgument("JSON lines are read into a ROW type, got " +
                                   (row_type ? row_type->ToString() : std::string("none")));
  }
  if (batch_rows <= 0) {
    return Status::InvalidArgument("batch size must be positive, got " +
                                   std::to_string(batch_rows));
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<JsonLinesReader>> JsonLinesReader::Open(const std::string& path,
                                                               DataTypePtr row_type,
                                                               int64_t batch_rows) {
  SLUICE_RETURN_NOT_OK(CheckArguments(row_type, batch_rows));
  auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*file) return Status::IOError("cannot open input file " + path);
  return std::unique_ptr<JsonLinesReader>(
      new JsonLinesReaderImpl(path, std::move(file), nullptr, std::move(row_type), batch_rows));
}

Result<std::unique_ptr<JsonLinesReader>> JsonLinesReader::Open(std::istream* in, std::string name,
                                                               DataTypePtr row_type,
                                                               int64_t batch_rows) {
  SLUICE_RETURN_NOT_OK(CheckArguments(row_type, batch_rows));
  return std::unique_ptr<JsonLinesReader>(
      new JsonLinesReaderImpl(std::move(name), nullptr, in, std::move(row_type), batch_rows));
}

}  // namespace sluice
