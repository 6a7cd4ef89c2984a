#include "duckdb_oracle.h"

#include <duckdb.h>

namespace sluice::test {

struct DuckDbOracle::Impl {
  duckdb_database db = nullptr;
  duckdb_connection con = nullptr;
};

DuckDbOracle::DuckDbOracle() : impl_(new Impl) {
  if (duckdb_open(nullptr, &impl_->db) == DuckDBSuccess) {
    if (duckdb_connect(impl_->db, &impl_->con) != DuckDBSuccess) impl_->con = nullptr;
  }
}

DuckDbOracle::~DuckDbOracle() {
  if (impl_->con != nullptr) duckdb_disconnect(&impl_->con);
  if (impl_->db != nullptr) duckdb_close(&impl_->db);
  delete impl_;
}

Result<DuckDbOracle::Rows> DuckDbOracle::Query(const std::string& sql) {
  if (impl_->con == nullptr) return Status::IOError("DuckDB oracle: could not open a database");
  duckdb_result res;
  if (duckdb_query(impl_->con, sql.c_str(), &res) != DuckDBSuccess) {
    std::string message = duckdb_result_error(&res) ? duckdb_result_error(&res) : "unknown";
    duckdb_destroy_result(&res);
    return Status::InvalidArgument("DuckDB: " + message + " in: " + sql);
  }
  Rows rows;
  idx_t columns = duckdb_column_count(&res);
  idx_t count = duckdb_row_count(&res);
  rows.reserve(count);
  for (idx_t r = 0; r < count; ++r) {
    std::vector<Cell> row;
    row.reserve(columns);
    for (idx_t c = 0; c < columns; ++c) {
      if (duckdb_value_is_null(&res, c, r)) {
        row.emplace_back(std::nullopt);
        continue;
      }
      char* v = duckdb_value_varchar(&res, c, r);
      row.emplace_back(v != nullptr ? std::string(v) : std::string());
      if (v != nullptr) duckdb_free(v);
    }
    rows.push_back(std::move(row));
  }
  duckdb_destroy_result(&res);
  return rows;
}

std::string DuckDbOracle::Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

}  // namespace sluice::test
