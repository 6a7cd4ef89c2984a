// A test-only C ABI over libsluice.so's Arrow API (sluice/arrow.h), for a real Arrow consumer
// to load: tests/interop_arrow/python/arrow_c_interface.py opens it with ctypes, imports the
// streams it exports with pyarrow and hands it pyarrow's streams to write. Each function
// returns 0, or -1 with the Status text in `error` (NUL-terminated, cut to error_size).
#include <cstdint>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sluice/arrow.h"
#include "sluice/read_builder.h"
#include "sluice/table.h"
#include "sluice/write_builder.h"

namespace {

int Fail(const sluice::Status& status, char* error, int error_size) {
  std::string text = status.ToString();
  if (error_size > 0) {
    size_t n = std::min(text.size(), static_cast<size_t>(error_size - 1));
    std::memcpy(error, text.data(), n);
    error[n] = '\0';
  }
  return -1;
}

std::vector<std::string> SplitCommas(const char* text) {
  std::vector<std::string> out;
  if (text == nullptr || *text == '\0') return out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) out.push_back(part);
  return out;
}

sluice::Status Write(const char* table_dir, ArrowArrayStream* stream) {
  SLUICE_ASSIGN_OR_RETURN(sluice::Table table, sluice::Table::Open(table_dir));
  sluice::WriteBuilder builder = table.NewWriteBuilder();
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<sluice::TableWrite> write, builder.NewWrite());
  SLUICE_RETURN_NOT_OK(write->Write(stream));
  SLUICE_ASSIGN_OR_RETURN(std::vector<sluice::CommitMessage> messages, write->PrepareCommit());
  SLUICE_ASSIGN_OR_RETURN(std::unique_ptr<sluice::TableCommit> commit, builder.NewCommit());
  SLUICE_RETURN_NOT_OK(commit->Commit(std::move(messages)).status());
  return write->Close();
}

}  // namespace

extern "C" {

// Reads the table in `table_dir` into `out`: `columns` comma-separated (empty: all), `where` a
// filter expression (empty: none), `snapshot` an id (0: the latest).
int sluice_shim_read(const char* table_dir, const char* columns, const char* where,
                     int64_t snapshot, ArrowArrayStream* out, char* error, int error_size) {
  sluice::Result<sluice::Table> table = sluice::Table::Open(table_dir);
  if (!table.ok()) return Fail(table.status(), error, error_size);
  sluice::ReadBuilder read = table->NewReadBuilder();
  std::vector<std::string> projection = SplitCommas(columns);
  if (!projection.empty()) read.WithProjection(std::move(projection));
  if (where != nullptr && *where != '\0') read.WithWhere(where);
  if (snapshot > 0) read.WithSnapshot(snapshot);
  sluice::Status st = sluice::ReadArrowStream(read, out);
  return st.ok() ? 0 : Fail(st, error, error_size);
}

// Writes every array of `stream` into the table in `table_dir` and commits them.
int sluice_shim_write(const char* table_dir, ArrowArrayStream* stream, char* error,
                      int error_size) {
  sluice::Status st = Write(table_dir, stream);
  return st.ok() ? 0 : Fail(st, error, error_size);
}
}
