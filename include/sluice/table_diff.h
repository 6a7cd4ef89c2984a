// TableDiff: what changed between two versions of a table (no Paimon has this): the data files
// added and removed, and the rows added, removed and changed. `sluice diff` prints it.
//
// A version is a snapshot id ("5"), a tag ("tag:nightly", or a bare name that is a tag), or the
// latest snapshot of a branch ("branch:dev", or a bare name that is a branch; "main" too).
// Rows are compared whole: a primary-key table's rows by key (a key in both versions with other
// values is changed), an append table's rows as a multiset (changed is then always empty).
// Both versions are read whole, so a diff costs two full reads.
//
// Thread safety: a function; the table is only read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sluice/result.h"
#include "sluice/table.h"
#include "sluice/value.h"

namespace sluice {

struct TableDiff {
  // What the two versions resolved to ("snapshot 5 (tag nightly)").
  std::string from;
  std::string to;
  // Data file paths relative to the table folder, sorted.
  std::vector<std::string> files_added;
  std::vector<std::string> files_removed;
  // Rows as ROW values of the version they are in (`to` for added, `from` for removed);
  // changed rows as (from, to).
  std::vector<Value> rows_added;
  std::vector<Value> rows_removed;
  std::vector<std::pair<Value, Value>> rows_changed;
};

// NotFound naming a version that is no snapshot, tag or branch.
Result<TableDiff> DiffTable(const Table& table, std::string_view from, std::string_view to);

}  // namespace sluice
