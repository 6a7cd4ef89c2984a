// DuckDbOracle: an in-memory DuckDB (the libduckdb of tests/oracle/node_modules) that the Parquet
// tests use as an independent reader and writer of Parquet files.
//
// Thread safety: one oracle per thread.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sluice/result.h"

namespace sluice::test {

class DuckDbOracle {
 public:
  // A result cell rendered as DuckDB's VARCHAR cast renders it; nullopt for SQL NULL.
  using Cell = std::optional<std::string>;
  using Rows = std::vector<std::vector<Cell>>;

  DuckDbOracle();
  ~DuckDbOracle();
  DuckDbOracle(const DuckDbOracle&) = delete;
  DuckDbOracle& operator=(const DuckDbOracle&) = delete;

  // Runs one statement; an error carries DuckDB's message.
  Result<Rows> Query(const std::string& sql);

  // "'path'" with quotes doubled, for splicing a file name into SQL.
  static std::string Quote(const std::string& s);

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace sluice::test
