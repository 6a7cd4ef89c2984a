// SQL text without a parser: statements split at semicolons and cut into tokens, quoting rules
// as DuckDB's (and PostgreSQL's): 'string' ('' escapes a quote), "identifier" ("" escapes),
// `identifier` (Flink's and Spark's quoting, which Java Paimon's procedure calls use), -- and
// /* */ comments. Enough to recognise the statements Sluice runs itself (statement_parser.h);
// everything else goes to DuckDB as it was written.
//
// Thread safety: functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sluice/result.h"

namespace sluice::sql {

struct Token {
  enum class Kind { kWord, kQuoted, kString, kNumber, kSymbol };
  Kind kind = Kind::kWord;
  // Words and numbers as written, quoted identifiers and strings without their quotes.
  std::string text;
  // Where the token starts and ends in the statement.
  size_t begin = 0;
  size_t end = 0;

  // A word equal to `keyword` ignoring case, or a symbol equal to it.
  bool Is(std::string_view keyword) const;
  // A word or a quoted identifier.
  bool IsIdentifier() const { return kind == Kind::kWord || kind == Kind::kQuoted; }
};

// The statements of `sql` in order, trimmed, empty ones dropped.
std::vector<std::string> SplitStatements(std::string_view sql);

// The tokens of one statement. InvalidArgument naming the position of an unterminated string,
// identifier or comment.
Result<std::vector<Token>> Tokenize(std::string_view statement);

// `name` as a DuckDB identifier: in double quotes, inner quotes doubled.
std::string QuoteIdentifier(std::string_view name);
// `text` as a SQL string literal: in single quotes, inner quotes doubled.
std::string QuoteString(std::string_view text);
// `text` in lower case (ASCII): DuckDB's identifiers are case-insensitive.
std::string Lower(std::string_view text);

}  // namespace sluice::sql
