// Placeholders: the `?` placeholders of a JDBC statement, replaced by what a client library
// takes instead: PostgreSQL's numbered $1, $2, ...; MariaDB's quoted literals (bound on the
// client). A '?' inside a quoted literal or identifier ('...', "...", `...`) stays as it is.
//
// Thread safety: pure functions.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace sluice {

// `sql` with the i-th placeholder (from 0) replaced by `replacement(i)`; `*count` is the number
// of placeholders.
std::string ReplacePlaceholders(std::string_view sql,
                                const std::function<std::string(size_t index)>& replacement,
                                size_t* count);

// `sql` with $1, $2, ... for its placeholders.
std::string NumberPlaceholders(std::string_view sql);

}  // namespace sluice
