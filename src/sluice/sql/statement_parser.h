// The statements Sluice runs itself rather than DuckDB, recognised by their first words:
//
//   CREATE DATABASE | SCHEMA [IF NOT EXISTS] db
//   DROP DATABASE | SCHEMA [IF EXISTS] db [CASCADE]
//   CREATE TABLE [IF NOT EXISTS] db.t (columns and constraints as DuckDB takes them,
//       PRIMARY KEY (a, b) [NOT ENFORCED]) [PARTITIONED BY (p, ...)] [COMMENT 'text']
//       [WITH ('bucket' = '4', ...)]                     -- Paimon's option keys, as in Flink
//   CREATE TABLE [IF NOT EXISTS] db.t [PARTITIONED BY (p)] [COMMENT 'text'] [WITH (...)]
//       AS query                                         -- columns and rows from the query
//   DROP TABLE [IF EXISTS] db.t
//   INSERT INTO | OVERWRITE [TABLE] db.t [PARTITION (p = 'x', ...)] [(c1, c2, ...)] query
//   CALL sys.procedure(name => value, ...)               -- procedures.h's names and arguments
//
// A table name in two parts whose database is not DuckDB's own (`main`, `temp`) is a Sluice
// table; anything else (SELECT, EXPLAIN, DuckDB's own tables, PRAGMA, ...) is DuckDB's.
//
// Thread safety: functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "sluice/result.h"

namespace sluice::sql {

struct TableName {
  std::string database;
  std::string table;

  // `db.t`, as the catalog names it.
  std::string Identifier() const { return database + "." + table; }
};

struct CreateDatabaseStatement {
  std::string database;
  bool if_not_exists = false;
};

struct DropDatabaseStatement {
  std::string database;
  bool if_exists = false;
  bool cascade = false;
};

struct CreateTableStatement {
  TableName name;
  bool if_not_exists = false;
  // The text between the parentheses, `NOT ENFORCED` taken out: DuckDB's column definitions;
  // empty for CREATE TABLE ... AS.
  std::string columns_sql;
  // The query of CREATE TABLE ... AS (its columns, then its rows); empty otherwise.
  std::string query;
  std::vector<std::string> partition_keys;
  std::vector<std::pair<std::string, std::string>> options;
  std::optional<std::string> comment;
};

struct DropTableStatement {
  TableName name;
  bool if_exists = false;
};

struct InsertStatement {
  TableName name;
  bool overwrite = false;
  // PARTITION (p = 'x'): the static partition, whose values the query does not give.
  std::vector<std::pair<std::string, std::string>> partition;
  // The columns the query gives, in its order (empty: every column but the static partition's).
  std::vector<std::string> columns;
  // The SELECT / VALUES / WITH query, as written.
  std::string query;
};

struct CallStatement {
  std::string procedure;
  std::vector<std::pair<std::string, std::string>> args;
};

// std::monostate: a statement for DuckDB, to run as it is.
using SluiceStatement =
    std::variant<std::monostate, CreateDatabaseStatement, DropDatabaseStatement,
                 CreateTableStatement, DropTableStatement, InsertStatement, CallStatement>;

// InvalidArgument naming what is malformed (with its position) in a statement of Sluice's.
Result<SluiceStatement> ParseStatement(std::string_view statement);

}  // namespace sluice::sql
