// JSON lines input of `sluice write` (see input_reader.h): the public JsonLinesReader.
#include <iostream>

#include "sluice/cli/input_reader.h"
#include "sluice/json_lines_reader.h"

namespace sluice::cli {

namespace {

class JsonlInputReader : public InputReader {
 public:
  explicit JsonlInputReader(std::unique_ptr<JsonLinesReader> reader) : reader_(std::move(reader)) {}

  Result<bool> Next(ColumnBatch* batch, std::vector<RowKind>* kinds) override {
    SLUICE_ASSIGN_OR_RETURN(bool more, reader_->Next(batch));
    *kinds = reader_->row_kinds();
    return more;
  }

  int64_t bytes_read() const override { return reader_->bytes_read(); }

 private:
  std::unique_ptr<JsonLinesReader> reader_;
};

}  // namespace

Result<std::unique_ptr<InputReader>> OpenJsonlInput(std::string path, DataTypePtr row_type,
                                                    int64_t batch_rows) {
  Result<std::unique_ptr<JsonLinesReader>> reader =
      path == "-" ? JsonLinesReader::Open(&std::cin, path, std::move(row_type), batch_rows)
                  : JsonLinesReader::Open(path, std::move(row_type), batch_rows);
  SLUICE_RETURN_NOT_OK(reader.status());
  return std::unique_ptr<InputReader>(new JsonlInputReader(std::move(*reader)));
}

}  // namespace sluice::cli
