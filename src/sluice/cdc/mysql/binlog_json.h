// MySQL 5.7+'s binary JSON (sql-common/json_binary.h), the form of JSON column values in the
// binlog, as JSON text in MySQL's own print style (`{"a": [1, 2.5], "b": null}`, keys in
// stored order), so that the text equals what SELECT returns. MariaDB stores JSON as LONGTEXT
// and never writes this form.
//
// Thread safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "sluice/result.h"

namespace sluice {

// Appends the JSON text of the binary document `value` to `out`. An empty value (MySQL's JSON
// null column default in a partial image) is the JSON null. Corruption for offsets or lengths
// past the value, unknown value types, and nesting deeper than MySQL allows (100).
Status AppendBinlogJson(std::string_view value, std::string* out);

}  // namespace sluice
