// SqlSession: SQL over the tables of a warehouse, on an embedded in-memory DuckDB, through the
// public API only (what `sluice sql` runs).
//
//   SLUICE_ASSIGN_OR_RETURN(auto session, SqlSession::Open(Catalog::Filesystem("/wh")));
//   SLUICE_ASSIGN_OR_RETURN(auto rows, session->Execute("SELECT * FROM db.t WHERE a > 3"));
//
// Every table is there by its name (`db.t`, a view over the sluice_scan table function,
// sluice_scan.h), its system tables too (`db.t$snapshots`, `db.t$branch_b$files`,
// `sys.all_table_options`); time travel through sluice_scan('db.t', snapshot => 3 | tag => 'x'
// | as_of => '...'). WHERE conjuncts on a table's columns are pushed into its scan planning
// (filter_pushdown.h), projections by DuckDB. DDL, INSERT and CALL of Sluice's tables are run
// by Sluice (statement_parser.h); everything else is DuckDB's SQL.
//
// Thread safety: not thread-safe; one statement at a time. A reader from Execute must be
// finished or dropped before the next Execute and before the session goes.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/batch_reader.h"
#include "sluice/catalog.h"
#include "sluice/result.h"
#include "sluice/sql/scan_report.h"

namespace sluice::sql {

struct SqlOptions {
  // DuckDB's worker threads; 0 for DuckDB's default (the cores).
  int threads = 0;
  // Plan every filtered scan again without its filter, to report the files it pruned.
  bool report_pruning = false;
};

class SqlSession {
 public:
  static Result<std::unique_ptr<SqlSession>> Open(Catalog catalog, SqlOptions options = {});
  ~SqlSession();
  SqlSession(const SqlSession&) = delete;
  SqlSession& operator=(const SqlSession&) = delete;

  // Runs one statement (SplitStatements cuts a script into them). Returns its rows, or nullptr
  // for a statement without any (DDL). INSERT returns the rows written (`rows`), CALL the
  // procedure's lines (`result`), EXPLAIN DuckDB's plan followed by a `sluice_scan` row per
  // scan (scan_report.h). Errors name the table or column: NotFound for an unknown table,
  // InvalidArgument for the rest.
  Result<std::unique_ptr<BatchReader>> Execute(std::string_view statement);

  // The scans the last Execute planned.
  std::vector<ScanReport> scan_reports() const;

 private:
  struct Rep;
  explicit SqlSession(std::unique_ptr<Rep> rep);

  std::unique_ptr<Rep> rep_;
};

}  // namespace sluice::sql
