// Column specifications on the command line: `name TYPE [NOT NULL] [COMMENT 'text']`, where
// TYPE is Paimon's SQL type grammar including nested types:
//
//   id BIGINT NOT NULL
//   tags ARRAY<STRING>
//   attrs MAP<STRING, INT NOT NULL> NOT NULL
//   address ROW<street STRING, zip INT> COMMENT 'postal address'
//
// Atomic types go to the schema's type parser (data_type_json.h); names may be back-quoted.
//
// Thread safety: pure functions.
#pragma once

#include <string_view>

#include "sluice/data_type.h"
#include "sluice/result.h"

namespace sluice::cli {

// A type string, nested or atomic. InvalidArgument naming the text.
Result<DataTypePtr> ParseTypeSpec(std::string_view text);

// A column: its name, type and optional COMMENT (field ids are left 0). InvalidArgument naming
// the text.
Result<DataField> ParseColumnSpec(std::string_view text);

}  // namespace sluice::cli
