// The `_ROW_KIND` column: row kinds as text where rows travel as columns. It is the first column
// of a read in delta mode (read_builder.h), and an optional column of rows brought in
// (json_lines_reader.h, `sluice write`), holding each row's kind as its short string.
//
// Thread safety: constants and pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sluice/result.h"
#include "sluice/row_kind.h"

namespace sluice {

inline constexpr std::string_view kRowKindColumn = "_ROW_KIND";

// "+I" / "-U" / "+U" / "-D" -> RowKind; InvalidArgument quoting anything else.
inline Result<RowKind> ParseRowKind(std::string_view text) {
  std::optional<RowKind> kind = RowKindFromShortString(text);
  if (!kind) {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not a row kind (+I, -U, +U, -D)");
  }
  return *kind;
}

}  // namespace sluice
