// DuckDbSession: an in-memory DuckDB database on one thread (SET threads = 1), the baseline the
// Parquet and merge-on-read benchmarks compare against. A failing query ends the program (Die).
//
// Thread safety: not thread-safe; one session per thread.
#pragma once

#include <duckdb.h>

#include <string>
#include <vector>

#include "bench_common.h"

namespace sluice::bench {

class DuckDbSession {
 public:
  DuckDbSession() {
    if (duckdb_open(nullptr, &db_) != DuckDBSuccess) Die("cannot open DuckDB");
    if (duckdb_connect(db_, &con_) != DuckDBSuccess) Die("cannot connect to DuckDB");
    Run("SET threads = 1");
  }
  ~DuckDbSession() {
    duckdb_disconnect(&con_);
    duckdb_close(&db_);
  }
  DuckDbSession(const DuckDbSession&) = delete;
  DuckDbSession& operator=(const DuckDbSession&) = delete;

  // Runs `sql`; returns the cells of its first row as text ("NULL" for a null cell; no cells
  // when there is no row).
  std::vector<std::string> Run(const std::string& sql) {
    duckdb_result res;
    if (duckdb_query(con_, sql.c_str(), &res) != DuckDBSuccess) {
      std::string err = duckdb_result_error(&res);
      duckdb_destroy_result(&res);
      Die("DuckDB: " + err + " in: " + sql);
    }
    std::vector<std::string> out;
    if (duckdb_row_count(&res) > 0) {
      for (idx_t c = 0; c < duckdb_column_count(&res); ++c) {
        char* v = duckdb_value_varchar(&res, c, 0);
        out.push_back(v != nullptr ? v : "NULL");
        if (v != nullptr) duckdb_free(v);
      }
    }
    duckdb_destroy_result(&res);
    return out;
  }

  // Runs `sql`; returns the first cell of the result as text ("" when there is none).
  std::string RunScalar(const std::string& sql) {
    std::vector<std::string> row = Run(sql);
    return row.empty() ? std::string() : row[0];
  }

 private:
  duckdb_database db_ = nullptr;
  duckdb_connection con_ = nullptr;
};

}  // namespace sluice::bench
