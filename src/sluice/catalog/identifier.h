// Identifier: a table's name in a catalog, `db.table` or `db.table$branch_<name>` (Java
// Identifier), and the name rules every catalog shares (Java AbstractCatalog's checks): names are
// non-empty and hold no '/', the system database `sys` and names with '$' are not for DDL.
#pragma once

#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

inline constexpr std::string_view kSystemDatabase = "sys";

struct Identifier {
  std::string database;
  std::string table;
  // The branch, "main" for the table itself.
  std::string branch;

  // `db.table` (without the branch).
  std::string FullName() const { return database + "." + table; }

  // Parses `db.table` or `db.table$branch_<name>`. InvalidArgument naming the identifier when it
  // is not of that form or a part is empty.
  static Result<Identifier> Parse(std::string_view text);

  // Parses `db.table` of a regular table on the main branch, the only one DDL `operation`
  // (Java's name: "createTable", "dropTable", ...) takes (Java checkNotBranch /
  // checkNotSystemTable); InvalidArgument naming the identifier otherwise.
  static Result<Identifier> ParseDataTable(std::string_view text, std::string_view operation);
};

// InvalidArgument naming `what` ("database", "table") when `name` is empty or holds '/'.
Status CheckName(std::string_view name, std::string_view what);

// CheckName, and InvalidArgument for the system database or a name with '$' (Java
// checkNotSystemDatabase).
Status CheckNewDatabaseName(std::string_view database);

}  // namespace sluice
