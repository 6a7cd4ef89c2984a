#include "sluice/cli/row_printer.h"

#include <algorithm>

#include "sluice/value_json.h"

namespace sluice::cli {

namespace {

std::string JsonString(const std::string& text) {
  static const DataTypePtr kString = DataType::String();
  return ValueToJson(Value::String(text), *kString);
}

// The cell text of one value for csv and table: null as `null_text`, else AppendValueText's
// (strings bare, bytes as they are: a cell never fails to print).
std::string CellText(const ColumnVector& column, int64_t row, std::string_view null_text) {
  if (column.IsNull(row)) return std::string(null_text);
  std::string text;
  AppendValueText(column.GetValue(row), *column.type(), &text);
  return text;
}

class JsonLinesPrinter : public RowPrinter {
 public:
  JsonLinesPrinter(const DataType& row_type, std::FILE* out) : out_(out) {
    for (const DataField& field : row_type.fields()) keys_.push_back(JsonString(field.name) + ":");
  }

  void PrintFirst(const ColumnBatch& batch, int64_t rows) override {
    std::string line;
    for (int64_t row = 0; row < rows; ++row) {
      line.clear();
      line += '{';
      for (int col = 0; col < batch.num_columns(); ++col) {
        if (col > 0) line += ',';
        line += keys_[static_cast<size_t>(col)];
        AppendValueJson(batch.column(col)->GetValue(row), *batch.column(col)->type(), &line);
      }
      line += "}\n";
      std::fwrite(line.data(), 1, line.size(), out_);
    }
  }

  void Flush() override { std::fflush(out_); }
  void Finish() override { std::fflush(out_); }

 private:
  std::FILE* out_;
  std::vector<std::string> keys_;
};

class CsvPrinter : public RowPrinter {
 public:
  CsvPrinter(const DataType& row_type, std::FILE* out) : out_(out) {
    std::string line;
    for (int i = 0; i < row_type.num_fields(); ++i) {
      if (i > 0) line += ',';
      AppendField(row_type.fields()[static_cast<size_t>(i)].name, &line);
    }
    line += "\r\n";
    std::fwrite(line.data(), 1, line.size(), out_);
  }

  void PrintFirst(const ColumnBatch& batch, int64_t rows) override {
    std::string line;
    for (int64_t row = 0; row < rows; ++row) {
      line.clear();
      for (int col = 0; col < batch.num_columns(); ++col) {
        if (col > 0) line += ',';
        AppendField(CellText(*batch.column(col), row, ""), &line);
      }
      line += "\r\n";
      std::fwrite(line.data(), 1, line.size(), out_);
    }
  }

  void Flush() override { std::fflush(out_); }
  void Finish() override { std::fflush(out_); }

 private:
  // RFC 4180: a field holding a comma, quote or line break is quoted, quotes doubled.
  static void AppendField(std::string_view text, std::string* line) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
      line->append(text);
      return;
    }
    *line += '"';
    for (char c : text) {
      if (c == '"') *line += '"';
      *line += c;
    }
    *line += '"';
  }

  std::FILE* out_;
};

// Rows are printed in pages of kPageRows, each an aligned table with its own header, so memory
// stays bounded however many rows the read returns.
class TablePrinter : public RowPrinter {
 public:
  TablePrinter(const DataType& row_type, std::FILE* out) : out_(out) {
    for (const DataField& field : row_type.fields()) header_.push_back(field.name);
  }

  void PrintFirst(const ColumnBatch& batch, int64_t rows) override {
    for (int64_t row = 0; row < rows; ++row) {
      std::vector<std::string> cells;
      for (int col = 0; col < batch.num_columns(); ++col) {
        cells.push_back(CellText(*batch.column(col), row, "NULL"));
      }
      rows_.push_back(std::move(cells));
      if (rows_.size() >= kPageRows) PrintPage();
    }
  }

  void Flush() override {
    if (!rows_.empty()) PrintPage();
    std::fflush(out_);
  }

  void Finish() override {
    if (!rows_.empty() || total_rows_ == 0) PrintPage();
    const std::string count =
        std::to_string(total_rows_) + (total_rows_ == 1 ? " row\n" : " rows\n");
    std::fwrite(count.data(), 1, count.size(), out_);
    std::fflush(out_);
  }

 private:
  static constexpr size_t kPageRows = 1000;

  void PrintPage() {
    std::vector<size_t> widths;
    for (const std::string& name : header_) widths.push_back(name.size());
    for (const auto& cells : rows_) {
      for (size_t i = 0; i < cells.size() && i < widths.size(); ++i) {
        widths[i] = std::max(widths[i], cells[i].size());
      }
    }
    std::string separator = "+";
    for (size_t width : widths) separator += std::string(width + 2, '-') + "+";
    separator += "\n";
    std::string text = separator;
    AppendLine(header_, widths, &text);
    text += separator;
    for (const auto& cells : rows_) AppendLine(cells, widths, &text);
    text += separator;
    std::fwrite(text.data(), 1, text.size(), out_);
    total_rows_ += rows_.size();
    rows_.clear();
  }

  static void AppendLine(const std::vector<std::string>& cells, const std::vector<size_t>& widths,
                         std::string* text) {
    *text += "|";
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string& cell = i < cells.size() ? cells[i] : std::string();
      *text += " " + cell + std::string(widths[i] - cell.size(), ' ') + " |";
    }
    *text += "\n";
  }

  std::FILE* out_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  size_t total_rows_ = 0;
};

}  // namespace

Result<std::unique_ptr<RowPrinter>> RowPrinter::Make(std::string_view format,
                                                     const DataType& row_type, std::FILE* out) {
  if (format == "jsonl") return std::unique_ptr<RowPrinter>(new JsonLinesPrinter(row_type, out));
  if (format == "csv") return std::unique_ptr<RowPrinter>(new CsvPrinter(row_type, out));
  if (format == "table") return std::unique_ptr<RowPrinter>(new TablePrinter(row_type, out));
  return Status::InvalidArgument("unknown output format '" + std::string(format) +
                                 "' (expected table, jsonl or csv)");
}

}  // namespace sluice::cli
