// Test helpers for the Parquet reader: read a whole file, and render values in a canonical text
// that DuckDB can produce too (DuckDbCanonicalSql), so decoded values can be compared with the
// oracle's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sluice/data_type.h"
#include "sluice/format/file_format.h"
#include "sluice/result.h"
#include "sluice/value.h"

namespace sluice::test {

struct FileContent {
  DataTypePtr type;
  int64_t num_rows = 0;  // as the footer says
  std::vector<Value> rows;
};

// Reads every row of `path` with `read_type`, or with the file's own type when null.
Result<FileContent> ReadParquetFile(const std::string& path, DataTypePtr read_type = nullptr,
                                    const ReaderOptions& options = ReaderOptions());

// Canonical text of a value of `type` (ints and decimals as digits, floating point as %.17g,
// strings raw, binaries as upper-case hex, dates as YYYY-MM-DD, times as millis of day,
// timestamps as epoch micros, lists "[a, b]", rows "{a, b}", maps "{k=v, k=v}", null "NULL").
std::string CanonicalText(const Value& v, const DataType& type);

// A DuckDB SQL expression over `expr` (a column of `type` as DuckDB reads it) giving the same
// canonical text as CanonicalText.
std::string DuckDbCanonicalSql(const std::string& expr, const DataType& type, int depth = 0);

}  // namespace sluice::test
