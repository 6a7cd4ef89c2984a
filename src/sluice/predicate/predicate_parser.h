// ParsePredicate: the `--where` expression language, bound to a ROW type.
//
//   expr       := or
//   or         := and ( OR and )*
//   and        := not ( AND not )*              -- AND binds tighter than OR
//   not        := NOT not | primary
//   primary    := '(' expr ')'
//               | column compare literal | literal compare column
//               | column IS [NOT] NULL
//               | column [NOT] IN '(' literal ( ',' literal )* ')'
//               | column [NOT] BETWEEN literal AND literal
//               | column [NOT] LIKE 'pattern'  -- '%', '_', '\' escapes; 'abc%' is a prefix test
//               | column                       -- a BOOLEAN column: column = TRUE
//   compare    := '=' | '==' | '!=' | '<>' | '<' | '<=' | '>' | '>='
//   literal    := [+|-] number | 'string' ('' escapes a quote) | X'hex' | TRUE | FALSE | NULL
//               | DATE 'YYYY-MM-DD' | TIME 'HH:MM:SS[.fff]'
//               | TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.fffffffff][Z|+HH:MM]' (offset: LTZ only)
//   column     := name | `name` (`` escapes a backquote); case-sensitive as in the schema
//
// Keywords are case-insensitive. Literals are converted to the column's type (literal.h), so
// `3` against a BIGINT column is an int64 and `15.0` against DECIMAL(10, 2) is 15.00. Errors
// name what went wrong and where (1-based character position):
//   unknown column 'foo' at position 11 in: a > 1 AND foo = 2
//
// Thread safety: a stateless function.
#pragma once

#include <string_view>

#include "sluice/data_type.h"
#include "sluice/predicate/predicate.h"
#include "sluice/result.h"

namespace sluice {

// REQUIRES: row_type.root() == TypeRoot::kRow. Leaves refer to fields by their index in
// row_type.
Result<PredicatePtr> ParsePredicate(std::string_view text, const DataType& row_type);

}  // namespace sluice
