// Filter pushdown from the text of a query: DuckDB's C API passes no filters to a table
// function, so the session reads the conjuncts of each WHERE clause from DuckDB's parse tree
// (json_serialize_sql) and hands the ones it can say in Sluice's where-language (read_builder.h)
// to the scan of their table, whose planning prunes files (and rows) by them.
//
// Correctness never rests on the pushed filter: DuckDB still evaluates the whole WHERE above the
// scan, so a pushed conjunct may only drop rows that WHERE drops anyway. Hence:
//   - only top-level AND conjuncts of a SELECT's WHERE over that SELECT's own FROM, each one
//     column against constants: = <> < <= > >=, IN, BETWEEN, IS [NOT] NULL;
//   - only constants whose meaning is the same on both sides: integers against integer and
//     decimal columns, decimals of no larger scale against decimal columns, strings against
//     VARCHAR/STRING columns, DATE 'yyyy-mm-dd' (or a string of that form) against DATE ones,
//     TRUE / FALSE against BOOLEAN ones;
//   - under a join only null-rejecting conjuncts (no IS NULL: an outer join's missing rows
//     would turn into matches);
//   - a table read twice in a statement (a self join, a subquery), or a statement reading a
//     relation that may hide another read (a view, a table that is not Sluice's), gets nothing,
//     because the filter is handed over per table, not per read.
//
// Thread safety: a function.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "sluice/data_type.h"

namespace sluice::sql {

// `tables`: lower-case `db.t` -> its ROW type, for every Sluice table; `database`: the
// database of unqualified table names (`USE db`), or "". Returns lower-case `db.t` ->
// where-expression, for the tables a filter is pushed into. `ast_json` is the output of
// json_serialize_sql; anything it does not hold (an error, another statement) gives nothing.
std::map<std::string, std::string> PushdownFilters(std::string_view ast_json,
                                                   const std::map<std::string, DataTypePtr>& tables,
                                                   std::string_view database = "");

}  // namespace sluice::sql
