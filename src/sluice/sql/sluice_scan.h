// The `sluice_scan` table function: a Sluice table (or system table) as a DuckDB relation.
//
//   sluice_scan('db.t' [, snapshot => 3 | tag => 'v1' | as_of => '2025-01-01 00:00:00']
//               [, branch => 'b'])
//   sluice_scan('db.t$snapshots')                   -- system_tables.h's tables
//
// The bind plans the splits (time travel, and the filter the session pushes down for the
// statement, see ScanContext::filters); DuckDB pushes the projection down; the splits are read
// in parallel, one reader per DuckDB thread. Flat columns are written straight into DuckDB's
// vectors (vector_filler.h); a read with a nested column hands each batch over through Arrow
// (arrow_chunk_converter.h), cut into vectors of DuckDB's size without copying.
//
// Thread safety: DuckDB calls the function from its worker threads; ScanContext's mutex guards
// what they share.
#pragma once

#include <duckdb.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "sluice/catalog.h"
#include "sluice/sql/scan_report.h"

namespace sluice::sql {

// What the sluice_scan function of one session shares with the session.
struct ScanContext {
  explicit ScanContext(Catalog c) : catalog(std::move(c)) {}

  Catalog catalog;
  // The connection whose settings Arrow conversions use (not the one running the statement).
  duckdb_connection conversions = nullptr;
  // Plan a filtered scan again without the filter to count the files it pruned.
  bool report_pruning = false;

  std::mutex mu;
  // Lower-case `db.t` -> where-expression to plan the statement's scan of the table with (set
  // by the session around one statement; see filter_pushdown.h for why it is safe).
  std::map<std::string, std::string> filters;
  // Binds name columns and types only, planning nothing (while views are defined).
  bool types_only = false;
  std::vector<ScanReport> reports;
};

// Registers `sluice_scan` on `connection`'s database; `context` must outlive the database.
Status RegisterSluiceScan(duckdb_connection connection, ScanContext* context);

}  // namespace sluice::sql
